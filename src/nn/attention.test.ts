import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { gradCheck } from './gradcheck.js';
import { attend, attendBackward, attendRows, attendRowsBackward, pointerLoss } from './attention.js';

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

test('attendRows: the rows of attend, and its backward the sum of attendBackward over the rows (query, keys, values, direct weight gradients)', () => {
  const [rows, n, d, dv] = [5, 4, 3, 2];
  const q = rand(rows * d, 31);
  const keys = rand(n * d, 32);
  const values = rand(n * dv, 33);
  const alpha = new Float32Array(rows * n);
  const context = new Float32Array(rows * dv);
  attendRows(q, rows, keys, values, n, d, dv, alpha, context);
  const dC = rand(rows * dv, 34);
  const dA = rand(rows * n, 35);
  const [dq, dk, dvv] = [new Float32Array(rows * d), new Float32Array(n * d), new Float32Array(n * dv)];
  attendRowsBackward(q, rows, keys, values, n, d, dv, alpha, dC, { dq, dKeys: dk, dValues: dvv, dAlpha: dA });
  const [dq1, dk1, dv1] = [new Float32Array(rows * d), new Float32Array(n * d), new Float32Array(n * dv)];
  for (let i = 0; i < rows; i++) {
    const one = attend(q.subarray(i * d, (i + 1) * d), keys, values, n, d, dv);
    for (let j = 0; j < n; j++) assert.ok(Math.abs((alpha[i * n + j] as number) - (one.alpha[j] as number)) < 1e-6, `alpha ${i},${j}`);
    for (let j = 0; j < dv; j++) assert.ok(Math.abs((context[i * dv + j] as number) - (one.context[j] as number)) < 1e-5, `context ${i},${j}`);
    attendBackward(q.subarray(i * d, (i + 1) * d), keys, values, n, d, dv, one.alpha, dC.subarray(i * dv, (i + 1) * dv), dq1.subarray(i * d, (i + 1) * d), dk1, dv1, dA.subarray(i * n, (i + 1) * n));
  }
  for (const [a, b, what] of [[dq, dq1, 'dq'], [dk, dk1, 'dKeys'], [dvv, dv1, 'dValues']] as const) {
    for (let i = 0; i < a.length; i++) assert.ok(Math.abs((a[i] as number) - (b[i] as number)) < 1e-5 * (1 + Math.abs(b[i] as number)), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
  }
  assert.throws(() => attendRows(q, rows, keys, values, n, d, dv, new Float32Array(3), context), /attendRows: sizes do not match/);
});
