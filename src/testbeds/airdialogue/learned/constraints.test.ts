import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesize, toLearned } from './data.js';
import { CONSTRAINT_FEATURES, constraintFeatures, saidConstraints } from './constraints.js';
import { tokenizeText } from './tokens.js';

test('saidConstraints: every restriction from the simulator phrasing; an airport only when it is in the table', () => {
  const words = tokenizeText(
    'I want to fly from DFW (Dallas) to IAD. Departure on June 12, return on June 14. Sure, my budget is 500 dollars, ' +
      'it has to be a non-stop flight, business class please, leaving in the morning would be best, return in the evening ' +
      'and I prefer a standard-fare airline.',
  );
  assert.deepEqual(saidConstraints(words, new Set(['dfw', 'iad'])), {
    from: 'dfw',
    to: 'iad',
    depMonth: 'june',
    depDay: 12,
    retMonth: 'june',
    retDay: 14,
    maxPrice: 500,
    maxConnections: 0,
    cls: 'business',
    depTime: 'morning',
    retTime: 'evening',
    normalCost: true,
  });
  assert.deepEqual(saidConstraints(tokenizeText('I want to fly from DFW to IAD.'), new Set(['dfw'])), { from: 'dfw' });
  assert.deepEqual(saidConstraints(tokenizeText('one stop is fine but not more'), new Set()), { maxConnections: 1 });
  assert.deepEqual(saidConstraints([], new Set()), {});
});

test('constraintFeatures on the simulator dialogues: "best" is the booked flight, "any" is 0 exactly for no_flight', () => {
  const exs = synthesize(60, 4).map(toLearned);
  const K = CONSTRAINT_FEATURES;
  let booked = 0;
  let none = 0;
  for (const e of exs) {
    const words = e.dialogue.tokens.filter((t, i) => e.dialogue.speaker[i] === 0 && !t.startsWith('<'));
    const { perFlight, global } = constraintFeatures(e.flights, words);
    assert.equal(perFlight.length, e.flights.length * K);
    const best = e.flights.flatMap((_, i) => (perFlight[i * K + 13] === 1 ? [e.flightNumbers[i]] : []));
    if (e.action.status === 'book' || e.action.status === 'change') {
      booked++;
      assert.deepEqual(best, [e.action.flight[0]], `line ${e.line}`);
      assert.equal(global[0], 1);
    }
    if (e.action.status === 'no_flight') {
      none++;
      assert.deepEqual([global[0], best.length], [0, 0], `line ${e.line}`);
    }
    // nothing said: every flight ok, no restriction flag set
    const empty = constraintFeatures(e.flights, []);
    for (let i = 0; i < e.flights.length; i++) assert.deepEqual([...empty.perFlight.subarray(i * K, i * K + 13)], [...new Array(12).fill(0), 1]);
  }
  assert.ok(booked > 10 && none > 5, `${booked} bookings, ${none} no_flight`);
});
