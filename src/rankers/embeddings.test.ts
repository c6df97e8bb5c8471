import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { Embeddings } from './embeddings.js';
import { WordVocab, bigramWord } from './word-vocab.js';
import { gradCheck } from '../nn/gradcheck.js';
import { zeroGrads } from '../nn/params.js';
import { CITIES, CUISINES, OOV_CITIES, OOV_CUISINES, syntheticCandidates, syntheticDialogs, syntheticKb } from './testing/synthetic.js';
import { CandidateIndex } from './candidates.js';
import { trainEmbeddings } from './embeddings-train.js';
import { trainMemN2N } from './memn2n-train.js';
import { SharedNegativesBatch, bagCounts } from './embeddings-batch.js';
import { evaluateDialogs } from './evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';
import { decodeModelFile, encodeModelFile } from '../formats/model-file.js';
import { modelFromContent } from './registry.js';

const candidates = syntheticCandidates();
const kb = syntheticKb();

/** A small model and one example of a synthetic dialog, for the gradient checks. */
function gradientSetup(shareAB: boolean, matchType: boolean, dim = 5) {
  const vocab = new WordVocab();
  for (const c of candidates) vocab.addText(c);
  for (const d of syntheticDialogs(10, 1)) for (const t of d.turns) vocab.addText(t.text);
  const m = new Embeddings({ dim, input: 'history', shareAB, matchType }, vocab, kb);
  m.init(createRng(4), 0.5);
  const d = syntheticDialogs(1, 9)[0]!;
  const cand = m.candidates(candidates);
  const { x, slots } = m.encode(d.turns.slice(0, 5), cand);
  const present = slots ? m.presence(cand, slots) : undefined;
  return { m, d, x, cand, slots, present };
}

for (const [shareAB, matchType] of [[false, false], [true, true]] as const) {
  test(`embeddings margin-loss gradients match finite differences (shareAB=${shareAB}, match=${matchType})`, () => {
    const { m, d, x, cand, present } = gradientSetup(shareAB, matchType);
    const pos = candidates.indexOf(d.turns[5]!.text);
    const negs = [0, 1, 7, 12, 20, 33].filter((c) => c !== pos);
    const margin = 5; // large: every negative is active, so the loss is smooth around the point
    zeroGrads(m.params);
    const l = m.lossAndGrad(x, pos, negs, cand, present, margin);
    assert.ok(l > 0);
    const grads = m.params.map((p) => p.grad.slice());
    m.params.forEach((p, i) => {
      const r = gradCheck(() => m.lossAndGrad(x, pos, negs, cand, present, margin), p.data, grads[i]!, 1e-2, 400);
      assert.ok(r.maxRelError < 1e-2, `${p.name}: ${JSON.stringify(r)}`);
    });
  });
}

test('embeddings with history learn the synthetic task; save → load gives identical scores', () => {
  const train = syntheticDialogs(200, 31);
  const dev = syntheticDialogs(40, 32);
  const { model } = trainEmbeddings({ train, dev, candidates }, { dim: 16, epochs: 20, patience: 0, negatives: 20, margin: 0.5, seed: 3 });
  const acc = accuracy.perResponse(evaluateDialogs(model, syntheticDialogs(40, 33), { candidates }));
  assert.ok(acc > 0.9, `accuracy ${acc}`);
  const back = modelFromContent(decodeModelFile(encodeModelFile(model.toModelFile())), 'x');
  const h = dev[1]!.turns.slice(0, 5);
  assert.deepEqual([...back.rank(h, candidates)], [...model.rank(h, candidates)]);
});

test('embeddings: sparse SGD steps give the dense steps\' weights; bigrams add bigram words to inputs and candidates', () => {
  const train = syntheticDialogs(60, 41);
  const dev = syntheticDialogs(20, 42);
  const data = { train, dev, candidates: syntheticCandidates(), kb: syntheticKb() };
  const opts = { dim: 8, epochs: 3, patience: 0, seed: 4, negatives: 10, matchType: true, bigrams: true };
  const a = trainEmbeddings(data, { ...opts, sparse: true }).model;
  const b = trainEmbeddings(data, { ...opts, sparse: false }).model;
  assert.equal(a.name, 'embeddings+match+bigrams');
  a.params.forEach((p, i) => {
    const q = b.params[i]!;
    let max = 0;
    for (let k = 0; k < p.data.length; k++) max = Math.max(max, Math.abs(p.data[k]! - q.data[k]!));
    assert.ok(max < 1e-4, `${p.name}: ${max}`);
  });
  assert.ok(a.vocab.has(bigramWord('which', 'city')));
  const ids = a.vocab.encode('which city', true);
  assert.deepEqual(ids, [a.vocab.id('which'), a.vocab.id('city'), a.vocab.id(bigramWord('which', 'city'))]);
});

// dim 32: the set is scored with the WebAssembly float32-lane product.
for (const [shareAB, matchType, dim] of [[false, false, 5], [true, true, 5], [false, true, 32]] as const) {
  test(`embeddings with batch-shared negatives: gradients match finite differences (shareAB=${shareAB}, match=${matchType}, dim ${dim})`, () => {
    const { m, d, x, cand, slots } = gradientSetup(shareAB, matchType, dim);
    if (matchType) assert.ok(slots && slots.length > 0);
    const pos = candidates.indexOf(d.turns[5]!.text);
    const other = (pos + 3) % candidates.length;
    const run = (): number => {
      const b = new SharedNegativesBatch(m, cand, 30, 5, undefined);
      b.begin([pos, other], createRng(5));
      const l = b.example(x, pos, slots);
      b.end();
      return l;
    };
    zeroGrads(m.params);
    assert.ok(run() > 0);
    const grads = m.params.map((p) => p.grad.slice());
    // The input as distinct ids with counts: the same loss and gradients up to rounding.
    const bag = bagCounts(x);
    assert.ok(bag.ids.length < x.length);
    zeroGrads(m.params);
    const b = new SharedNegativesBatch(m, cand, 30, 5, undefined);
    b.begin([pos, other], createRng(5));
    b.example(bag.ids, pos, slots, bag.counts);
    b.end();
    m.params.forEach((p, i) => p.grad.forEach((g, k) => assert.ok(Math.abs(g - grads[i]![k]!) < 1e-4, `${p.name}[${k}]: ${g} vs ${grads[i]![k]}`)));
    m.params.forEach((p, i) => {
      const r = gradCheck(run, p.data, grads[i]!, 1e-2, 400);
      assert.ok(r.maxRelError < 1e-2, `${p.name}: ${JSON.stringify(r)}`);
    });
  });
}

test('embeddings with batch-shared negatives learn the synthetic task (with match types too); sparse steps give the dense weights; same seed, same weights', () => {
  const train = syntheticDialogs(200, 31);
  const dev = syntheticDialogs(40, 32);
  const data = { train, dev, candidates, kb };
  const opts = { dim: 16, epochs: 20, patience: 0, negatives: 20, margin: 0.5, seed: 3, sharedNegatives: true };
  for (const matchType of [false, true]) {
    const { model } = trainEmbeddings(data, { ...opts, matchType });
    const acc = accuracy.perResponse(evaluateDialogs(model, syntheticDialogs(40, 33), { candidates }));
    assert.ok(acc > 0.9, `match=${matchType}: accuracy ${acc}`);
  }
  const small = { ...opts, epochs: 3, matchType: true };
  const a = trainEmbeddings(data, { ...small, sparse: true }).model;
  const b = trainEmbeddings(data, { ...small, sparse: false }).model;
  const c = trainEmbeddings(data, { ...small, sparse: true }).model;
  a.params.forEach((p, i) => {
    const q = b.params[i]!;
    let max = 0;
    for (let k = 0; k < p.data.length; k++) max = Math.max(max, Math.abs(p.data[k]! - q.data[k]!));
    assert.ok(max < 1e-4, `${p.name}: ${max}`);
    assert.deepEqual(p.data, c.params[i]!.data);
  });
});

test('embeddings: ranking a dialog turn by turn (incremental history) gives the scores of fresh histories, for every input mode and feature', () => {
  const train = syntheticDialogs(30, 51);
  const dialogs = syntheticDialogs(6, 52, 'oov');
  for (const opts of [{ matchType: true }, { bigrams: true }, { matchType: true, bigrams: true, input: 'last' as const }, { input: 'history' as const }]) {
    const { model } = trainEmbeddings({ train, dev: train.slice(0, 3), candidates, kb }, { dim: 8, epochs: 1, patience: 0, seed: 5, negatives: 10, ...opts });
    for (const d of dialogs)
      for (let i = 1; i <= d.turns.length; i++) {
        const incremental = model.rank(d.turns.slice(0, i), candidates);
        // New turn objects: the model cannot extend its state, it starts over.
        const fresh = model.rank(d.turns.slice(0, i).map((t) => ({ ...t })), candidates);
        assert.deepEqual([...incremental], [...fresh], JSON.stringify(opts));
      }
  }
});

test('CandidateIndex: the flat typed-word table gives the types of `matches`, with slots only for typed words', () => {
  const vocab = new WordVocab();
  for (const c of candidates) vocab.addText(c);
  const index = new CandidateIndex(candidates, vocab, kb);
  assert.deepEqual(index.typeNames, ['R_cuisine', 'R_location']);
  assert.equal(index.slot('which'), -1);
  assert.equal(index.slots, CUISINES.length + OOV_CUISINES.length + CITIES.length + OOV_CITIES.length);
  const context = ['i', 'love', 'thai', 'food', 'in', 'rome', 'seoul'];
  const present = new Uint8Array(index.slots);
  for (const w of context) if (index.slot(w) >= 0) present[index.slot(w)] = 1;
  const out = new Int32Array(index.typeNames.length);
  const expected = index.matches(context);
  let matched = 0;
  for (let c = 0; c < candidates.length; c++) {
    const m = index.matchedTypes(c, present, out);
    const got = [...out.subarray(0, m)].map((t) => index.typeNames[t]).sort();
    assert.deepEqual(got, [...(expected.get(c) ?? [])].sort(), candidates[c]);
    if (m > 0) matched++;
  }
  assert.equal(matched, expected.size);
  assert.equal(index.matchedTypes(candidates.indexOf('api_call thai rome'), present, out), 2);
  assert.deepEqual([...index.candidatesOfSlot(index.slot('rome'))], candidates.flatMap((c, i) => (c.split(' ').includes('rome') ? [i] : [])));
});

test('embeddings and memn2n refuse a training file none of whose bot turns is a candidate (one ConfigError line)', () => {
  const train = syntheticDialogs(5, 31);
  const unrelated = ['nothing the bot says', 'nor this'];
  const refusal = { name: 'ConfigError', message: 'no training example: no bot turn of the training file is among the candidates' };
  assert.throws(() => trainEmbeddings({ train, dev: train, candidates: unrelated }, { epochs: 1 }), refusal);
  assert.throws(() => trainMemN2N({ train, dev: train, candidates: unrelated }, { epochs: 1 }), refusal);
});
