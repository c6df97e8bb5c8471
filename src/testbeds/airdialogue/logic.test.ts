import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { airDir, skipUnless } from '../../../test/shared-data.js';
import type { Flight, Intent, KbLine } from '../../formats/airdialogue.js';
import { readAirDialogue } from '../../formats/airdialogue.js';
import { checkLogic, cheapestMatching, daySegment, expectedAction, standardizeName, violations } from './logic.js';

const BASE: Flight = {
  airline: 'UA', class: 'economy', departure_airport: 'BOS', departure_day: '3', departure_month: 'May', departure_time_num: 9,
  flight_number: 1000, num_connections: 1, price: 300, return_airport: 'SFO', return_day: '5', return_month: 'May', return_time_num: 14,
};
const INTENT: Intent = {
  departure_airport: 'BOS', return_airport: 'SFO', departure_month: 'May', departure_day: '3', return_month: 'May', return_day: '5',
  name: 'Ann Lee', goal: 'book', max_price: 500, max_connections: 1,
};
function kb(flights: Partial<Flight>[], reservation = 0): KbLine {
  return { kb: flights.map((f, i) => ({ ...BASE, flight_number: 1000 + i, ...f })), reservation };
}

test('day segments: morning 3-11, afternoon 12-19, evening 20-2', () => {
  const seg = Array.from({ length: 24 }, (_, h) => daySegment(h));
  assert.deepEqual([seg[2], seg[3], seg[11], seg[12], seg[19], seg[20], seg[23], seg[0]], ['evening', 'morning', 'morning', 'afternoon', 'afternoon', 'evening', 'evening', 'evening']);
});

test('violations name every broken restriction', () => {
  assert.deepEqual(violations(INTENT, BASE), []);
  const bad: Flight = { ...BASE, price: 600, num_connections: 2, departure_day: '4', airline: 'Spirit', class: 'business', departure_time_num: 21 };
  const strict: Intent = { ...INTENT, class: 'economy', departure_time: 'morning', return_time: 'evening', airline_preference: 'normal-cost' };
  assert.deepEqual(violations(strict, bad).sort(), ['airline_preference', 'class', 'departure_day', 'departure_time', 'max_connections', 'max_price', 'return_time'].sort());
  // max_connections absent = any
  const any: Intent = { ...INTENT };
  delete any.max_connections;
  assert.deepEqual(violations(any, { ...BASE, num_connections: 2 }), []);
});

test('cheapest matching flights: all ties at the lowest price, in database order', () => {
  const k = kb([{ price: 400 }, { price: 200 }, { price: 100, return_airport: 'LAX' }, { price: 200 }, { price: 300 }]);
  assert.deepEqual(cheapestMatching(INTENT, k.kb).map((f) => f.flight_number), [1001, 1003]);
  assert.deepEqual(expectedAction(INTENT, k), { status: 'book', name: 'Ann Lee', flight: [1001, 1003] });
});

test('expected action for each goal and reservation state', () => {
  const none = kb([{ price: 900 }]);
  const some = kb([{ price: 200 }], 1000);
  assert.equal(expectedAction(INTENT, none).status, 'no_flight');
  assert.deepEqual(expectedAction({ ...INTENT, goal: 'change' }, none), { status: 'no_reservation', name: 'Ann Lee', flight: [] });
  assert.deepEqual(expectedAction({ ...INTENT, goal: 'change' }, some), { status: 'change', name: 'Ann Lee', flight: [1000] });
  assert.deepEqual(expectedAction({ ...INTENT, goal: 'cancel' }, some), { status: 'cancel', name: 'Ann Lee', flight: [] });
  assert.deepEqual(expectedAction({ ...INTENT, goal: 'cancel' }, none), { status: 'no_reservation', name: 'Ann Lee', flight: [] });
  assert.equal(expectedAction({ ...INTENT, goal: 'change' }, kb([{ price: 900 }], 1000)).status, 'no_flight');
  assert.equal(standardizeName(" O'Brien-Smith, Jr. "), 'OBrienSmith Jr');
});

test('recomputed expected actions agree with the sample data on every line', { skip: skipUnless(airDir) }, () => {
  for (const [split, n] of [['train', 802], ['dev', 102]] as const) {
    const r = checkLogic(readAirDialogue(join(airDir, `${split}_data.json`), join(airDir, `${split}_kb.json`)));
    assert.deepEqual({ lines: r.lines, agree: r.agree }, { lines: n, agree: n });
  }
});
