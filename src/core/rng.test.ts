import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from './errors.js';
import { createRng, hashString } from './rng.js';

test('same seed gives the same stream; another seed another one', () => {
  const a = createRng(42);
  const b = createRng(42);
  const c = createRng(43);
  const xa = Array.from({ length: 100 }, () => a.int(1000));
  const xb = Array.from({ length: 100 }, () => b.int(1000));
  const xc = Array.from({ length: 100 }, () => c.int(1000));
  assert.deepEqual(xa, xb);
  assert.notDeepEqual(xa, xc);
});

test('stream is pinned (same numbers on any machine and version)', () => {
  const r = createRng(1);
  const got = Array.from({ length: 5 }, () => r.int(1_000_000));
  // Pinned: a change here changes every generated dataset.
  assert.deepEqual(got, PINNED);
});
const PINNED = [829938, 256093, 79308, 251204, 511056];

test('fork is independent of parent consumption and of other labels', () => {
  const p1 = createRng(7);
  const p2 = createRng(7);
  p2.next();
  p2.next();
  assert.equal(p1.fork('x').next(), p2.fork('x').next());
  assert.notEqual(p1.fork('x').next(), p1.fork('y').next());
  assert.notEqual(createRng(7).fork('x').next(), createRng(8).fork('x').next());
});

test('int is uniform and in range; weighted follows weights', () => {
  const r = createRng(3);
  const counts: number[] = new Array(6).fill(0);
  for (let i = 0; i < 60000; i++) {
    const k = r.int(6);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  for (const c of counts) assert.ok(Math.abs(c - 10000) < 500, `count ${c}`);
  const w = [0, 0, 0];
  for (let i = 0; i < 40000; i++) {
    const k = r.weighted([1, 3, 0]);
    w[k] = (w[k] ?? 0) + 1;
  }
  assert.equal(w[2], 0);
  assert.ok(Math.abs((w[1] ?? 0) / 40000 - 0.75) < 0.01);
  assert.throws(() => r.int(0), ConfigError);
});

test('shuffle is a permutation; sample draws distinct items', () => {
  const r = createRng(5);
  const xs = Array.from({ length: 50 }, (_, i) => i);
  const s = r.shuffle(xs);
  assert.deepEqual([...s].sort((a, b) => a - b), xs);
  assert.notDeepEqual(s, xs);
  const k = r.sample(xs, 10);
  assert.equal(new Set(k).size, 10);
});

test('normal has the right moments', () => {
  const r = createRng(11);
  let s = 0;
  let s2 = 0;
  const n = 50000;
  for (let i = 0; i < n; i++) {
    const x = r.normal(5, 2);
    s += x;
    s2 += x * x;
  }
  const mean = s / n;
  assert.ok(Math.abs(mean - 5) < 0.05);
  assert.ok(Math.abs(Math.sqrt(s2 / n - mean * mean) - 2) < 0.05);
});

test('hashString is FNV-1a', () => {
  assert.equal(hashString(''), 0x811c9dc5);
  assert.equal(hashString('a'), 0xe40c292c);
});
