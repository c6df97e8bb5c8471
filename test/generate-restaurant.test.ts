/** End to end: `dialogym generate restaurant` through the CLI, compared with the original files. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { babiDir, skipUnless, SPLITS, TASK_NAMES } from './shared-data.js';
import { compareWithOriginal, formatComparison } from '../src/testbeds/restaurant/delex.js';
import { formatBabiDialogs, parseBabiDialogs } from '../src/formats/babi.js';
import { runCli as run } from './cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-gen-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function generate(dir: string, ...extra: string[]): void {
  const r = run(['generate', 'restaurant', '--out', dir, ...extra]);
  assert.equal(r.code, 0, r.stderr);
}

const readDir = (dir: string): Map<string, string> => new Map(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

const seed1 = join(tmp, 'seed1');

test('generate --task all --seed 1 writes the 22 files with the original names', () => {
  generate(seed1, '--task', 'all', '--seed', '1');
  const names = readdirSync(seed1).sort();
  const want = ['dialog-babi-candidates.txt', 'dialog-babi-kb-all.txt'];
  for (const t of [1, 2, 3, 4, 5]) for (const s of SPLITS) want.push(`dialog-babi-${TASK_NAMES[t]}-${s}.txt`);
  assert.deepEqual(names, want.sort());
  for (const n of names) {
    if (!n.includes('-task')) continue;
    const text = readFileSync(join(seed1, n), 'utf8');
    const parsed = parseBabiDialogs(text, n);
    assert.equal(parsed.dialogs.length, 1000, n);
    assert.equal(formatBabiDialogs(parsed.dialogs), text, `${n} does not round-trip`);
  }
  assert.equal(readFileSync(join(seed1, 'dialog-babi-kb-all.txt'), 'utf8').split('\n').length - 1, 8400);
  assert.equal(readFileSync(join(seed1, 'dialog-babi-candidates.txt'), 'utf8').split('\n').length - 1, 4212);
});

test('seed 1 matches the originals: per-split sizes within 5%, same bot templates, user utterances covered', { skip: skipUnless(babiDir) }, () => {
  assert.ok(existsSync(seed1), 'the previous test must run first');
  const c = compareWithOriginal(seed1, babiDir);
  const table = formatComparison(c).join('\n');
  for (const s of c.splits) assert.ok(s.maxRelDiff < 0.05, `task ${s.task} ${s.split}: ${(100 * s.maxRelDiff).toFixed(1)}% off\n${table}`);
  for (const t of c.tasks) {
    assert.ok(t.botTemplatesEqual, `task ${t.task}: bot templates differ\n${t.generatedBotTemplates.join('\n')}`);
    assert.ok(t.userCoverage >= 0.9, `task ${t.task}: coverage ${t.userCoverage}\n${table}`);
    assert.ok(t.userPrecision >= 0.98, `task ${t.task}: precision ${t.userPrecision}\n${table}`);
  }
  assert.ok(c.overall.userCoverage >= 0.99 && c.overall.userPrecision >= 0.99, table);
});

test('same seed gives a byte-identical folder, another seed other dialogs; one task alone equals its part of all', () => {
  const again = join(tmp, 'again');
  const other = join(tmp, 'other');
  const only2 = join(tmp, 'only2');
  generate(again, '--task', 'all', '--seed', '1');
  generate(other, '--task', 'all', '--seed', '2', '--dialogs', '1000');
  generate(only2, '--task', '2', '--seed', '1');
  const a = readDir(seed1);
  assert.deepEqual(readDir(again), a);
  const o = readDir(other);
  for (const [n, text] of a) if (n.includes('-task')) assert.notEqual(o.get(n), text, `${n} identical for seeds 1 and 2`);
  const t2 = readDir(only2);
  assert.equal(t2.size, 6);
  for (const [n, text] of t2) assert.equal(text, a.get(n), n);
});

test('test dialogs never share the user goal of a training dialog (first api_call / results / restaurant)', () => {
  const goal = (t: number, turns: readonly { speaker: string; text: string }[]): string => {
    const call = turns.find((x) => x.speaker === 'bot' && x.text.startsWith('api_call'));
    if (call && t !== 3) return call.text;
    return [...new Set(turns.filter((x) => x.speaker === 'kb').map((x) => x.text.split(' ')[0]))].sort().join(',');
  };
  for (const t of [1, 2, 3, 4, 5]) {
    const read = (s: string) => parseBabiDialogs(readFileSync(join(seed1, `dialog-babi-${TASK_NAMES[t]}-${s}.txt`), 'utf8')).dialogs;
    const trn = new Set(read('trn').map((d) => goal(t, d.turns)));
    for (const s of ['dev', 'tst']) for (const d of read(s)) assert.ok(!trn.has(goal(t, d.turns)), `task ${t} ${s}: ${goal(t, d.turns)} in trn`);
  }
});

test('bad flags: one-line error, exit 2, nothing written', () => {
  const out = join(tmp, 'bad');
  const cases: Array<[string[], RegExp]> = [
    [['--task', '7', '--seed', '1', '--out', out], /^error: --task: expected 1, 2, 3, 4, 5 or all, got '7'\n$/],
    [['--task', 'all', '--seed', 'x', '--out', out], /^error: --seed: expected an integer, got 'x'\n$/],
    [['--task', 'all', '--seed', '1', '--out', out, '--dialogs', '0'], /^error: --dialogs: must be >= 1, got 0/],
    [['--seed', '1', '--out', out], /^error: --task is required/],
    [['--task', '1', '--seed', '1'], /^error: --out is required\n$/],
  ];
  for (const [args, re] of cases) {
    const r = run(['generate', 'restaurant', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
  const kb = run(['generate', 'restaurant', '--task', '1', '--seed', '1', '--out', out, '--kb', join(tmp, 'nope.txt')]);
  assert.equal(kb.code, 1);
  assert.equal(kb.stderr, `error: ${join(tmp, 'nope.txt')}: no such file\n`);
  assert.ok(!existsSync(out));
});

test('--kb uses the original KB file', { skip: skipUnless(babiDir) }, () => {
  const dir = join(tmp, 'origkb');
  generate(dir, '--task', '3', '--seed', '1', '--dialogs', '100', '--kb', join(babiDir, 'dialog-babi-kb-all.txt'));
  assert.equal(readFileSync(join(dir, 'dialog-babi-kb-all.txt'), 'utf8'), readFileSync(join(babiDir, 'dialog-babi-kb-all.txt'), 'utf8'));
  assert.equal(
    readFileSync(join(dir, 'dialog-babi-candidates.txt'), 'utf8').split('\n').filter(Boolean).map((l) => l.slice(2)).sort().join('\n'),
    readFileSync(join(babiDir, 'dialog-babi-candidates.txt'), 'utf8').split('\n').filter(Boolean).map((l) => l.slice(2)).sort().join('\n'),
  );
});
