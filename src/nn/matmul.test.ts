import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { gradCheck } from './gradcheck.js';
import { zeroGrads } from './params.js';
import { Linear, tanhBackward, tanhInPlace } from './layers.js';
import { matMul, matMulIsSimd, matMulScalar, setMatMulScalar, type MatMulOptions } from './matmul.js';

const rand = (n: number, seed: number) => {
  const r = createRng(seed);
  return Float32Array.from({ length: n }, () => r.normal(0, 1));
};

/** op(A)·op(B) (+ C) in float64, the plain definition. */
function reference(a: Float32Array, b: Float32Array, c: Float32Array, n: number, k: number, m: number, o: MatMulOptions): Float64Array {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let s = o.accumulate ? (c[i * m + j] as number) : 0;
      for (let p = 0; p < k; p++) s += (a[o.transA ? p * n + i : i * k + p] as number) * (b[o.transB ? j * k + p : p * m + j] as number);
      out[i * m + j] = s;
    }
  }
  return out;
}

const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [1, 3, 2],
  [5, 7, 9],
  [4, 8, 8],
  [13, 1, 17],
  [37, 48, 203],
  [3, 0, 5],
];
const OPTIONS: MatMulOptions[] = [{}, { transA: true }, { transB: true }, { transA: true, transB: true }, { accumulate: true }, { transA: true, accumulate: true }];

test('matMul: the SIMD kernel gives the scalar reference bit for bit, and the float64 product within float32 rounding', () => {
  assert.equal(matMulIsSimd(), true, 'WebAssembly SIMD is available on Node 20');
  let seed = 1;
  for (const [n, k, m] of SHAPES) {
    for (const o of OPTIONS) {
      const a = rand(n * k, seed++);
      const b = rand(k * m, seed++);
      const c0 = rand(n * m, seed++);
      const simd = new Float32Array(c0);
      const scalar = new Float32Array(c0);
      matMul(a, b, simd, n, k, m, o);
      matMulScalar(a, b, scalar, n, k, m, o);
      assert.deepEqual(simd, scalar, `${n}×${k}·${k}×${m} ${JSON.stringify(o)}`);
      const ref = reference(a, b, c0, n, k, m, o);
      for (let i = 0; i < ref.length; i++) assert.ok(Math.abs((simd[i] as number) - (ref[i] as number)) <= 1e-5 * (1 + k), `${n}×${k}·${k}×${m} ${JSON.stringify(o)} entry ${i}: ${simd[i]} vs ${ref[i]}`);
    }
  }
  // the memory grows for a large product, and a small one after it still agrees
  const big = [300, 48, 2001] as const;
  const a = rand(big[0] * big[1], 90);
  const b = rand(big[1] * big[2], 91);
  const c = new Float32Array(big[0] * big[2]);
  const s = new Float32Array(big[0] * big[2]);
  matMul(a, b, c, ...big, { transB: false });
  matMulScalar(a, b, s, ...big);
  assert.deepEqual(c, s);
  const small = new Float32Array(2);
  matMul(new Float32Array([1, 2, 3]), new Float32Array([1, 0, 0, 1, 1, 1]), small, 1, 3, 2);
  assert.deepEqual([...small], [4, 5]);
});

test('matMul: the scalar path on request, and sizes that do not fit are one-line errors', () => {
  const was = setMatMulScalar(true);
  const c = new Float32Array(4);
  matMul(new Float32Array([1, 2, 3, 4]), new Float32Array([0, 1, 1, 0]), c, 2, 2, 2);
  setMatMulScalar(was);
  assert.deepEqual([...c], [2, 1, 4, 3]);
  assert.throws(() => matMul(new Float32Array(5), new Float32Array(6), new Float32Array(4), 2, 3, 2), /^ConfigError: matMul: 2×3·3×2 needs A ≥ 6, B ≥ 6, C ≥ 4 entries \(have 5, 6, 4\)$/);
  assert.throws(() => matMul(new Float32Array(6), new Float32Array(6), new Float32Array(4), 2.5, 3, 2), /matMul: sizes 2\.5×3·3×2 are not counts/);
});

test('Linear.forwardBatch / backwardBatch: the rows of forward / backward, and gradients match finite differences', () => {
  const [I, O, n] = [7, 5, 6];
  const lin = new Linear(I, O, 'l');
  lin.init(createRng(1));
  lin.b!.data.set(rand(O, 2));
  const x = rand(n * I, 3);
  const r = rand(n * O, 4);
  const y = lin.forwardBatch(x, n);
  for (let i = 0; i < n; i++) {
    const one = lin.forward(x.subarray(i * I, (i + 1) * I));
    for (let j = 0; j < O; j++) assert.ok(Math.abs((y[i * O + j] as number) - (one[j] as number)) < 1e-5, `row ${i}`);
  }
  // backward of the batch = the sum of the rows' backward
  const dy = rand(n * O, 5);
  zeroGrads(lin.params);
  const dx = new Float32Array(n * I);
  lin.backwardBatch(x, dy, n, dx);
  const gW = new Float32Array(lin.W.grad);
  const gb = new Float32Array(lin.b!.grad);
  zeroGrads(lin.params);
  for (let i = 0; i < n; i++) {
    const dxi = new Float32Array(I);
    lin.backward(x.subarray(i * I, (i + 1) * I), dy.subarray(i * O, (i + 1) * O), dxi);
    for (let c = 0; c < I; c++) assert.ok(Math.abs((dx[i * I + c] as number) - (dxi[c] as number)) < 1e-5, `dx row ${i}`);
  }
  for (let k = 0; k < gW.length; k++) assert.ok(Math.abs((gW[k] as number) - (lin.W.grad[k] as number)) < 1e-5, `gW ${k}`);
  for (let k = 0; k < gb.length; k++) assert.ok(Math.abs((gb[k] as number) - (lin.b!.grad[k] as number)) < 1e-5, `gb ${k}`);
  // finite differences through tanh
  const loss = () => {
    const t = tanhInPlace(lin.forwardBatch(x, n));
    let l = 0;
    for (let i = 0; i < t.length; i++) l += (t[i] as number) * (r[i] as number);
    return l;
  };
  zeroGrads(lin.params);
  const t = tanhInPlace(lin.forwardBatch(x, n));
  const gx = new Float32Array(n * I);
  lin.backwardBatch(x, tanhBackward(t, r), n, gx);
  for (const p of lin.params) assert.ok(gradCheck(loss, p.data, p.grad).maxRelError < 2e-3, p.name);
  assert.ok(gradCheck(loss, x, gx).maxRelError < 2e-3, 'x');
});
