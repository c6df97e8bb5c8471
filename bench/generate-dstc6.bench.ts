/**
 * DSTC6 simulator: for every test set and task, 1000 generated entries (real KB of the set) against
 * the real file — utterances per entry, candidate-count histogram, delexicalised user utterances
 * (per unit and whole), the rules bot's P@1 — and entries per second; then the five training
 * files (10,000 entries, generated KB) against the official training statistics. Baseline in the
 * same run: reading the real file back (parse time), for the generate/parse speed ratio.
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { createRng } from '../src/core/rng.js';
import { parseDstc6Data, formatDstc6Data, readDstc6Data } from '../src/formats/dstc6.js';
import { generateExtendedKbs } from '../src/testbeds/dstc6/extended-kb.js';
import { DSTC6_KB, readKb } from '../src/testbeds/restaurant/kb-dialects.js';
import { compareFigures, fileFigures, formatHistogram } from '../src/testbeds/dstc6/sim-compare.js';
import { DSTC6_SETS, SET_SPECS, dstc6FileName, generateSet } from '../src/testbeds/dstc6/sim-dataset.js';
import { DSTC6_TASKS } from '../src/testbeds/dstc6/sim-dialog.js';
import { distinctCandidates, rankDstc6 } from '../src/testbeds/dstc6/rank.js';
import { scoreDstc6 } from '../src/testbeds/dstc6/score.js';
import { precisionAtK } from '../src/metrics/ranking.js';
import { createModel } from '../src/rankers/registry.js';
import '../src/index.js'; // every testbed, loaded
import { isResponder, responderAsRanker } from '../src/rankers/ranker.js';

const dataDir = join(process.env.DIALOGYM_DATA ?? join(process.cwd(), '..', 'shared', 'data'), 'dstc6-track1', 'dataset-E2E-goal-oriented-test-v1.0');
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const seed = Number(process.env.BENCH_SEED ?? 1);

if (existsSync(dataDir)) {
  const kbs = { 1: readKb(join(dataDir, 'extendedkb1.txt'), DSTC6_KB).restaurants, 2: readKb(join(dataDir, 'extendedkb2.txt'), DSTC6_KB).restaurants };
  console.log('set  task  utt/entry real gen (diff)   cand max diff  units cov prec   whole cov prec   rules P@1  entries/s  gen/parse');
  for (const set of DSTC6_SETS) {
    if (set === 'trn') continue;
    for (const task of DSTC6_TASKS) {
      const realFile = join(dataDir, set, dstc6FileName(task, set));
      let t0 = performance.now();
      const g = generateSet({ task, set, restaurants: kbs[SET_SPECS[set].kb], rng: createRng(seed).fork(`task${task}`).fork(set) });
      const text = formatDstc6Data(g.entries);
      const genMs = performance.now() - t0;
      t0 = performance.now();
      parseDstc6Data(text, 'gen');
      const parseMs = performance.now() - t0;
      const c = compareFigures(fileFigures(readDstc6Data(realFile)), fileFigures(g.entries));
      const model = createModel('rules', { candidates: distinctCandidates(g.entries) });
      const ranker = isResponder(model) ? responderAsRanker(model) : model;
      const p1 = precisionAtK.value(scoreDstc6(rankDstc6(g.entries, (h, cs) => ranker.rank(h, cs)), g.answers).precision, 1);
      console.log(
        `${set} ${task}     ${c.real.meanUtterances.toFixed(2).padStart(6)} ${c.generated.meanUtterances.toFixed(2).padStart(6)} (${pct(c.utteranceRelDiff).padStart(5)})   ${(100 * c.candidateMaxDiff).toFixed(1).padStart(4)} pp        ${pct(c.unitCoverage).padStart(6)} ${pct(c.unitPrecision).padStart(6)}   ${pct(c.userCoverage).padStart(6)} ${pct(c.userPrecision).padStart(6)}   ${p1.toFixed(3)}      ${((g.entries.length / genMs) * 1000).toFixed(0).padStart(6)}     ${(parseMs / genMs).toFixed(2)}`,
      );
      console.log(`           candidates real ${formatHistogram(c.real.candidateHistogram)} | generated ${formatHistogram(c.generated.candidateHistogram)}`);
    }
  }
} else {
  console.log(`(real DSTC6 files not found in ${dataDir}: test-set comparison skipped)`);
}

const official = { 1: 9.91, 2: 11.59, 3: 41.82, 4: 13.26, 5: 41.21 } as const;
const kb1 = generateExtendedKbs(createRng(seed).fork('kb'))[1];
console.log('trn task  entries  utt/entry gen official (diff)  entries/s');
for (const task of DSTC6_TASKS) {
  const t0 = performance.now();
  const g = generateSet({ task, set: 'trn', restaurants: kb1, rng: createRng(seed).fork(`task${task}`).fork('trn') });
  const ms = performance.now() - t0;
  const mean = g.entries.reduce((a, e) => a + e.utterances.length, 0) / g.entries.length;
  console.log(`trn ${task}     ${g.entries.length}   ${mean.toFixed(2).padStart(6)} ${official[task].toFixed(2).padStart(6)} (${pct(Math.abs(mean - official[task]) / official[task]).padStart(5)})    ${((g.entries.length / ms) * 1000).toFixed(0)}`);
}
