import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DialogymError } from '../../../core/errors.js';
import { readBabiKb } from '../../../formats/babi.js';
import { restaurantsOf } from './data.js';
import { babiDir, skipUnless } from '../../../../test/shared-data.js';
import { FULL_PROFILE, QUICK_PROFILE, cellData, learnedOptions, runBenchmark, trainerOf, type BenchmarkProfile, type BenchmarkRow } from './benchmark.js';
import { MEMN2N_TRAIN_DEFAULTS } from '../../../rankers/memn2n-train.js';
import { benchmarkMarkdown, benchmarkSvg, paperVerdicts } from './report.js';

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
  assert.deepEqual(trainerOf('memn2n+match', p, 7, 1), { kind: 'memn2n', opts: { ...QUICK_PROFILE.memn2n, matchType: true, seed: 7 } });
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
  assert.deepEqual(trainerOf('embeddings+bigrams', v, 7, 5).opts, { ...QUICK_PROFILE.embeddings, margin: 0.01, dim: 16, epochs: 3, matchType: false, bigrams: true, seed: 7 });
  assert.deepEqual(trainerOf('embeddings+match', v, 7, 5).opts, { ...QUICK_PROFILE.embeddings, margin: 0.01, epochs: 3, matchType: true, seed: 7 });
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
  await assert.rejects(runBenchmark({ profile: TINY, source: { kind: 'generate', seed: 1, dialogs: 10 }, models: ['nn'], tasks: [1], seed: 1, trainFrom: 'generate' }), /--train-from generate needs --data/);
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

test('Table 10 variants: embeddings+match and embeddings+bigrams train through the embeddings trainer and run in the grid', async () => {
  assert.deepEqual(trainerOf('embeddings+match', FULL_PROFILE, 2, 3), { kind: 'embeddings', opts: { sharedNegatives: false, input: 'last', matchType: true, seed: 2 } });
  assert.deepEqual(trainerOf('embeddings+bigrams', FULL_PROFILE, 2, 1), { kind: 'embeddings', opts: { sharedNegatives: true, matchType: false, bigrams: true, seed: 2 } });
  const r = await runBenchmark({ profile: TINY, source: { kind: 'generate', seed: 3, dialogs: TINY.dialogs }, models: ['embeddings+match', 'embeddings+bigrams'], tasks: [1], seed: 3, workers: 1 });
  assert.deepEqual(scores(r.rows).map((s) => s.split(' ').slice(0, 2).join(' ')), ['T1 embeddings+match', 'T1 embeddings+bigrams', 'T1-OOV embeddings+match', 'T1-OOV embeddings+bigrams']);
  const md = benchmarkMarkdown(r, { profile: 'tiny', data: 'generated', seed: 3 });
  assert.match(md, /Sup\. Emb\. \+ bigrams \(Table 10\)/);
  assert.match(md, /No paper value shown for embeddings\+match, embeddings\+bigrams: the values of the paper's appendix Table 10 could not be verified/);
});

test('paper verdicts: within 5 points below the paper or better, counted and marked in the report', () => {
  const row = (model: BenchmarkRow['model'], test: BenchmarkRow['test'], perResponse: number): BenchmarkRow => ({ model, test, perResponse, perDialog: 0, trainSeconds: 1 });
  // Paper: memn2n T5 96.1, memn2n+match T5 93.4, nn T1 55.1; hcn has no paper value.
  const rows = [row('nn', 'T1', 0.501), row('memn2n', 'T5', 0.91), row('memn2n+match', 'T5', 0.99), row('hcn', 'T5', 1)];
  const v = paperVerdicts(rows);
  assert.deepEqual(v.map((x) => [x.model, x.test, x.diff, x.within]), [['nn', 'T1', -5, true], ['memn2n', 'T5', -5.1, false], ['memn2n+match', 'T5', 5.6, true]]);
  const md = benchmarkMarkdown({ rows, notes: [], seconds: 1, modelSeconds: {}, cpuSeconds: 1, workers: 1 }, { profile: 'x', data: 'y', seed: 1 });
  assert.match(md, /2 of 3 cells with a paper value are within 5 points or better/);
  assert.match(md, /\| T5 \| – \| -5\.1 ✗ \| \+5\.6 ✓ \| – \|/);
  const svg = benchmarkSvg({ rows, notes: [], seconds: 1, modelSeconds: {}, cpuSeconds: 1, workers: 1 }, { profile: 'x', data: 'y', seed: 1 });
  assert.match(svg, /the paper's value/);
  assert.equal((svg.match(/<line class="paper"/g) ?? []).length, 6); // 2 test sets × 3 models with a paper value
});
