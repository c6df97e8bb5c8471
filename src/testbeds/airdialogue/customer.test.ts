import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../core/rng.js';
import type { Intent } from '../../formats/airdialogue.js';
import { generateContext } from './context.js';
import { LexiconCustomer, isReadingCustomer } from './customer.js';
import { PRICE_ANY } from './facts.js';
import {
  AGENT_ASK_DATES,
  AGENT_ASK_GOAL,
  AGENT_ASK_NAME,
  AGENT_ASK_PREFS,
  AGENT_ASK_ROUTE,
  AGENT_PROPOSE,
  AGENT_REPEAT_GOAL,
  CUSTOMER_NO_LIMIT,
  CUSTOMER_NOT_UNDERSTOOD,
  connectionsText,
  fill,
  readCustomerUtterance,
} from './language.js';
import { RuleCustomer, customerPolicies } from './policies.js';

const intents: Intent[] = Array.from({ length: 60 }, (_, i) => generateContext(createRng(1000 + i), { ood: i % 2 === 1 }).intent);

test('asked in the simulator\'s wording, the lexicon customer says what the v1 rule customer says, draw for draw', () => {
  const turns = [
    ...AGENT_ASK_GOAL,
    ...AGENT_REPEAT_GOAL,
    ...AGENT_ASK_NAME,
    ...AGENT_ASK_ROUTE,
    ...AGENT_ASK_DATES,
    ...AGENT_ASK_ROUTE.map((r, i) => `${r} ${AGENT_ASK_DATES[i % AGENT_ASK_DATES.length]}`),
    ...AGENT_ASK_PREFS,
    ...[...AGENT_PROPOSE.book, ...AGENT_PROPOSE.change].map((t) => fill(t, { flight: 1003, airline: 'UA', connections: connectionsText(1), price: 300 })),
  ];
  for (const [k, intent] of intents.entries()) {
    const v1 = new RuleCustomer(intent, createRng(k));
    const v2 = new LexiconCustomer(intent, createRng(k));
    assert.equal(v2.open(), v1.open());
    for (const t of turns) assert.equal(v2.respond(t), v1.respond(t), t);
  }
});

test('each question gets its own answer from the intent, or "no requirement" when the customer has none', () => {
  let withBudget = 0;
  let without = 0;
  for (const [k, i] of intents.entries()) {
    const c = new LexiconCustomer(i, createRng(k));
    const origin = c.respond('Which airport are you leaving from?');
    assert.equal(readCustomerUtterance(origin).from, i.departure_airport, origin);
    assert.ok(!origin.includes(i.return_airport), origin);
    const dest = c.respond('and what is your destination');
    assert.equal(readCustomerUtterance(dest).to, i.return_airport, dest);
    const dep = c.respond('When do you want to leave?');
    assert.ok(dep.includes(`${i.departure_month} ${i.departure_day}`) && !/return|back/i.test(dep), dep);
    const ret = c.respond('WHAT IS YOUR RETURN DATE');
    assert.ok(ret.includes(`${i.return_month} ${i.return_day}`), ret);
    const budget = c.respond("what's your budget?");
    if (i.max_price < PRICE_ANY) {
      withBudget++;
      assert.equal(readCustomerUtterance(budget).maxPrice, i.max_price, budget);
    } else {
      without++;
      assert.ok(CUSTOMER_NO_LIMIT.budget.includes(budget), budget);
    }
    const conn = c.respond('Do you have any connection limit?');
    assert.equal(readCustomerUtterance(conn).maxConnections, i.max_connections !== undefined && i.max_connections < 2 ? i.max_connections : undefined, conn);
    const cls = c.respond('Economy or business?');
    assert.equal(readCustomerUtterance(cls).class, i.class, cls);
    const air = c.respond('any airline preference?');
    assert.equal(readCustomerUtterance(air).airline, i.airline_preference, air);
    const times = c.respond('What time of day would you like to fly, there and back?');
    const t = readCustomerUtterance(times);
    assert.deepEqual([t.depTime, t.retTime], [i.departure_time, i.return_time], times);
    assert.deepEqual([t.maxPrice, t.maxConnections, t.class, t.airline], [undefined, undefined, undefined, undefined], times);
    const depTime = readCustomerUtterance(c.respond('What time do you want to leave?'));
    assert.deepEqual([depTime.depTime, depTime.retTime], [i.departure_time, undefined]);
    // an open question gives the route, the dates and the requirements at once
    const all = readCustomerUtterance(c.respond('Tell me about your trip.'));
    assert.deepEqual(
      [all.from, all.to, all.depMonth, all.depDay, all.retMonth, all.retDay, all.maxPrice ?? PRICE_ANY, all.class],
      [i.departure_airport, i.return_airport, i.departure_month, i.departure_day, i.return_month, i.return_day, i.max_price, i.class],
    );
  }
  assert.ok(withBudget > 10 && without > 5, `${withBudget} / ${without}`);
});

test('a turn it cannot read gets a "sorry, what do you mean?" reaction, worded by its stream', () => {
  const said = new Set<string>();
  for (let k = 0; k < 30; k++) {
    const c = new LexiconCustomer(intents[0] as Intent, createRng(k));
    const r = c.read('Purple monkeys?');
    assert.equal(r.label, 'not understood');
    const reply = c.answer(r);
    assert.ok(CUSTOMER_NOT_UNDERSTOOD.includes(reply), reply);
    said.add(reply);
  }
  assert.equal(said.size, CUSTOMER_NOT_UNDERSTOOD.length);
  assert.ok(isReadingCustomer(customerPolicies.get('lexicon')(intents[0] as Intent, createRng(1))));
  assert.ok(!isReadingCustomer(customerPolicies.get('rules')(intents[0] as Intent, createRng(1))));
});
