/** Conformance of every registered environment (all domains): reset/step contract, determinism, episode ends. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { envs, type Env } from './env.js';
import './airdialogue/index.js';
import './infobot/index.js';
import { REWARDS } from './infobot/slots.js';

/** Hard cap on steps per episode for each domain (the episode must end by itself before it). */
function stepLimit(id: string): number {
  return id.startsWith('infobot-') ? REWARDS.maxTurns : 500;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function trajectory(env: Env<any, any>, seed: number, actionSeed: number, limit: number): unknown[] {
  const rng = createRng(actionSeed);
  const out: unknown[] = [];
  const r0 = env.reset({ seed });
  out.push(r0.obs);
  for (let k = 0; k < limit; k++) {
    const r = env.step(env.sampleAction(rng));
    assert.ok(Number.isFinite(r.reward), `${env.id}: reward ${r.reward}`);
    assert.equal(typeof r.terminated, 'boolean');
    assert.equal(typeof r.truncated, 'boolean');
    assert.ok(r.info !== null && typeof r.info === 'object');
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
    const limit = stepLimit(name);
    let differs = false;
    for (let i = 0; i < 15; i++) {
      const t1 = trajectory(env, i, 100 + i, limit);
      const t2 = trajectory(env, i, 100 + i, limit);
      assert.deepEqual(t1, t2, `${name}: same seed and actions gave different episodes`);
      if (JSON.stringify(trajectory(env, i + 1000, 100 + i, limit)[0]) !== JSON.stringify(t1[0])) differs = true;
    }
    assert.ok(differs, `${name}: different seeds always give the same first observation`);
    // A fresh environment from the factory behaves the same (no hidden global state).
    const again = envs.get(name)();
    assert.deepEqual(trajectory(again, 7, 3, limit), trajectory(env, 7, 3, limit), `${name}: two instances disagree`);
  }
});
