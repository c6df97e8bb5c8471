/**
 * `--shard i/n` then `dialogym merge` gives byte-identical outputs to the unsharded run, for every
 * shardable verb: each is run unsharded, then as 2 and as 3 shards merged, and every file it
 * writes and its report on stdout are compared byte for byte. Also the one-line refusals: a bad
 * --shard, shards of different runs, a missing or duplicated shard, a damaged shard file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { cliPath } from './shared-data.js';

const root = mkdtempSync(join(tmpdir(), 'dialogym-shard-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Run {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', input: '', env: { ...process.env, DIALOGYM_DATA: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(r: Run, what: string): Run {
  assert.equal(r.code, 0, `${what}: ${r.stderr}`);
  return r;
}

/** Every file under `dir` (relative path → bytes), but the shard files. */
function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) {
        if (f !== 'shards') walk(p);
      } else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

let runs = 0;

/**
 * Runs `args(dir)` unsharded in a fresh folder, then as n = 2 and n = 3 shards merged in other
 * folders; the files under each folder and the stdout reports (`stdout` picks the part of stdout
 * that is the run's report) must be identical, the folder's name aside. Returns the unsharded folder.
 */
function assertShardsMerge(name: string, args: (dir: string) => string[], opts: { stdout?: (s: string) => string; timings?: (s: string) => string } = {}): string {
  const report = (s: string): string => (opts.timings ?? ((x: string) => x))((opts.stdout ?? ((x: string) => x))(s));
  const same = (a: Buffer, b: Buffer): boolean => (opts.timings ? opts.timings(a.toString('utf8')) === opts.timings(b.toString('utf8')) : a.equals(b));
  const base = join(root, `${name}-${runs++}`);
  mkdirSync(base, { recursive: true });
  const whole = ok(cli(...args(base)), `${name} unsharded`);
  const want = filesUnder(base);
  assert.ok(want.size > 0 || whole.stdout.length > 0, `${name}: the unsharded run wrote nothing`);
  for (const n of [2, 3]) {
    const dir = join(root, `${name}-${runs++}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < n; i++) {
      const r = ok(cli(...args(dir), '--shard', `${i}/${n}`, '--shard-out', join(dir, 'shards', `${i}.shard`)), `${name} shard ${i}/${n}`);
      assert.match(r.stdout, new RegExp(`^wrote shard ${i}/${n} of \``));
    }
    // The shards wrote nothing but their shard files.
    assert.deepEqual([...filesUnder(dir).keys()], [], `${name}: a shard wrote outside its shard file`);
    const merged = ok(cli('merge', join(dir, 'shards')), `${name} merge of ${n}`);
    const got = filesUnder(dir);
    assert.deepEqual([...got.keys()], [...want.keys()], `${name}, ${n} shards: the files written`);
    for (const [f, bytes] of want) assert.ok(same(got.get(f) as Buffer, bytes), `${name}, ${n} shards: ${f} differs from the unsharded run's`);
    assert.equal(report(merged.stdout).split(dir).join(base), report(whole.stdout), `${name}, ${n} shards: the report on stdout`);
  }
  return base;
}

// Generated bAbI data for the verbs that read dialogs.
const data = join(root, 'babi');
ok(cli('generate', 'restaurant', '--task', 'all', '--seed', '3', '--dialogs', '40', '--out', data), 'generate');
const D5 = join(data, 'dialog-babi-task5-full-dialogs-tst.txt');
const CANDS = join(data, 'dialog-babi-candidates.txt');

test('eval: --shard then merge gives the unsharded report and predictions file byte for byte', () => {
  const dir = assertShardsMerge('eval', (d) => ['eval', '--model', 'tfidf', '--data', D5, '--candidates', CANDS, '--predictions', join(d, 'preds.jsonl')]);
  const preds = readFileSync(join(dir, 'preds.jsonl'), 'utf8').trim().split('\n');
  assert.ok(preds.length > 40 * 10, 'one line per bot turn');
  assertShardsMerge('eval-json', () => ['eval', '--model', 'tfidf', '--data', D5, '--candidates', CANDS, '--json']);
  const j = JSON.parse(cli('eval', '--model', 'tfidf', '--data', D5, '--candidates', CANDS, '--json').stdout) as { perResponse: number; dialogs: number };
  assert.equal(j.dialogs, 40);
  assert.ok(j.perResponse > 0.02 && j.perResponse < 0.9, `tfidf makes mistakes here (${j.perResponse}), so the merged marks are tested`);
});

/** The generate verbs print their wall time last: the rest of the line is the report. */
const withoutTime = (s: string): string => s.replace(/ in [\d.]+ s$/gm, '');

test('generate restaurant: the merged shards are the unsharded files (the files are the items: each split has its own stream)', () => {
  const dir = assertShardsMerge('generate-restaurant', (d) => ['generate', 'restaurant', '--task', 'all', '--seed', '2', '--dialogs', '15', '--out', join(d, 'out')], { stdout: withoutTime });
  assert.equal(readdirSync(join(dir, 'out')).length, 22);
  assertShardsMerge('generate-restaurant-t3', (d) => ['generate', 'restaurant', '--task', '3', '--seed', '2', '--dialogs', '15', '--out', join(d, 'out')], { stdout: withoutTime });
});

test('generate dstc6: the merged shards are the unsharded files (entries are the items)', () => {
  const dir = assertShardsMerge('generate-dstc6', (d) => ['generate', 'dstc6', '--task', 'all', '--set', 'tst3', '--seed', '2', '--examples', '13', '--out', join(d, 'out')], { stdout: withoutTime });
  assert.equal(readdirSync(join(dir, 'out')).length, 11); // 5 data + 5 answers + the KB
  assertShardsMerge('generate-dstc6-trn', (d) => ['generate', 'dstc6', '--task', '2', '--set', 'trn', '--seed', '1', '--examples', '20', '--out', join(d, 'out')], { stdout: withoutTime });
});

test('airdialogue generate and selfplay: merged shards give the same files, transcripts and scores', () => {
  const dir = assertShardsMerge('air-generate', (d) => ['airdialogue', 'generate', '--n', '40', '--seed', '2', '--out', join(d, 'out')]);
  assert.equal(readFileSync(join(dir, 'out', 'data.json'), 'utf8').trim().split('\n').length, 40);
  assertShardsMerge('air-selfplay', () => ['airdialogue', 'selfplay', '--n', '40', '--seed', '1', '--json']);
  assertShardsMerge('air-selfplay-ood', () => ['airdialogue', 'selfplay', '--n', '30', '--seed', '3', '--ood', '2']);
  assertShardsMerge('air-selfplay-transcripts', (d) => ['airdialogue', 'selfplay', '--n', '25', '--seed', '1', '--ood', '1', '--transcripts', join(d, 'episodes.jsonl')]);
});

test('infobot eval: merged shards give the same T, S, R ± standard error', () => {
  assertShardsMerge('infobot', () => ['infobot', 'eval', '--agent', 'rule-soft', '--split', 'small', '--episodes', '60', '--seed', '1', '--workers', '1']);
  assertShardsMerge('infobot-json', () => ['infobot', 'eval', '--agent', 'rule-hard', '--split', 'small', '--episodes', '50', '--seed', '4', '--json']);
});

test('evaluate: merged shards give the same summary (pass^k, failures in order) and transcripts', () => {
  assertShardsMerge('evaluate', (d) => ['evaluate', '--env', 'restaurant-task5-v1', '--agent', 'rules', '--episodes', '9', '--trials', '2', '--json', '--transcripts', join(d, 't.jsonl')]);
  // Truncated episodes: failures to count and order.
  const r = assertShardsMerge('evaluate-failing', () => ['evaluate', '--env', 'restaurant-task5-v1', '--agent', 'rules', '--episodes', '8', '--max-turns', '6']);
  assert.ok(r.length > 0);
  const s = cli('evaluate', '--env', 'restaurant-task5-v1', '--agent', 'rules', '--episodes', '8', '--max-turns', '6', '--json');
  assert.ok((JSON.parse(s.stdout) as { success: number }).success < 1, 'some episodes fail, so failures are merged');
});

/** Wall and CPU times differ between any two runs, sharded or not: everything else must be the same bytes. */
function benchmarkTimings(s: string): string {
  return s
    .replace(/Whole run [\d.]+ s wall, [\d.]+ s CPU, (no worker thread|\d+ worker threads)\./g, 'Whole run (time).')
    .replace(/^\| (train time \(s\)|train \+ eval time \(s\)) \|.*$/gm, '| $1 | (times) |')
    .replace(/"(trainSeconds|seconds|cpuSeconds|workers)": [\d.]+/g, '"$1": 0');
}

test('benchmark: merged shards give the same rows, notes, tables and chart (times aside)', () => {
  const dir = assertShardsMerge('benchmark', (d) => ['benchmark', '--quick', '--models', 'tfidf,nn', '--tasks', '1,2', '--dialogs', '20', '--seed', '1', '--out', join(d, 'out')], { timings: benchmarkTimings });
  const j = JSON.parse(readFileSync(join(dir, 'out', 'benchmark.json'), 'utf8')) as { rows: unknown[] };
  assert.equal(j.rows.length, 8); // 2 models × T1, T2, T1-OOV, T2-OOV
});
