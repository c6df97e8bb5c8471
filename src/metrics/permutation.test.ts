import { test } from 'node:test';
import assert from 'node:assert/strict';
import { binomial, permutationTest, wilsonInterval } from './permutation.js';

/** A reference computation: every subset of the pooled values of size |a| by bitmask (n ≤ 20). */
function bruteForce(a: readonly number[], b: readonly number[]): number {
  const pooled = [...a, ...b];
  const n = pooled.length;
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const obs = Math.abs(mean(a) - mean(b));
  let hits = 0;
  let all = 0;
  for (let mask = 0; mask < 1 << n; mask++) {
    let bits = 0;
    for (let m = mask; m; m &= m - 1) bits++;
    if (bits !== a.length) continue;
    all++;
    const ga = pooled.filter((_, i) => mask & (1 << i));
    const gb = pooled.filter((_, i) => !(mask & (1 << i)));
    if (Math.abs(mean(ga) - mean(gb)) >= obs - 1e-9) hits++;
  }
  return hits / all;
}

test('permutation test: hand-computed exact p-values', () => {
  // 20 relabellings of {1..6} into 3 + 3; only {1,2,3} and {4,5,6} reach |2 − 5| = 3.
  const t = permutationTest([1, 2, 3], [4, 5, 6]);
  assert.equal(t.method, 'exact');
  assert.equal(t.permutations, 20);
  assert.equal(t.difference, -3);
  assert.equal(t.p, 0.1);
  // Successes 1,1,0 against 0,0,0,0: both successes in a (5 of 35 relabellings) → 1/7.
  const s = permutationTest([1, 1, 0], [0, 0, 0, 0]);
  assert.equal(s.method, 'exact');
  assert.ok(Math.abs(s.p - 1 / 7) < 1e-12, String(s.p));
  // 0,0,1 against 1,1,1: one or three successes in a (4 + 4 of 20) → 0.4.
  assert.ok(Math.abs(permutationTest([0, 0, 1], [1, 1, 1]).p - 0.4) < 1e-12);
  // Equal means: every relabelling is as extreme.
  assert.equal(permutationTest([2, 4], [1, 3, 5]).p, 1);
});

test('permutation test: exact p-values equal a brute-force enumeration, for counts and for successes', () => {
  const turns: Array<[number[], number[]]> = [
    [[3, 4, 4, 5, 9], [2, 2, 3, 3, 3, 4]],
    [[1, 1, 2, 8], [3, 3, 3, 3, 3, 3, 10]],
    [[5, 5, 5], [5, 5, 6]],
  ];
  for (const [a, b] of turns) assert.ok(Math.abs(permutationTest(a, b).p - bruteForce(a, b)) < 1e-12, `${a} | ${b}`);
  const wins: Array<[number[], number[]]> = [
    [[1, 1, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 0, 0, 1]],
    [[1, 0, 1, 0, 1, 0], [1, 1, 1, 1, 1, 1, 1, 0, 1]],
  ];
  for (const [a, b] of wins) assert.ok(Math.abs(permutationTest(a, b).p - bruteForce(a, b)) < 1e-12, `${a} | ${b}`);
});

test('permutation test: Monte-Carlo beyond maxExact, seeded, close to the exact value', () => {
  const a = [3, 4, 4, 5, 9, 6, 5, 7];
  const b = [2, 2, 3, 3, 3, 4, 6, 4];
  const exact = permutationTest(a, b);
  assert.equal(exact.permutations, binomial(16, 8));
  assert.equal(exact.permutations, 12870);
  const mc = permutationTest(a, b, { maxExact: 100, samples: 20_000, seed: 7 });
  assert.equal(mc.method, 'monte-carlo');
  assert.equal(mc.permutations, 20_000);
  assert.ok(Math.abs(mc.p - exact.p) < 0.01, `${mc.p} vs exact ${exact.p}`);
  assert.equal(permutationTest(a, b, { maxExact: 100, samples: 20_000, seed: 7 }).p, mc.p);
  assert.notEqual(permutationTest(a, b, { maxExact: 100, samples: 20_000, seed: 8 }).p, mc.p);
  // Never 0: the observed labelling counts.
  const far = permutationTest([100, 101, 102, 103, 104, 105], [1, 2, 3, 4, 5, 6, 7], { maxExact: 10, samples: 99 });
  assert.equal(far.p, 0.01);
});

test('permutation test: bad samples are one-line errors', () => {
  assert.throws(() => permutationTest([], [1]), /^ConfigError: permutationTest: sample a is empty$/);
  assert.throws(() => permutationTest([1], [2, Number.NaN]), /sample b\[1\] is not a finite number, got NaN/);
});

test('Wilson interval: hand-computed bounds', () => {
  const [lo, hi] = wilsonInterval(5, 10);
  assert.equal(lo.toFixed(4), '0.2366');
  assert.equal(hi.toFixed(4), '0.7634');
  const [lo0, hi0] = wilsonInterval(0, 10);
  assert.equal(lo0, 0);
  assert.ok(Math.abs(hi0 - 1.959963984540054 ** 2 / (10 + 1.959963984540054 ** 2)) < 1e-12);
  assert.deepEqual(wilsonInterval(0, 0), [0, 1]);
});
