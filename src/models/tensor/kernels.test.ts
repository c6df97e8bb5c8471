import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../core/rng.js';
import { addOuter, axpy, bagSum, bagSumBackward, dot, matTVec, matVec, matVecBackward, softmax, softmaxBackward } from './kernels.js';
import { marginRanking, softmaxCrossEntropy } from './losses.js';
import { gradCheck } from './gradcheck.js';
import { adam, clipGradNorm, param, sgd } from './params.js';

const rng = createRng(7);
function rand(n: number, sd = 1): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = rng.normal(0, sd);
  return a;
}
/** A fixed random linear read-out r·v, so a vector output becomes a scalar loss. */
function readout(v: Float32Array, r: Float32Array): number {
  return dot(v, 0, r, 0, v.length);
}
const TOL = 2e-3;

test('forward kernels compute the textbook values', () => {
  const m = Float32Array.from([1, 2, 3, 4, 5, 6]); // 2×3
  const out2 = new Float32Array(2);
  matVec(m, 2, 3, Float32Array.from([1, 0, -1]), out2);
  assert.deepEqual([...out2], [-2, -2]);
  const out3 = new Float32Array(3);
  matTVec(m, 2, 3, Float32Array.from([1, 1]), out3);
  assert.deepEqual([...out3], [5, 7, 9]);
  const g = new Float32Array(6);
  addOuter(g, 2, 3, Float32Array.from([1, 2]), Float32Array.from([1, 0, 3]), 0.5);
  assert.deepEqual([...g], [0.5, 0, 1.5, 1, 0, 3]);
  const b = new Float32Array(3);
  bagSum(m, 3, [1, 1, -1, 0], b);
  assert.deepEqual([...b], [9, 12, 15]);
  const y = Float32Array.from([1, 1]);
  axpy(2, Float32Array.from([3, 4]), 0, y, 0, 2);
  assert.deepEqual([...y], [7, 9]);
  const p = new Float32Array(3);
  const lz = softmax(Float32Array.from([0, 0, Math.log(2)]), p);
  assert.ok(Math.abs((p[2] as number) - 0.5) < 1e-6 && Math.abs(lz - Math.log(4)) < 1e-6);
  // Stable for huge scores.
  softmax(Float32Array.from([1000, 1000]), p, 2);
  assert.ok(Math.abs((p[0] as number) - 0.5) < 1e-6);
});

test('matVec / matTVec / addOuter gradients match finite differences', () => {
  const rows = 5, cols = 4;
  const m = rand(rows * cols), x = rand(cols), r = rand(rows);
  const out = new Float32Array(rows);
  const loss = (): number => (matVec(m, rows, cols, x, out), readout(out, r));
  // ∂/∂M = r xᵀ ; ∂/∂x = Mᵀ r
  const gM = new Float32Array(rows * cols);
  addOuter(gM, rows, cols, r, x);
  const gx = new Float32Array(cols);
  matTVec(m, rows, cols, r, gx);
  assert.ok(gradCheck(loss, m, gM).maxRelError < TOL);
  assert.ok(gradCheck(loss, x, gx).maxRelError < TOL);
});

test('bagSum gradient (with repeated and skipped ids) matches finite differences', () => {
  const V = 6, d = 3;
  const e = rand(V * d), r = rand(d);
  const ids = [2, 5, 2, -1, 0];
  const out = new Float32Array(d);
  const loss = (): number => (bagSum(e, d, ids, out), readout(out, r));
  const gE = new Float32Array(V * d);
  bagSumBackward(gE, d, ids, r);
  const res = gradCheck(loss, e, gE);
  assert.ok(res.maxRelError < TOL, JSON.stringify(res));
  assert.equal(gE[2 * d], 2 * (r[0] as number)); // id 2 used twice
  assert.equal(gE[1 * d], 0); // unused row untouched
});

test('softmax backward and cross-entropy gradients match finite differences', () => {
  const n = 7;
  const s = rand(n, 2), r = rand(n);
  const p = new Float32Array(n);
  const lossSm = (): number => (softmax(s, p), readout(p, r));
  softmax(s, p);
  const gs = new Float32Array(n);
  softmaxBackward(p, r, gs);
  assert.ok(gradCheck(lossSm, s, gs, 1e-3).maxRelError < TOL);

  const g = new Float32Array(n);
  const scratch = new Float32Array(n);
  const lossCe = (): number => softmaxCrossEntropy(s, 3, scratch);
  const l = softmaxCrossEntropy(s, 3, g);
  assert.ok(l > 0);
  const res = gradCheck(lossCe, s, g, 1e-3);
  assert.ok(res.maxRelError < TOL, JSON.stringify(res));
  assert.throws(() => softmaxCrossEntropy(s, 9, g), /out of range/);
});

test('margin ranking loss gradient matches finite differences away from the hinge', () => {
  const neg = Float32Array.from([0.3, -2, 0.95, 0.1]);
  const gNeg = new Float32Array(4);
  const pos = 1;
  const { loss, gradPos } = marginRanking(pos, neg, 0.5, gNeg);
  // active: 0.5 - 1 + neg > 0 → neg > 0.5: only 0.95
  assert.ok(Math.abs(loss - 0.45) < 1e-6);
  assert.equal(gradPos, -1);
  assert.deepEqual([...gNeg], [0, 0, 1, 0]);
  const scratch = new Float32Array(4);
  const res = gradCheck(() => marginRanking(pos, neg, 0.5, scratch).loss, neg, gNeg, 1e-3);
  assert.ok(res.maxRelError < TOL);
  const posArr = Float32Array.from([pos]);
  assert.ok(gradCheck(() => marginRanking(posArr[0] as number, neg, 0.5, scratch).loss, posArr, Float32Array.from([gradPos]), 1e-3).maxRelError < TOL);
});

test('optimisers decrease a quadratic; clipping bounds the global norm', () => {
  for (const opt of [sgd(0.1), adam(0.1)]) {
    const p = param('w', [3]);
    p.data.set([3, -2, 1]);
    const f = (): number => p.data.reduce((a, b) => a + b * b, 0);
    const f0 = f();
    for (let i = 0; i < 50; i++) {
      for (let j = 0; j < 3; j++) p.grad[j] = 2 * (p.data[j] as number);
      opt.step([p]);
    }
    assert.ok(f() < f0 * 0.05, `${f()} vs ${f0}`);
  }
  const a = param('a', [2]), b = param('b', [1]);
  a.grad.set([3, 0]);
  b.grad.set([4]);
  assert.equal(clipGradNorm([a, b], 1), 5);
  assert.ok(Math.abs(Math.hypot(a.grad[0] as number, b.grad[0] as number) - 1) < 1e-6);
});

test('matVecBackward equals matTVec + addOuter, and skips only tiny rows', () => {
  const rows = 6, cols = 5;
  const m = rand(rows * cols), x = rand(cols), gy = rand(rows);
  gy[2] = 1e-12;
  const gx1 = new Float32Array(cols), gM1 = new Float32Array(rows * cols);
  matTVec(m, rows, cols, gy, gx1);
  addOuter(gM1, rows, cols, gy, x);
  const gx2 = new Float32Array(cols), gM2 = new Float32Array(rows * cols);
  matVecBackward(m, rows, cols, x, gy, gx2, gM2);
  for (let i = 0; i < cols; i++) assert.ok(Math.abs((gx1[i] as number) - (gx2[i] as number)) < 1e-5);
  for (let i = 0; i < rows * cols; i++) assert.ok(Math.abs((gM1[i] as number) - (gM2[i] as number)) < 1e-6);
  const gM3 = new Float32Array(rows * cols);
  matVecBackward(m, rows, cols, x, gy, new Float32Array(cols), gM3, 1e-9);
  assert.equal(gM3[2 * cols], 0);
  assert.equal(gM3[3 * cols], gM2[3 * cols]);
});
