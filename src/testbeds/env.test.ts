import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { ConfigError, InvalidActionError, StateError } from '../core/errors.js';
import { envs } from '../env/env.js';
import { playEpisode } from '../env/episode.js';
import '../index.js'; // every testbed, loaded

test('every registered environment resets reproducibly and finishes episodes under random actions', () => {
  assert.ok(envs.names().length >= 1);
  for (const name of envs.names()) {
    const env = envs.get(name)();
    assert.equal(env.id, name);
    const a = env.reset({ seed: 42 });
    const b = env.reset({ seed: 42 });
    assert.deepEqual(a.obs, b.obs, `${name}: reset(seed) is not reproducible`);
    for (let i = 0; i < 20; i++) {
      const rng = createRng(i);
      const r = playEpisode(env, () => env.sampleAction(rng), { reset: { seed: i }, maxSteps: 500 });
      assert.ok(Number.isFinite(r.reward), name);
      assert.ok(r.ended && r.turns >= 1 && r.turns < 500, `${name}: episode did not end`);
    }
  }
});

test('make builds by id; checkEnv passes every registered environment and names what a broken one breaks', async () => {
  await import('./infobot/index.js');
  const { make, checkEnv, EnvCheckError } = await import('../env/env.js');
  const ids = [...envs];
  assert.deepEqual(ids, envs.names());
  for (const id of ids) assert.ok(checkEnv(make(id), { episodes: 3 }) > 0, id);
  assert.throws(() => make('no-such-env-v1'), (e: Error) => e instanceof ConfigError && /unknown environment 'no-such-env-v1' \(known: airdialogue-v1/.test(e.message));
  // A broken environment: reset ignores its seed, and step returns a NaN reward.
  let t = 0;
  const broken = {
    id: 'broken-v0',
    reset: () => ({ obs: { t: 0 }, info: {} }),
    step: () => ({ obs: { t: ++t }, reward: t > 2 ? Number.NaN : 0, terminated: t > 3, truncated: false, info: {} }),
    sampleAction: () => 0,
  };
  assert.throws(() => checkEnv(broken), (e: Error) => e instanceof EnvCheckError && /^broken-v0: step 3: reward NaN is not a finite number$/.test(e.message));
  const never = { id: 'never-v0', reset: (o?: { seed?: number }) => ({ obs: o?.seed ?? 0, info: {} }), step: () => ({ obs: 0, reward: 0, terminated: false, truncated: false, info: {} }), sampleAction: () => 0 };
  assert.throws(() => checkEnv(never, { maxSteps: 50 }), /never-v0: an episode of random actions did not end within 50 steps/);
});

test('environments: step before reset is a StateError, a malformed action an InvalidActionError', () => {
  const air = envs.get('airdialogue-v1')();
  assert.throws(() => air.step({ utterance: 'hi' }), StateError);
  air.reset({ seed: 1 });
  assert.throws(() => air.step({} as never), InvalidActionError);
});

test('make refuses an option the environment does not read (a typo is named, not ignored)', () => {
  assert.throws(
    () => envs.get('airdialogue-v1')({ maxturns: 10 }),
    (e: Error) => e instanceof ConfigError && e.message === 'airdialogue-v1: unknown option "maxturns" (its options: customer, ood, context, maxTurns, seed)',
  );
  assert.throws(() => envs.get('airdialogue-v1')([] as never), { name: 'ConfigError', message: 'airdialogue-v1: options must be an object, got an array' });
  // The options it reads still build it.
  assert.ok(envs.get('airdialogue-v1')({ maxTurns: 10, seed: 2 }).reset({ seed: 1 }).obs);
});

test('make applies the bounds of the family schema: a ConfigError naming the environment and the field', async () => {
  const refused = (id: string, options: object, message: string): void => {
    assert.throws(() => envs.get(id)(options), (e: Error) => e instanceof ConfigError && e.message === message, `${id} ${JSON.stringify(options)}`);
  };
  refused('restaurant-task1-v1', { maxTurns: 1_000_000_000 }, 'restaurant-task1-v1: options.maxTurns: must be <= 1000, got 1000000000');
  refused('restaurant-task1-v1', { restaurants: 10_000_000 }, 'restaurant-task1-v1: options.restaurants: must be a list, got 10000000');
  refused('restaurant-task1-v1', { restaurants: [{ name: 'x' }, null, 1] }, 'restaurant-task1-v1: options.restaurants[0]: missing "cuisine"');
  const r = { name: 'r1', cuisine: 'italian', location: 'rome', price: 'cheap', rating: 3, phone: 'r1_phone', address: 'r1_address', number: 'two' };
  refused('restaurant-task1-v1', { restaurants: [r, null] }, 'restaurant-task1-v1: options.restaurants[1]: must be an object, got null');
  refused('restaurant-task1-v1', { restaurants: [{ ...r, phone: 'r1_phone\n2 r2 R_phone x' }] }, 'restaurant-task1-v1: options.restaurants[0].phone: must be one word (no spaces, at most 200 characters), got "r1_phone\\n2 r2 R_phone x"');
  refused('restaurant-task1-v1', { restaurants: Array.from({ length: 100_001 }, () => r) }, 'restaurant-task1-v1: options.restaurants: is too long (at most 100000 items)');
  refused('restaurant-task1-v1', { seed: -1 }, 'restaurant-task1-v1: options.seed: must be >= 0, got -1');
  refused('infobot-small-v1', { kbs: 1 }, "infobot-small-v1: options.kbs: cannot be given (the library's MovieKb objects {full, incomplete}; over JSON the KB is generated from kbSeed and missing)");
  refused('infobot-small-v1', { kbs: { full: {}, incomplete: {} } }, "infobot-small-v1: options.kbs: cannot be given (the library's MovieKb objects {full, incomplete}; over JSON the KB is generated from kbSeed and missing)");
  refused('infobot-small-v1', { user: { maxTurns: 5000 } }, 'infobot-small-v1: options.user.maxTurns: must be <= 1000, got 5000');
  refused('airdialogue-v1', { context: { flightsPerKb: 1e7 } }, 'airdialogue-v1: options.context.flightsPerKb: must be <= 1000, got 10000000');
  // A refusal from deeper down names the environment too.
  refused('airdialogue-v1', { context: { candidateAirports: 1000 } }, 'airdialogue-v1: candidateAirports must be in [2, 24]');
  // What JSON cannot carry is the library's own, checked by the environment: MovieKb objects, a customer policy function.
  const { splitKbs } = await import('./infobot/generate.js');
  assert.equal(envs.get('infobot-small-v1')({ kbs: splitKbs('small', 3) }).reset({ seed: 1 }).obs.turn, 0);
  refused('infobot-small-v1', { kbs: { full: splitKbs('small', 3).full, incomplete: 'x' } }, 'infobot-small-v1: options.kbs: must be {full, incomplete}, two MovieKb objects (splitKbs)');
  const { customerPolicies } = await import('./airdialogue/policies.js');
  assert.ok(envs.get('airdialogue-v1')({ customer: customerPolicies.get('rules') }).reset({ seed: 1 }).obs);
});
