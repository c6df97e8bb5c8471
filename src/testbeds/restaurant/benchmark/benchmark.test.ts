import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DialogymError } from '../../../core/errors.js';
import { readBabiKb } from '../../../formats/babi.js';
import { restaurantsOf } from './data.js';
import { babiDir, skipUnless } from '../../../../test/shared-data.js';
import { FULL_PROFILE, PAPER_PROFILE, QUICK_PROFILE, cellData, learnedOptions, profileNamed, runBenchmark, seedsOf, summarizeRuns, trainerOf, type BenchmarkProfile, type BenchmarkResult, type BenchmarkRow } from './benchmark.js';
import { meanSd } from '../../../metrics/stats.js';
import { MEMN2N_TRAIN_DEFAULTS } from '../../../rankers/memn2n-train.js';
import { benchmarkLatex, benchmarkMarkdown, benchmarkSvg, paperVerdicts } from './report.js';
import { checkLatex } from '../../../report/testing/latex-check.js';
import { table10Cell } from './paper.js';

const TINY: BenchmarkProfile = {
  ...QUICK_PROFILE,
  name: 'tiny',
  dialogs: 30,
  limits: { train: 30, dev: 30, test: 30 },
  override: { embeddings: { epochs: 1 }, memn2n: { epochs: 2 }, hcn: { epochs: 1 } },
};

const scores = (rows: readonly BenchmarkRow[]): string[] => rows.map((r) => `${r.test} ${r.model} ${r.perResponse} ${r.perDialog}`);

test('profile options: base, then per task, then override', () => {
  const p: BenchmarkProfile = { ...QUICK_PROFILE, perTask: { 5: { embeddings: { margin: 0.01, epochs: 9 } } }, override: { embeddings: { epochs: 3 } } };
  assert.deepEqual(learnedOptions(p, 'embeddings', 5), { ...QUICK_PROFILE.embeddings, margin: 0.01, epochs: 3 });
  assert.deepEqual(learnedOptions(p, 'embeddings', 1), { ...QUICK_PROFILE.embeddings, epochs: 3 });
  assert.deepEqual(trainerOf('memn2n+match', p, 7, 1), { kind: 'memn2n+match', opts: { ...QUICK_PROFILE.memn2n, seed: 7 } });
  assert.deepEqual(trainerOf('nn', p, 7, 1), { kind: 'nn', opts: {} });
  assert.deepEqual(trainerOf('hcn', p, 7, 1), { kind: 'hcn', opts: { ...QUICK_PROFILE.hcn, seed: 7 } });
  // The full profile's per-task settings: task 3 embeddings read the last user utterance.
  assert.equal(trainerOf('embeddings', FULL_PROFILE, 1, 3).opts.input, 'last');
  assert.equal(trainerOf('embeddings', FULL_PROFILE, 1, 5).opts.input, undefined);
  // MemN2N recipe chosen on dev, the trainer's defaults: 100 sampled negatives plus 10 hard negatives and sparse Adam, on every task, ± match types.
  for (const task of [1, 4, 5, 6]) {
    for (const model of ['memn2n', 'memn2n+match'] as const) {
      const opts = { ...MEMN2N_TRAIN_DEFAULTS, ...trainerOf(model, FULL_PROFILE, 1, task).opts };
      assert.deepEqual([opts.negatives, opts.hardNegatives, opts.optimizer, opts.lr, opts.patience], [100, 10, 'adam', 0.003, 3], `${model} task ${task}`);
    }
  }
  assert.equal(trainerOf('embeddings', FULL_PROFILE, 1, 5).opts.sharedNegatives, true);
  assert.deepEqual(trainerOf('hcn', FULL_PROFILE, 1, 6), { kind: 'hcn', opts: { patience: 3, seed: 1 } }, 'hcn: patience 3, chosen on task 6 dev');
  // One embeddings variant's per-task options: over the embeddings ones, under the override.
  const v: BenchmarkProfile = { ...p, embeddingsVariantPerTask: { 'embeddings+bigrams': { 5: { dim: 16, epochs: 7 } } } };
  assert.deepEqual(trainerOf('embeddings+bigrams', v, 7, 5).opts, { ...QUICK_PROFILE.embeddings, margin: 0.01, dim: 16, epochs: 3, seed: 7 });
  assert.deepEqual(trainerOf('embeddings+match', v, 7, 5).opts, { ...QUICK_PROFILE.embeddings, margin: 0.01, epochs: 3, seed: 7 });
});

test("the paper profile: the appendix's Tables 8 and 9 per task", () => {
  assert.equal(profileNamed('paper'), PAPER_PROFILE);
  assert.throws(() => profileNamed('fast'), / profile: unknown profile 'fast' \(expected quick, full, paper\)$/);
  // Table 8, task 4: lr 0.001, margin 0.1, d 128, N 1000, no history; Table 9, task 4: d 128, 2 hops, lr 0.01, N 100.
  const e = trainerOf('embeddings', PAPER_PROFILE, 3, 4).opts;
  assert.deepEqual([e.lr, e.margin, e.dim, e.negatives, e.input, e.optimizer, e.sharedNegatives, e.seed], [0.001, 0.1, 128, 1000, 'last', 'sgd', true, 3]);
  assert.equal(trainerOf('embeddings+bigrams', PAPER_PROFILE, 3, 1).opts.input, 'history');
  const m = trainerOf('memn2n+match', PAPER_PROFILE, 3, 6).opts;
  assert.deepEqual([m.lr, m.dim, m.negatives, m.hops], [0.01, 128, 100, 4]);
  for (const t of [1, 2, 3, 4, 5, 6]) assert.ok(PAPER_PROFILE.perTask?.[t]?.embeddings?.dim && PAPER_PROFILE.perTask?.[t]?.memn2n?.hops, `task ${t}`);
});

test('seeds: the run seed first, the others from its fork; mean and sample standard deviation', () => {
  assert.deepEqual(seedsOf(7, 1), [7]);
  const three = seedsOf(7, 3);
  assert.equal(three[0], 7);
  assert.equal(new Set(three).size, 3);
  assert.deepEqual(seedsOf(7, 2), three.slice(0, 2), 'the first k seeds do not depend on k');
  assert.notDeepEqual(seedsOf(8, 3).slice(1), three.slice(1));
  assert.deepEqual(meanSd([1]), { mean: 1, sd: 0 });
  const { mean, sd } = meanSd([2, 4, 4, 4, 5, 5, 7, 9]);
  assert.equal(mean, 5);
  assert.ok(Math.abs(sd - Math.sqrt(32 / 7)) < 1e-12);
  const runs: BenchmarkRow[] = [0.9, 0.8, 1].map((x, i) => ({ model: 'memn2n', test: 'T1', perResponse: x, perDialog: x / 2, trainSeconds: 3 * (i + 1), seed: i }));
  const [s] = summarizeRuns(runs);
  assert.deepEqual(s, { model: 'memn2n', test: 'T1', perResponse: 0.9, perDialog: 0.45, trainSeconds: 6, runs: 3, perResponseSd: 0.1, perDialogSd: 0.05 });
});

test('--seeds 2: each learned cell twice with different seeds, the count-based ones once; rows are means', async () => {
  const o = { profile: TINY, source: { kind: 'generate' as const, seed: 3, dialogs: TINY.dialogs }, models: ['nn', 'embeddings'] as const, tasks: [1], seed: 3, seeds: 2, workers: 1 };
  const cells: string[] = [];
  const r = await runBenchmark(o, { onCellDone: (c) => cells.push(`${c.model} ${c.seed}`) });
  const [s0, s1] = seedsOf(3, 2);
  assert.deepEqual(cells, ['nn 3', `embeddings ${s0}`, `embeddings ${s1}`]);
  assert.equal(r.runs.length, 2 + 4);
  const e = r.runs.filter((x) => x.model === 'embeddings' && x.test === 'T1');
  assert.deepEqual(e.map((x) => x.seed), [s0, s1]);
  const row = r.rows.find((x) => x.model === 'embeddings' && x.test === 'T1');
  assert.equal(row?.runs, 2);
  assert.ok(Math.abs((row?.perResponse ?? 0) - ((e[0]?.perResponse ?? 0) + (e[1]?.perResponse ?? 0)) / 2) < 1e-6);
  assert.equal(r.rows.find((x) => x.model === 'nn')?.runs, 1);
  // Seed 0 of two runs is the one-seed run.
  const one = await runBenchmark({ ...o, seeds: 1 });
  assert.equal(one.rows.find((x) => x.model === 'embeddings' && x.test === 'T1')?.perResponse, e[0]?.perResponse);
});

test('cells on 2 worker threads give the same rows as in one thread', async () => {
  const o = { profile: TINY, source: { kind: 'generate' as const, seed: 3, dialogs: TINY.dialogs }, models: ['tfidf', 'nn', 'memn2n+match', 'hcn'] as const, tasks: [1, 2], seed: 3 };
  const seq = await runBenchmark({ ...o, workers: 1 });
  const order: string[] = [];
  const par = await runBenchmark({ ...o, workers: 2 }, { onCellDone: (c) => order.push(`${c.task} ${c.model}`) });
  assert.equal(seq.workers, 1);
  assert.equal(par.workers, 2);
  assert.equal(par.rows.length, 2 * 2 * 4);
  assert.deepEqual(scores(par.rows), scores(seq.rows));
  assert.equal(order.length, 8);
  // The hcn row is there, with an accuracy of a trained model (task 1 of 30 dialogs is easy for it).
  const hcn = par.rows.find((r) => r.model === 'hcn' && r.test === 'T1') as BenchmarkRow;
  assert.ok(hcn.perResponse > 0.5, `${hcn.perResponse}`);
  assert.ok(par.cpuSeconds > 0);
});

test('a worker error comes back as the same one-line error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-w-'));
  try {
    // The task-1 training file is there but the candidates file is not: the worker fails reading the data.
    writeFileSync(join(dir, 'dialog-babi-task1-API-calls-trn.txt'), '1 hello\tworld\n');
    await assert.rejects(runBenchmark({ profile: TINY, source: { kind: 'files', dir }, models: ['nn', 'tfidf'], tasks: [1], seed: 1, workers: 2 }), (e: Error) => {
      assert.ok(e instanceof DialogymError, String(e));
      assert.match(e.message, /dialog-babi-candidates\.txt/);
      assert.equal(e.message.split('\n').length, 1);
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--train-from generate: trained on simulator data, tested on the original files', { skip: skipUnless(babiDir) }, async () => {
  const notes: string[] = [];
  const r = await runBenchmark(
    { profile: TINY, source: { kind: 'files', dir: babiDir }, models: ['tfidf+type', 'nn'], tasks: [1, 6], seed: 1, trainFrom: 'generate', workers: 1 },
    { onNote: (n) => notes.push(n) },
  );
  assert.deepEqual(scores(r.rows).map((s) => s.split(' ').slice(0, 2).join(' ')), ['T1 tfidf+type', 'T1 nn', 'T1-OOV tfidf+type', 'T1-OOV nn']);
  assert.ok(notes.some((n) => /task 6 .*skipped/.test(n)), notes.join('\n'));
  assert.ok(notes.some((n) => /trained and selected on simulator data \(seed 1, 30 dialogs per split\)/.test(n)), notes.join('\n'));
  // Different training data than the originals' first 30 dialogs: nn (which memorises training pairs) scores differently.
  const orig = await runBenchmark({ profile: TINY, source: { kind: 'files', dir: babiDir }, models: ['nn'], tasks: [1], seed: 1, workers: 1 });
  const nn = (rows: readonly BenchmarkRow[]): number => (rows.find((x) => x.model === 'nn' && x.test === 'T1') as BenchmarkRow).perResponse;
  assert.notEqual(nn(r.rows), nn(orig.rows));
  await assert.rejects(runBenchmark({ profile: TINY, source: { kind: 'generate', seed: 1, dialogs: 10 }, models: ['nn'], tasks: [1], seed: 1, trainFrom: 'generate' }), / trainFrom generate needs source <folder of original files>/);
});

test('--train-from generate: the training dialogs are generated on the original KB (their restaurants are the test sets\')', { skip: skipUnless(babiDir) }, () => {
  const data = cellData({ profile: TINY, source: { kind: 'files', dir: babiDir }, trainFrom: 'generate', seed: 1 }, 5);
  const kb = new Set(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts.map((f) => `${f.entity} ${f.attr} ${f.value}`));
  const lines = data.train.flatMap((d) => d.turns.filter((t) => t.speaker === 'kb').map((t) => t.text));
  assert.ok(lines.length > 100, `${lines.length} KB lines`);
  for (const l of lines) assert.ok(kb.has(l), `not in the original KB: ${l}`);
  // Task 3: the original trn names none of the tst restaurants, so the generated training dialogs do not either.
  const t3 = cellData({ profile: TINY, source: { kind: 'files', dir: babiDir }, trainFrom: 'generate', seed: 1 }, 3);
  const tst = restaurantsOf(t3.tests.flatMap((t) => t.dialogs));
  assert.ok(tst.size > 0);
  assert.equal(t3.train.length, TINY.dialogs);
  assert.deepEqual([...restaurantsOf(t3.train)].filter((r) => tst.has(r)), []);
});

test('Table 10 variants: embeddings+match and embeddings+bigrams train under their own names and run in the grid', async () => {
  assert.deepEqual(trainerOf('embeddings+match', FULL_PROFILE, 2, 3), { kind: 'embeddings+match', opts: { sharedNegatives: false, input: 'last', seed: 2 } });
  assert.deepEqual(trainerOf('embeddings+bigrams', FULL_PROFILE, 2, 1), { kind: 'embeddings+bigrams', opts: { sharedNegatives: true, seed: 2 } });
  const r = await runBenchmark({ profile: TINY, source: { kind: 'generate', seed: 3, dialogs: TINY.dialogs }, models: ['embeddings+match', 'embeddings+bigrams'], tasks: [1], seed: 3, workers: 1 });
  assert.deepEqual(scores(r.rows).map((s) => s.split(' ').slice(0, 2).join(' ')), ['T1 embeddings+match', 'T1 embeddings+bigrams', 'T1-OOV embeddings+match', 'T1-OOV embeddings+bigrams']);
  const md = benchmarkMarkdown(r, { profile: 'tiny', data: 'generated', seed: 3 });
  assert.match(md, /## Table 10 \(appendix\): supervised embeddings variants/);
  // The paper's row T1 of Table 10: + match type 83.2 (0), + bigrams 98.6 (92.4).
  assert.match(md, /\| T1 \| 83\.2 \(0\) \| 98\.6 \(92\.4\) \|/);
  assert.deepEqual(table10Cell('T5-OOV', 'embeddings+bigrams'), { perResponse: 50.4, perDialog: 0 });
});

const result = (rows: BenchmarkRow[]): BenchmarkResult => ({ rows: summarizeRuns(rows), runs: rows, notes: [], seconds: 1, modelSeconds: {}, cpuSeconds: 1, workers: 1 });

test('paper verdicts: two-sided for the count-based baselines, at most 5 below or better for the learned models', () => {
  const row = (model: BenchmarkRow['model'], test: BenchmarkRow['test'], perResponse: number): BenchmarkRow => ({ model, test, perResponse, perDialog: 0, trainSeconds: 1 });
  // Paper: memn2n T5 96.1, memn2n+match T5 93.4, nn T1 55.1, tfidf T1 5.6; hcn has no paper value.
  const rows = [row('nn', 'T1', 0.501), row('tfidf', 'T1', 0.107), row('memn2n', 'T5', 0.91), row('memn2n+match', 'T5', 0.99), row('nn', 'T5', 0.622), row('hcn', 'T5', 1)];
  const v = paperVerdicts(rows);
  assert.deepEqual(v.map((x) => [x.model, x.test, x.diff, x.within]), [['nn', 'T1', -5, true], ['tfidf', 'T1', 5.1, false], ['memn2n', 'T5', -5.1, false], ['memn2n+match', 'T5', 5.6, true], ['nn', 'T5', 5.1, false]]);
  const md = benchmarkMarkdown(result(rows), { profile: 'x', data: 'y', seed: 1 });
  assert.match(md, /2 of 5 cells reproduced/);
  assert.match(md, /\| T5 \| – \| \+5\.1 ✗ \| -5\.1 ✗ \| \+5\.6 ✓ \|/);
  assert.match(md, /## dialogym variants/);
  const svg = benchmarkSvg(result(rows), { profile: 'x', data: 'y', seed: 1 });
  assert.match(svg, /Bordes et al\. \(2017\)/);
  assert.equal((svg.match(/<circle class="reference"/g) ?? []).length, 8, '2 test sets × 4 models with a paper value');
  assert.equal((svg.match(/<circle class="ours"/g) ?? []).length, 6);
  // The band: two-sided around nn's 55.1 (50.1 to 60.1 of 0-100 on the panel), up to 100 for memn2n.
  assert.match(svg, /<rect class="band" data-model="nn" data-test="T1"/);
});

test('mean ± sd over seeds: in the Markdown, as an error bar in the SVG, in the LaTeX (booktabs, balanced, right column count)', () => {
  const runs: BenchmarkRow[] = [
    ...[0.95, 0.97, 0.96].map((x, i) => ({ model: 'memn2n' as const, test: 'T5' as const, perResponse: x, perDialog: 0.5, trainSeconds: 1, seed: i })),
    { model: 'nn', test: 'T5', perResponse: 0.571, perDialog: 0, trainSeconds: 1 },
    ...[0.9, 0.92, 0.94].map((x, i) => ({ model: 'embeddings+bigrams' as const, test: 'T5' as const, perResponse: x, perDialog: 0, trainSeconds: 1, seed: i })),
    { model: 'nn+prev', test: 'T5', perResponse: 0.668, perDialog: 0, trainSeconds: 1 },
  ];
  const r = result(runs);
  const info = { profile: 'paper', data: 'original files in d', seed: 1 };
  const md = benchmarkMarkdown(r, info);
  assert.match(md, /trained 3 times \(seeds 0, 1, 2\)/);
  assert.match(md, /\| T5 \| 57\.1 \(0\.0\) \| 96\.0 ± 1\.0 \(50\.0 ± 0\.0\) \|/);
  assert.match(md, /\| T5 \| 92\.0 ± 2\.0 \(0\.0 ± 0\.0\) \|/, 'Table 10 part');
  assert.match(md, /\| T5 \| 66\.8 \(0\.0\) \| 57\.1 \|/, 'nn+prev beside the paper\'s nearest neighbour');
  const svg = benchmarkSvg(r, info);
  assert.equal((svg.match(/<line class="sd"/g) ?? []).length, 2);
  assert.match(svg, /mean ± s\.d\. over 3 training seeds/);
  const tex = benchmarkLatex(r, info);
  const check = checkLatex(tex);
  assert.deepEqual(check.problems, []);
  assert.deepEqual(check.tabulars.map((t) => [t.columns, t.rows]), [[3, 2], [2, 2], [2, 2]]);
  assert.match(tex, /\\toprule[\s\S]*\\midrule[\s\S]*\\bottomrule/);
  assert.match(tex, /96\.0\\,\$\\pm\$\\,1\.0 \(96\.1\)/);
  assert.ok(checkLatex(tex.replace('\\end{tabular}', '')).problems.some((p) => /never closed|closes/.test(p)), 'a missing \\end is found');
  assert.ok(checkLatex(tex.replace('T5 & 57.1', 'T5 & 1 & 57.1')).problems.some((p) => /spans 4 columns, its tabular has 3/.test(p)));
});
