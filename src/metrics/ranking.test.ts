import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accuracy, meanReciprocalRank, orderByScore, precisionAtK, rankOfIndex } from './ranking.js';

test('accuracy: per-response and per-dialog, mergeable', () => {
  let a = accuracy.empty();
  a = accuracy.addDialog(a, [true, true, false]);
  a = accuracy.addDialog(a, [true, true]);
  let b = accuracy.empty();
  b = accuracy.addDialog(b, [false]);
  const m = accuracy.merge(a, b);
  assert.equal(accuracy.perResponse(m), 4 / 6);
  assert.equal(accuracy.perDialog(m), 1 / 3);
  assert.equal(accuracy.perResponse(accuracy.empty()), 0);
});

test('precision@k: hits at each k, a missing rank is a miss everywhere', () => {
  let s = precisionAtK.empty([1, 2, 5]);
  for (const r of [1, 2, 3, 5, 6, undefined]) s = precisionAtK.add(s, r);
  assert.equal(s.examples, 6);
  assert.deepEqual(s.hits, [1, 2, 4]);
  assert.equal(precisionAtK.value(s, 1), 1 / 6);
  assert.equal(precisionAtK.value(s, 2), 2 / 6);
  assert.equal(precisionAtK.value(s, 5), 4 / 6);
  assert.throws(() => precisionAtK.value(s, 3), /k=3 not tracked/);
  assert.equal(precisionAtK.value(precisionAtK.empty(), 1), 0);
  assert.throws(() => precisionAtK.empty([0]), /positive integer/);
});

test('precision@k and MRR: merging split states equals adding all at once', () => {
  const ranks = [1, 4, undefined, 2, 2, 7, 1, 3];
  let whole = precisionAtK.empty([1, 3]);
  let mw = meanReciprocalRank.empty();
  for (const r of ranks) {
    whole = precisionAtK.add(whole, r);
    mw = meanReciprocalRank.add(mw, r);
  }
  let a = precisionAtK.empty([1, 3]);
  let b = precisionAtK.empty([1, 3]);
  let ma = meanReciprocalRank.empty();
  let mb = meanReciprocalRank.empty();
  ranks.forEach((r, i) => {
    if (i % 2) {
      a = precisionAtK.add(a, r);
      ma = meanReciprocalRank.add(ma, r);
    } else {
      b = precisionAtK.add(b, r);
      mb = meanReciprocalRank.add(mb, r);
    }
  });
  assert.deepEqual(precisionAtK.merge(a, b), whole);
  assert.equal(meanReciprocalRank.value(meanReciprocalRank.merge(ma, mb)), meanReciprocalRank.value(mw));
  assert.equal(meanReciprocalRank.value(mw), (1 + 1 / 4 + 0 + 1 / 2 + 1 / 2 + 1 / 7 + 1 + 1 / 3) / 8);
  assert.throws(() => precisionAtK.merge(a, precisionAtK.empty([1, 2])), /different k lists/);
});

test('orderByScore: highest first, ties in candidate order, NaN last', () => {
  assert.deepEqual(orderByScore([0.1, 0.5, 0.5, 0.9, 0]), [3, 1, 2, 0, 4]);
  assert.deepEqual(orderByScore(new Float32Array([0, 0, 0])), [0, 1, 2]);
  assert.deepEqual(orderByScore([NaN, -1, 2]), [2, 1, 0]);
  assert.deepEqual(orderByScore([-0, 0, -0]), [0, 1, 2]);
  const order = orderByScore([3, 1, 2]);
  assert.equal(rankOfIndex(order, 0), 1);
  assert.equal(rankOfIndex(order, 1), 3);
  assert.equal(rankOfIndex(order, 7), undefined);
});
