/**
 * Float32Array kernels for bag-of-words models. Matrices are row-major `Float32Array`s with an
 * explicit column count; every function writes into caller-owned buffers (no hidden allocation in
 * the hot loops). Gradients are written by hand next to each forward kernel.
 */
import { ConfigError } from '../core/errors.js';

/**
 * Σ a[aOff+i]·b[bOff+i] for i < n: the dot product of two slices (e.g. two rows of matrices).
 *
 * @example
 * ```ts
 * import { dot } from 'dialogym/nn';
 * const m = new Float32Array([1, 2, 3, 4]); // 2×2, row-major
 * dot(m, 0, m, 2, 2); // row 0 · row 1 = 1·3 + 2·4 = 11
 * ```
 */
export function dot(a: Float32Array, aOff: number, b: Float32Array, bOff: number, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[aOff + i] as number) * (b[bOff + i] as number);
  return s;
}

/**
 * y[yOff+i] += alpha·x[xOff+i] for i < n, in place (BLAS `axpy` on slices).
 *
 * @example
 * ```ts
 * import { axpy } from 'dialogym/nn';
 * const y = new Float32Array([1, 1]);
 * axpy(0.5, new Float32Array([2, 4]), 0, y, 0, 2); // y = [2, 3]
 * ```
 */
export function axpy(alpha: number, x: Float32Array, xOff: number, y: Float32Array, yOff: number, n: number): void {
  for (let i = 0; i < n; i++) y[yOff + i] = (y[yOff + i] as number) + alpha * (x[xOff + i] as number);
}

/**
 * out = M·x, M is rows×cols (row-major); `out` needs `rows` entries and is overwritten. 32 columns take an unrolled path with the same results as `matVecGeneric`.
 *
 * @example
 * ```ts
 * import { matVec } from 'dialogym/nn';
 * const out = new Float32Array(2);
 * matVec(new Float32Array([1, 2, 3, 4, 5, 6]), 2, 3, new Float32Array([1, 0, 1]), out); // out = [4, 10]
 * ```
 */
export function matVec(m: Float32Array, rows: number, cols: number, x: Float32Array, out: Float32Array): void {
  if (cols === 32) matVec32(m, rows, x, out);
  else matVecGeneric(m, rows, cols, x, out);
}

/**
 * out = M·x like `matVec`, in float32 arithmetic (every product and sum rounded to float32; the
 * numbers of the WebAssembly float32-lane kernel, `WasmMatVec.create(rows, cols, true)`): the
 * 4-column block j of a row goes to accumulator j mod 4 (four float32 lanes each), a = (a0 + a1) +
 * (a2 + a3) lane-wise, out[r] = (a.0 + a.1) + (a.2 + a.3). `cols` must be a multiple of 4.
 *
 * @example
 * ```ts
 * import { matVecF32 } from 'dialogym/nn';
 * const out = new Float32Array(1);
 * matVecF32(new Float32Array([1, 2, 3, 4]), 1, 4, new Float32Array([1, 1, 1, 1]), out); // out = [10]
 * ```
 */
export function matVecF32(m: Float32Array, rows: number, cols: number, x: Float32Array, out: Float32Array): void {
  if (cols % 4 !== 0) throw new ConfigError(`matVecF32: ${cols} columns, not a multiple of 4`);
  const f = Math.fround;
  const acc = new Float32Array(16);
  for (let r = 0; r < rows; r++) {
    acc.fill(0);
    const o = r * cols;
    for (let c = 0; c < cols; c++) {
      const i = (((c >> 2) & 3) << 2) | (c & 3);
      acc[i] = (acc[i] as number) + f((m[o + c] as number) * (x[c] as number));
    }
    const l = [0, 1, 2, 3].map((k) => f(f((acc[k] as number) + (acc[4 + k] as number)) + f((acc[8 + k] as number) + (acc[12 + k] as number))));
    out[r] = f((l[0] as number) + (l[1] as number)) + f((l[2] as number) + (l[3] as number));
  }
}

/**
 * `matVec` without the 32-column fast path (same results; the baseline for benchmarks).
 *
 * @example
 * ```ts
 * import { matVecGeneric } from 'dialogym/nn';
 * const out = new Float32Array(1);
 * matVecGeneric(new Float32Array([1, 2]), 1, 2, new Float32Array([3, 4]), out); // out = [11]
 * ```
 */
export function matVecGeneric(m: Float32Array, rows: number, cols: number, x: Float32Array, out: Float32Array): void {
  matVecLoop(m, rows, cols, x, out);
}

/** The generic matVec loop; with `at`, out[r] is the product of row at[r] of m (`matVecRows`). */
function matVecLoop(m: Float32Array, rows: number, cols: number, x: Float32Array, out: Float32Array, at?: Int32Array): void {
  const c4 = cols - (cols % 4);
  for (let r = 0; r < rows; r++) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    const o = (at === undefined ? r : (at[r] as number)) * cols;
    let c = 0;
    for (; c < c4; c += 4) {
      s0 += (m[o + c] as number) * (x[c] as number);
      s1 += (m[o + c + 1] as number) * (x[c + 1] as number);
      s2 += (m[o + c + 2] as number) * (x[c + 2] as number);
      s3 += (m[o + c + 3] as number) * (x[c + 3] as number);
    }
    for (; c < cols; c++) s0 += (m[o + c] as number) * (x[c] as number);
    out[r] = s0 + s1 + s2 + s3;
  }
}

/**
 * Backward of y = M·x in one pass over M: gx += Mᵀ·gy and gM += gy·xᵀ (both accumulated, not
 * overwritten). Rows whose |gy| is below `skipBelow` are skipped (their contribution is under
 * float32 resolution for tiny thresholds).
 *
 * @example
 * ```ts
 * import { matVecBackward } from 'dialogym/nn';
 * const m = new Float32Array([1, 2, 3, 4]); // 2×2
 * const x = new Float32Array([1, 1]);
 * const gx = new Float32Array(2), gM = new Float32Array(4);
 * matVecBackward(m, 2, 2, x, new Float32Array([1, 0]), gx, gM); // gx = [1, 2], gM = [1, 1, 0, 0]
 * ```
 */
export function matVecBackward(m: Float32Array, rows: number, cols: number, x: Float32Array, gy: Float32Array, gx: Float32Array, gM: Float32Array, skipBelow = 0): void {
  if (cols === 32) matVecBackward32(m, rows, x, gy, gx, gM, skipBelow);
  else matVecBackwardGeneric(m, rows, cols, x, gy, gx, gM, skipBelow);
}

/**
 * `matVecBackward` without the 32-column fast path (same results; the baseline for benchmarks).
 *
 * @example
 * ```ts
 * import { matVecBackwardGeneric } from 'dialogym/nn';
 * const gx = new Float32Array(2), gM = new Float32Array(2);
 * matVecBackwardGeneric(new Float32Array([1, 2]), 1, 2, new Float32Array([3, 4]), new Float32Array([1]), gx, gM); // gx = [1, 2], gM = [3, 4]
 * ```
 */
export function matVecBackwardGeneric(m: Float32Array, rows: number, cols: number, x: Float32Array, gy: Float32Array, gx: Float32Array, gM: Float32Array, skipBelow = 0): void {
  for (let r = 0; r < rows; r++) {
    const a = gy[r] as number;
    if (a === 0 || (a < skipBelow && a > -skipBelow)) continue;
    const o = r * cols;
    for (let c = 0; c < cols; c++) {
      gx[c] = (gx[c] as number) + a * (m[o + c] as number);
      gM[o + c] = (gM[o + c] as number) + a * (x[c] as number);
    }
  }
}

/**
 * out = Mᵀ·x, M is rows×cols (`x` has `rows` entries, `out` gets `cols`, overwritten). 32 columns take an unrolled path with the same results.
 *
 * @example
 * ```ts
 * import { matTVec } from 'dialogym/nn';
 * const out = new Float32Array(3);
 * matTVec(new Float32Array([1, 2, 3, 4, 5, 6]), 2, 3, new Float32Array([1, 1]), out); // out = [5, 7, 9]
 * ```
 */
export function matTVec(m: Float32Array, rows: number, cols: number, x: Float32Array, out: Float32Array): void {
  if (cols === 32) return matTVec32(m, rows, x, out);
  out.fill(0, 0, cols);
  for (let r = 0; r < rows; r++) {
    const a = x[r] as number;
    if (a === 0) continue;
    const o = r * cols;
    for (let c = 0; c < cols; c++) out[c] = (out[c] as number) + a * (m[o + c] as number);
  }
}

/**
 * G += alpha·u·vᵀ, G is u.length×v.length (rows×cols), in place. Rows with u[r] = 0 are skipped. 32 columns with alpha = 1 take an unrolled path with the same results.
 *
 * @example
 * ```ts
 * import { addOuter } from 'dialogym/nn';
 * const g = new Float32Array(4);
 * addOuter(g, 2, 2, new Float32Array([1, 2]), new Float32Array([3, 4])); // g = [3, 4, 6, 8]
 * ```
 */
export function addOuter(g: Float32Array, rows: number, cols: number, u: Float32Array, v: Float32Array, alpha = 1): void {
  if (cols === 32 && alpha === 1) return addOuter32(g, rows, u, v, 0);
  for (let r = 0; r < rows; r++) {
    const a = alpha * (u[r] as number);
    if (a === 0) continue;
    const o = r * cols;
    for (let c = 0; c < cols; c++) g[o + c] = (g[o + c] as number) + a * (v[c] as number);
  }
}

/**
 * out[outOff..+dim] = Σ_k E[ids[k]]: a bag-of-words embedding sum over rows of the embedding matrix E (vocabulary × dim); ids < 0 (unknown words) are skipped, repeated ids count repeatedly.
 *
 * @example
 * ```ts
 * import { bagSum } from 'dialogym/nn';
 * const E = new Float32Array([1, 0, 0, 1, 2, 2]); // 3 words × dim 2
 * const out = new Float32Array(2);
 * bagSum(E, 2, [0, 2, -1], out); // out = [3, 2]
 * ```
 */
export function bagSum(e: Float32Array, dim: number, ids: ArrayLike<number>, out: Float32Array, outOff = 0): void {
  if (dim === 32) bagSum32(e, ids, out, outOff);
  else bagSumGeneric(e, dim, ids, out, outOff);
}

/**
 * `bagSum` without the 32-wide fast path (same results; the baseline for benchmarks).
 *
 * @example
 * ```ts
 * import { bagSumGeneric } from 'dialogym/nn';
 * const out = new Float32Array(2);
 * bagSumGeneric(new Float32Array([1, 2, 3, 4]), 2, [1, 1], out); // out = [6, 8]
 * ```
 */
export function bagSumGeneric(e: Float32Array, dim: number, ids: ArrayLike<number>, out: Float32Array, outOff = 0): void {
  out.fill(0, outOff, outOff + dim);
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id < 0) continue;
    const o = id * dim;
    for (let c = 0; c < dim; c++) out[outOff + c] = (out[outOff + c] as number) + (e[o + c] as number);
  }
}

/**
 * out[0..dim) = Σ_k w[k]·E[ids[k]]: a bag-of-words sum over distinct ids with their counts (a long
 * input with repeated words, e.g. a dialog history, in fewer row reads); ids < 0 are skipped.
 *
 * @example
 * ```ts
 * import { bagSumWeighted } from 'dialogym/nn';
 * const E = new Float32Array([1, 0, 0, 1]); // 2 words × dim 2
 * const out = new Float32Array(2);
 * bagSumWeighted(E, 2, [0, 1], [3, 2], out); // out = [3, 2]
 * ```
 */
export function bagSumWeighted(e: Float32Array, dim: number, ids: ArrayLike<number>, w: ArrayLike<number>, out: Float32Array): void {
  out.fill(0, 0, dim);
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id < 0) continue;
    const a = w[k] as number;
    const o = id * dim;
    for (let c = 0; c < dim; c++) out[c] = (out[c] as number) + a * (e[o + c] as number);
  }
}

/**
 * Gradient of `bagSumWeighted`: gE[ids[k]] += w[k]·g[0..dim) for every k (ids < 0 skipped).
 *
 * @example
 * ```ts
 * import { bagSumBackwardWeighted } from 'dialogym/nn';
 * const gE = new Float32Array(4);
 * bagSumBackwardWeighted(gE, 2, [1], [2], new Float32Array([1, -1])); // gE = [0, 0, 2, -2]
 * ```
 */
export function bagSumBackwardWeighted(gE: Float32Array, dim: number, ids: ArrayLike<number>, w: ArrayLike<number>, g: Float32Array): void {
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id < 0) continue;
    const a = w[k] as number;
    const o = id * dim;
    for (let c = 0; c < dim; c++) gE[o + c] = (gE[o + c] as number) + a * (g[c] as number);
  }
}

/**
 * Gradient of bagSum: gE[ids[k]] += g[gOff..+dim] for every k (repeated ids count repeatedly; ids < 0 skipped).
 *
 * @example
 * ```ts
 * import { bagSumBackward } from 'dialogym/nn';
 * const gE = new Float32Array(6); // 3 words × dim 2
 * bagSumBackward(gE, 2, [0, 2, 2], new Float32Array([1, -1])); // gE = [1, -1, 0, 0, 2, -2]
 * ```
 */
export function bagSumBackward(gE: Float32Array, dim: number, ids: ArrayLike<number>, g: Float32Array, gOff = 0): void {
  if (dim === 32) bagSumBackward32(gE, ids, g, gOff);
  else bagSumBackwardGeneric(gE, dim, ids, g, gOff);
}

/**
 * `bagSumBackward` without the 32-wide fast path (same results; the baseline for benchmarks).
 *
 * @example
 * ```ts
 * import { bagSumBackwardGeneric } from 'dialogym/nn';
 * const gE = new Float32Array(4);
 * bagSumBackwardGeneric(gE, 2, [1], new Float32Array([0.5, 0.5])); // gE = [0, 0, 0.5, 0.5]
 * ```
 */
export function bagSumBackwardGeneric(gE: Float32Array, dim: number, ids: ArrayLike<number>, g: Float32Array, gOff = 0): void {
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id < 0) continue;
    const o = id * dim;
    for (let c = 0; c < dim; c++) gE[o + c] = (gE[o + c] as number) + (g[gOff + c] as number);
  }
}

/**
 * out = softmax(x[0..n)) computed stably (max subtracted); returns log Σ exp(x) (the log-partition), −Infinity for n = 0. `out` may be `x`.
 *
 * @example
 * ```ts
 * import { softmax } from 'dialogym/nn';
 * const p = new Float32Array(2);
 * const logZ = softmax(new Float32Array([0, 0]), p); // p = [0.5, 0.5], logZ = ln 2
 * ```
 */
export function softmax(x: Float32Array, out: Float32Array, n = x.length): number {
  if (n === 0) return -Infinity;
  let mx = -Infinity;
  for (let i = 0; i < n; i++) if ((x[i] as number) > mx) mx = x[i] as number;
  let z = 0;
  for (let i = 0; i < n; i++) {
    const v = Math.exp((x[i] as number) - mx);
    out[i] = v;
    z += v;
  }
  const inv = 1 / z;
  for (let i = 0; i < n; i++) out[i] = (out[i] as number) * inv;
  return mx + Math.log(z);
}

/**
 * Gradient through softmax: given p = softmax(s) and g = ∂L/∂p, writes ∂L/∂s into `out`:
 * out_i = p_i·(g_i − Σ_j p_j g_j).
 *
 * @example
 * ```ts
 * import { softmaxBackward } from 'dialogym/nn';
 * const out = new Float32Array(2);
 * softmaxBackward(new Float32Array([0.5, 0.5]), new Float32Array([1, 0]), out); // out = [0.25, -0.25]
 * ```
 */
export function softmaxBackward(p: Float32Array, g: Float32Array, out: Float32Array, n = p.length): void {
  let s = 0;
  for (let i = 0; i < n; i++) s += (p[i] as number) * (g[i] as number);
  for (let i = 0; i < n; i++) out[i] = (p[i] as number) * ((g[i] as number) - s);
}

// ---- 32-column specialisations (d = 32 is the default embedding size; generated, unrolled) ----

/**
 * matVec for 32 columns with x held in locals: the same sums in the same order as the generic loop
 * (four strided partial sums, then s0 + s1 + s2 + s3), so the same float results, about twice as fast.
 * With `at`, out[r] is the product of row at[r] (a gathered set of rows, `matVecRows`).
 */
function matVec32(m: Float32Array, rows: number, x: Float32Array, out: Float32Array, at?: Int32Array): void {
  const x0 = x[0] as number;
  const x1 = x[1] as number;
  const x2 = x[2] as number;
  const x3 = x[3] as number;
  const x4 = x[4] as number;
  const x5 = x[5] as number;
  const x6 = x[6] as number;
  const x7 = x[7] as number;
  const x8 = x[8] as number;
  const x9 = x[9] as number;
  const x10 = x[10] as number;
  const x11 = x[11] as number;
  const x12 = x[12] as number;
  const x13 = x[13] as number;
  const x14 = x[14] as number;
  const x15 = x[15] as number;
  const x16 = x[16] as number;
  const x17 = x[17] as number;
  const x18 = x[18] as number;
  const x19 = x[19] as number;
  const x20 = x[20] as number;
  const x21 = x[21] as number;
  const x22 = x[22] as number;
  const x23 = x[23] as number;
  const x24 = x[24] as number;
  const x25 = x[25] as number;
  const x26 = x[26] as number;
  const x27 = x[27] as number;
  const x28 = x[28] as number;
  const x29 = x[29] as number;
  const x30 = x[30] as number;
  const x31 = x[31] as number;
  for (let r = 0; r < rows; r++) {
    const o = (at === undefined ? r : (at[r] as number)) * 32;
    const s0 = 0 + (m[o + 0] as number) * x0 + (m[o + 4] as number) * x4 + (m[o + 8] as number) * x8 + (m[o + 12] as number) * x12 + (m[o + 16] as number) * x16 + (m[o + 20] as number) * x20 + (m[o + 24] as number) * x24 + (m[o + 28] as number) * x28;
    const s1 = 0 + (m[o + 1] as number) * x1 + (m[o + 5] as number) * x5 + (m[o + 9] as number) * x9 + (m[o + 13] as number) * x13 + (m[o + 17] as number) * x17 + (m[o + 21] as number) * x21 + (m[o + 25] as number) * x25 + (m[o + 29] as number) * x29;
    const s2 = 0 + (m[o + 2] as number) * x2 + (m[o + 6] as number) * x6 + (m[o + 10] as number) * x10 + (m[o + 14] as number) * x14 + (m[o + 18] as number) * x18 + (m[o + 22] as number) * x22 + (m[o + 26] as number) * x26 + (m[o + 30] as number) * x30;
    const s3 = 0 + (m[o + 3] as number) * x3 + (m[o + 7] as number) * x7 + (m[o + 11] as number) * x11 + (m[o + 15] as number) * x15 + (m[o + 19] as number) * x19 + (m[o + 23] as number) * x23 + (m[o + 27] as number) * x27 + (m[o + 31] as number) * x31;
    out[r] = s0 + s1 + s2 + s3;
  }
}


/**
 * matVecBackward for 32 columns in two passes, each with 32 values in locals (one set fits the
 * registers, two do not): gx += Mᵀ·gy, then gM += gy·xᵀ. Bit-identical to the generic loop: gx is
 * rounded to float32 after every row as the generic loop's Float32Array stores do, and the two
 * outputs are independent, so splitting the pass changes no sum.
 */
function matVecBackward32(m: Float32Array, rows: number, x: Float32Array, gy: Float32Array, gx: Float32Array, gM: Float32Array, skipBelow: number): void {
  matTVecAdd32(m, rows, gy, gx, skipBelow);
  addOuter32(gM, rows, gy, x, skipBelow);
}

/** matTVec for 32 columns: out = Mᵀ·x, the same numbers as the generic loop (see `matTVecAdd32`). */
function matTVec32(m: Float32Array, rows: number, x: Float32Array, out: Float32Array): void {
  out.fill(0, 0, 32);
  matTVecAdd32(m, rows, x, out, 0);
}

/**
 * gx += Mᵀ·gy over the rows with |gy[r]| ≥ skipBelow (32 columns, gx in locals, rounded to float32
 * after every row). With `at`, row r of the product is row at[r] of M (a gathered set of rows).
 */
function matTVecAdd32(m: Float32Array, rows: number, gy: Float32Array, gx: Float32Array, skipBelow: number, at?: Int32Array): void {
  const fr = Math.fround;
  let g0 = gx[0] as number;
  let g1 = gx[1] as number;
  let g2 = gx[2] as number;
  let g3 = gx[3] as number;
  let g4 = gx[4] as number;
  let g5 = gx[5] as number;
  let g6 = gx[6] as number;
  let g7 = gx[7] as number;
  let g8 = gx[8] as number;
  let g9 = gx[9] as number;
  let g10 = gx[10] as number;
  let g11 = gx[11] as number;
  let g12 = gx[12] as number;
  let g13 = gx[13] as number;
  let g14 = gx[14] as number;
  let g15 = gx[15] as number;
  let g16 = gx[16] as number;
  let g17 = gx[17] as number;
  let g18 = gx[18] as number;
  let g19 = gx[19] as number;
  let g20 = gx[20] as number;
  let g21 = gx[21] as number;
  let g22 = gx[22] as number;
  let g23 = gx[23] as number;
  let g24 = gx[24] as number;
  let g25 = gx[25] as number;
  let g26 = gx[26] as number;
  let g27 = gx[27] as number;
  let g28 = gx[28] as number;
  let g29 = gx[29] as number;
  let g30 = gx[30] as number;
  let g31 = gx[31] as number;
  for (let r = 0; r < rows; r++) {
    const a = gy[r] as number;
    if (a === 0 || (a < skipBelow && a > -skipBelow)) continue;
    const o = (at === undefined ? r : (at[r] as number)) * 32;
    g0 = fr(g0 + a * (m[o + 0] as number));
    g1 = fr(g1 + a * (m[o + 1] as number));
    g2 = fr(g2 + a * (m[o + 2] as number));
    g3 = fr(g3 + a * (m[o + 3] as number));
    g4 = fr(g4 + a * (m[o + 4] as number));
    g5 = fr(g5 + a * (m[o + 5] as number));
    g6 = fr(g6 + a * (m[o + 6] as number));
    g7 = fr(g7 + a * (m[o + 7] as number));
    g8 = fr(g8 + a * (m[o + 8] as number));
    g9 = fr(g9 + a * (m[o + 9] as number));
    g10 = fr(g10 + a * (m[o + 10] as number));
    g11 = fr(g11 + a * (m[o + 11] as number));
    g12 = fr(g12 + a * (m[o + 12] as number));
    g13 = fr(g13 + a * (m[o + 13] as number));
    g14 = fr(g14 + a * (m[o + 14] as number));
    g15 = fr(g15 + a * (m[o + 15] as number));
    g16 = fr(g16 + a * (m[o + 16] as number));
    g17 = fr(g17 + a * (m[o + 17] as number));
    g18 = fr(g18 + a * (m[o + 18] as number));
    g19 = fr(g19 + a * (m[o + 19] as number));
    g20 = fr(g20 + a * (m[o + 20] as number));
    g21 = fr(g21 + a * (m[o + 21] as number));
    g22 = fr(g22 + a * (m[o + 22] as number));
    g23 = fr(g23 + a * (m[o + 23] as number));
    g24 = fr(g24 + a * (m[o + 24] as number));
    g25 = fr(g25 + a * (m[o + 25] as number));
    g26 = fr(g26 + a * (m[o + 26] as number));
    g27 = fr(g27 + a * (m[o + 27] as number));
    g28 = fr(g28 + a * (m[o + 28] as number));
    g29 = fr(g29 + a * (m[o + 29] as number));
    g30 = fr(g30 + a * (m[o + 30] as number));
    g31 = fr(g31 + a * (m[o + 31] as number));
  }
  gx[0] = g0;
  gx[1] = g1;
  gx[2] = g2;
  gx[3] = g3;
  gx[4] = g4;
  gx[5] = g5;
  gx[6] = g6;
  gx[7] = g7;
  gx[8] = g8;
  gx[9] = g9;
  gx[10] = g10;
  gx[11] = g11;
  gx[12] = g12;
  gx[13] = g13;
  gx[14] = g14;
  gx[15] = g15;
  gx[16] = g16;
  gx[17] = g17;
  gx[18] = g18;
  gx[19] = g19;
  gx[20] = g20;
  gx[21] = g21;
  gx[22] = g22;
  gx[23] = g23;
  gx[24] = g24;
  gx[25] = g25;
  gx[26] = g26;
  gx[27] = g27;
  gx[28] = g28;
  gx[29] = g29;
  gx[30] = g30;
  gx[31] = g31;
}

/**
 * gM[r] += gy[r]·x for every row with |gy[r]| ≥ skipBelow (32 columns, x in locals); with `at`, into row at[r] of gM.
 * The 32 loads of x into locals repeat matVec32's on purpose: held in locals (registers), not in an
 * array a shared helper would return, is what makes these unrolled kernels about twice as fast.
 */
function addOuter32(gM: Float32Array, rows: number, gy: Float32Array, x: Float32Array, skipBelow: number, at?: Int32Array): void {
  const x0 = x[0] as number;
  const x1 = x[1] as number;
  const x2 = x[2] as number;
  const x3 = x[3] as number;
  const x4 = x[4] as number;
  const x5 = x[5] as number;
  const x6 = x[6] as number;
  const x7 = x[7] as number;
  const x8 = x[8] as number;
  const x9 = x[9] as number;
  const x10 = x[10] as number;
  const x11 = x[11] as number;
  const x12 = x[12] as number;
  const x13 = x[13] as number;
  const x14 = x[14] as number;
  const x15 = x[15] as number;
  const x16 = x[16] as number;
  const x17 = x[17] as number;
  const x18 = x[18] as number;
  const x19 = x[19] as number;
  const x20 = x[20] as number;
  const x21 = x[21] as number;
  const x22 = x[22] as number;
  const x23 = x[23] as number;
  const x24 = x[24] as number;
  const x25 = x[25] as number;
  const x26 = x[26] as number;
  const x27 = x[27] as number;
  const x28 = x[28] as number;
  const x29 = x[29] as number;
  const x30 = x[30] as number;
  const x31 = x[31] as number;
  for (let r = 0; r < rows; r++) {
    const a = gy[r] as number;
    if (a === 0 || (a < skipBelow && a > -skipBelow)) continue;
    const o = (at === undefined ? r : (at[r] as number)) * 32;
    gM[o + 0] = (gM[o + 0] as number) + a * x0;
    gM[o + 1] = (gM[o + 1] as number) + a * x1;
    gM[o + 2] = (gM[o + 2] as number) + a * x2;
    gM[o + 3] = (gM[o + 3] as number) + a * x3;
    gM[o + 4] = (gM[o + 4] as number) + a * x4;
    gM[o + 5] = (gM[o + 5] as number) + a * x5;
    gM[o + 6] = (gM[o + 6] as number) + a * x6;
    gM[o + 7] = (gM[o + 7] as number) + a * x7;
    gM[o + 8] = (gM[o + 8] as number) + a * x8;
    gM[o + 9] = (gM[o + 9] as number) + a * x9;
    gM[o + 10] = (gM[o + 10] as number) + a * x10;
    gM[o + 11] = (gM[o + 11] as number) + a * x11;
    gM[o + 12] = (gM[o + 12] as number) + a * x12;
    gM[o + 13] = (gM[o + 13] as number) + a * x13;
    gM[o + 14] = (gM[o + 14] as number) + a * x14;
    gM[o + 15] = (gM[o + 15] as number) + a * x15;
    gM[o + 16] = (gM[o + 16] as number) + a * x16;
    gM[o + 17] = (gM[o + 17] as number) + a * x17;
    gM[o + 18] = (gM[o + 18] as number) + a * x18;
    gM[o + 19] = (gM[o + 19] as number) + a * x19;
    gM[o + 20] = (gM[o + 20] as number) + a * x20;
    gM[o + 21] = (gM[o + 21] as number) + a * x21;
    gM[o + 22] = (gM[o + 22] as number) + a * x22;
    gM[o + 23] = (gM[o + 23] as number) + a * x23;
    gM[o + 24] = (gM[o + 24] as number) + a * x24;
    gM[o + 25] = (gM[o + 25] as number) + a * x25;
    gM[o + 26] = (gM[o + 26] as number) + a * x26;
    gM[o + 27] = (gM[o + 27] as number) + a * x27;
    gM[o + 28] = (gM[o + 28] as number) + a * x28;
    gM[o + 29] = (gM[o + 29] as number) + a * x29;
    gM[o + 30] = (gM[o + 30] as number) + a * x30;
    gM[o + 31] = (gM[o + 31] as number) + a * x31;
  }
}

/** bagSum for dim 32, the sum in locals: rounded to float32 after every id, as the generic loop's stores do. */
function bagSum32(e: Float32Array, ids: ArrayLike<number>, out: Float32Array, outOff: number): void {
  const fr = Math.fround;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  let s7 = 0;
  let s8 = 0;
  let s9 = 0;
  let s10 = 0;
  let s11 = 0;
  let s12 = 0;
  let s13 = 0;
  let s14 = 0;
  let s15 = 0;
  let s16 = 0;
  let s17 = 0;
  let s18 = 0;
  let s19 = 0;
  let s20 = 0;
  let s21 = 0;
  let s22 = 0;
  let s23 = 0;
  let s24 = 0;
  let s25 = 0;
  let s26 = 0;
  let s27 = 0;
  let s28 = 0;
  let s29 = 0;
  let s30 = 0;
  let s31 = 0;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id < 0) continue;
    const o = id * 32;
    s0 = fr(s0 + (e[o + 0] as number));
    s1 = fr(s1 + (e[o + 1] as number));
    s2 = fr(s2 + (e[o + 2] as number));
    s3 = fr(s3 + (e[o + 3] as number));
    s4 = fr(s4 + (e[o + 4] as number));
    s5 = fr(s5 + (e[o + 5] as number));
    s6 = fr(s6 + (e[o + 6] as number));
    s7 = fr(s7 + (e[o + 7] as number));
    s8 = fr(s8 + (e[o + 8] as number));
    s9 = fr(s9 + (e[o + 9] as number));
    s10 = fr(s10 + (e[o + 10] as number));
    s11 = fr(s11 + (e[o + 11] as number));
    s12 = fr(s12 + (e[o + 12] as number));
    s13 = fr(s13 + (e[o + 13] as number));
    s14 = fr(s14 + (e[o + 14] as number));
    s15 = fr(s15 + (e[o + 15] as number));
    s16 = fr(s16 + (e[o + 16] as number));
    s17 = fr(s17 + (e[o + 17] as number));
    s18 = fr(s18 + (e[o + 18] as number));
    s19 = fr(s19 + (e[o + 19] as number));
    s20 = fr(s20 + (e[o + 20] as number));
    s21 = fr(s21 + (e[o + 21] as number));
    s22 = fr(s22 + (e[o + 22] as number));
    s23 = fr(s23 + (e[o + 23] as number));
    s24 = fr(s24 + (e[o + 24] as number));
    s25 = fr(s25 + (e[o + 25] as number));
    s26 = fr(s26 + (e[o + 26] as number));
    s27 = fr(s27 + (e[o + 27] as number));
    s28 = fr(s28 + (e[o + 28] as number));
    s29 = fr(s29 + (e[o + 29] as number));
    s30 = fr(s30 + (e[o + 30] as number));
    s31 = fr(s31 + (e[o + 31] as number));
  }
  out[outOff + 0] = s0;
  out[outOff + 1] = s1;
  out[outOff + 2] = s2;
  out[outOff + 3] = s3;
  out[outOff + 4] = s4;
  out[outOff + 5] = s5;
  out[outOff + 6] = s6;
  out[outOff + 7] = s7;
  out[outOff + 8] = s8;
  out[outOff + 9] = s9;
  out[outOff + 10] = s10;
  out[outOff + 11] = s11;
  out[outOff + 12] = s12;
  out[outOff + 13] = s13;
  out[outOff + 14] = s14;
  out[outOff + 15] = s15;
  out[outOff + 16] = s16;
  out[outOff + 17] = s17;
  out[outOff + 18] = s18;
  out[outOff + 19] = s19;
  out[outOff + 20] = s20;
  out[outOff + 21] = s21;
  out[outOff + 22] = s22;
  out[outOff + 23] = s23;
  out[outOff + 24] = s24;
  out[outOff + 25] = s25;
  out[outOff + 26] = s26;
  out[outOff + 27] = s27;
  out[outOff + 28] = s28;
  out[outOff + 29] = s29;
  out[outOff + 30] = s30;
  out[outOff + 31] = s31;
}

/** bagSumBackward for dim 32: the gradient row read once into locals. */
function bagSumBackward32(gE: Float32Array, ids: ArrayLike<number>, g: Float32Array, gOff: number): void {
  const g0 = g[gOff + 0] as number;
  const g1 = g[gOff + 1] as number;
  const g2 = g[gOff + 2] as number;
  const g3 = g[gOff + 3] as number;
  const g4 = g[gOff + 4] as number;
  const g5 = g[gOff + 5] as number;
  const g6 = g[gOff + 6] as number;
  const g7 = g[gOff + 7] as number;
  const g8 = g[gOff + 8] as number;
  const g9 = g[gOff + 9] as number;
  const g10 = g[gOff + 10] as number;
  const g11 = g[gOff + 11] as number;
  const g12 = g[gOff + 12] as number;
  const g13 = g[gOff + 13] as number;
  const g14 = g[gOff + 14] as number;
  const g15 = g[gOff + 15] as number;
  const g16 = g[gOff + 16] as number;
  const g17 = g[gOff + 17] as number;
  const g18 = g[gOff + 18] as number;
  const g19 = g[gOff + 19] as number;
  const g20 = g[gOff + 20] as number;
  const g21 = g[gOff + 21] as number;
  const g22 = g[gOff + 22] as number;
  const g23 = g[gOff + 23] as number;
  const g24 = g[gOff + 24] as number;
  const g25 = g[gOff + 25] as number;
  const g26 = g[gOff + 26] as number;
  const g27 = g[gOff + 27] as number;
  const g28 = g[gOff + 28] as number;
  const g29 = g[gOff + 29] as number;
  const g30 = g[gOff + 30] as number;
  const g31 = g[gOff + 31] as number;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id < 0) continue;
    const o = id * 32;
    gE[o + 0] = (gE[o + 0] as number) + g0;
    gE[o + 1] = (gE[o + 1] as number) + g1;
    gE[o + 2] = (gE[o + 2] as number) + g2;
    gE[o + 3] = (gE[o + 3] as number) + g3;
    gE[o + 4] = (gE[o + 4] as number) + g4;
    gE[o + 5] = (gE[o + 5] as number) + g5;
    gE[o + 6] = (gE[o + 6] as number) + g6;
    gE[o + 7] = (gE[o + 7] as number) + g7;
    gE[o + 8] = (gE[o + 8] as number) + g8;
    gE[o + 9] = (gE[o + 9] as number) + g9;
    gE[o + 10] = (gE[o + 10] as number) + g10;
    gE[o + 11] = (gE[o + 11] as number) + g11;
    gE[o + 12] = (gE[o + 12] as number) + g12;
    gE[o + 13] = (gE[o + 13] as number) + g13;
    gE[o + 14] = (gE[o + 14] as number) + g14;
    gE[o + 15] = (gE[o + 15] as number) + g15;
    gE[o + 16] = (gE[o + 16] as number) + g16;
    gE[o + 17] = (gE[o + 17] as number) + g17;
    gE[o + 18] = (gE[o + 18] as number) + g18;
    gE[o + 19] = (gE[o + 19] as number) + g19;
    gE[o + 20] = (gE[o + 20] as number) + g20;
    gE[o + 21] = (gE[o + 21] as number) + g21;
    gE[o + 22] = (gE[o + 22] as number) + g22;
    gE[o + 23] = (gE[o + 23] as number) + g23;
    gE[o + 24] = (gE[o + 24] as number) + g24;
    gE[o + 25] = (gE[o + 25] as number) + g25;
    gE[o + 26] = (gE[o + 26] as number) + g26;
    gE[o + 27] = (gE[o + 27] as number) + g27;
    gE[o + 28] = (gE[o + 28] as number) + g28;
    gE[o + 29] = (gE[o + 29] as number) + g29;
    gE[o + 30] = (gE[o + 30] as number) + g30;
    gE[o + 31] = (gE[o + 31] as number) + g31;
  }
}

/**
 * Gathered rows: out[i] = m[rows[i]]·x for i < n, m having `cols` columns — `matVec` over the
 * rows listed (same sums, bit for bit, as `matVec` over a matrix holding those rows).
 *
 * @example
 * ```ts
 * import { matVecRows } from 'dialogym/nn';
 * const m = new Float32Array([1, 0, 0, 1, 2, 2]); // 3 rows of 2
 * const out = new Float32Array(2);
 * matVecRows(m, 2, new Int32Array([2, 0]), 2, new Float32Array([1, 3]), out); // out = [8, 1]
 * ```
 */
export function matVecRows(m: Float32Array, cols: number, rows: Int32Array, n: number, x: Float32Array, out: Float32Array): void {
  if (cols === 32) return matVec32(m, n, x, out, rows);
  matVecLoop(m, n, cols, x, out, rows);
}

/**
 * Backward of `matVecRows`: gx += Σᵢ gy[i]·m[rows[i]] and gM[rows[i]] += gy[i]·x, skipping rows
 * with |gy[i]| < skipBelow. gx is rounded to float32 after every row, as in `matVecBackward`.
 *
 * @example
 * ```ts
 * import { matVecRowsBackward } from 'dialogym/nn';
 * const m = new Float32Array([1, 0, 0, 1, 2, 2]);
 * const gx = new Float32Array(2);
 * const gM = new Float32Array(6);
 * matVecRowsBackward(m, 2, new Int32Array([2]), 1, new Float32Array([1, 3]), new Float32Array([0.5]), gx, gM); // gx = [1, 1], gM row 2 = [0.5, 1.5]
 * ```
 */
export function matVecRowsBackward(m: Float32Array, cols: number, rows: Int32Array, n: number, x: Float32Array, gy: Float32Array, gx: Float32Array, gM: Float32Array, skipBelow = 0): void {
  if (cols === 32) return matVecRowsBackward32(m, rows, n, x, gy, gx, gM, skipBelow);
  for (let i = 0; i < n; i++) {
    const a = gy[i] as number;
    if (a === 0 || (a < skipBelow && a > -skipBelow)) continue;
    const o = (rows[i] as number) * cols;
    for (let c = 0; c < cols; c++) {
      gx[c] = (gx[c] as number) + a * (m[o + c] as number);
      gM[o + c] = (gM[o + c] as number) + a * (x[c] as number);
    }
  }
}

function matVecRowsBackward32(m: Float32Array, rows: Int32Array, n: number, x: Float32Array, gy: Float32Array, gx: Float32Array, gM: Float32Array, skipBelow: number): void {
  matTVecAdd32(m, n, gy, gx, skipBelow, rows);
  addOuter32(gM, n, gy, x, skipBelow, rows);
}
