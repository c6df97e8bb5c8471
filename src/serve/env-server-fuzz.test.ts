/**
 * A fuzz of the env server's JSON bodies (fast-check, seeded, through `app.inject`): whatever a
 * client sends — any JSON, options and actions of the right shape with wrong types, values out of
 * bounds or missing fields, garbage bodies, other methods — the answer is never a 5xx, always one
 * line of JSON `{error}` when refused, and nothing is logged as an internal error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import '../index.js'; // every testbed, loaded
import { IN_DOMAIN_PRIORS } from '../testbeds/airdialogue/facts.js';
import { STATUSES } from '../formats/airdialogue.js';
import { SLOTS } from '../testbeds/infobot/slots.js';
import { createEnvServer, type EnvServer } from './env-server.js';

const anyJson = fc.jsonValue({ maxDepth: 3 });
/** A value of the right type near its bounds, or anything. */
const int = (min: number, max: number): fc.Arbitrary<unknown> => fc.oneof({ weight: 3, arbitrary: fc.integer({ min, max }) }, { weight: 1, arbitrary: fc.constantFrom(-1, 0.5, 2 ** 53, 1e300, '1', null) }, { weight: 1, arbitrary: anyJson });
const num = (min: number, max: number): fc.Arbitrary<unknown> => fc.oneof({ weight: 3, arbitrary: fc.double({ min, max, noNaN: true }) }, { weight: 1, arbitrary: anyJson });
const some = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: anyJson });
const word = fc.oneof(fc.constantFrom('italian', 'rome', 'cheap', 'two', 'r1', 'r1_phone', 'x y', '', 'romantic', 'vegan'), fc.string({ maxLength: 6 }));
const partial = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T): fc.Arbitrary<Record<string, unknown>> => fc.record(fields, { requiredKeys: [] });

const restaurant = partial({ name: word, cuisine: word, location: word, price: word, rating: int(-1, 1001), phone: word, address: word, number: word, atmosphere: word, restrictions: word });
const restaurantOptions = partial({
  maxTurns: int(0, 1001),
  seed: int(-1, 3),
  kbSeed: int(0, 2),
  restaurants: some(fc.array(restaurant, { maxLength: 4 })),
  junk: anyJson,
});
const prior = partial({ values: some(fc.array(fc.oneof(fc.constantFrom(...STATUSES, 'economy', 'business', null, 'morning', 'normal-cost', 0, 1, 2, 200), anyJson), { maxLength: 4 })), probs: some(fc.array(num(0, 2), { maxLength: 4 })) });
const priors = fc.record(Object.fromEntries(Object.entries(IN_DOMAIN_PRIORS).map(([k, v]) => [k, fc.oneof({ weight: 4, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: k === 'reservation' ? num(0, 1.5) : prior })])));
const airOptions = partial({
  customer: some(fc.constantFrom('rules', 'nobody')),
  ood: some(fc.boolean()),
  maxTurns: int(1, 1001),
  seed: int(-1, 3),
  context: some(
    partial({
      ood: some(fc.boolean()),
      priors: some(priors),
      airports: some(fc.array(fc.constantFrom('LAX', 'SEA', 'JFK', 'A', '', 'x y'), { maxLength: 5 })),
      firstNames: some(fc.array(word, { maxLength: 3 })),
      lastNames: some(fc.array(word, { maxLength: 3 })),
      flightsPerKb: int(0, 300),
      candidateAirports: int(1, 30),
      bookWindowDays: int(-1, 366),
    }),
  ),
});
const infobotOptions = partial({
  kbSeed: int(0, 2),
  kbs: anyJson,
  missing: num(0, 1.2),
  temperature: num(-1, 101),
  seed: int(-1, 3),
  user: some(partial({ knowProb: num(0, 1.1), errProb: num(0, 1.1), subProb: num(0, 1.1), maxFirstTurn: int(0, 7), maxTurns: int(0, 30), informOnLastTurn: some(fc.boolean()), successMaxRank: int(0, 50), nlg: some(partial({ temperature: num(-1, 5), dropRate: num(0, 1.1), insertRate: num(0, 1.1), valueNoise: num(0, 1.1) })) })),
});

const restaurantAction = fc.oneof(
  fc.constantFrom('hello what can i help you with today', 'api_call italian rome two cheap', 'where should it be', 'api_call', 'api_call x y z w'),
  fc.string({ maxLength: 20 }),
  partial({ tool: some(fc.constantFrom('api_call', 'fly')), arguments: some(fc.dictionary(fc.constantFrom('cuisine', 'location', 'number', 'price', 'atmosphere', 'restrictions', 'x'), some(word))) }),
  anyJson,
);
const infobotAction = fc.oneof(
  partial({ act: some(fc.constantFrom('request', 'inform')), slot: some(fc.constantFrom(...SLOTS)), results: some(fc.array(fc.integer({ min: -1, max: 300 }), { maxLength: 6 })) }),
  partial({ tool: some(fc.constantFrom('request', 'inform')), arguments: some(partial({ slot: some(fc.constantFrom(...SLOTS)), results: some(fc.array(fc.integer({ min: -1, max: 300 }), { maxLength: 6 })) })) }),
  anyJson,
);
const airAction = fc.oneof(
  fc.string({ maxLength: 20 }),
  partial({ utterance: some(fc.string({ maxLength: 10 })), action: some(partial({ status: some(fc.constantFrom(...STATUSES)), name: some(fc.string({ maxLength: 10 })), flight: some(fc.array(fc.integer({ min: -1, max: 1_000_001 }), { maxLength: 3 })) })) }),
  partial({ tool: some(fc.constantFrom(...STATUSES)), arguments: some(partial({ name: some(fc.string({ maxLength: 10 })), flight: int(-1, 1_000_001), utterance: some(fc.string({ maxLength: 10 })) })) }),
  anyJson,
);
/** A body `{key: value}` mostly, sometimes with another field, sometimes anything. */
const bodyOf = (key: string, value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 8, arbitrary: fc.record({ [key]: value }) }, { weight: 1, arbitrary: fc.record({ [key]: value, extra: anyJson }) }, { weight: 1, arbitrary: anyJson });

interface Answer {
  readonly status: number;
  readonly body: string;
}

async function send(server: EnvServer, method: string, url: string, payload?: string, type = 'application/json'): Promise<Answer> {
  const res = await server.app.inject({ method: method as 'POST', url, ...(payload !== undefined ? { payload, headers: { 'content-type': type } } : {}) });
  return { status: res.statusCode, body: res.body };
}

/** Never 5xx; a refusal is one line of JSON `{error}`. */
function sound(a: Answer, what: string): void {
  assert.ok(a.status < 500, `${what} → ${a.status} ${a.body}`);
  if (a.status >= 400 && a.status !== 405) {
    const e = (JSON.parse(a.body) as { error?: unknown }).error;
    assert.ok(typeof e === 'string' && e.length > 0 && !e.includes('\n'), `${what} → ${a.status} ${a.body}`);
  }
}

const FAMILIES = [
  { env: 'restaurant-task1-v1', options: restaurantOptions, action: restaurantAction, creates: 1500, steps: 2000 },
  { env: 'airdialogue-v1', options: airOptions, action: airAction, creates: 1000, steps: 2000 },
  { env: 'infobot-small-v1', options: infobotOptions, action: infobotAction, creates: 300, steps: 1500 },
  { env: 'dstc6-task1-tst3-v1', options: restaurantOptions, action: restaurantAction, creates: 100, steps: 300 },
] as const;

test('env-server fuzz: 10,600 requests over every route, no 5xx, every refusal one line of JSON', async () => {
  const logged: string[] = [];
  const server = createEnvServer({ maxSessions: 20, logError: (t) => logged.push(t) });
  let cases = 0;
  try {
    for (const [i, f] of FAMILIES.entries()) {
      await fc.assert(
        fc.asyncProperty(bodyOf('options', f.options), async (body) => {
          cases++;
          const a = await send(server, 'POST', `/envs/${f.env}`, JSON.stringify(body));
          sound(a, `POST /envs/${f.env} ${JSON.stringify(body)}`);
          if (a.status === 201) sound(await send(server, 'DELETE', `/sessions/${(JSON.parse(a.body) as { session: string }).session}`), 'DELETE');
        }),
        { numRuns: f.creates, seed: 100 + i },
      );
      const sid = (JSON.parse((await send(server, 'POST', `/envs/${f.env}`, '{}')).body) as { session: string }).session;
      await fc.assert(
        fc.asyncProperty(fc.option(bodyOf('seed', int(-1, 5)), { freq: 3 }), bodyOf('action', f.action), async (reset, step) => {
          cases++;
          if (reset !== null) sound(await send(server, 'POST', `/sessions/${sid}/reset`, JSON.stringify(reset)), `reset ${JSON.stringify(reset)}`);
          sound(await send(server, 'POST', `/sessions/${sid}/step`, JSON.stringify(step)), `step ${f.env} ${JSON.stringify(step)}`);
        }),
        { numRuns: f.steps, seed: 200 + i },
      );
      sound(await send(server, 'DELETE', `/sessions/${sid}`), 'DELETE');
    }
    // Anything at all: methods, paths, raw payloads, content types, deep nesting.
    const sid = (JSON.parse((await send(server, 'POST', '/envs/restaurant-task1-v1', '{}')).body) as { session: string }).session;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
        fc.constantFrom('/envs', '/envs/restaurant-task1-v1', '/envs/nope', `/sessions/${sid}/reset`, `/sessions/${sid}/step`, `/sessions/${sid}`, '/sessions/x/step', '/', '/envs/%ZZ', `/sessions/${sid}/step?x=1`),
        fc.oneof(fc.string({ maxLength: 30 }), anyJson.map((v) => JSON.stringify(v)), fc.integer({ min: 1, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)), fc.constant(undefined)),
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream'),
        async (method, url, payload, type) => {
          cases++;
          sound(await send(server, method, url, method === 'GET' || method === 'HEAD' ? undefined : payload, type), `${method} ${url} ${String(payload).slice(0, 60)}`);
        },
      ),
      { numRuns: 1900, seed: 300 },
    );
  } finally {
    await server.close();
  }
  assert.ok(cases >= 10_000, `${cases} cases`);
  assert.deepEqual(logged, []);
});
