import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { babiDir, skipUnless } from './shared-data.js';
import { runCli, type CliRun } from './cli.js';
import { parseModels, parseTasks } from '../src/testbeds/restaurant/benchmark/benchmark.js';
import { paperCell } from '../src/testbeds/restaurant/benchmark/paper.js';
import { benchmarkMarkdown, benchmarkSvg } from '../src/testbeds/restaurant/benchmark/report.js';
import { summarizeRuns } from '../src/testbeds/restaurant/benchmark/benchmark.js';

/** Runs the CLI without $DIALOGYM_DATA (or with `extraEnv`). */
function cli(args: string[], extraEnv: Record<string, string> = {}): CliRun {
  const { DIALOGYM_DATA: _, ...env } = process.env;
  return runCli(args, { env: { ...env, ...extraEnv } });
}

interface Row {
  model: string;
  test: string;
  perResponse: number;
  perDialog: number;
  trainSeconds: number;
}

test('benchmark --quick on generated task 1: JSON contract, Markdown, LaTeX and SVG', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    const args = ['benchmark', '--quick', '--tasks', '1,6', '--models', 'nn,tfidf,memn2n+match,hcn', '--dialogs', '30', '--epochs', '2', '--workers', '2', '--out', dir];
    const r = cli(args);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /note: task 6 \(DSTC2\) skipped/);
    assert.match(r.stderr, /\[3\/4\] task 1 memn2n\+match: T1 /);
    // Every finished cell says how many are done and, until the last, about how long is left.
    const done = r.stderr.split('\n').filter((l) => / cells done in /.test(l));
    assert.deepEqual(done.map((l) => / — (\d+) of 4 cells done in /.exec(l)?.[1]), ['1', '2', '3', '4'], r.stderr);
    for (const l of done.slice(0, 3)) assert.match(l, /, about (\d+(\.\d)?s|\d+m\d\ds|\?) left$/);
    assert.doesNotMatch(done[3] ?? '', /left/);
    assert.ok(existsSync(join(dir, 'benchmark.tex')));
    assert.match(r.stderr, /benchmark: [\d.]+ s wall, [\d.]+ s CPU, 2 workers/);
    const json = JSON.parse(readFileSync(join(dir, 'benchmark.json'), 'utf8')) as { rows: Row[] };
    // Table 2 order: test sets, then models in the paper's column order.
    assert.deepEqual(json.rows.map((x) => `${x.test} ${x.model}`), ['T1 tfidf', 'T1 nn', 'T1 memn2n+match', 'T1 hcn', 'T1-OOV tfidf', 'T1-OOV nn', 'T1-OOV memn2n+match', 'T1-OOV hcn']);
    for (const row of json.rows) {
      assert.deepEqual(Object.keys(row).sort(), ['model', 'perDialog', 'perResponse', 'test', 'trainSeconds']);
      assert.ok(row.perResponse >= 0 && row.perResponse <= 1, `${row.perResponse}`);
      assert.ok(row.perDialog >= 0 && row.perDialog <= 1);
      assert.ok(row.trainSeconds >= 0);
    }
    const get = (m: string, t: string): Row => json.rows.find((x) => x.model === m && x.test === t) as Row;
    // Same trained model for T1 and T1-OOV.
    assert.equal(get('nn', 'T1').trainSeconds, get('nn', 'T1-OOV').trainSeconds);
    // Task 1 is learnable: the nearest neighbour beats TF-IDF without types by far (paper: 55.1 vs 5.6).
    assert.ok(get('nn', 'T1').perResponse > get('tfidf', 'T1').perResponse + 0.2);
    const md = readFileSync(join(dir, 'benchmark.md'), 'utf8');
    const pct = (x: number): string => (100 * x).toFixed(1);
    assert.ok(md.includes(`| T1 | ${pct(get('tfidf', 'T1').perResponse)} (${pct(get('tfidf', 'T1').perDialog)}) | ${pct(get('nn', 'T1').perResponse)} (`), md);
    assert.match(md, /\| T1-OOV \| 5\.8 \| 44\.1 \| 96\.5 \(82\.7\) \|/); // paper row (hcn: in the variants part)
    assert.match(md, /task 6 \(DSTC2\) skipped/);
    const svg = readFileSync(join(dir, 'benchmark.svg'), 'utf8');
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.equal((svg.match(/<circle class="ours"/g) ?? []).length, 8);
    assert.equal((svg.match(/<circle class="reference"/g) ?? []).length, 6);
    assert.match(svg, /MemNNs \+ match type, T1-OOV: [\d.]+%, paper 96\.5%/);
    assert.match(r.stdout, /## Ours/);
    // Same seed, same accuracies, in one thread as on 2 workers.
    const again = cli([...args.slice(0, -3), '1', '--out', join(dir, 'again')]);
    assert.equal(again.code, 0, again.stderr);
    const rows2 = (JSON.parse(readFileSync(join(dir, 'again', 'benchmark.json'), 'utf8')) as { rows: Row[] }).rows;
    assert.deepEqual(rows2.map((x) => [x.perResponse, x.perDialog]), json.rows.map((x) => [x.perResponse, x.perDialog]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('benchmark on the original files (first dialogs of task 1)', { skip: skipUnless(babiDir) }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    const r = cli(['benchmark', '--data', babiDir, '--tasks', '1', '--models', 'tfidf+type', '--dialogs', '100', '--out', dir]);
    assert.equal(r.code, 0, r.stderr);
    const rows = (JSON.parse(readFileSync(join(dir, 'benchmark.json'), 'utf8')) as { rows: Row[] }).rows;
    assert.deepEqual(rows.map((x) => x.test), ['T1', 'T1-OOV']);
    // TF-IDF + type on the originals is near the paper's 22.4 / 22.4.
    for (const x of rows) assert.ok(Math.abs(100 * x.perResponse - 22.4) < 6, `${x.test} ${x.perResponse}`);
    assert.match(readFileSync(join(dir, 'benchmark.md'), 'utf8'), /original files in .*first 100 trn \/ 100 dev \/ 100 tst dialogs/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('benchmark flag errors are one line, exit 2, and write nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    for (const [flag, value, msg] of [
      ['--models', 'tfidf,gpt', "error: --models: unknown model 'gpt'"],
      ['--tasks', '7', "error: --tasks: expected task numbers 1-6 like 1,5 or 1-5, got '7'"],
      ['--seed', 'x', "error: --seed: expected an integer, got 'x'"],
      ['--workers', '0', 'error: --workers: must be >= 1, got 0'],
      ['--train-from', 'web', "error: --train-from: expected files or generate, got 'web'"],
      ['--profile', 'fast', "error: --profile: unknown profile 'fast' (expected quick, full, paper)"],
      ['--seeds', '0', 'error: --seeds: must be >= 1, got 0'],
    ] as const) {
      const r = cli(['benchmark', '--quick', flag, value, '--out', join(dir, 'o')]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.ok(r.stderr.startsWith(msg), r.stderr);
    }
    const missing = cli(['benchmark', '--data', join(dir, 'nope'), '--tasks', '1', '--models', 'tfidf', '--out', join(dir, 'o')]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /^error: .*nope/m);
    assert.ok(!missing.stderr.includes('    at '), missing.stderr);
    assert.equal(existsSync(join(dir, 'o')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('model and task lists; paper table', () => {
  assert.deepEqual(parseModels('memn2n+match,tfidf'), ['tfidf', 'memn2n+match']);
  assert.equal(parseModels('all').length, 11);
  assert.deepEqual(parseModels('variants'), ['tfidf+type-word', 'nn+prev', 'hcn']);
  assert.deepEqual(parseModels('table10'), ['embeddings+match', 'embeddings+bigrams']);
  assert.deepEqual(parseModels('paper'), ['tfidf', 'tfidf+type', 'nn', 'embeddings', 'memn2n', 'memn2n+match']);
  assert.deepEqual(parseModels('hcn,nn'), ['nn', 'hcn']);
  assert.deepEqual(parseTasks('5,1-3'), [1, 2, 3, 5]);
  assert.deepEqual(parseTasks('all'), [1, 2, 3, 4, 5, 6]);
  assert.throws(() => parseTasks('3-1'), /empty range/);
  assert.deepEqual(paperCell('T5', 'memn2n'), { perResponse: 96.1, perDialog: 49.4 });
  assert.deepEqual(paperCell('T6', 'memn2n+match'), { perResponse: 41.0 });
  const rows = [{ model: 'tfidf' as const, test: 'T3' as const, perResponse: 0.5, perDialog: 0.25, trainSeconds: 1.5 }];
  const result = { rows: summarizeRuns(rows), runs: rows, notes: [], seconds: 2, modelSeconds: { tfidf: 1.75 }, cpuSeconds: 3, workers: 2 };
  const info = { profile: 'quick', data: 'x', seed: 1 };
  const md = benchmarkMarkdown(result, info);
  assert.match(md, /\| T3 \| 50\.0 \(25\.0\) \|/);
  assert.match(md, /\| T3 \| \+42\.0 ✗ \|/, 'a count-based baseline far above the paper is not reproduced');
  assert.match(md, /\| train \+ eval time \(s\) \| 1\.8 \|/);
  assert.match(benchmarkSvg(result, info), /<circle class="ours" data-model="tfidf" data-test="T3" cx="[\d.]+"/);
  assert.match(md, /2\.0 s wall, 3\.0 s CPU, 2 worker threads/);
  // hcn is not in the paper: it is reported among dialogym's variants, with no paper value and no ring.
  const rows2 = [...rows, { model: 'hcn' as const, test: 'T3' as const, perResponse: 0.75, perDialog: 0.5, trainSeconds: 4 }];
  const withHcn = { ...result, rows: summarizeRuns(rows2), runs: rows2 };
  const md2 = benchmarkMarkdown(withHcn, info);
  assert.match(md2, /## dialogym variants[\s\S]*\| Test set \| HCN \|\n\|---\|---:\|\n\| T3 \| 75\.0 \(50\.0\) \|/);
  const svg2 = benchmarkSvg(withHcn, info);
  assert.equal((svg2.match(/<circle class="ours"/g) ?? []).length, 2);
  assert.equal((svg2.match(/<circle class="reference"/g) ?? []).length, 1);
  assert.match(svg2, /HCN, T3: 75\.0% \(not in the paper\)/);
});

test('benchmark without --data generates its data even when $DIALOGYM_DATA is set (npm start takes the same time everywhere)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    const r = cli(['benchmark', '--quick', '--tasks', '1', '--models', 'tfidf', '--dialogs', '20', '--workers', '1', '--out', dir], { DIALOGYM_DATA: join(dir, 'no-such-data') });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /data: generated/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
