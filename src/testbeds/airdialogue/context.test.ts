import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../core/rng.js';
import { formatAirLines, parseAirData, parseAirKb } from '../../formats/airdialogue.js';
import { ContextGenerator, discretePrice, generateContext, monthDay, type AirContext } from './context.js';
import { AIRPORTS, IN_DOMAIN_PRIORS, OOD_EXTRA_AIRPORTS, OOD_PRIORS } from './facts.js';
import { expectedAction, sameAction } from './logic.js';
import { maxDeviation, priorChecks } from './prior-stats.js';

function many(n: number, seed: number, ood = false): AirContext[] {
  const g = new ContextGenerator({ ood });
  const root = createRng(seed);
  return Array.from({ length: n }, (_, i) => g.generate(root.fork(`c${i}`)));
}

test('in-domain contexts follow the priors (20,000 contexts, every probability within 1.5 points)', () => {
  const ctx = many(20_000, 11);
  const checks = priorChecks(ctx, IN_DOMAIN_PRIORS, Object.keys(AIRPORTS));
  assert.ok(checks.length > 50);
  const bad = checks.filter((c) => Math.abs(c.observed - c.expected) > 0.015);
  assert.deepEqual(bad, []);
  // the flight-level priors rest on 600,000 flights: much tighter
  for (const c of checks.filter((c) => c.label.startsWith('flight.'))) assert.ok(Math.abs(c.observed - c.expected) < 0.003, c.label);
});

test('out-of-domain contexts: uniform goals, reservation 70%, larger airport and name sets', () => {
  const ctx = many(6_000, 12, true);
  const airports = [...Object.keys(AIRPORTS), ...Object.keys(OOD_EXTRA_AIRPORTS)];
  const checks = priorChecks(ctx, OOD_PRIORS, airports);
  assert.ok(maxDeviation(checks.filter((c) => c.label.startsWith('goal') || c.label === 'reservation')) < 0.02);
  assert.ok(ctx.some((c) => c.intent.departure_airport in OOD_EXTRA_AIRPORTS));
  assert.ok(new Set(ctx.map((c) => c.intent.name)).size > 3000);
});

test('contexts are well formed: 30 flights, 3 candidate airports, prices, dates, expected action', () => {
  for (const c of many(500, 13)) {
    const { intent, kb } = c;
    assert.equal(kb.kb.length, 30);
    assert.deepEqual(kb.kb.map((f) => f.flight_number), Array.from({ length: 30 }, (_, i) => 1000 + i));
    const airports = new Set([intent.departure_airport, intent.return_airport, ...kb.kb.flatMap((f) => [f.departure_airport, f.return_airport])]);
    assert.ok(airports.size <= 3 && intent.departure_airport !== intent.return_airport);
    for (const f of kb.kb) {
      assert.ok(f.price >= 100 && f.price % 100 === 0);
      assert.ok(f.departure_airport !== f.return_airport);
    }
    assert.ok(kb.reservation === 0 || kb.kb.some((f) => f.flight_number === kb.reservation));
    assert.ok(sameAction(c.expected, expectedAction(intent, kb)));
    assert.ok(!('max_connections' in intent) || intent.max_connections === 0 || intent.max_connections === 1);
  }
  // a generated context survives the writer and the validating reader
  const c = many(3, 14);
  const data = c.map((x) => ({ intent: x.intent, action: x.expected, expected_action: x.expected }));
  assert.equal(parseAirData(formatAirLines(data)).length, 3);
  assert.equal(parseAirKb(formatAirLines(c.map((x) => x.kb))).length, 3);
});

test('prices: Gaussian around 210 (economy) / 650 (business), floored to hundreds, at least 100', () => {
  assert.equal(discretePrice(299.9), 200);
  assert.equal(discretePrice(99), 100);
  assert.equal(discretePrice(-50), 100);
  const eco: number[] = [];
  const bus: number[] = [];
  for (const c of many(3000, 15)) for (const f of c.kb.kb) if (f.num_connections === 1) (f.class === 'economy' ? eco : bus).push(f.price);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  // flooring to hundreds lowers the mean by about 50 (economy also gains from the 100 floor)
  assert.ok(Math.abs(mean(eco) - 180) < 15, `economy mean ${mean(eco)}`);
  assert.ok(Math.abs(mean(bus) - 600) < 25, `business mean ${mean(bus)}`);
});

test('the same seed gives the same context; different seeds differ', () => {
  const a = generateContext(createRng(5));
  const b = generateContext(createRng(5));
  const c = generateContext(createRng(6));
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  assert.notEqual(JSON.stringify(a), JSON.stringify(c));
});

test('monthDay agrees with Date over 20 years of random instants', () => {
  const rng = createRng(3);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'June', 'July', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
  for (let i = 0; i < 20_000; i++) {
    const t = 1_200_000_000 + rng.next() * 20 * 365 * 86400;
    const d = new Date(Math.floor(t) * 1000);
    assert.deepEqual(monthDay(t), { month: months[d.getUTCMonth()], day: String(d.getUTCDate()), hour: d.getUTCHours() });
  }
});
