/** Conformance of every registered environment (all domains): the public `checkEnv`, plus what it cannot see from one instance. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { checkEnv, envs, type Env } from './env.js';
import './airdialogue/index.js';
import './infobot/index.js';
import './restaurant/online/babi.js';
import './dstc6/online.js';
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
