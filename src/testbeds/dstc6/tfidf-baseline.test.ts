import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import { readDstc6Data, readDstc6Results, type Dstc6Entry } from '../../formats/dstc6.js';
import { precisionAtK } from '../../metrics/ranking.js';
import { scoreDstc6 } from './score.js';
import { dstc6TestFiles } from '../../../test/dstc6-files.js';
import { tfidfBaseline, tfidfScores } from './tfidf-baseline.js';

test('tf-idf baseline reproduces the official P@1/2/5 on all 20 real test files (±0.005)', { skip: skipUnless(dstc6Dir) }, () => {
  const files = dstc6TestFiles();
  assert.equal(files.length, 20);
  let maxDiff = 0;
  for (const f of files) {
    const s = scoreDstc6(tfidfBaseline(readDstc6Data(f.data)), readDstc6Results(f.answers));
    assert.equal(s.dialogs, 1000);
    const got = [1, 2, 5].map((k) => precisionAtK.value(s.precision, k));
    got.forEach((g, i) => {
      const d = Math.abs(g - (f.tfidf[i] as number));
      maxDiff = Math.max(maxDiff, d);
      assert.ok(d <= 0.005, `${f.set}/${f.name} P@${[1, 2, 5][i]}: ${g} vs official ${f.tfidf[i]}`);
    });
  }
  // Measured: identical on every file (ties in candidate order, float sums in scipy's order).
  assert.ok(maxDiff < 1e-9, `max difference ${maxDiff}`);
});

test('tf-idf baseline: ranks all candidates, most similar first, ties in candidate order', () => {
  const e = (id: string, utterances: string[], cands: string[]): Dstc6Entry => ({
    dialog_id: id,
    utterances,
    candidates: cands.map((u, k) => ({ candidate_id: `${id}-${k}`, utterance: u })),
  });
  const entries = [
    e('d1', ['i want italian food', 'what price range'], ['zzz', 'italian food please', 'what price', 'qqq']),
    e('d2', ['book a table in paris'], ['paris', 'table', 'nothing']),
  ];
  const r = tfidfBaseline(entries);
  assert.deepEqual(r[0]?.lst_candidate_id.map((c) => c.rank), [1, 2, 3, 4]);
  const ids = r[0]?.lst_candidate_id.map((c) => c.candidate_id);
  // the two candidates sharing no word with the dialog (score 0) keep their order: zzz before qqq
  assert.deepEqual(ids?.slice(2), ['d1-0', 'd1-3']);
  const s = tfidfScores(entries);
  assert.equal(s[0]?.[0], 0);
  assert.ok((s[0]?.[1] as number) > 0 && (s[0]?.[2] as number) > 0);
  // "paris" occurs in 1 of 2 docs, "table" too: same idf, same score → order kept
  assert.equal(s[1]?.[0], s[1]?.[1]);
  assert.deepEqual(r[1]?.lst_candidate_id.map((c) => c.candidate_id), ['d2-0', 'd2-1', 'd2-2']);
});
