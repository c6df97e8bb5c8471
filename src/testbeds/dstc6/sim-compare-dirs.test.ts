/** `dialogym compare dstc6`: generated test sets against each other and against the real release. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import type { DirComparison } from './sim-compare-dirs.js';

function cli(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'dialogym-cmp6-'));
const realDir = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0');

function generate(out: string, seed: number, kb?: string): void {
  const r = cli('generate', 'dstc6', '--task', '4', '--set', 'tst1', '--seed', String(seed), '--examples', '300', '--out', join(out, 'tst1'), ...(kb ? ['--kb', kb] : []));
  assert.equal(r.code, 0, r.stderr);
}

test('two generations of the same spec: same figures per file and pooled', () => {
  generate(join(dir, 'a'), 1);
  generate(join(dir, 'b'), 2);
  const r = cli('compare', 'dstc6', join(dir, 'a'), join(dir, 'b'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const c = JSON.parse(r.stdout) as DirComparison;
  assert.equal(c.files.length, 1);
  assert.equal(c.files[0]?.set, 'tst1');
  assert.equal(c.files[0]?.task, 4);
  assert.equal(c.tasks.length, 1);
  const f = c.files[0]!;
  assert.equal(f.realEntries, 300);
  assert.ok(f.utteranceRelDiff < 0.05, `utterances per entry differ by ${f.utteranceRelDiff}`);
  assert.ok(f.candidateMaxDiff < 0.1, `candidate histogram differs by ${f.candidateMaxDiff}`);
  assert.ok(f.unitPrecision > 0.95 && f.unitCoverage > 0.95, JSON.stringify(f));
  // One set per task: the pooled row is that file's row.
  const pooled = c.tasks[0]! as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(f)) if (typeof v === 'number' && k !== 'task') assert.equal(pooled[k], v, k);
  assert.deepEqual(c.tasks[0]?.sets, ['tst1']);
});

test('the text report names each file and the pooled rows', () => {
  const r = cli('compare', 'dstc6', join(dir, 'a'), join(dir, 'b'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^tst1 task4INFOS +13\.\d\d \/ 13\.\d\d/m);
  assert.match(r.stdout, /^all task4INFOS|^tst1 task4INFOS/m);
});

test('folders without test sets: one-line error, exit 1', () => {
  const r = cli('compare', 'dstc6', dir, join(dir, 'a'));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^error: no test set found in both .* \(expected tst1\/ … tst4\/ folders/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  const m = cli('compare', 'dstc6', join(dir, 'missing'), join(dir, 'a'));
  assert.equal(m.code, 1);
  assert.match(m.stderr, /missing: not a folder/);
});

test('generated task 4 with the real KB 1 against the real tst1: utterances/entry within 10%, all units found', { skip: skipUnless(realDir) }, () => {
  generate(join(dir, 'r'), 1, join(realDir, 'extendedkb1.txt'));
  const r = cli('compare', 'dstc6', join(dir, 'r'), realDir, '--json');
  assert.equal(r.code, 0, r.stderr);
  const c = JSON.parse(r.stdout) as DirComparison;
  const f = c.files.find((x) => x.set === 'tst1' && x.task === 4)!;
  assert.equal(f.realEntries, 1000);
  assert.ok(f.utteranceRelDiff < 0.1, String(f.utteranceRelDiff));
  assert.ok(f.candidateMaxDiff < 0.05, String(f.candidateMaxDiff));
  assert.equal(f.unitPrecision, 1);
  assert.ok(f.unitCoverage >= 0.9, String(f.unitCoverage));
});
