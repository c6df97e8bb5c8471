import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeModelFile } from '../../../formats/model-file.js';
import { synthesizeSplits } from './data.js';
import { setRowKernelsScalar } from '../../../nn/index.js';
import { rlTrain } from './rl.js';
import { airModelsContent, airModelsFrom, trainAirModels } from './train.js';

test('RL self-play: REINFORCE batches with a value baseline, 3:1 supervised mix, agent only, deterministic', () => {
  const s = synthesizeSplits({ train: 16, dev: 4, test: 0, seed: 9 });
  const init = airModelsContent(trainAirModels(s.train, s.dev, { epochs: 1, dim: 4, hidden: 6, seed: 3 }).models);
  const run = () => {
    const m = airModelsFrom(init);
    const notes: string[] = [];
    const r = rlTrain(m, { episodes: 6, batch: 3, supervised: s.train, supervisedBatch: 2, seed: 4, maxTurns: 8, onProgress: (_d, _t, note) => notes.push(note) });
    return { m, r, notes };
  };
  const a = run();
  const b = run();
  assert.deepEqual(a.r.curve.map((p) => p.episodes), [3, 6]);
  for (const p of a.r.curve) assert.ok(p.reward >= 0 && p.reward <= 1 && Number.isFinite(p.value));
  assert.match(a.notes[0]!, /^reward [\d.]+ baseline -?[\d.]+$/);
  assert.deepEqual(encodeModelFile(airModelsContent(a.m)), encodeModelFile(airModelsContent(b.m)));
  const before = airModelsFrom(init);
  const changed = (role: 'agent' | 'customer') => a.m[role].params.some((p, i) => p.data.some((x, j) => x !== before[role].params[i]!.data[j]));
  assert.ok(changed('agent'), 'the agent is trained');
  assert.ok(!changed('customer'), 'the customer stays fixed');
});

test('RL self-play on the WebAssembly decoding kernels (made once, reloaded after each update) gives the weights of the JS loops bit for bit', () => {
  const s = synthesizeSplits({ train: 12, dev: 2, test: 0, seed: 5 });
  // hidden 6: even, so the GRU runs on GruStepper too
  const init = airModelsContent(trainAirModels(s.train, s.dev, { epochs: 1, dim: 4, hidden: 6, seed: 2 }).models);
  const run = (scalar: boolean) => {
    const was = setRowKernelsScalar(scalar);
    try {
      const m = airModelsFrom(init);
      const { curve } = rlTrain(m, { episodes: 9, batch: 3, supervised: s.train, supervisedBatch: 2, seed: 6, maxTurns: 10 });
      return { bytes: encodeModelFile(airModelsContent(m)), curve };
    } finally {
      setRowKernelsScalar(was);
    }
  };
  const simd = run(false);
  const js = run(true);
  assert.deepEqual(simd.curve, js.curve);
  assert.ok(simd.bytes.equals(js.bytes), 'the same model file');
});

/**
 * The reward curve (mean reward, mean baseline per update) of 24 episodes at 122f983, which added
 * each episode's gradient straight into the update's: the update's gradient is now the sum of the
 * episodes' (and of the supervised parts'), so the weights differ in float summation order only.
 */
const CURVE_122F983: readonly (readonly [number, number])[] = [
  [0.13307888040712468, 0.04232729567835728],
  [0, -0.023611440012852352],
  [0.03944031172511513, 0.045965406112372875],
  [0.021052631578947368, -0.02384997329985102],
  [0, -0.00977322606680294],
  [0.018181818181818184, -0.007359219094117482],
  [0.14092753623188406, -0.007042120036203414],
  [0.13411781486235916, 0.02096305601298809],
];
/** Largest difference of a reward or baseline from 122f983's allowed (float summation order). */
const CURVE_TOLERANCE = 1e-6;

test('RL on 1 and 2 threads: the same weights bit for bit; the reward curve within 1e-6 of 122f983 (summation order only)', () => {
  const s = synthesizeSplits({ train: 16, dev: 4, test: 0, seed: 9 });
  const init = airModelsContent(trainAirModels(s.train, s.dev, { epochs: 1, dim: 4, hidden: 6, seed: 3 }).models);
  const run = (threads: number) => {
    const m = airModelsFrom(init);
    const { curve } = rlTrain(m, { episodes: 24, batch: 3, supervised: s.train, supervisedBatch: 2, seed: 4, maxTurns: 8, threads });
    return { bytes: encodeModelFile(airModelsContent(m)), curve };
  };
  const one = run(1);
  const two = run(2);
  assert.ok(one.bytes.equals(two.bytes), '1 and 2 threads: the same model file');
  assert.deepEqual(one.curve, two.curve);
  assert.equal(one.curve.length, CURVE_122F983.length);
  one.curve.forEach((p, i) => {
    const [reward, value] = CURVE_122F983[i]!;
    assert.ok(Math.abs(p.reward - reward) <= CURVE_TOLERANCE && Math.abs(p.value - value) <= CURVE_TOLERANCE, `update ${i + 1}: reward ${p.reward} baseline ${p.value}, 122f983 ${reward} ${value}`);
  });
  assert.throws(() => rlTrain(airModelsFrom(init), { episodes: 3, supervised: s.train, threads: 0 }), /threads must be a positive integer, got 0/);
  assert.throws(() => rlTrain(airModelsFrom(init), { episodes: 3, supervised: s.train, batch: 0 }), /^ConfigError: batch must be a positive integer, got 0$/);
  assert.throws(() => rlTrain(airModelsFrom(init), { episodes: 3, supervised: s.train, supervisedBatch: 0 }), /^ConfigError: supervisedBatch must be a positive integer, got 0$/);
  // an update of more episodes than the part buffers held at once (16) runs in rounds: still the same on 1 and 2 threads
  const big = [1, 2].map((threads) => {
    const m = airModelsFrom(init);
    rlTrain(m, { episodes: 20, batch: 20, supervised: s.train, supervisedPerRl: 1, seed: 5, maxTurns: 6, threads });
    return encodeModelFile(airModelsContent(m));
  });
  assert.ok(big[0]!.equals(big[1]!), 'batch 20: the same model file');
});
