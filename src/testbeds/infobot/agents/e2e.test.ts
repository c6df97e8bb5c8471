import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../../../core/rng.js';
import { gradCheck } from '../../../nn/gradcheck.js';
import { zeroGrads } from '../../../nn/params.js';
import { setRowKernelsScalar } from '../../../nn/row-sums.js';
import { E2eAgent } from './e2e-agent.js';
import { loadE2e, saveE2e } from './e2e-file.js';
import { e2eTrainOptions, informTrackerGrads, trainE2e } from './e2e-train.js';
import { InfoBotEnv } from '../env.js';
import { agentContext, evaluateAgent, runEpisodes, summarize } from '../evaluate.js';
import { MISSING, MovieKb } from '../movie-kb.js';
import { handInput, NeuralTracker, type TrackerStep } from './neural-tracker.js';
import { NgramVocab, ngramKeys } from './ngrams.js';
import { resultsLogProb, resultsLogProbGradA, sampleResults, softLookupBackward } from './soft-kb-grad.js';
import { softPosterior } from '../soft-kb.js';
import { M } from '../slots.js';

function smallKb(seed: number, n: number): MovieKb {
  const rng = createRng(seed);
  const vocab = Array.from({ length: M }, (_, j) => Array.from({ length: 2 + (j % 3) }, (_, k) => `v${j} w${k}`));
  const cells = new Int32Array(n * M);
  for (let i = 0; i < n; i++) for (let j = 0; j < M; j++) cells[i * M + j] = rng.chance(0.2) ? MISSING : rng.int((vocab[j] as string[]).length);
  for (let j = 0; j < M; j++) for (let k = 0; k < (vocab[j] as string[]).length; k++) cells[k * M + j] = k;
  return new MovieKb(Array.from({ length: n }, (_, i) => `movie ${i}`), vocab, cells);
}

test('n-grams: unigrams and bigrams; the vocabulary keeps KB unigrams and frequent bigrams only', () => {
  assert.deepEqual(ngramKeys('Starring Tom Hanks, rated PG-13'), ['starring', 'tom', 'hanks', 'rated', 'pg-13', 'starring tom', 'tom hanks', 'hanks rated', 'rated pg-13']);
  const v = NgramVocab.build([['tom hanks'], [], [], [], [], []], ['starring tom hanks', 'starring tom hanks', 'starring tom hanks', 'odd words'], { minBigramCount: 3 });
  assert.ok(v.entries.includes('tom') && v.entries.includes('hanks') && v.entries.includes('tom hanks') && v.entries.includes('starring'));
  assert.ok(!v.entries.includes('odd words'), 'rare bigram dropped');
  assert.equal(v.featurize('tom hanks tom').length, 3);
  assert.equal(v.featurize('zzz qqq').length, 0);
});

test('sampling without replacement (eq. 20): log-probabilities of all ordered draws sum to 1', () => {
  const post = Float64Array.from([0.5, 0.3, 0.15, 0.05]);
  let s = 0;
  for (let a = 0; a < 4; a++) for (let b = 0; b < 4; b++) if (a !== b) s += Math.exp(resultsLogProb(post, [a, b]));
  assert.ok(Math.abs(s - 1) < 1e-12, String(s));
  const rng = createRng(3);
  let first0 = 0;
  for (let i = 0; i < 4000; i++) {
    const r = sampleResults(post, 3, rng);
    assert.equal(new Set(r).size, 3);
    if (r[0] === 0) first0++;
  }
  assert.ok(Math.abs(first0 / 4000 - 0.5) < 0.03, `row 0 drawn first ${first0 / 4000}`);
});

test('soft lookup backward: ∂ log Pr(μ) / ∂(slot logits, q logits) match finite differences', () => {
  const kb = smallKb(2, 12);
  const rng = createRng(9);
  const z = kb.vocab.map((v) => Float32Array.from(v, () => rng.normal(0, 1)));
  const y = Float32Array.from({ length: M }, () => rng.normal(0, 1.5));
  const results = [3, 7, 0];
  const beliefs = () => ({
    p: z.map((zj) => {
      const m = Math.max(...zj);
      const e = Float64Array.from(zj, (x) => Math.exp(x - m));
      const s = e.reduce((a, b) => a + b, 0);
      return e.map((x) => x / s);
    }),
    q: Float64Array.from(y, (x) => 1 / (1 + Math.exp(-x))),
  });
  const loss = (): number => resultsLogProb(softPosterior(kb, beliefs()), results);
  const b = beliefs();
  const post = softPosterior(kb, b);
  const da = new Float64Array(kb.n);
  const lp = resultsLogProbGradA(post, results, da);
  assert.ok(Math.abs(lp - loss()) < 1e-12);
  const g = softLookupBackward(kb, b, da);
  for (let j = 0; j < M; j++) {
    const p = b.p[j] as Float64Array;
    const d = g.dp[j] as Float64Array;
    const s = p.reduce((a, pk, k) => a + pk * (d[k] as number), 0);
    const dz = Float32Array.from(p, (pk, k) => pk * ((d[k] as number) - s));
    const r = gradCheck(loss, z[j] as Float32Array, dz, 1e-3);
    assert.ok(r.maxRelError < 1e-3, `slot ${j} values: ${r.maxRelError}`);
  }
  const dy = Float32Array.from(g.dq, (x, j) => x * (b.q[j] as number) * (1 - (b.q[j] as number)));
  const r = gradCheck(loss, y, dy, 1e-3);
  assert.ok(r.maxRelError < 1e-3, `q: ${r.maxRelError}`);
});

for (const residual of [false, true]) {
test(`neural tracker${residual ? ' (residual: + λ log p̂, μ logit q̂)' : ''}: BPTT gradients of supervised and REINFORCE (through the lookup) losses match finite differences`, () => {
  const kb = smallKb(4, 10);
  const vocab = new NgramVocab(['a', 'b', 'c', 'd', 'a b', 'c d', 'e']);
  const tracker = new NeuralTracker({ vocab: vocab.size, values: kb.vocab.map((v) => v.length), embed: 4, hidden: 3, valueNgrams: kb.vocab.map((v, j) => v.map((_, k) => Int32Array.from([(j + k) % 7, (j * k) % 7]))), residual }).init(createRng(1), kb.priors);
  const rng = createRng(2);
  assert.equal(tracker.residual, residual);
  // Hand-crafted beliefs of each turn (fixed inputs): random distributions, q̂ near 0 or 1.
  const hands = [0, 1, 2].map(() => handInput({ p: kb.vocab.map((v) => { const x = v.map(() => rng.next() + 0.01); const z = x.reduce((a, b) => a + b, 0); return x.map((y) => y / z); }), q: Array.from({ length: 6 }, () => (rng.chance(0.3) ? 0 : 1)) }));
  for (const p of tracker.params) for (let i = 0; i < p.data.length; i++) p.data[i] = (p.data[i] as number) + rng.normal(0, 0.3);
  const utterances = ['a b c', 'd e', 'c d a'];
  const requests: (number | null)[] = [null, 2, 4];
  const targets = kb.vocab.map((v, j) => (j * 7) % v.length);
  const run = (): TrackerStep[] => {
    let s = tracker.initialState();
    return utterances.map((u, t) => {
      const st = tracker.step(vocab.featurize(u), requests[t] as number | null, s, residual ? hands[t] : undefined);
      s = st.caches.map((c) => c.h);
      return st;
    });
  };
  // Supervised: Σ_t Σ_j −log p_j(target_j) − log q_j.
  const sup = (): number => run().reduce((a, st) => a + st.p.reduce((b, p, j) => b - Math.log(p[targets[j] as number] as number) - Math.log(st.q[j] as number), 0), 0);
  zeroGrads(tracker.params);
  const steps = run();
  tracker.backward(
    steps,
    steps.map((st) => st.p.map((p, j) => Float32Array.from(p, (x, k) => x - (k === targets[j] ? 1 : 0)))),
    steps.map((st) => Float32Array.from(st.q, (q) => q - 1)),
  );
  for (const p of tracker.params) {
    const r = gradCheck(sup, p.data, p.grad, 1e-2, 40);
    assert.ok(r.maxRelError < 5e-3, `supervised ${p.name}: ${r.maxRelError} at ${r.worst}`);
  }
  // REINFORCE through the lookup: L = −adv · log Pr(μ) with μ fixed, beliefs of the last turn.
  const adv = 0.7;
  const results = [1, 5, 8];
  const rl = (): number => {
    const st = run()[utterances.length - 1] as TrackerStep;
    const b = { p: st.p.map((x) => Float64Array.from(x)), q: Float64Array.from(st.q) };
    return -adv * resultsLogProb(softPosterior(kb, b), results);
  };
  zeroGrads(tracker.params);
  const steps2 = run();
  const last = steps2[steps2.length - 1] as TrackerStep;
  const p = last.p.map((x) => Float64Array.from(x));
  const q = Float64Array.from(last.q);
  const fake = { trackerSteps: steps2, inform: { results, posterior: softPosterior(kb, { p, q }), p, q, turn: steps2.length - 1 } } as unknown as E2eAgent;
  const g = informTrackerGrads(fake, kb, adv);
  tracker.backward(steps2, g.dp, g.dq);
  for (const prm of tracker.params) {
    const r = gradCheck(rl, prm.data, prm.grad, 1e-2, 40);
    assert.ok(r.maxRelError < 5e-3, `reinforce ${prm.name}: ${r.maxRelError} at ${r.worst}`);
  }
});
}

test('e2e-soft: a short training on Small is deterministic, saves and reloads, and plays through evaluateAgent', () => {
  const env = new InfoBotEnv({ split: 'small' });
  const opts = { split: 'small' as const, env, imitation: 256, episodes: 128, imitationBatch: 32, batch: 32, vocabEpisodes: 100, embed: 8, trackerHidden: 8, hidden: 8, validateEvery: 128, validationEpisodes: 50 };
  const a = trainE2e(opts);
  const b = trainE2e(opts);
  assert.equal(a.curve.length, 12);
  assert.ok(a.curve.some((p) => p.phase === 'reinforce') && a.curve.some((p) => p.phase === 'imitation'));
  const dir = mkdtempSync(join(tmpdir(), 'e2e-'));
  saveE2e(join(dir, 'a.dgm'), a);
  saveE2e(join(dir, 'b.dgm'), b);
  assert.ok(readFileSync(join(dir, 'a.dgm')).equals(readFileSync(join(dir, 'b.dgm'))), 'same seed, byte-identical file');
  const loaded = loadE2e(join(dir, 'a.dgm'));
  assert.equal(loaded.meta.vocab.length, a.parts.vocab.size);
  const r1 = evaluateAgent({ agent: join(dir, 'a.dgm'), episodes: 100, env, seed: 3 });
  assert.equal(r1.agent, 'e2e-soft');
  saveE2e(join(dir, 'e2e-soft-small.dgm'), a);
  const r2 = evaluateAgent({ agent: 'e2e-soft', episodes: 100, env, seed: 3, policyDir: dir });
  assert.deepEqual(r2, r1, 'the default policy of the folder is the same agent');
  assert.equal(new E2eAgent(agentContext(env), a.parts).mode, 'greedy');
  // Continuing from the trained agent: the curve goes on from where it stopped.
  const c = trainE2e({ ...opts, imitation: 0, episodes: 64, init: { parts: loaded.parts, curve: loaded.meta.curve } });
  assert.equal(c.curve.length, a.curve.length + 2);
  assert.equal(c.curve.at(-1)?.episodes, 384 + 64);
  assert.equal(c.parts.tracker, loaded.parts.tracker);
});

test('e2e-soft on the WebAssembly row kernels (held weights, GruBackprop, RowsBackprop): the same parameters and curve as the JS loops', () => {
  const env = new InfoBotEnv({ split: 'small' });
  const opts = { split: 'small' as const, env, imitation: 96, episodes: 96, imitationBatch: 32, batch: 32, vocabEpisodes: 50, embed: 8, trackerHidden: 8, hidden: 8, validateEvery: 64, validationEpisodes: 20, residual: true, temperatures: [1, 3] };
  const wasm = trainE2e(opts);
  const was = setRowKernelsScalar(true);
  let js: ReturnType<typeof trainE2e>;
  try {
    js = trainE2e(opts);
  } finally {
    setRowKernelsScalar(was);
  }
  assert.deepEqual(wasm.curve, js.curve);
  const params = (r: ReturnType<typeof trainE2e>) => [...r.parts.tracker.params, ...r.parts.policy.params].map((p) => [p.name, [...p.data]]);
  assert.deepEqual(params(wasm), params(js));
  assert.ok(wasm.curve.some((p) => p.phase === 'reinforce' && p.reward !== 0), 'REINFORCE ran');
});

test('e2e-soft residual: mixing weights start at 1, are trained, saved and reloads with its mixing weights, same play in training and inference mode', () => {
  const env = new InfoBotEnv({ split: 'small' });
  const opts = { split: 'small' as const, env, imitation: 64, episodes: 64, imitationBatch: 32, batch: 32, vocabEpisodes: 50, embed: 8, trackerHidden: 8, hidden: 8, validateEvery: 64, validationEpisodes: 20, residual: true };
  // Untrained: λ = μ = 1 (with zero biases and small W the tracker starts near the hand-crafted one).
  const fresh = trainE2e({ ...opts, imitation: 0, episodes: 0, validateEvery: 0 });
  assert.ok(fresh.parts.tracker.residual);
  assert.deepEqual([...(fresh.parts.tracker.mix?.data ?? [])], new Array(2 * M).fill(1));
  const a = trainE2e(opts);
  const dir = mkdtempSync(join(tmpdir(), 'e2e-res-'));
  saveE2e(join(dir, 'a.dgm'), a);
  const loaded = loadE2e(join(dir, 'a.dgm'));
  assert.equal(loaded.meta.residual, true);
  assert.deepEqual([...(loaded.parts.tracker.mix?.data ?? [])], [...(a.parts.tracker.mix?.data ?? [])]);
  assert.notDeepEqual([...(a.parts.tracker.mix?.data ?? [])], new Array(2 * M).fill(1), 'the mixing weights are trained');
  const r1 = evaluateAgent({ agent: join(dir, 'a.dgm'), episodes: 60, env, seed: 5 });
  // Training dialogs at other NLG temperatures: other utterances, so another training; bad lists rejected.
  const hot = trainE2e({ ...opts, temperatures: [0, 3] });
  assert.notDeepEqual(hot.curve.map((p) => p.reward), a.curve.map((p) => p.reward));
  assert.deepEqual(hot.options.temperatures, [0, 3]);
  assert.throws(() => e2eTrainOptions({ split: 'small', temperatures: [] }), /temperatures/);
  assert.throws(() => e2eTrainOptions({ split: 'small', temperatures: [-1] }), /temperatures/);
  // The recording (training) forward gives the same play as the allocation-free inference forward.
  const agent = new E2eAgent(agentContext(env), loaded.parts, { mode: 'greedy', record: true });
  const r2 = summarize('e2e-soft', 'small', runEpisodes(env, { agent, privileged: false, name: 'e2e-soft' }, 5, 0, 60));
  assert.deepEqual(r2, r1);
});

test('e2e-soft reaskLost / validationTemperature: the re-asking expert changes imitation on noisy dialogs, validation runs at its temperature, options are saved', () => {
  const env = new InfoBotEnv({ split: 'small' });
  const opts = { split: 'small' as const, env, imitation: 96, episodes: 0, imitationBatch: 32, vocabEpisodes: 50, embed: 8, trackerHidden: 8, hidden: 8, validateEvery: 96, validationEpisodes: 40, residual: true, temperatures: [3] };
  const base = trainE2e(opts);
  const reask = trainE2e({ ...opts, reaskLost: true });
  // At τ = 3 many answers lose their value: the expert re-asks, so the imitation dialogs differ.
  assert.notDeepEqual(reask.curve.map((p) => p.turns), base.curve.map((p) => p.turns));
  assert.equal(reask.options.reaskLost, true);
  assert.equal(base.options.reaskLost, false);
  // Without noise no answer is lost (values are whole at τ = 0 up to the simulator's corruption): same training or nearly.
  const cold = trainE2e({ ...opts, temperatures: [0], validationTemperature: 3 });
  assert.equal(cold.options.validationTemperature, 3);
  const coldAt1 = trainE2e({ ...opts, temperatures: [0] });
  assert.deepEqual(cold.curve.map((p) => p.reward), coldAt1.curve.map((p) => p.reward), 'validation does not change training');
  assert.notEqual(cold.bestValidReward, coldAt1.bestValidReward, 'validation dialogs at τ = 3');
  const dir = mkdtempSync(join(tmpdir(), 'e2e-reask-'));
  saveE2e(join(dir, 'r.dgm'), reask);
  assert.equal(loadE2e(join(dir, 'r.dgm')).meta.options.reaskLost, true);
  assert.throws(() => e2eTrainOptions({ split: 'small', validationTemperature: -1 }), /validationTemperature/);
});

test('e2e-soft without a trained default fails with a clear message; a wrong model file is rejected', () => {
  const env = new InfoBotEnv({ split: 'small' });
  const dir = mkdtempSync(join(tmpdir(), 'e2e-none-'));
  assert.throws(() => evaluateAgent({ agent: 'e2e-soft', episodes: 1, env, policyDir: dir }), /needs a trained policy: run infobot train \(agent: e2e-soft, split: small\) \(writes .*\), or pass agent <policy\.dgm>$/);
  assert.throws(() => loadE2e(join(dir, 'missing.dgm')), /missing\.dgm/);
});
