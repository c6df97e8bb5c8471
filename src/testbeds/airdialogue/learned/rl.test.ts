import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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
  // the weights of 122f983 (before the decoding kernels were shared and the session's encoding reused), bit for bit
  assert.equal(createHash('sha256').update(encodeModelFile(airModelsContent(a.m))).digest('hex'), '2d4cfacfc5ccdd0283613cc5e321104cb85dbc6db94e90e10648eccb8f718cdf');
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
