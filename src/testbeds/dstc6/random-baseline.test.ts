import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dstc6Entry } from '../../formats/dstc6.js';
import { precisionAtK } from '../../metrics/ranking.js';
import { checkDstc6Result } from './check.js';
import { randomBaseline } from './random-baseline.js';
import { scoreDstc6 } from './score.js';

const entries: Dstc6Entry[] = Array.from({ length: 2000 }, (_, i) => ({
  dialog_id: `d${i}`,
  utterances: ['hi'],
  candidates: Array.from({ length: 7 }, (_, k) => ({ candidate_id: `d${i}c${k}`, utterance: `u${k}` })),
}));

test('random baseline: valid full rankings, seeded, P@k near k/7', () => {
  const a = randomBaseline(entries, 42);
  assert.deepEqual(checkDstc6Result(a, entries), []);
  assert.ok(a.every((r) => r.lst_candidate_id.length === 7));
  assert.deepEqual(randomBaseline(entries, 42), a);
  assert.notDeepEqual(randomBaseline(entries, 43), a);
  const truth = entries.map((e) => ({ dialog_id: e.dialog_id, lst_candidate_id: [{ candidate_id: `${e.dialog_id}c3`, rank: 1 }] }));
  const s = scoreDstc6(a, truth);
  for (const k of [1, 2, 5]) {
    const p = precisionAtK.value(s.precision, k);
    // binomial sd at n=2000 is ≤ 0.011; allow 4 sd
    assert.ok(Math.abs(p - k / 7) < 0.045, `P@${k} = ${p}, expected about ${k / 7}`);
  }
});
