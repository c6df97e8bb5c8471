/**
 * DSTC6 benchmark on the 20 real test files (20,000 entries): TF-IDF baseline and scoring
 * throughput in entries/s, each against a naive implementation measured in the same run:
 * - tfidf: a straightforward Map-of-strings vectoriser (Map<term, weight> per document, cosine by
 *   Map lookups) vs the typed-array one (term ids, Float64Array rows, one scratch buffer);
 * - score: a naive scorer (find the result entry by a linear scan, sort its ranks, slice) vs
 *   `scoreDstc6` (Map by dialog id, rank slots).
 * Both pairs must agree on P@1/2/5, which the benchmark checks.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { readDstc6Data, readDstc6Results, rankingResult, type Dstc6Entry, type Dstc6Result } from '../src/formats/dstc6.js';
import { scoreDstc6 } from '../src/testbeds/dstc6/score.js';
import { sklearnTokens } from '../src/testbeds/dstc6/sklearn-text.js';
import { tfidfBaseline } from '../src/testbeds/dstc6/tfidf-baseline.js';
import { orderByScore, precisionAtK } from '../src/metrics/ranking.js';
import { dstc6Dir } from '../test/shared-data.js';
import { dstc6TestFiles } from '../test/dstc6-files.js';

if (!existsSync(dstc6Dir)) {
  process.stdout.write(`skipped: ${dstc6Dir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}

const REPEATS = Number(process.env.DSTC6_BENCH_REPEATS ?? 3);

/** Best of `REPEATS` timings (seconds). */
function best<T>(fn: () => T): { value: T; seconds: number } {
  let value!: T;
  let seconds = Infinity;
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now();
    value = fn();
    seconds = Math.min(seconds, (performance.now() - t0) / 1000);
  }
  return { value, seconds };
}

/** The naive vectoriser: same definitions (smooth idf, l2), plain Maps of strings. */
function naiveTfidf(entries: readonly Dstc6Entry[]): Dstc6Result[] {
  const docs = entries.map((e) => sklearnTokens(e.utterances.join(' ')));
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  const vector = (tokens: string[]): Map<string, number> => {
    const v = new Map<string, number>();
    for (const t of tokens) if (df.has(t)) v.set(t, (v.get(t) ?? 0) + 1);
    let norm = 0;
    for (const [t, c] of v) {
      const w = c * (Math.log((1 + n) / (1 + (df.get(t) as number))) + 1);
      v.set(t, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [t, w] of v) v.set(t, w / norm);
    return v;
  };
  return entries.map((e, i) => {
    const dv = vector(docs[i] as string[]);
    const scores = e.candidates.map((c) => {
      let s = 0;
      for (const [t, w] of vector(sklearnTokens(c.utterance))) s += w * (dv.get(t) ?? 0);
      return s;
    });
    return rankingResult(
      e.dialog_id,
      orderByScore(scores).map((k) => (e.candidates[k] as Dstc6Entry['candidates'][number]).candidate_id),
    );
  });
}

/** The naive scorer: linear scan for each truth dialog. */
function naiveScore(result: readonly Dstc6Result[], truth: readonly Dstc6Result[]): number[] {
  const ks = [1, 2, 5];
  const hits = ks.map(() => 0);
  for (const t of truth) {
    const answer = t.lst_candidate_id.find((c) => c.rank === 1)?.candidate_id;
    const r = result.filter((x) => x.dialog_id === t.dialog_id).pop();
    if (!r) continue;
    const ranked = [...r.lst_candidate_id].filter((c) => c.rank <= 10).sort((a, b) => a.rank - b.rank);
    ks.forEach((k, i) => {
      if (ranked.filter((c) => c.rank <= k).some((c) => c.candidate_id === answer)) hits[i] = (hits[i] as number) + 1;
    });
  }
  return hits.map((h) => h / truth.length);
}

const files = dstc6TestFiles();
const load = best(() => files.map((f) => ({ f, data: readDstc6Data(f.data), truth: readDstc6Results(f.answers) })));
const sets = load.value;
const entries = sets.reduce((n, s) => n + s.data.length, 0);
const mb = sets.reduce((n, s) => n + JSON.stringify(s.data).length, 0) / 1e6;
const line = (s: string): void => {
  process.stdout.write(s + '\n');
};
line(`data: ${files.length} files, ${entries} entries (~${mb.toFixed(1)} MB JSON); best of ${REPEATS} runs`);
line(`read+validate data and answers: ${load.seconds.toFixed(3)} s = ${Math.round(entries / load.seconds)} entries/s`);

const fast = best(() => sets.map((s) => tfidfBaseline(s.data)));
const naive = best(() => sets.map((s) => naiveTfidf(s.data)));
line(`tfidf (typed arrays): ${fast.seconds.toFixed(3)} s = ${Math.round(entries / fast.seconds)} entries/s`);
line(`tfidf (naive Maps):   ${naive.seconds.toFixed(3)} s = ${Math.round(entries / naive.seconds)} entries/s`);
line(`tfidf speed-up: ${(naive.seconds / fast.seconds).toFixed(2)}x`);

const sc = best(() => sets.map((s, i) => scoreDstc6(fast.value[i] as Dstc6Result[], s.truth)));
const scNaive = best(() => sets.map((s, i) => naiveScore(fast.value[i] as Dstc6Result[], s.truth)));
line(`score (Map + slots): ${sc.seconds.toFixed(4)} s = ${Math.round(entries / sc.seconds)} entries/s`);
line(`score (naive scan):  ${scNaive.seconds.toFixed(4)} s = ${Math.round(entries / scNaive.seconds)} entries/s`);
line(`score speed-up: ${(scNaive.seconds / sc.seconds).toFixed(1)}x`);

// Agreement: the fast pair reproduces the official figures; the naive pair must agree with it.
let maxOfficial = 0;
let maxNaive = 0;
sets.forEach((s, i) => {
  const p = [1, 2, 5].map((k) => precisionAtK.value((sc.value[i] as ReturnType<typeof scoreDstc6>).precision, k));
  const pn = naiveScore(naive.value[i] as Dstc6Result[], s.truth);
  p.forEach((x, j) => {
    maxOfficial = Math.max(maxOfficial, Math.abs(x - (s.f.tfidf[j] as number)));
    maxNaive = Math.max(maxNaive, Math.abs(x - (pn[j] as number)), Math.abs(x - ((scNaive.value[i] as number[])[j] as number)));
  });
});
line(`max |P@k - official| over 20 files x 3 k: ${maxOfficial.toFixed(4)}; max |fast - naive|: ${maxNaive.toFixed(4)}`);
if (maxOfficial > 0.005) process.exitCode = 1;
