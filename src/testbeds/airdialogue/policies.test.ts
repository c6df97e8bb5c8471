import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../core/rng.js';
import type { Intent } from '../../formats/airdialogue.js';
import { ContextGenerator } from './context.js';
import {
  AGENT_ASK_DATES, AGENT_ASK_NAME, AGENT_ASK_PREFS, AGENT_ASK_ROUTE, AGENT_PROPOSE, CUSTOMER_NAME, CUSTOMER_OPENING, fill, readAgentUtterance, readCustomerUtterance,
} from './language.js';
import { RuleAgent, RuleCustomer } from './policies.js';

test('the customer recognises every agent request template, and only that request', () => {
  const only = (text: string, key: 'name' | 'route' | 'dates' | 'prefs') => {
    const r = readAgentUtterance(text);
    for (const k of ['name', 'route', 'dates', 'prefs'] as const) assert.equal(r[k], k === key, `${k} in "${text}"`);
    assert.equal(r.proposal, null);
  };
  AGENT_ASK_NAME.forEach((t) => only(t, 'name'));
  AGENT_ASK_ROUTE.forEach((t) => only(t, 'route'));
  AGENT_ASK_DATES.forEach((t) => only(t, 'dates'));
  AGENT_ASK_PREFS.forEach((t) => only(t, 'prefs'));
  for (const t of [...AGENT_PROPOSE.book, ...AGENT_PROPOSE.change]) {
    const r = readAgentUtterance(fill(t, { flight: 1017, airline: 'Delta', connections: '1 connection', price: 300 }));
    assert.equal(r.proposal, 1017);
    assert.ok(!r.name && !r.route && !r.dates && !r.prefs, t);
  }
});

test('the agent reads goals, names, routes and dates from customer templates', () => {
  for (const [goal, ts] of Object.entries(CUSTOMER_OPENING)) for (const t of ts) assert.equal(readCustomerUtterance(t).goal, goal, t);
  for (const t of CUSTOMER_NAME) assert.equal(readCustomerUtterance(fill(t, { name: "Mary O'Neil" })).name, "Mary O'Neil", t);
  const s = readCustomerUtterance('I am flying from BOS (Boston) to SFO (San Francisco). I will leave on Sept 30 and return on Oct 2.');
  assert.deepEqual([s.from, s.to, s.depMonth, s.depDay, s.retMonth, s.retDay], ['BOS', 'SFO', 'Sept', '30', 'Oct', '2']);
  const p = readCustomerUtterance('Sure, my budget is 500 dollars, I need a direct flight, I prefer business class, I want to depart in the evening, coming back in the morning and I prefer a standard-fare airline.');
  assert.deepEqual([p.maxPrice, p.maxConnections, p.class, p.depTime, p.retTime, p.airline], [500, 0, 'business', 'evening', 'morning', 'normal-cost']);
  const q = readCustomerUtterance('Yes: I want to return in the afternoon and no more than 1 connection.');
  assert.deepEqual([q.depTime, q.retTime, q.maxConnections, q.maxPrice], [undefined, 'afternoon', 1, undefined]);
  // A person's wording: a sentence that opens with the cue, months spelt out or abbreviated in any case.
  for (const [said, want] of [
    ['From ORD to IAD, leaving Sept 1 and returning Sept 3.', ['ORD', 'IAD', 'Sept', '1', 'Sept', '3']],
    ['To IAD from ORD. Out september 1, back SEP. 3', ['ORD', 'IAD', 'Sept', '1', 'Sept', '3']],
    ['from DFW to LAX on may 2 and June 14', ['DFW', 'LAX', 'May', '2', 'June', '14']],
  ] as const) {
    const r = readCustomerUtterance(said);
    assert.deepEqual([r.from, r.to, r.depMonth, r.depDay, r.retMonth, r.retDay], want, said);
  }
  assert.equal(readCustomerUtterance('may I fly from the city to the sea').from, undefined, 'no airport from a word, no date from "may I"');
});

test('the rule customer conveys its whole intent to the rule agent (slots recovered exactly)', () => {
  const g = new ContextGenerator();
  const root = createRng(3);
  for (let i = 0; i < 300; i++) {
    const ctx = g.generate(root.fork(`c${i}`));
    const intent: Intent = { ...ctx.intent, goal: 'book' };
    const cust = new RuleCustomer(intent, root.fork(`u${i}`));
    const heard = [cust.open(), cust.respond('May I know your name, please?'), cust.respond('Which airports are you flying from and to? What are your travel dates?'), cust.respond(AGENT_ASK_PREFS[i % 3] as string)]
      .map(readCustomerUtterance)
      .reduce((a, b) => ({ ...a, ...b, goal: a.goal ?? b.goal }), {});
    assert.equal(heard.name, intent.name);
    assert.deepEqual([heard.from, heard.to, heard.depMonth, heard.depDay, heard.retMonth, heard.retDay], [intent.departure_airport, intent.return_airport, intent.departure_month, intent.departure_day, intent.return_month, intent.return_day]);
    assert.equal(heard.maxPrice ?? 5000, intent.max_price);
    assert.equal(heard.maxConnections, intent.max_connections);
    assert.deepEqual([heard.class, heard.depTime, heard.retTime, heard.airline], [intent.class, intent.departure_time, intent.return_time, intent.airline_preference]);
  }
});

test('the rule agent: no reservation, cancel, and the cheapest flight only after the restrictions', () => {
  const g = new ContextGenerator();
  const ctx = g.generate(createRng(1));
  const rng = createRng(2);
  const noRes = new RuleAgent({ ...ctx.kb, reservation: 0 }, rng);
  assert.equal(noRes.respond("Hi, I'm Ann Lee and I want to cancel my reservation.").action?.status, 'no_reservation');
  const withRes = new RuleAgent({ ...ctx.kb, reservation: 1004 }, rng);
  const m1 = withRes.respond('Hello, I want to cancel my reservation.');
  assert.equal(m1.action, undefined);
  assert.ok(readAgentUtterance(m1.utterance).name);
  assert.deepEqual(withRes.respond('My name is Ann Lee.').action, { status: 'cancel', name: 'Ann Lee', flight: [] });
});
