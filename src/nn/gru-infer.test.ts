import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { Gru } from './gru.js';
import { GruRunner } from './gru-infer.js';

test('GruRunner: in-place inference steps give bit-identical states to Gru.step (sparse and dense inputs)', () => {
  const rng = createRng(11);
  const gru = new Gru(7, 5);
  gru.init(rng.fork('init'));
  for (let i = 0; i < gru.b.data.length; i++) gru.b.data[i] = rng.normal(0, 0.5);
  const runner = new GruRunner(gru);
  let h: Float32Array = new Float32Array(5);
  const h2 = new Float32Array(5);
  for (let t = 0; t < 6; t++) {
    const x = Float32Array.from({ length: 7 }, () => (rng.chance(0.4) ? 0 : rng.normal(0, 1)));
    h = gru.step(x, h).h;
    runner.step(x, h2);
    assert.deepEqual([...h2], [...h], `step ${t}`);
  }
  assert.throws(() => runner.step(new Float32Array(3), h2), /input 3\/7/);
});
