import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../core/errors.js';
import type { Dstc6Result } from '../../formats/dstc6.js';
import { meanReciprocalRank, precisionAtK } from '../../metrics/ranking.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreDstc6, scoreDstc6Files } from './score.js';

const res = (id: string, ids: string[], ranks?: number[]): Dstc6Result => ({
  dialog_id: id,
  lst_candidate_id: ids.map((candidate_id, k) => ({ candidate_id, rank: ranks?.[k] ?? k + 1 })),
});

const truth = [res('d1', ['a']), res('d2', ['b']), res('d3', ['c']), res('d4', ['d'])];

test('score: P@k over truth dialogs, missing dialogs are misses', () => {
  const result = [
    res('d1', ['a', 'x', 'y']), // rank 1
    res('d2', ['x', 'b', 'y']), // rank 2
    res('d3', ['x', 'y', 'z', 'w', 'c']), // rank 5
    // d4 missing
    res('d9', ['q']), // not in truth: ignored
  ];
  const s = scoreDstc6(result, truth);
  assert.equal(s.dialogs, 4);
  assert.equal(s.missing, 1);
  assert.deepEqual([1, 2, 5].map((k) => precisionAtK.value(s.precision, k)), [0.25, 0.5, 0.75]);
  assert.equal(meanReciprocalRank.value(s.mrr), (1 + 0.5 + 0.2) / 4);
});

test('score: ranks above nbCandidates dropped; ranks, not list order, count; last listing wins', () => {
  // Listed out of order: c has rank 1.
  assert.equal(precisionAtK.value(scoreDstc6([res('d3', ['x', 'c'], [2, 1])], truth).precision, 1), 0.25);
  // True answer at rank 11: with the default 10 it is dropped, with 11 it counts at no k ≤ 5 anyway but in MRR.
  const ids = Array.from({ length: 11 }, (_, i) => (i === 10 ? 'a' : `x${i}`));
  assert.equal(meanReciprocalRank.value(scoreDstc6([res('d1', ids)], truth).mrr), 0);
  assert.equal(meanReciprocalRank.value(scoreDstc6([res('d1', ids)], truth, { nbCandidates: 11 }).mrr), 1 / 11 / 4);
  // nbCandidates 1: only rank 1 kept.
  assert.equal(precisionAtK.value(scoreDstc6([res('d2', ['x', 'b'])], truth, { nbCandidates: 1 }).precision, 2), 0);
  // A dialog listed twice: the later listing counts (score.py's dict).
  const s = scoreDstc6([res('d1', ['a']), res('d1', ['x', 'a'])], truth);
  assert.equal(s.duplicated, 1);
  assert.equal(precisionAtK.value(s.precision, 1), 0);
  assert.equal(precisionAtK.value(s.precision, 2), 0.25);
});

test('score: a truth entry without a rank-1 candidate is a one-line error', () => {
  assert.throws(
    () => scoreDstc6([], [res('d1', ['a'], [2])], { truthFile: 't.json' }),
    (e: unknown) => e instanceof FormatError && e.message === 't.json: entry 1 (dialog_id d1): no candidate with rank 1 (the true answer)',
  );
  assert.throws(() => scoreDstc6([], [res('d1', ['a']), res('d1', ['b'])], { truthFile: 't.json' }), /entry 2 \(dialog_id d1\): dialog_id listed twice/);
});

test('score: a rank given twice keeps the later candidate (score.py fills rank slots in order)', () => {
  // d1's answer a at rank 1, then x also at rank 1: the slot holds x, a is nowhere → miss
  assert.equal(precisionAtK.value(scoreDstc6([res('d1', ['a', 'x'], [1, 1])], truth).precision, 5), 0);
  // x at rank 1, then a at rank 1 and again at rank 3: a holds slot 1
  assert.equal(precisionAtK.value(scoreDstc6([res('d1', ['x', 'a', 'a'], [1, 1, 3])], truth).precision, 1), 0.25);
  // a at rank 3 and at rank 2 (listed later): the first slot holding a is 2
  assert.equal(meanReciprocalRank.value(scoreDstc6([res('d1', ['a', 'a'], [3, 2])], truth).mrr), 0.5 / 4);
});

test('scoreDstc6Files: the same score as the checked reader, string ranks read as the official scripts do, errors name the entry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-score-'));
  const t = join(dir, 't.answers.json');
  writeFileSync(t, JSON.stringify(truth));
  const result = [res('d1', ['a', 'x']), res('d2', ['x', 'b']), res('d3', ['c'])];
  const r = join(dir, 'r.json');
  writeFileSync(r, JSON.stringify(result));
  assert.deepEqual(scoreDstc6Files(r, t), scoreDstc6(result, truth));
  const s = join(dir, 's.json');
  writeFileSync(s, JSON.stringify([{ dialog_id: 'd2', lst_candidate_id: [{ candidate_id: 'b', rank: ' 2' }] }]));
  assert.equal(meanReciprocalRank.value(scoreDstc6Files(s, t).mrr), 0.5 / 4);
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify([{ dialog_id: 'd2', lst_candidate_id: [{ candidate_id: 'b', rank: 1.5 }] }]));
  assert.throws(() => scoreDstc6Files(bad, t), (e: unknown) => e instanceof FormatError && /bad\.json: entry 1 \(dialog_id d2\): lst_candidate_id\[0\]: "rank" must be an integer, got 1\.5$/.test(e.message));
  // The fast path keeps the schema's bounds: a rank above 1,000,000 is refused as by the checked reader.
  writeFileSync(bad, JSON.stringify([{ dialog_id: 'd2', lst_candidate_id: [{ candidate_id: 'b', rank: 2_000_000 }] }]));
  assert.throws(() => scoreDstc6Files(bad, t), (e: unknown) => e instanceof FormatError && /bad\.json: entry 1 \(dialog_id d2\): lst_candidate_id\[0\]: "rank" .*1000000/.test(e.message));
});

test('scoreDstc6Files: a file that is not exactly a result file goes through the checking reader (same figures, same errors)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-score-'));
  const t = join(dir, 't.answers.json');
  writeFileSync(t, JSON.stringify(truth));
  const write = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  // An extra key (the schema allows it) is read by the checking reader: the same score.
  const extra = write('extra.json', JSON.stringify([{ ...res('d2', ['x', 'b']), system: 'tfidf' }]));
  assert.equal(meanReciprocalRank.value(scoreDstc6Files(extra, t).mrr), 0.5 / 4);
  // Under an extra key, nesting and huge numbers are still refused, at their line and column.
  const deep = write('deep.json', `[{"dialog_id": "d1", "lst_candidate_id": [],\n "x": ${'['.repeat(70)}${']'.repeat(70)}}]`);
  assert.throws(() => scoreDstc6Files(deep, t), (e: unknown) => e instanceof FormatError && e.message === `${deep}:2: nesting deeper than 64 levels (column 69)`);
  const huge = write('huge.json', '[{"dialog_id": "d1", "lst_candidate_id": [], "x": 1e400}]');
  assert.throws(() => scoreDstc6Files(huge, t), (e: unknown) => e instanceof FormatError && e.message === `${huge}:1: number 1e400 out of range (not a finite double) (column 51)`);
  const broken = write('broken.json', '[{"dialog_id": "d1",\n "lst_candidate_id": [}]');
  assert.throws(() => scoreDstc6Files(broken, t), (e: unknown) => e instanceof FormatError && e.message.startsWith(`${broken}:2: invalid JSON`));
  // The truth file too.
  assert.throws(() => scoreDstc6Files(extra, deep), (e: unknown) => e instanceof FormatError && e.message.startsWith(`${deep}:2: nesting deeper`));
});
