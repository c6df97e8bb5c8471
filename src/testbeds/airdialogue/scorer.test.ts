import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { airDir, skipUnless } from '../../../test/shared-data.js';
import type { Flight, KbLine } from '../../formats/airdialogue.js';
import { readAirDialogue } from '../../formats/airdialogue.js';
import { flightDistance, flightExact, nameExact, nameF1, normalizeAnswer, scaledFlightDistance, scoreAction, scoreHuman, scorePredictions } from './scorer.js';

const A: Flight = {
  airline: 'UA', class: 'economy', departure_airport: 'BOS', departure_day: '3', departure_month: 'May', departure_time_num: 9,
  flight_number: 1000, num_connections: 1, price: 200, return_airport: 'SFO', return_day: '5', return_month: 'May', return_time_num: 14,
};

test('name: character-level F1 after normalisation, exact = first/last name matches', () => {
  assert.equal(normalizeAnswer('  The  Anna-Smith, a '), 'annasmith');
  assert.equal(nameF1('Edward hall', 'Edward Hall'), 1);
  assert.ok(Math.abs(nameF1('Jessica Crown', 'Jessica Brown') - 12 / 13) < 1e-12);
  assert.equal(nameF1('', 'Ann Lee'), 0);
  assert.equal(nameF1('xyz', 'Ann Lee'), 0);
  assert.equal(nameExact('edward hall', 'Edward Hall'), 1);
  assert.equal(nameExact('Edward Hal', 'Edward Hall'), 0.5);
  assert.equal(nameExact('Edward', 'Edward Hall'), 0.5);
});

test('flight distance: per-feature deviations averaged over 12 features', () => {
  assert.equal(flightDistance(A, A), 0);
  // price 300 vs 200: |100|/200 = 0.5; connections 0 vs 1: 1/2; Delta vs UA: same cost type
  assert.ok(Math.abs(flightDistance({ ...A, price: 300, num_connections: 0, airline: 'Delta' }, A) - 1 / 12) < 1e-12);
  // airports 2, month Jan vs May 4/12, day 31 vs 3 -> 28/31, hour 9 vs 21 -> 0.5, class 1, low-cost 1
  const far: Flight = { ...A, departure_airport: 'X', return_airport: 'Y', departure_month: 'Jan', departure_day: '31', departure_time_num: 21, class: 'business', airline: 'Spirit' };
  assert.ok(Math.abs(flightDistance(far, A) - (2 + 4 / 12 + 28 / 31 + 0.5 + 1 + 1) / 12) < 1e-12);
  // price relative to the smaller price, capped at 1
  assert.ok(Math.abs(flightDistance({ ...A, price: 1000 }, A) - 1 / 12) < 1e-12);
});

test('scaled flight distance and exact flight match', () => {
  const kb: KbLine = { kb: [A, { ...A, flight_number: 1001, price: 300 }, { ...A, flight_number: 1002, class: 'business', price: 900 }, { ...A, flight_number: 1003 }], reservation: 0 };
  const d1 = flightDistance(kb.kb[1] as Flight, A);
  const dmax = flightDistance(kb.kb[2] as Flight, A);
  assert.ok(Math.abs(scaledFlightDistance([1001], [1000], kb) - d1 / dmax) < 1e-12);
  assert.equal(scaledFlightDistance([1002], [1000], kb), 1);
  assert.equal(scaledFlightDistance([1000], [1000], kb), 0);
  assert.equal(scaledFlightDistance([1003], [1000, 1003], kb), 0);
  assert.equal(scaledFlightDistance([], [1000], kb), 1);
  assert.equal(scaledFlightDistance([1000, 1001], [1000], kb), 1);
  assert.equal(scaledFlightDistance([4242], [1000], kb), 1);
  assert.equal(scaledFlightDistance([], [], kb), 0);
  assert.equal(scaledFlightDistance([1000], [], kb), 1);
  assert.equal(flightExact([1003], [1000, 1003]), 1);
  assert.equal(flightExact([1001], [1000]), 0);
  assert.equal(flightExact([], []), 1);
  const s = scoreAction({ status: 'book', name: 'ann lee', flight: [1001] }, { status: 'book', name: 'Ann Lee', flight: [1000] }, kb);
  assert.ok(Math.abs(s.total - (0.2 + 0.5 * (1 - d1 / dmax) + 0.3)) < 1e-12);
  assert.deepEqual(s.exact, { name: 1, flight: 0, action: 1, total: 0.5 });
});

test('human mode on the samples: the official scores 0.92885 (train) and 0.95925 (dev)', { skip: skipUnless(airDir) }, () => {
  const train = readAirDialogue(join(airDir, 'train_data.json'), join(airDir, 'train_kb.json'));
  const dev = readAirDialogue(join(airDir, 'dev_data.json'), join(airDir, 'dev_kb.json'));
  const t = scoreHuman(train);
  const d = scoreHuman(dev);
  assert.ok(Math.abs(t.total - 0.9288485729382336) < 1e-9, String(t.total));
  assert.ok(Math.abs(d.total - 0.9592456874669043) < 1e-9, String(d.total));
  assert.equal(t.dialogs, 802);
  assert.equal(t.exact.action, t.action);
  // expected actions scored against themselves are perfect; the humans' raw actions are not
  const self = scorePredictions(dev, dev.map((e) => e.data.expected_action));
  // expected actions may list several tied flights, but a prediction must be exactly one flight
  const single = dev.filter((e) => e.data.expected_action.flight.length <= 1).length;
  assert.equal(single, 80);
  assert.ok(Math.abs(self.flight - single / dev.length) < 1e-12);
  const one = scorePredictions(dev, dev.map((e) => ({ ...e.data.expected_action, flight: e.data.expected_action.flight.slice(0, 1) })));
  assert.equal(one.total, 1);
  assert.equal(one.exact.total, 1);
});
