import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { MemN2N } from './memn2n.js';
import { WordVocab } from './word-vocab.js';
import { gradCheck } from '../nn/gradcheck.js';
import { syntheticCandidates, syntheticDialogs, syntheticKb } from './testing/synthetic.js';
import { RareWordIndex, SampledBatch, historyWords, type SampledExample } from './memn2n-sampled.js';
import { responseExamples } from './examples.js';
import { trainMemN2N } from './memn2n-train.js';
import { evaluateDialogs } from './evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';

const candidates = syntheticCandidates();
const kb = syntheticKb();

function setup(matchType: boolean): { m: MemN2N; items: SampledExample[]; batch: SampledBatch } {
  const dialogs = syntheticDialogs(6, 1);
  const vocab = new WordVocab();
  for (const d of dialogs) for (const t of d.turns) vocab.addText(t.text);
  for (const c of candidates) vocab.addText(c);
  vocab.add('#unused');
  const m = new MemN2N({ dim: 6, hops: 2, memorySize: 6, matchType }, vocab, kb);
  m.init(createRng(3), 0.5);
  const cand = m.candidates(candidates);
  const { examples } = responseExamples(dialogs, (t) => cand.index.indexOf(t));
  const words = historyWords(examples, (t) => vocab.encode(t));
  const rare = new RareWordIndex(cand.index, 8);
  const items = examples.map((e, k) => {
    const x = m.encode(e.dialog.turns.slice(0, e.turn));
    return { x, target: e.target, words: words[k]!, context: rare.candidatesOf(words[k]!, e.target) };
  });
  // 4 negatives out of 60 candidates: most candidates are left out of the softmax.
  return { m, items, batch: new SampledBatch(m, cand.index, { negatives: 4, contextMax: 0, lr: 0.1 }) };
}

for (const matchType of [false, true]) {
  test(`sampled batch: gradients of A, R, W${matchType ? ' (incl. type words)' : ''} match finite differences of the batch loss`, () => {
    const { m, items, batch } = setup(matchType);
    const ks = [1, 4, 7, 9];
    assert.ok(ks.some((k) => items[k]!.context.length > 0), 'some example has context negatives');
    const loss = (): number => {
      batch.begin(ks, items, createRng(5));
      let l = 0;
      for (const k of ks) l += batch.example(items[k]!, createRng(6));
      batch.end();
      return l;
    };
    batch.optimizer.zero();
    for (const p of m.params) p.grad.fill(0);
    loss();
    const grads = m.params.map((p) => p.grad.slice());
    m.params.forEach((p, i) => {
      const r = gradCheck(loss, p.data, grads[i]!, 1e-2, 300);
      assert.ok(r.maxRelError < 1e-2, `${p.name}: ${JSON.stringify(r)}`);
    });
    if (matchType) {
      const row = m.typeRow('R_cuisine');
      assert.ok(row >= 0);
      let s = 0;
      for (let k = 0; k < 6; k++) s += Math.abs(grads[2]![row * 6 + k]!);
      assert.ok(s > 0, 'the type word got a gradient');
    }
    // Only touched rows are stepped; an untouched row of A keeps its value.
    const untouched = m.vocab.id('#unused');
    const before = m.A.data.slice(untouched * 6, untouched * 6 + 6);
    batch.optimizer.clipAndStep(40);
    assert.deepEqual([...m.A.data.slice(untouched * 6, untouched * 6 + 6)], [...before]);
  });
}

for (const matchType of [false, true]) {
  test(`hard negatives${matchType ? ' (match types)' : ''}: with every wrong candidate among them the sampled loss is the full softmax's; with a few, the best-scoring ones are scored`, () => {
    const { m, items } = setup(matchType);
    const all = new SampledBatch(m, candidates, { negatives: 0, contextMax: 0, hard: candidates.length, lr: 0.1 });
    const ks = [0, 3, 5];
    all.begin(ks, items, createRng(1));
    const cand = m.candidates(candidates);
    const scratch = { scores: new Float32Array(candidates.length), g: new Float32Array(candidates.length) };
    for (const k of ks) {
      const full = m.lossAndGrad(items[k]!.x, items[k]!.target, cand, m.candidateGradient(cand), scratch);
      const sampled = all.example(items[k]!, createRng(2));
      assert.ok(Math.abs(full - sampled) < 1e-4 * (1 + full), `example ${k}: full ${full}, sampled ${sampled}`);
    }
    // Three hard negatives lower the loss less than the full softmax but more than none: they are the strongest rivals.
    const none = new SampledBatch(m, candidates, { negatives: 0, contextMax: 0, lr: 0.1 });
    const three = new SampledBatch(m, candidates, { negatives: 0, contextMax: 0, hard: 3, lr: 0.1 });
    const rand3 = new SampledBatch(m, candidates, { negatives: 3, contextMax: 0, lr: 0.1 });
    const e = { ...items[5]!, context: new Int32Array(0) };
    const lossOf = (b: SampledBatch): number => {
      b.begin([0], [e], createRng(9));
      return b.example(e, createRng(9));
    };
    const l0 = lossOf(none);
    const l3 = lossOf(three);
    const lr3 = lossOf(rand3);
    const lFull = m.lossAndGrad(e.x, e.target, cand, m.candidateGradient(cand), scratch);
    assert.equal(l0, 0, 'only the target: zero loss');
    assert.ok(l3 > lr3 && l3 <= lFull + 1e-6, `hard 3: ${l3}, random 3: ${lr3}, full: ${lFull}`);
  });
}

test('history words and context negatives: distinct ids of the dialog so far, candidates sharing a rare word', () => {
  const { m, items } = setup(true);
  const first = items[0]!;
  assert.deepEqual([...first.words].map((w) => m.vocab.words[w]), ['hello']);
  // Each context negative shares with the dialog so far a word held by at most 8 candidates.
  const cand = m.candidates(candidates);
  const df = new Map<number, number>();
  for (const ids of cand.index.ids) for (const w of new Set(ids)) df.set(w, (df.get(w) ?? 0) + 1);
  let seen = 0;
  for (const it of items) {
    assert.ok(!it.context.includes(it.target));
    const rare = new Set([...it.words].filter((w) => (df.get(w) ?? 0) <= 8));
    const expected = candidates.map((_, c) => c).filter((c) => c !== it.target && [...cand.index.ids[c]!].some((w) => rare.has(w)));
    assert.deepEqual([...it.context], expected);
    seen += expected.length;
  }
  assert.ok(seen > 0);
});

test('sampled and full-softmax training both learn the memory task; the sampled path is the default', () => {
  const train = syntheticDialogs(150, 11);
  const dev = syntheticDialogs(40, 12);
  const tst = syntheticDialogs(40, 13);
  const opts = { dim: 16, hops: 2, epochs: 15, patience: 0, seed: 2, lr: 0.01, negatives: 8, evalWorker: false };
  for (const negatives of [8, 0]) {
    const { model } = trainMemN2N({ train, dev, candidates, kb }, { ...opts, negatives, matchType: true });
    const acc = accuracy.perResponse(evaluateDialogs(model, tst, { candidates }));
    assert.ok(acc > 0.95, `negatives ${negatives}: ${acc}`);
  }
});
