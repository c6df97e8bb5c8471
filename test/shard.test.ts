/**
 * `--shard i/n` then `dialogym merge` gives byte-identical outputs to the unsharded run, for every
 * shardable verb: each is run unsharded, then as 2 and as 3 shards merged, and every file it
 * writes and its report on stdout are compared byte for byte. Also the one-line refusals: a bad
 * --shard, shards of different runs, a missing or duplicated shard, a damaged shard file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { oneLineError, runCli, type CliRun } from './cli.js';

// These runs use generated data only (no --data).
const cli = (...args: string[]): CliRun => runCli(args, { env: { ...process.env, DIALOGYM_DATA: '' } });
const oneLine = (r: CliRun, re: RegExp, code: number): void => oneLineError(r, re, code);
import { tinyAirModelFile } from './airdialogue-chat-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'dialogym-shard-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));

function ok(r: CliRun, what: string): CliRun {
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
  // A learned model plays: the corpus BLEU against the simulator is merged from each episode's words.
  const model = tinyAirModelFile(join(mkdtempSync(join(tmpdir(), 'dialogym-shard-air-')), 'tiny.dgm'));
  const args = ['airdialogue', 'selfplay', '--agent', model, '--customer', 'rules', '--episodes', '12', '--seed', '1', '--json'];
  assertShardsMerge('air-selfplay-model', () => args);
  const bleu = (JSON.parse(ok(cli(...args), 'selfplay with a model').stdout) as { bleu?: { both: number } }).bleu;
  assert.ok(bleu !== undefined && bleu.both >= 0 && bleu.both <= 100, `BLEU reported: ${JSON.stringify(bleu)}`);
});

test('infobot eval: merged shards give the same T, S, R ± standard error', () => {
  assertShardsMerge('infobot', () => ['infobot', 'eval', '--agent', 'rule-soft', '--split', 'small', '--episodes', '60', '--seed', '1', '--workers', '1']);
  assertShardsMerge('infobot-json', () => ['infobot', 'eval', '--agent', 'rule-hard', '--split', 'small', '--episodes', '50', '--seed', '4', '--json']);
  // Shards on worker threads (each shard's episodes cut among 2 workers), unsharded in one thread.
  const args = ['infobot', 'eval', '--agent', 'rule-soft', '--split', 'small', '--episodes', '61', '--seed', '2', '--json'];
  const dir = join(root, 'infobot-workers');
  for (let i = 0; i < 3; i++) ok(cli(...args, '--workers', '2', '--shard', `${i}/3`, '--shard-out', join(dir, `${i}.shard`)), `shard ${i}/3 on workers`);
  assert.equal(ok(cli('merge', dir), 'merge').stdout, ok(cli(...args, '--workers', '1'), 'one thread').stdout);
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

test('a bad --shard, or --shard without --shard-out, is refused in one line', () => {
  const args = ['airdialogue', 'selfplay', '--n', '5'];
  const out = join(root, 'never.shard');
  oneLine(cli(...args, '--shard', '3/2', '--shard-out', out), /^error: --shard: 3\/2: i must be below n \(shards are 0-based: 0\/2 … 1\/2\)$/m, 2);
  oneLine(cli(...args, '--shard', '2/2', '--shard-out', out), /i must be below n/, 2);
  oneLine(cli(...args, '--shard', 'x', '--shard-out', out), /^error: --shard: expected i\/n with 0 ≤ i < n \(0-based, e\.g\. 0\/4 … 3\/4\), got 'x'$/m, 2);
  oneLine(cli(...args, '--shard', '0/0', '--shard-out', out), /^error: --shard: 0\/0: n must be in \[1, 100000\]$/m, 2);
  oneLine(cli(...args, '--shard', '-1/3', '--shard-out', out), /expected i\/n/, 2);
  oneLine(cli(...args, '--shard', '0/2'), /^error: --shard 0\/2 needs --shard-out <file>/, 2);
  oneLine(cli(...args, '--shard-out', out), /^error: --shard-out needs --shard i\/n$/m, 2);
  oneLine(cli('generate', 'restaurant', '--task', '1', '--seed', '1', '--out', join(root, 'never'), '--shard', '1/1', '--shard-out', out), /i must be below n/, 2);
});

test('merge refuses a missing or duplicated shard, shards of another run or verb, and damaged files, in one line', () => {
  const dir = join(root, 'refuse');
  const shard = (i: number, n: number, seed = '1', name = `${i}.shard`): string => {
    const f = join(dir, name);
    ok(cli('airdialogue', 'selfplay', '--n', '10', '--seed', seed, '--shard', `${i}/${n}`, '--shard-out', f), `shard ${i}/${n}`);
    return f;
  };
  const [s0, s1, s2] = [shard(0, 3), shard(1, 3), shard(2, 3)] as [string, string, string];
  assert.equal(ok(cli('merge', s0, s1, s2), 'merge').code, 0);
  // Order of the files does not matter.
  assert.equal(cli('merge', s2, s0, s1).stdout, cli('merge', s0, s1, s2).stdout);
  oneLine(cli('merge', s0, s2), /^error: missing shard 1\/3 of `airdialogue selfplay` \(have 0\/3, 2\/3\)$/m, 2);
  oneLine(cli('merge', s0, s1, s2, s0), /^error: shard 0\/3 given twice: .*0\.shard and .*0\.shard$/m, 2);
  const other = shard(1, 3, '2', 'seed2.shard');
  oneLine(cli('merge', s0, other, s2), /^error: .*seed2\.shard: not the same run as .*0\.shard \(option seed: 1 vs 2\)$/m, 2);
  const half = shard(1, 2, '1', 'half.shard');
  oneLine(cli('merge', s0, half), /^error: .*half\.shard: shard 1\/2, but .*0\.shard is shard 0\/3 \(different n\)$/m, 2);
  const ev = join(dir, 'infobot.shard');
  ok(cli('infobot', 'eval', '--agent', 'rule-soft', '--split', 'small', '--episodes', '10', '--shard', '0/3', '--shard-out', ev), 'infobot shard');
  oneLine(cli('merge', ev, s1, s2), /^error: .*1\.shard: shard of `airdialogue selfplay`, but .*infobot\.shard is a shard of `infobot eval`$/m, 2);
  // A truncated shard file (its last item lost), a foreign file, an empty folder.
  const lines = readFileSync(s1, 'utf8').trim().split('\n');
  const cut = join(dir, 'cut.shard');
  writeFileSync(cut, lines.slice(0, -1).join('\n') + '\n');
  oneLine(cli('merge', s0, cut, s2), /^error: .*cut\.shard:\d+: shard 1\/3 of 10 items should hold 3 items, the file has 2 \(truncated\?\)$/m, 1);
  const foreign = join(dir, 'notes.txt');
  writeFileSync(foreign, 'hello\n');
  oneLine(cli('merge', foreign), /^error: .*notes\.txt:1: not a dialogym shard file/m, 1);
  mkdirSync(join(dir, 'empty'));
  oneLine(cli('merge', join(dir, 'empty')), /^error: .*empty: no \*\.shard file in this folder$/m, 2);
  oneLine(cli('merge', s0, s1, s2, '--out', join(dir, 'x')), /^error: --out: `airdialogue selfplay` writes no output folder/, 2);
});

test('merge --out writes a folder verb elsewhere than the shards said', () => {
  const dir = join(root, 'elsewhere');
  for (let i = 0; i < 2; i++) ok(cli('airdialogue', 'generate', '--n', '12', '--seed', '5', '--out', join(dir, 'planned'), '--shard', `${i}/2`, '--shard-out', join(dir, `${i}.shard`)), 'shard');
  ok(cli('merge', dir, '--out', join(dir, 'moved')), 'merge --out');
  ok(cli('airdialogue', 'generate', '--n', '12', '--seed', '5', '--out', join(dir, 'whole')), 'whole');
  assert.deepEqual(readFileSync(join(dir, 'moved', 'data.json')), readFileSync(join(dir, 'whole', 'data.json')));
  assert.throws(() => statSync(join(dir, 'planned')), 'nothing written where the shards were told');
});

/** A shard file as the previous dialogym wrote it (dialogym-shard/1: the verb and its flags, as commander gave them), from one of this dialogym. */
function asFormat1(file: string, flags: Record<string, unknown>): void {
  const [head, ...items] = readFileSync(file, 'utf8').trimEnd().split('\n');
  const h = JSON.parse(head as string) as Record<string, unknown>;
  const old = { format: 'dialogym-shard/1', verb: h['run'], options: flags, meta: h['meta'], shard: h['shard'], total: h['total'], items: h['items'], info: h['info'] };
  writeFileSync(file, [JSON.stringify(old), ...items].join('\n') + '\n');
}

test('merge still reads the shard files of the previous dialogym (dialogym-shard/1, the flags recorded): eval and benchmark', () => {
  const dir = join(root, 'format1');
  const evalArgs = (d: string): string[] => ['eval', '--model', 'tfidf', '--data', D5, '--candidates', CANDS, '--json', '--predictions', join(d, 'preds.jsonl')];
  const whole = ok(cli(...evalArgs(join(dir, 'whole'))), 'eval unsharded');
  for (let i = 0; i < 2; i++) {
    const f = join(dir, 'eval', `${i}.shard`);
    ok(cli(...evalArgs(join(dir, 'merged')), '--shard', `${i}/2`, '--shard-out', f), 'eval shard');
    assert.match(readFileSync(f, 'utf8'), /^\{"format":"dialogym-shard\/2","run":"eval","options":\{"model":"tfidf","data":"[^"]+","candidates":"[^"]+","predictions":"[^"]+"\},"print":\{"json":true\}/);
    asFormat1(f, { model: 'tfidf', data: D5, candidates: CANDS, json: true, predictions: join(dir, 'merged', 'preds.jsonl') });
  }
  assert.equal(ok(cli('merge', join(dir, 'eval')), 'merge of format 1').stdout, whole.stdout);
  assert.deepEqual(readFileSync(join(dir, 'merged', 'preds.jsonl')), readFileSync(join(dir, 'whole', 'preds.jsonl')));
  // benchmark: the flags with commander's defaults, --quick among them; merge --out as before.
  const benchArgs = ['benchmark', '--quick', '--models', 'tfidf', '--tasks', '1', '--dialogs', '10', '--out', join(dir, 'planned')];
  ok(cli(...benchArgs, '--shard', '0/1', '--shard-out', join(dir, 'bench', '0.shard')), 'benchmark shard');
  asFormat1(join(dir, 'bench', '0.shard'), { profile: 'full', seeds: 1, models: 'tfidf', tasks: '1', seed: 1, out: join(dir, 'planned'), trainFrom: 'files', quick: true, dialogs: 10 });
  const merged = ok(cli('merge', join(dir, 'bench'), '--out', join(dir, 'b1')), 'merge of a format-1 benchmark');
  assert.match(merged.stdout, /\| T1 \|[\s\S]*wrote .*b1\/benchmark\.json, .*b1\/benchmark\.md/);
  const unsharded = ok(cli(...benchArgs.slice(0, -1), join(dir, 'b2')), 'benchmark unsharded');
  assert.equal(benchmarkTimings(readFileSync(join(dir, 'b1', 'benchmark.md'), 'utf8')), benchmarkTimings(readFileSync(join(dir, 'b2', 'benchmark.md'), 'utf8')));
  assert.ok(unsharded.stdout.length > 0);
  // A format-1 shard beside a format-2 shard of the same run: one line saying to make them with one dialogym.
  const f2 = join(dir, 'mixed', '1.shard');
  ok(cli(...evalArgs(join(dir, 'merged')), '--shard', '1/2', '--shard-out', f2), 'eval shard');
  oneLine(cli('merge', join(dir, 'eval', '0.shard'), f2), /^error: .*1\.shard: a dialogym-shard\/2 file, but .*0\.shard is a dialogym-shard\/1 one: make every shard of a run with the same dialogym$/m, 2);
});

test('merge still reads the evaluate shards of before evaluate was a library run (dialogym-shard/2 holding its flags)', () => {
  const dir = join(root, 'evaluate-flags');
  const args = (t: string): string[] => ['evaluate', '--env', 'restaurant-task5-v1', '--agent', 'rules', '--episodes', '6', '--max-turns', '9', '--json', '--transcripts', t];
  const whole = ok(cli(...args(join(dir, 'whole.jsonl'))), 'evaluate unsharded');
  const merged = join(dir, 'merged.jsonl');
  // The flags as commander gave them, as that dialogym recorded them.
  const flags = { envOption: [], episodes: 6, seed: 1, trials: 1, timeout: 5000, startupTimeout: 30000, concurrency: 1, maxReplyBytes: 4194304, showFailures: 0, llmUrl: 'https://api.openai.com/v1', llmOption: [], llmTimeout: 60000, llmRetries: 10, llmMaxFailures: 10, llmMaxReplyBytes: 4194304, env: 'restaurant-task5-v1', agent: 'rules', maxTurns: 9, json: true, transcripts: merged };
  for (let i = 0; i < 2; i++) {
    const f = join(dir, 'shards', `${i}.shard`);
    ok(cli(...args(merged), '--shard', `${i}/2`, '--shard-out', f), 'evaluate shard');
    const [head, ...items] = readFileSync(f, 'utf8').trimEnd().split('\n');
    const h = JSON.parse(head as string) as Record<string, unknown>;
    assert.deepEqual(h['options'], { env: 'restaurant-task5-v1', agent: { kind: 'builtin', name: 'rules' }, episodes: 6, seed: 1, trials: 1, timeout: 5000, startupTimeout: 30000, maxReplyBytes: 4194304, maxTurns: 9, transcripts: merged, llmUrl: 'https://api.openai.com/v1', llmTimeout: 60000, llmRetries: 10, llmMaxFailures: 10, llmMaxReplyBytes: 4194304, llmOption: {} });
    const { print: _print, ...rest } = h;
    writeFileSync(f, [JSON.stringify({ ...rest, options: flags }), ...items].join('\n') + '\n');
  }
  assert.equal(ok(cli('merge', join(dir, 'shards')), 'merge of flag shards').stdout, whole.stdout);
  assert.deepEqual(readFileSync(merged), readFileSync(join(dir, 'whole.jsonl')));
});
