import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { gradCheck } from './gradcheck.js';
import { attend, attendBackward, pointerLoss } from './attention.js';

const TOL = 2e-3;
const rand = (n: number, seed: number, sd = 1) => {
  const r = createRng(seed);
  return Float32Array.from({ length: n }, () => r.normal(0, sd));
};

test('attend: weights are a softmax of q·k, context their mix of the values', () => {
  const a = attend(new Float32Array([Math.log(3), 0]), new Float32Array([1, 0, 0, 1]), new Float32Array([4, 8]), 2, 2, 1);
  assert.ok(Math.abs((a.alpha[0] as number) - 0.75) < 1e-6);
  assert.ok(Math.abs((a.context[0] as number) - 5) < 1e-5);
  assert.throws(() => attend(new Float32Array(3), new Float32Array(4), new Float32Array(2), 2, 2, 1), /sizes do not match/);
});

test('attend: gradients of query, keys and values match finite differences', () => {
  const n = 5;
  const d = 4;
  const dv = 3;
  const q = rand(d, 1);
  const keys = rand(n * d, 2);
  const values = rand(n * dv, 3);
  const r = rand(dv, 4);
  const loss = () => {
    const { context } = attend(q, keys, values, n, d, dv);
    let l = 0;
    for (let k = 0; k < dv; k++) l += (context[k] as number) * (r[k] as number);
    return l;
  };
  const a = attend(q, keys, values, n, d, dv);
  const dq = new Float32Array(d);
  const dK = new Float32Array(n * d);
  const dV = new Float32Array(n * dv);
  attendBackward(q, keys, values, n, d, dv, a.alpha, r, dq, dK, dV);
  assert.ok(gradCheck(loss, q, dq).maxRelError < TOL, 'q');
  assert.ok(gradCheck(loss, keys, dK).maxRelError < TOL, 'keys');
  assert.ok(gradCheck(loss, values, dV).maxRelError < TOL, 'values');
});

test('attend: gradients through the weights themselves (dAlpha) match finite differences', () => {
  const n = 4;
  const d = 3;
  const q = rand(d, 11);
  const keys = rand(n * d, 12);
  const values = rand(n * 2, 13);
  const r = rand(2, 14);
  const ra = rand(n, 15);
  const loss = () => {
    const { alpha, context } = attend(q, keys, values, n, d, 2);
    let l = 0;
    for (let k = 0; k < 2; k++) l += (context[k] as number) * (r[k] as number);
    for (let i = 0; i < n; i++) l += Math.log(alpha[i] as number) * (ra[i] as number);
    return l;
  };
  const a = attend(q, keys, values, n, d, 2);
  const dq = new Float32Array(d);
  const dK = new Float32Array(n * d);
  attendBackward(q, keys, values, n, d, 2, a.alpha, r, dq, dK, undefined, Float32Array.from(ra, (x, i) => x / (a.alpha[i] as number)));
  assert.ok(gradCheck(loss, q, dq).maxRelError < TOL, 'q');
  assert.ok(gradCheck(loss, keys, dK).maxRelError < TOL, 'keys');
});

test('pointerLoss: −log of the targets’ total probability, gradient checked', () => {
  const g = new Float32Array(3);
  assert.ok(Math.abs(pointerLoss(new Float32Array([0, 0, 0]), [0, 2], g) + Math.log(2 / 3)) < 1e-6);
  assert.ok(Math.abs((g[0] as number) + 1 / 6) < 1e-6 && Math.abs((g[1] as number) - 1 / 3) < 1e-6);
  const s = rand(6, 9, 2);
  const grad = new Float32Array(6);
  pointerLoss(s, [1, 4, 4], grad);
  assert.ok(gradCheck(() => pointerLoss(s, [1, 4], new Float32Array(6)), s, grad).maxRelError < TOL);
  assert.throws(() => pointerLoss(s, [], grad), /no target/);
  assert.throws(() => pointerLoss(s, [6], grad), /out of range/);
});
