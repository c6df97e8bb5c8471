import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeModelFile } from '../../../formats/model-file.js';
import { corpusBleu } from './bleu.js';
import { LearnedStore, synthesizeSplits } from './data.js';
import { airModelsContent, evaluateAirModels, loadAirModels, saveAirModels, trainAirModels, type BatchPoint } from './train.js';
import { trainingCurveSvg } from './curve.js';
import { setMatMulScalar } from '../../../nn/index.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-learned-'));
const s = synthesizeSplits({ train: 24, dev: 6, test: 6, seed: 2 });
const opts = { epochs: 2, dim: 6, hidden: 8, batch: 4, seed: 5 };

test('corpus BLEU as bleu.py: perfect match 1, clipped counts, brevity penalty, zero precision → 0', () => {
  assert.equal(corpusBleu([[['a', 'b', 'c', 'd']]], [['a', 'b', 'c', 'd']]).bleu, 1);
  // "the the the the" vs "the cat": unigram matches clipped to 1 → p1 = 1/4; higher orders 0 → BLEU 0
  const r = corpusBleu([[['the', 'cat', 'is', 'here', 'now']]], [['the', 'the', 'the', 'the']]);
  assert.equal(r.precisions[0], 0.25);
  assert.equal(r.bleu, 0);
  // shorter translation: BP = exp(1 − 6/5)
  const b = corpusBleu([[['a', 'b', 'c', 'd', 'e', 'f']]], [['a', 'b', 'c', 'd', 'e']]);
  assert.ok(Math.abs(b.brevityPenalty - Math.exp(1 - 6 / 5)) < 1e-12);
  assert.ok(Math.abs(b.bleu - b.brevityPenalty) < 1e-12);
  // two references: max counts; shortest reference length
  const m = corpusBleu([[['a', 'a', 'b'], ['a', 'b', 'b', 'c']]], [['a', 'a', 'b', 'b']], 1);
  assert.equal(m.precisions[0], 1);
  assert.equal(m.referenceLength, 3);
});

test('training: loss falls, same seed → same model file, save → load → same outputs', () => {
  const checkpoints: { epoch: number; bytes: Buffer }[] = [];
  const a = trainAirModels(s.train, s.dev, { ...opts, onBest: (m, epoch) => checkpoints.push({ epoch, bytes: encodeModelFile(airModelsContent(m)) }) });
  // best-dev checkpoints: epoch 1 always, the last one holds the returned (best) weights
  assert.equal(checkpoints[0]!.epoch, 1);
  assert.equal(checkpoints[checkpoints.length - 1]!.epoch, a.bestEpoch);
  assert.deepEqual(checkpoints[checkpoints.length - 1]!.bytes, encodeModelFile(airModelsContent(a.models)));
  const b = trainAirModels(s.train, s.dev, opts);
  assert.equal(a.curve.length, 2);
  assert.ok(a.curve[1]!.trainLm < a.curve[0]!.trainLm, `train loss ${a.curve.map((p) => p.trainLm).join(' → ')}`);
  assert.ok(a.bestEpoch >= 1 && a.bestEpoch <= 2);
  assert.deepEqual(encodeModelFile(airModelsContent(a.models)), encodeModelFile(airModelsContent(b.models)));
  const file = join(dir, 'm.dgm');
  saveAirModels(file, a.models);
  const loaded = loadAirModels(file);
  assert.deepEqual(evaluateAirModels(loaded, s.test), evaluateAirModels(a.models, s.test));
  const svg = trainingCurveSvg(a.curve, a.bestEpoch, 'tiny');
  assert.match(svg, /^<svg[\s\S]*best dev epoch \d[\s\S]*<\/svg>\n$/);
});

test('a corrupt or foreign model file is a one-line ModelFileError', () => {
  const file = join(dir, 'c.dgm');
  const r = trainAirModels(s.train.slice(0, 6), s.dev.slice(0, 2), { ...opts, epochs: 1 });
  saveAirModels(file, r.models);
  const buf = readFileSync(file);
  buf[buf.length - 3] = (buf[buf.length - 3]! + 1) % 256;
  writeFileSync(file, buf);
  assert.throws(() => loadAirModels(file), (e: Error) => e.name === 'ModelFileError' && /c\.dgm: corrupt model file \(checksum mismatch\)/.test(e.message) && !e.message.includes('\n'));
  const other = join(dir, 'o.dgm');
  writeFileSync(other, encodeModelFile({ model: 'memn2n', meta: {}, tensors: [] }));
  assert.throws(() => loadAirModels(other), /o\.dgm: holds a 'memn2n' model, not the learned AirDialogue models/);
});

test('evaluation report: perplexities > 1, BLEU in [0, 100], accuracies in [0, 1]', () => {
  const r = trainAirModels(s.train, s.dev, opts);
  const e = evaluateAirModels(r.models, s.test);
  assert.equal(e.dialogues, 6);
  for (const x of Object.values(e.perplexity)) assert.ok(x > 1 && Number.isFinite(x));
  for (const x of Object.values(e.bleu)) assert.ok(x >= 0 && x <= 100);
  for (const x of Object.values(e.accuracy)) assert.ok(x >= 0 && x <= 1);
  assert.ok(e.accuracy.state <= Math.min(e.accuracy.name, e.accuracy.flight, e.accuracy.status));
});

test('examples from a LearnedStore (prepared per step) train the same weights as an array; evaluation of a stream equals that of the array', () => {
  const store = LearnedStore.from([...s.train, ...s.dev]);
  const fromArrays = trainAirModels(s.train, s.dev, { ...opts, epochs: 1 });
  const fromStore = trainAirModels(store.range(0, s.train.length), store.range(s.train.length, store.length), { ...opts, epochs: 1 });
  assert.deepEqual(encodeModelFile(airModelsContent(fromStore.models)), encodeModelFile(airModelsContent(fromArrays.models)));
  assert.deepEqual(fromStore.curve.map((p) => [p.trainLm, p.devLoss]), fromArrays.curve.map((p) => [p.trainLm, p.devLoss]));
  function* stream() {
    yield* s.test;
  }
  const seen: number[] = [];
  const streamed = evaluateAirModels(fromArrays.models, stream(), { onProgress: (d, total) => seen.push(d, total) });
  assert.deepEqual(streamed, evaluateAirModels(fromArrays.models, s.test));
  assert.deepEqual(seen.slice(0, 2), [1, Number.NaN], 'a stream has no known total');
});

test('batched kernels: a 2-epoch run ends at the dev losses of the matrix-vector code within 1e-5 relative', () => {
  // Provenance: trainAirModels(synthesizeSplits({ train: 24, dev: 8, test: 0, seed: 3 }), { epochs: 2, seed: 4 })
  // (dim 24, hidden 48, match + constraint features) at commit 98790c2, before the batched
  // kernels: every product matrix-vector with float64 sums. The batched code sums in float32 in
  // another order; the tolerance is 1e-5 relative (measured: 3e-8).
  const before = [15.774562416561487, 9.195987915291326];
  const t = synthesizeSplits({ train: 24, dev: 8, test: 0, seed: 3 });
  const r = trainAirModels(t.train, t.dev, { epochs: 2, seed: 4 });
  r.curve.forEach((p, i) => assert.ok(Math.abs(p.devLoss - before[i]!) <= 1e-5 * before[i]!, `epoch ${i + 1}: dev loss ${p.devLoss} vs ${before[i]} before`));
});

test('batched kernels: the scalar path of the matrix products trains the same models as the SIMD path, bit for bit', () => {
  const small = { ...opts, epochs: 1 };
  const simd = trainAirModels(s.train, s.dev, small);
  const was = setMatMulScalar(true);
  try {
    const scalar = trainAirModels(s.train, s.dev, small);
    assert.deepEqual(scalar.curve.map((p) => p.devLoss), simd.curve.map((p) => p.devLoss));
    assert.deepEqual(encodeModelFile(airModelsContent(scalar.models)), encodeModelFile(airModelsContent(simd.models)));
  } finally {
    setMatMulScalar(was);
  }
});

test('threads: 1, 2 and 3 threads train the same weights and losses, bit for bit (the batch in parts of 2 dialogues, their gradients summed in part order)', () => {
  const o = { ...opts, batch: 6, epochs: 1 };
  const runs = [1, 2, 3].map((threads) => trainAirModels(s.train, s.dev, { ...o, threads }));
  for (const r of runs.slice(1)) {
    assert.deepEqual(r.curve.map((p) => [p.trainLm, p.devLm, p.devState]), runs[0]!.curve.map((p) => [p.trainLm, p.devLm, p.devState]));
    assert.deepEqual(encodeModelFile(airModelsContent(r.models)), encodeModelFile(airModelsContent(runs[0]!.models)));
  }
  // the values are back in ordinary memory after training
  assert.ok(!(runs[1]!.models.agent.params[0]!.data.buffer instanceof SharedArrayBuffer));
  assert.throws(() => trainAirModels(s.train, s.dev, { ...o, threads: 0 }), /threads must be a positive integer, got 0/);
  assert.throws(() => trainAirModels(s.train, s.dev, { ...o, batch: 0 }), /^ConfigError: batch must be a positive integer, got 0$/);
});

test('a batch of more parts than the runner holds (16) runs in rounds: 1 and 2 threads alike, and a batch larger than the data holds no buffer per part', () => {
  const o = { ...opts, batch: 40, epochs: 1 };
  const [one, two] = [1, 2].map((threads) => trainAirModels(s.train, s.dev, { ...o, threads }));
  assert.deepEqual(encodeModelFile(airModelsContent(two!.models)), encodeModelFile(airModelsContent(one!.models)));
  // a batch of two billion dialogues asked for a billion gradient buffers before the rounds; it is one update of the whole set
  const whole = trainAirModels(s.train, s.dev, { ...opts, epochs: 1, batch: s.train.length });
  const huge = trainAirModels(s.train, s.dev, { ...opts, epochs: 1, batch: 2_000_000_000 });
  assert.deepEqual(huge.curve.map((p) => [p.trainLm, p.devLm, p.devState]), whole.curve.map((p) => [p.trainLm, p.devLm, p.devState]));
  assert.deepEqual(huge.models.agent.params.map((p) => [...p.data]), whole.models.agent.params.map((p) => [...p.data]));
});

test('onBatch: one point an update, whose losses add up to the epoch\'s train loss, with the gradient norm before clipping', () => {
  const points: BatchPoint[] = [];
  const r = trainAirModels(s.train, [], { ...opts, onBatch: (p) => points.push(p) });
  const perEpoch = Math.ceil(s.train.length / opts.batch);
  assert.deepEqual(points.map((p) => [p.epoch, p.step]), Array.from({ length: 2 * perEpoch }, (_, k) => [1 + Math.floor(k / perEpoch), k + 1]));
  for (const e of [1, 2]) {
    const ps = points.filter((p) => p.epoch === e);
    assert.equal(ps.reduce((a, p) => a + p.dialogues, 0), s.train.length);
    const lm = ps.reduce((a, p) => a + p.lm, 0) / ps.reduce((a, p) => a + p.tokens, 0);
    assert.ok(Math.abs(lm - r.curve[e - 1]!.trainLm) < 1e-12 * lm, `epoch ${e}: ${lm} vs ${r.curve[e - 1]!.trainLm}`);
  }
  assert.ok(points.every((p) => Number.isFinite(p.gradNorm) && p.gradNorm > 0 && p.state > 0));
  // the first updates of fresh models are clipped (norm above 5), so the norm is read before clipping
  assert.ok(points[0]!.gradNorm > 5, `first gradient norm ${points[0]!.gradNorm}`);
});
