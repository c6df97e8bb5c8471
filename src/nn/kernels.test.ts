import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { addOuter, axpy, bagSum, bagSumBackward, dot, matTVec, matVec, matVecBackward, matVecBackwardGeneric, matVecGeneric, matVecF32, matVecRows, matVecRowsBackward, softmax, softmaxBackward } from './kernels.js';
import { Wasm32Matrix, WasmBagTable, WasmMatVec } from './wasm.js';
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

/** The generic loops, written out plainly: the 32-column fast paths must agree bit for bit. */
function refMatVec(m: Float32Array, rows: number, cols: number, x: Float32Array, out: Float32Array): void {
  for (let r = 0; r < rows; r++) {
    const s = [0, 0, 0, 0];
    for (let c = 0; c < cols; c++) s[c % 4] = (s[c % 4] as number) + (m[r * cols + c] as number) * (x[c] as number);
    out[r] = (s[0] as number) + (s[1] as number) + (s[2] as number) + (s[3] as number);
  }
}
function refMatVecBackward(m: Float32Array, rows: number, cols: number, x: Float32Array, gy: Float32Array, gx: Float32Array, gM: Float32Array, skipBelow: number): void {
  for (let r = 0; r < rows; r++) {
    const a = gy[r] as number;
    if (a === 0 || Math.abs(a) < skipBelow) continue;
    for (let c = 0; c < cols; c++) {
      gx[c] = (gx[c] as number) + a * (m[r * cols + c] as number);
      gM[r * cols + c] = (gM[r * cols + c] as number) + a * (x[c] as number);
    }
  }
}

test('32-column matVec and matVecBackward give bit-identical results to the generic loops', () => {
  const rows = 203;
  const m = rand(rows * 32), x = rand(32, 3);
  const a = new Float32Array(rows), b = new Float32Array(rows);
  matVec(m, rows, 32, x, a);
  refMatVec(m, rows, 32, x, b);
  assert.deepEqual(a, b);
  // Also at 31 and 33 columns (generic path) against the reference.
  for (const cols of [31, 33]) {
    const mm = rand(rows * cols), xx = rand(cols);
    matVec(mm, rows, cols, xx, a);
    refMatVec(mm, rows, cols, xx, b);
    assert.deepEqual(a, b);
  }
  for (const skip of [0, 1e-3]) {
    const gy = rand(rows, 0.01);
    gy[5] = 0;
    gy[7] = 1e-4;
    const gx1 = rand(32), gM1 = rand(rows * 32);
    const gx2 = gx1.slice(), gM2 = gM1.slice();
    matVecBackward(m, rows, 32, x, gy, gx1, gM1, skip);
    refMatVecBackward(m, rows, 32, x, gy, gx2, gM2, skip);
    assert.deepEqual(gx1, gx2);
    assert.deepEqual(gM1, gM2);
    if (skip > 0) assert.equal(gM1[7 * 32], gM2[7 * 32]);
  }
});

test('32-column matTVec and addOuter give bit-identical results to the textbook loops (zero entries skipped)', () => {
  const rows = 57;
  const m = rand(rows * 32), x = rand(rows, 2), v = rand(32, 3);
  x[3] = 0;
  const a = rand(32), b = new Float32Array(32);
  matTVec(m, rows, 32, x, a);
  for (let r = 0; r < rows; r++) for (let c = 0; c < 32; c++) b[c] = (b[c] as number) + (x[r] as number) * (m[r * 32 + c] as number);
  assert.deepEqual(a, b);
  const g1 = rand(rows * 32), g2 = g1.slice();
  addOuter(g1, rows, 32, x, v);
  for (let r = 0; r < rows; r++) if (x[r] !== 0) for (let c = 0; c < 32; c++) g2[r * 32 + c] = (g2[r * 32 + c] as number) + (x[r] as number) * (v[c] as number);
  assert.deepEqual(g1, g2);
  // alpha ≠ 1 takes the generic loop: the same as scaling u first.
  const g3 = rand(rows * 32), g4 = g3.slice();
  addOuter(g3, rows, 32, x, v, 0.5);
  addOuter(g4, rows, 32, x.map((e) => 0.5 * e), v);
  assert.deepEqual(g3, g4);
});

test('WebAssembly product of 32 and 64 columns (WasmMatVec) is bit-identical to matVec; other widths have none', (t) => {
  assert.equal(WasmMatVec.create(3, 48), undefined);
  for (const cols of [32, 64])
    for (const rows of [1, 5, 4212]) {
      const w = WasmMatVec.create(rows, cols);
      if (!w) return t.skip('no WebAssembly SIMD on this Node');
      w.data.set(rand(rows * cols, 0.7));
      const x = rand(cols, 2);
      const a = new Float32Array(rows), b = new Float32Array(rows);
      w.matVec(x, a);
      matVecGeneric(w.data, rows, cols, x, b);
      assert.deepEqual(a, b);
      assert.notDeepEqual(a, new Float32Array(rows));
    }
});

test('WebAssembly float32-lane product (WasmMatVec f32) is bit-identical to matVecF32, within rounding of matVec', (t) => {
  for (const cols of [32, 64])
    for (const rows of [1, 5, 4212]) {
      const w = WasmMatVec.create(rows, cols, true);
      if (!w) return t.skip('no WebAssembly SIMD on this Node');
      w.data.set(rand(rows * cols, 0.7));
      const x = rand(cols, 2);
      const a = new Float32Array(rows), b = new Float32Array(rows), c = new Float32Array(rows);
      w.matVec(x, a);
      matVecF32(w.data, rows, cols, x, b);
      assert.deepEqual(a, b);
      const first = new Float32Array(rows).fill(7);
      w.matVec(x, first, Math.ceil(rows / 2));
      assert.deepEqual([...first], [...a.subarray(0, Math.ceil(rows / 2)), ...new Array<number>(rows - Math.ceil(rows / 2)).fill(7)]);
      matVecGeneric(w.data, rows, cols, x, c);
      for (let r = 0; r < rows; r++) assert.ok(Math.abs(a[r]! - c[r]!) <= 1e-5 * (1 + Math.abs(c[r]!)), `row ${r}: ${a[r]} vs ${c[r]}`);
      assert.notDeepEqual(a, new Float32Array(rows));
    }
  assert.throws(() => matVecF32(new Float32Array(6), 1, 6, new Float32Array(6), new Float32Array(1)), /matVecF32: 6 columns, not a multiple of 4/);
  assert.throws(() => WasmMatVec.create(2, 32, true)?.matVec(new Float32Array(32), new Float32Array(3), 3), /WasmMatVec.matVec: 3 rows of a 2-row matrix/);
});

test('WebAssembly 32-column product is bit-identical to matVec', (t) => {
  for (const rows of [1, 7, 4212]) {
    const w = Wasm32Matrix.create(rows);
    if (!w) return t.skip('no WebAssembly SIMD on this Node');
    w.data.set(rand(rows * 32, 0.7));
    const x = rand(32, 2);
    const a = new Float32Array(rows), b = new Float32Array(rows);
    w.matVec(x, a);
    matVecGeneric(w.data, rows, 32, x, b);
    assert.deepEqual(a, b);
    // Extreme values too: huge, tiny, signed zeros.
    w.data.fill(0);
    w.data[0] = 3e38;
    w.data[1] = 3e38;
    w.data[2] = -0;
    w.data[3] = 1e-40;
    const y = new Float32Array(32).fill(1);
    w.matVec(y, a);
    matVecGeneric(w.data, rows, 32, y, b);
    assert.deepEqual(a, b);
  }
});

test('WebAssembly 32-column backward is bit-identical to matVecBackward (with skipped rows)', (t) => {
  for (const rows of [1, 9, 4212]) {
    const w = Wasm32Matrix.create(rows);
    if (!w) return t.skip('no WebAssembly SIMD on this Node');
    w.data.set(rand(rows * 32, 0.7));
    const x = rand(32, 2);
    for (const skip of [0, 1e-3]) {
      const gy = rand(rows, 0.01);
      gy[0] = 0;
      if (rows > 3) gy[3] = -1e-4;
      const gx1 = rand(32), gx2 = gx1.slice();
      w.grad.set(rand(rows * 32));
      const gM2 = w.grad.slice();
      w.backward(x, gy, gx1, skip);
      matVecBackwardGeneric(w.data, rows, 32, x, gy, gx2, gM2, skip);
      assert.deepEqual(gx1, gx2);
      assert.deepEqual(w.grad.slice(), gM2);
    }
  }
});

test('32-wide bagSum and bagSumBackward are bit-identical to the generic loops', () => {
  const e = rand(50 * 32);
  const ids = [3, 7, -1, 3, 49, 0];
  const a = new Float32Array(40), b = new Float32Array(40);
  bagSum(e, 32, ids, a, 5);
  for (const id of ids) if (id >= 0) for (let c = 0; c < 32; c++) b[5 + c] = (b[5 + c] as number) + (e[id * 32 + c] as number);
  assert.deepEqual(a, b);
  const g = rand(40);
  const gE1 = rand(50 * 32), gE2 = gE1.slice();
  bagSumBackward(gE1, 32, ids, g, 3);
  for (const id of ids) if (id >= 0) for (let c = 0; c < 32; c++) gE2[id * 32 + c] = (gE2[id * 32 + c] as number) + (g[3 + c] as number);
  assert.deepEqual(gE1, gE2);
});

test('WebAssembly bag sums over rows (and their backward) are bit-identical to bagSum / bagSumBackward', (t) => {
  const V = 40;
  const ids = [[1, 2, 3], [], [5, 5, -1, 39], [0], [7, 8, 9, 10, 11, 12, 13]];
  const w = Wasm32Matrix.create(ids.length, { ids, vocabRows: V });
  if (!w) return t.skip('no WebAssembly SIMD on this Node');
  const e = rand(V * 32, 3);
  w.sumRows(e);
  const ref = new Float32Array(ids.length * 32);
  ids.forEach((l, r) => bagSum(e, 32, l, ref, r * 32));
  assert.deepEqual(w.data.slice(), ref);
  w.grad.set(rand(ids.length * 32));
  const g1 = rand(V * 32), g2 = g1.slice();
  w.sumRowsBackward(g1);
  ids.forEach((l, r) => bagSumBackward(g2, 32, l, w.grad, r * 32));
  assert.deepEqual(g1, g2);
  assert.throws(() => w.sumRows(new Float32Array(32)), /weights for 40 rows/);
});

test('gathered rows (matVecRows and its backward) give bit for bit what matVec / matVecBackward give on a matrix of those rows', () => {
  for (const cols of [32, 33]) {
    const total = 57;
    const m = rand(total * cols);
    const x = rand(cols, 3);
    const rows = Int32Array.from([4, 0, 56, 13, 13, 30, 2]);
    const n = rows.length;
    const copy = new Float32Array(n * cols);
    rows.forEach((r, i) => copy.set(m.subarray(r * cols, r * cols + cols), i * cols));
    const a = new Float32Array(n);
    const b = new Float32Array(n);
    matVecRows(m, cols, rows, n, x, a);
    matVec(copy, n, cols, x, b);
    assert.deepEqual(a, b);
    const gy = rand(n, 0.01);
    gy[1] = 0;
    gy[3] = 1e-5;
    const gx1 = rand(cols);
    const gx2 = gx1.slice();
    const gM = new Float32Array(total * cols);
    const gCopy = new Float32Array(n * cols);
    matVecRowsBackward(m, cols, rows, n, x, gy, gx1, gM, 1e-4);
    matVecBackward(copy, n, cols, x, gy, gx2, gCopy, 1e-4);
    if (cols === 32) assert.deepEqual(gx1, gx2);
    else for (let c = 0; c < cols; c++) assert.ok(Math.abs(gx1[c]! - gx2[c]!) < 1e-5, `gx[${c}]`);
    // Row 13 is listed twice: its gradient is the sum of both; row 0's gy is 0 and row 13's second (1e-5) is skipped.
    const want = new Float32Array(total * cols);
    rows.forEach((r, i) => {
      for (let c = 0; c < cols; c++) want[r * cols + c] = want[r * cols + c]! + gCopy[i * cols + c]!;
    });
    assert.deepEqual(gM, want);
    assert.ok(gM.subarray(0, cols).every((v) => v === 0));
  }
});

test('WebAssembly float32-lane product (matVecFast) agrees with matVec within float32 rounding', (t) => {
  const rows = 301;
  const k = Wasm32Matrix.create(rows);
  if (!k) return t.skip('no WebAssembly SIMD');
  k.data.set(rand(rows * 32));
  const x = rand(32, 2);
  const want = new Float32Array(rows);
  matVec(k.data, rows, 32, x, want);
  const got = k.matVecFast(x);
  assert.equal(got.length, rows);
  for (let r = 0; r < rows; r++) assert.ok(Math.abs(got[r]! - want[r]!) <= 1e-5 * (1 + Math.abs(want[r]!)), `row ${r}: ${got[r]} vs ${want[r]}`);
});

test('matVecFastTop gives the scores of matVecFast and the k best rows other than the skipped one, best first, ties by row order', (t) => {
  const rows = 301;
  const k = Wasm32Matrix.create(rows);
  if (!k) return t.skip('no WebAssembly SIMD');
  const data = rand(rows * 32);
  // Rows 10, 20 and 30 equal: their scores tie.
  for (const r of [20, 30]) data.copyWithin(r * 32, 10 * 32, 11 * 32);
  k.data.set(data);
  const x = rand(32, 2);
  const want = k.matVecFast(x).slice();
  const order = [...want.keys()].sort((a, b) => want[b]! - want[a]! || a - b);
  for (const [K, skip] of [[1, -1], [10, -1], [10, order[0]!], [10, 20], [rows, 5]] as const) {
    const n = k.matVecFastTop(x, K, skip);
    assert.deepEqual(k.fastScores, want);
    const expected = order.filter((r) => r !== skip).slice(0, K);
    assert.equal(n, expected.length);
    assert.deepEqual([...k.top.subarray(0, n)], expected);
  }
  // The tie: x aligned with row 10 puts rows 10, 20, 30 first, in row order.
  const y = data.slice(10 * 32, 11 * 32);
  k.matVecFastTop(y, 3, -1);
  assert.deepEqual([...k.top.subarray(0, 3)], [10, 20, 30]);
  assert.throws(() => k.matVecFastTop(x, 0, -1), /k = 0/);
});

test('WasmBagTable: bag sums of id lists and their backward are bit-identical to bagSum / bagSumBackward (unknown ids skipped, long lists on the JS kernels)', (t) => {
  const rows = 97;
  const table = WasmBagTable.create(rows, 4, 12);
  if (!table) return t.skip('no WebAssembly SIMD');
  table.data.set(rand(rows * 32));
  const grad0 = rand(rows * 32, 0.1);
  table.grad.set(grad0);
  const bags = [Int32Array.from([3, 96, 3, -1]), Int32Array.from([]), Int32Array.from([50, 7, 8])];
  const long = [Int32Array.from({ length: 13 }, (_, i) => (i * 7) % rows)];
  for (const list of [bags, long]) {
    const want = new Float32Array(list.length * 32 + 5);
    const got = want.slice();
    list.forEach((ids, i) => bagSum(table.data, 32, ids, want, 5 + 32 * i));
    table.sum(list, list.length, got, 5);
    assert.deepEqual(got, want);
    const g = rand(list.length * 32 + 5);
    const gw = table.grad.slice();
    list.forEach((ids, i) => bagSumBackward(gw, 32, ids, g, 5 + 32 * i));
    table.sumBackward(list, list.length, g, 5);
    assert.deepEqual(table.grad, gw);
  }
  // Consecutive views of one buffer (`flat`): the same numbers; an unknown id in it is skipped too.
  const flat = Int32Array.from([3, 96, 3, 50, 7, -1, 8]);
  const views = [flat.subarray(0, 3), flat.subarray(3, 7)];
  const want = new Float32Array(64);
  const got = new Float32Array(64);
  views.forEach((ids, i) => bagSum(table.data, 32, ids, want, 32 * i));
  table.sum(views, 2, got, 0, flat);
  assert.deepEqual(got, want);
  const gw = table.grad.slice();
  views.forEach((ids, i) => bagSumBackward(gw, 32, ids, want, 32 * i));
  table.sumBackward(views, 2, want, 0, flat);
  assert.deepEqual(table.grad, gw);
  assert.notDeepEqual(table.grad, grad0);
  assert.throws(() => table.sum([Int32Array.from([rows])], 1, new Float32Array(32)), /outside the 97 rows/);
});

test('WasmBagTable memories: sums into M and the backward from gM (no copies) and matVecBackward on them are bit-identical to the JS kernels', (t) => {
  const rows = 40;
  const table = WasmBagTable.create(rows, 6);
  if (!table) return t.skip('no WebAssembly SIMD');
  table.data.set(rand(rows * 32));
  const bags = [Int32Array.from([1, 2, 3]), Int32Array.from([39, 0]), Int32Array.from([5, 5, 7, 11])];
  table.sum(bags, 3, table.M);
  const M = new Float32Array(3 * 32);
  bags.forEach((ids, i) => bagSum(table.data, 32, ids, M, 32 * i));
  assert.deepEqual(table.M.slice(0, 96), M);
  const gM0 = rand(6 * 32);
  table.gM.set(gM0);
  const x = rand(32), gy = Float32Array.from([0.5, 0, -2]), gx = rand(32);
  const gxWant = gx.slice(), gMWant = gM0.slice();
  matVecBackward(M, 3, 32, x, gy, gxWant, gMWant);
  table.matVecBackward(3, x, gy, gx);
  assert.deepEqual(gx, gxWant);
  assert.deepEqual(table.gM, gMWant);
  // The hops' products on M / gM: matVec, matTVec (zero weights skipped), addOuter.
  const y = new Float32Array(3), yWant = new Float32Array(3);
  table.matVec(3, x, y);
  matVec(M, 3, 32, x, yWant);
  assert.deepEqual(y, yWant);
  const o = rand(32), oWant = new Float32Array(32);
  table.matTVec(3, gy, o);
  matTVec(M, 3, 32, gy, oWant);
  assert.deepEqual(o, oWant);
  const gM2 = table.gM.slice(0, 96);
  table.addOuter(3, gy, x);
  addOuter(gM2, 3, 32, gy, x);
  assert.deepEqual(table.gM.slice(0, 96), gM2);
  const gW = table.grad.slice();
  bags.forEach((ids, i) => bagSumBackward(gW, 32, ids, table.gM, 32 * i));
  table.sumBackward(bags, 3, table.gM);
  assert.deepEqual(table.grad, gW);
});
