/** Conformance of every registered environment (all domains): the public `checkEnv`, plus what it cannot see from one instance. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { checkEnv, envSchema, envs, type Env } from '../env/env.js';
import { checkSchema } from '../formats/schema.js';
import '../index.js'; // every testbed, loaded
import { REWARDS } from './infobot/slots.js';

/** Hard cap on steps per episode for each domain (the episode must end by itself before it). */
function stepLimit(id: string): number {
  return id.startsWith('infobot-') ? REWARDS.maxTurns : 500;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function trajectory(env: Env<any, any>, seed: number, actionSeed: number, limit: number): unknown[] {
  const rng = createRng(actionSeed);
  const out: unknown[] = [env.reset({ seed }).obs];
  for (let k = 0; k < limit; k++) {
    const r = env.step(env.sampleAction(rng));
    out.push([r.obs, r.reward, r.terminated, r.truncated]);
    if (r.terminated || r.truncated) return out;
  }
  assert.fail(`${env.id}: episode did not end within ${limit} steps`);
}

test('every registered environment follows the reset/step contract', () => {
  const names = envs.names();
  assert.ok(names.includes('airdialogue-v1'), names.join(','));
  for (const s of ['small', 'medium', 'large', 'xlarge']) assert.ok(names.includes(`infobot-${s}-v1`), names.join(','));
  for (const name of names) {
    const env = envs.get(name)();
    assert.equal(env.id, name);
    const a = env.reset({ seed: 42 });
    const b = env.reset({ seed: 42 });
    assert.deepEqual(a.obs, b.obs, `${name}: reset(seed) is not reproducible`);
    assert.deepEqual(a.info, b.info, `${name}: reset(seed) info is not reproducible`);
    // Finite rewards, boolean flags, info objects, plain-JSON observations, episodes that end within
    // the step limit, same seed and actions → same episode, different seeds → different starts.
    checkEnv(env, { episodes: 15, maxSteps: stepLimit(name) });
    // A fresh environment from the factory behaves the same (no hidden global state).
    const again = envs.get(name)();
    const limit = stepLimit(name);
    assert.deepEqual(trajectory(again, 7, 3, limit), trajectory(env, 7, 3, limit), `${name}: two instances disagree`);
  }
});

test('every registered environment: step outside an episode says which, reset refuses a negative or non-integer seed, its actions fit its family schema', () => {
  for (const name of envs.names()) {
    const env = envs.get(name)();
    assert.throws(() => env.step(env.sampleAction(createRng(0))), { name: 'StateError', message: 'step() called before reset(): call reset() first' }, name);
    for (const [opts, what] of [
      [{ seed: -1 }, 'seed must be a non-negative integer, got -1'],
      [{ seed: 1.5 }, 'seed must be a non-negative integer, got 1.5'],
      [{ seed: 2 ** 53 }, 'seed must be a non-negative integer, got 9007199254740992'],
      [{ seed: 1, variant: -2 }, 'variant must be a non-negative integer, got -2'],
    ] as const)
      assert.throws(() => env.reset(opts), { name: 'ConfigError', message: `${name}: reset ${what}` }, name);
    const schema = envSchema(name);
    assert.ok(schema, `${name}: registered without its family's schema`);
    const rng = createRng(5);
    for (let episode = 0; episode < 5; episode++) {
      env.reset({ seed: episode });
      for (let k = 0; ; k++) {
        const action = env.sampleAction(rng);
        assert.equal(checkSchema(schema, action, '#/$defs/action', 'action')?.reason, undefined, `${name}: ${JSON.stringify(action)}`);
        const r = env.step(action);
        if (r.terminated || r.truncated) break;
        assert.ok(k < stepLimit(name), name);
      }
    }
    assert.throws(() => env.step(env.sampleAction(rng)), { name: 'StateError', message: 'step() called on a finished episode: call reset() to start another' }, name);
  }
});
