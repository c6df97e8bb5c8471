import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { envs, runEpisode } from './env.js';
import './airdialogue/index.js';

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
      const r = runEpisode(env, () => env.sampleAction(rng), { seed: i }, 500);
      assert.ok(Number.isFinite(r.reward), name);
      assert.ok(r.steps >= 1 && r.steps < 500, `${name}: episode did not end`);
    }
  }
});
