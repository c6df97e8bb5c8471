import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import { readDstc6Data, readDstc6Results, type Dstc6Entry, type Dstc6Result } from '../../formats/dstc6.js';
import { checkDstc6Result, formatProblem } from './check.js';
import { dstc6TestFiles } from '../../../test/dstc6-files.js';

const data: Dstc6Entry[] = ['d1', 'd2'].map((id) => ({
  dialog_id: id,
  utterances: ['hi'],
  candidates: ['a', 'b', 'c'].map((c) => ({ candidate_id: `${id}${c}`, utterance: c })),
}));
const full = (id: string, order = ['a', 'b', 'c']): Dstc6Result => ({
  dialog_id: id,
  lst_candidate_id: order.map((c, k) => ({ candidate_id: `${id}${c}`, rank: k + 1 })),
});
const messages = (r: Dstc6Result[]): string[] => checkDstc6Result(r, data).map(formatProblem);

test('check: full and partial rankings are valid', () => {
  assert.deepEqual(messages([full('d1'), full('d2', ['c', 'a', 'b'])]), []);
  assert.deepEqual(messages([full('d2', ['b']), full('d1', ['c'])]), []);
});

test('check: missing dialog, duplicated rank, unknown candidate id, and the rest', () => {
  assert.deepEqual(messages([full('d1')]), ['dialog_id d2: missing from the result']);
  const dupRank: Dstc6Result = { dialog_id: 'd2', lst_candidate_id: [{ candidate_id: 'd2a', rank: 1 }, { candidate_id: 'd2b', rank: 1 }] };
  assert.deepEqual(messages([full('d1'), dupRank]), [
    'entry 2 (dialog_id d2): duplicate rank 1 (candidates d2a, d2b)',
    'entry 2 (dialog_id d2): missing rank 2 (ranks must be 1..2 without gaps)',
  ]);
  assert.deepEqual(messages([full('d1'), full('d2', ['a', 'z'])]), ['entry 2 (dialog_id d2): unknown candidate_id d2z (not a candidate of this dialog)']);
  // d1's candidate id used in d2: valid id elsewhere, not for this dialog.
  assert.deepEqual(messages([full('d1'), { dialog_id: 'd2', lst_candidate_id: [{ candidate_id: 'd1a', rank: 1 }] }]), [
    'entry 2 (dialog_id d2): unknown candidate_id d1a (not a candidate of this dialog)',
  ]);
  assert.deepEqual(messages([full('d1'), full('d2'), full('d1')]), ['entry 3 (dialog_id d1): dialog listed again (first at entry 1)']);
  assert.deepEqual(messages([full('d1'), full('d2'), full('d7')]).slice(0, 1), ['entry 3 (dialog_id d7): unknown dialog_id (not in the data file)']);
  const gap: Dstc6Result = { dialog_id: 'd2', lst_candidate_id: [{ candidate_id: 'd2a', rank: 1 }, { candidate_id: 'd2b', rank: 3 }] };
  assert.deepEqual(messages([full('d1'), gap]), [
    'entry 2 (dialog_id d2): rank 3 out of range 1..2 (ranks must be 1..n for n ranked items)',
    'entry 2 (dialog_id d2): missing rank 2 (ranks must be 1..2 without gaps)',
  ]);
  const twice: Dstc6Result = { dialog_id: 'd2', lst_candidate_id: [{ candidate_id: 'd2a', rank: 1 }, { candidate_id: 'd2a', rank: 2 }] };
  assert.deepEqual(messages([full('d1'), twice]), ['entry 2 (dialog_id d2): candidate_id d2a ranked twice (ranks 1 and 2)']);
  assert.deepEqual(messages([full('d1'), { dialog_id: 'd2', lst_candidate_id: [] }]), ['entry 2 (dialog_id d2): empty lst_candidate_id (no candidate ranked)']);
});

test('check accepts every real answers file against its data file', { skip: skipUnless(dstc6Dir) }, () => {
  const files = dstc6TestFiles();
  assert.equal(files.length, 20);
  for (const f of files) {
    const d = readDstc6Data(f.data);
    const a = readDstc6Results(f.answers);
    assert.deepEqual(checkDstc6Result(a, d), [], f.name);
    // …and rejects it against another file's data (every dialog unknown / missing).
    if (f.set === 'tst1' && f.name.includes('task1')) {
      const other = readDstc6Data(files[1]!.data);
      assert.equal(checkDstc6Result(a, other).length, 2000);
    }
  }
});
