/** `dialogym dstc6 score` on several results in one run: lists, folders, answers matched by name, per-file lines and a pooled total. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { dstc6Dir, repoRoot, skipUnless } from './shared-data.js';
import { cli, type CliRun } from './cli.js';
import { dstc6TestFiles } from './dstc6-files.js';
import { readDstc6Data, readDstc6Results, writeDstc6Results } from '../src/formats/dstc6.js';
import { meanReciprocalRank, precisionAtK } from '../src/metrics/ranking.js';
import { scoreDstc6 } from '../src/testbeds/dstc6/score.js';
import { tfidfBaseline } from '../src/testbeds/dstc6/tfidf-baseline.js';

/** `dialogym <args>` through the package's bin, the CommonJS entry (src/cli/main.cts), which scores plain command lines itself. */
function bin(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [join(repoRoot, 'dist', 'src', 'cli', 'main.cjs'), ...args], { encoding: 'utf8', input: '' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-score-'));
const json = (path: string, v: unknown): string => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(v));
  return path;
};
const entry = (id: string, ...ids: string[]): unknown => ({ dialog_id: id, lst_candidate_id: ids.map((candidate_id, k) => ({ candidate_id, rank: k + 1 })) });

// Two "test files": a (2 dialogs) and b (2 dialogs), their answers in a truth folder with subfolders.
const truthDir = join(tmp, 'truth');
const truthA = json(join(truthDir, 'tst1', 'a.answers.json'), [entry('a1', 'x'), entry('a2', 'y')]);
const truthB = json(join(truthDir, 'tst2', 'b.answers.json'), [entry('b1', 'x'), entry('b2', 'y')]);
const res = join(tmp, 'results');
// a: a1 at rank 1, a2 at rank 2 → P@1 0.5, P@2 1, MRR 0.75. b: b1 at rank 5, b2 missing → P@5 0.5, MRR 0.1.
const resA = json(join(res, 'tst1', 'a.json'), [entry('a1', 'x', 'q'), entry('a2', 'q', 'y')]);
const resB = json(join(res, 'tst2', 'b.tfidf.json'), [entry('b1', 'q', 'r', 's', 't', 'x')]);

test('several results: per-file lines and the total pooled over all dialogs', () => {
  const r = cli('dstc6', 'score', '--result', res, '--truth', truthDir);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0] as string, /tst1\/a\.json +P@1 0\.5000 {2}P@2 1\.0000 {2}P@5 1\.0000 {2}MRR 0\.7500 {2}dialogs 2 \(missing 0\)$/);
  assert.match(lines[1] as string, /tst2\/b\.tfidf\.json +P@1 0\.0000 {2}P@2 0\.0000 {2}P@5 0\.5000 {2}MRR 0\.1000 {2}dialogs 2 \(missing 1\)$/);
  assert.match(lines[2] as string, /^total \(2 files\) +P@1 0\.2500 {2}P@2 0\.5000 {2}P@5 0\.7500 {2}MRR 0\.4250 {2}dialogs 4 \(missing 1\)$/);

  const j = JSON.parse(cli('dstc6', 'score', '--result', `${resA},${resB}`, '--truth', truthDir, '--json').stdout) as {
    files: { result: string; truth: string; p1: number; p5: number }[];
    total: { files: number; p1: number; p2: number; p5: number; dialogs: number; missing: number };
  };
  assert.deepEqual(
    j.files.map((f) => [basename(f.result), f.truth, f.p1, f.p5]),
    [
      ['a.json', truthA, 0.5, 1],
      ['b.tfidf.json', truthB, 0, 0.5],
    ],
  );
  assert.deepEqual(j.total, { files: 2, p1: 0.25, p2: 0.5, p5: 0.75, mrr: 0.425, dialogs: 4, missing: 1 });
  // space-separated files and answers paired by position give the same figures
  const paired = JSON.parse(cli('dstc6', 'score', '--result', resA, resB, '--truth', `${truthA},${truthB}`, '--json').stdout) as typeof j;
  assert.deepEqual(paired.total, j.total);
  // one answers file for several results (two systems on one test file)
  const same = JSON.parse(cli('dstc6', 'score', '--result', resA, resA, '--truth', truthA, '--json').stdout) as typeof j;
  assert.deepEqual([same.total.p1, same.total.dialogs], [0.5, 4]);
  // a folder of symbolic links to result files (a dangling link is skipped)
  const links = join(tmp, 'links');
  mkdirSync(links);
  symlinkSync(resA, join(links, 'a.json'));
  symlinkSync(resB, join(links, 'b.tfidf.json'));
  symlinkSync(join(tmp, 'gone.json'), join(links, 'gone.json'));
  const linked = JSON.parse(cli('dstc6', 'score', '--result', links, '--truth', truthDir, '--json').stdout) as typeof j;
  assert.deepEqual(linked.total, j.total);
  // one result keeps score.py's output
  assert.match(cli('dstc6', 'score', '--result', resA, '--truth', truthDir).stdout, /^Precision @1: 0\.5\nPrecision @2: 1\.0\nPrecision @5: 1\.0\nMRR: 0\.7500\n/);
});

test('several results: one-line errors for unmatched names, counts and bad files', () => {
  const one = (r: { code: number; stderr: string }, re: RegExp, code: number): void => {
    assert.equal(r.code, code, r.stderr);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trimEnd(), re);
  };
  const stray = json(join(tmp, 'other', 'zzz.json'), [entry('a1', 'x')]);
  one(cli('dstc6', 'score', '--result', resA, stray, '--truth', truthDir), /^error: --answers: no <name>\.answers\.json in .*truth for the result .*zzz\.json/, 2);
  one(cli('dstc6', 'score', '--result', resA, resB, stray, '--truth', `${truthA},${truthB}`), /^error: --answers: 2 answers files for 3 results/, 2);
  one(cli('dstc6', 'score', '--result', resA, join(tmp, 'nope.json'), '--truth', `${truthA},${truthA}`), /^error: .*nope\.json: no such file$/, 1);
  mkdirSync(join(tmp, 'empty'));
  one(cli('dstc6', 'score', '--result', join(tmp, 'empty'), '--truth', truthA), /^error: --result: .*empty: no \*\.json file in this folder$/, 2);
  const bad = json(join(tmp, 'bad', 'a.json'), [entry('a1', 'x'), { dialog_id: 'a2', lst_candidate_id: [{ candidate_id: 'x', rank: 0 }] }]);
  one(cli('dstc6', 'score', '--result', resA, bad, '--truth', truthDir), /^error: .*bad\/a\.json: entry 2 \(dialog_id a2\): lst_candidate_id\[0\]: "rank" must be >= 1, got 0$/, 1);
  // a string rank, as the official scripts accept, is read through the checking reader
  const str = json(join(tmp, 'str', 'a.json'), [{ dialog_id: 'a1', lst_candidate_id: [{ candidate_id: 'x', rank: '1' }] }]);
  assert.match(cli('dstc6', 'score', '--result', str, '--truth', truthA).stdout, /^Precision @1: 0\.5\n/);
});

test('the bin prints what the ES module CLI prints, on good and bad input', () => {
  const dup = json(join(tmp, 'dup', 'a.json'), [entry('a1', 'x'), entry('a1', 'q', 'x'), entry('zz', 'x')]);
  const escaped = join(tmp, 'esc', 'a.json');
  mkdirSync(join(escaped, '..'), { recursive: true });
  writeFileSync(escaped, '[{"dialog_id": "a\\u0031", "lst_candidate_id": [{"candidate_id": "x", "rank": 1.0}]}]');
  const cases: string[][] = [
    ['--result', res, '--truth', truthDir],
    ['--result', res, '--truth', truthDir, '--json', '--nb-candidates', '1'],
    ['--result', resA, resA, '--truth', truthA],
    ['--result', dup, '--truth', truthA],
    ['--result', dup, resA, '--truth', `${truthA},${truthA}`, '--json'],
    ['--result', escaped, '--truth', truthA],
    ['--result', resA, join(tmp, 'nope.json'), '--truth', `${truthA},${truthA}`],
    ['--result', resA, '--truth', join(tmp, 'empty')],
    ['--result', resA, '--truth', 'dstc6:tst1/task1'],
    ['--result', resA, resB, '--truth', truthA, '--nb-candidates', '0'],
  ];
  mkdirSync(join(tmp, 'empty'), { recursive: true });
  for (const args of cases) assert.deepEqual(bin('dstc6', 'score', ...args), cli('dstc6', 'score', ...args), args.join(' '));
});

test('the 20 real test files in one run: each file as the official TF-IDF figures, total their mean', { skip: skipUnless(dstc6Dir) }, () => {
  const files = dstc6TestFiles();
  const sub = join(tmp, 'submission');
  for (const f of files) writeDstc6Results(join(sub, f.set, basename(f.answers)), tfidfBaseline(readDstc6Data(f.data)));
  const r = cli('dstc6', 'score', '--result', sub, '--truth', join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { files: { result: string; p1: number; p2: number; p5: number }[]; total: { p1: number; dialogs: number } };
  assert.equal(j.files.length, 20);
  for (const f of files) {
    const got = j.files.find((x) => x.result === join(sub, f.set, basename(f.answers)));
    assert.ok(got, f.name);
    for (const [k, want] of f.tfidf.entries()) assert.ok(Math.abs([got.p1, got.p2, got.p5][k]! - want) <= 0.005, `${f.name}: ${JSON.stringify(got)}`);
  }
  assert.equal(j.total.dialogs, 20000);
  assert.ok(Math.abs(j.total.p1 - j.files.reduce((a, f) => a + f.p1, 0) / 20) < 1e-12);
  // The bin's own scoring (one process, no ES module) prints the same bytes; each file's figures to
  // the last digit are those of scoreDstc6 on the checking readers.
  const args = ['dstc6', 'score', '--result', sub, '--truth', join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0'), '--json'];
  assert.deepEqual(bin(...args), r);
  for (const f of files) {
    const s = scoreDstc6(readDstc6Results(join(sub, f.set, basename(f.answers))), readDstc6Results(f.answers));
    const got = j.files.find((x) => x.result === join(sub, f.set, basename(f.answers))) as unknown as Record<string, number>;
    assert.deepEqual([got.p1, got.p2, got.p5, got.mrr], [1, 2, 5].map((k) => precisionAtK.value(s.precision, k)).concat(meanReciprocalRank.value(s.mrr)), f.name);
  }
  for (const f of files.slice(0, 3)) {
    const one = ['dstc6', 'score', '--result', join(sub, f.set, basename(f.answers)), '--truth', f.answers];
    assert.deepEqual(bin(...one), cli(...one, '--'));
  }
});
