import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoLast } from './memo.js';

test('memoLast: keeps the results of the keys used last, computes the others again', () => {
  const calls: number[] = [];
  const f = memoLast(2, (n: number) => {
    calls.push(n);
    return n * 10;
  });
  assert.deepEqual([f(1), f(2), f(1), f(3), f(1), f(2)], [10, 20, 10, 30, 10, 20]);
  // 1 and 2 cached; 1 used again; 3 evicts 2 (used least recently); 1 still there; 2 computed again.
  assert.deepEqual(calls, [1, 2, 3, 2]);
});
