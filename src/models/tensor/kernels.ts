/**
 * Float32Array kernels for bag-of-words models. Matrices are row-major `Float32Array`s with an
 * explicit column count; every function writes into caller-owned buffers (no hidden allocation in
 * the hot loops). Gradients are written by hand next to each forward kernel.
 */

/** Σ a[aOff+i]·b[bOff+i] for i < n. */
export function dot(a: Float32Array, aOff: number, b: Float32Array, bOff: number, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[aOff + i] as number) * (b[bOff + i] as number);
  return s;
}

/** y[yOff+i] += alpha·x[xOff+i] for i < n. */
export function axpy(alpha: number, x: Float32Array, xOff: number, y: Float32Array, yOff: number, n: number): void {
  for (let i = 0; i < n; i++) y[yOff + i] = (y[yOff + i] as number) + alpha * (x[xOff + i] as number);
}

/** out = M·x, M is rows×cols. */
export function matVec(m: Float32Array, rows: number, cols: number, x: Float32Array, out: Float32Array): void {
  const c4 = cols - (cols % 4);
  for (let r = 0; r < rows; r++) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    const o = r * cols;
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
 * Backward of y = M·x in one pass over M: gx += Mᵀ·gy and gM += gy·xᵀ. Rows whose |gy| is below
 * `skipBelow` are skipped (their contribution is under float32 resolution for tiny thresholds).
 */
export function matVecBackward(m: Float32Array, rows: number, cols: number, x: Float32Array, gy: Float32Array, gx: Float32Array, gM: Float32Array, skipBelow = 0): void {
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

/** out = Mᵀ·x, M is rows×cols (out has `cols` entries). */
export function matTVec(m: Float32Array, rows: number, cols: number, x: Float32Array, out: Float32Array): void {
  out.fill(0, 0, cols);
  for (let r = 0; r < rows; r++) {
    const a = x[r] as number;
    if (a === 0) continue;
    const o = r * cols;
    for (let c = 0; c < cols; c++) out[c] = (out[c] as number) + a * (m[o + c] as number);
  }
}

/** G += alpha·u·vᵀ, G is u.length×v.length (rows×cols). Rows with u[r] = 0 are skipped. */
export function addOuter(g: Float32Array, rows: number, cols: number, u: Float32Array, v: Float32Array, alpha = 1): void {
  for (let r = 0; r < rows; r++) {
    const a = alpha * (u[r] as number);
    if (a === 0) continue;
    const o = r * cols;
    for (let c = 0; c < cols; c++) g[o + c] = (g[o + c] as number) + a * (v[c] as number);
  }
}

/** out[outOff..+dim] = Σ_k E[ids[k]] (a bag-of-words embedding sum; ids < 0 are skipped). */
export function bagSum(e: Float32Array, dim: number, ids: ArrayLike<number>, out: Float32Array, outOff = 0): void {
  out.fill(0, outOff, outOff + dim);
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id < 0) continue;
    const o = id * dim;
    for (let c = 0; c < dim; c++) out[outOff + c] = (out[outOff + c] as number) + (e[o + c] as number);
  }
}

/** Gradient of bagSum: gE[ids[k]] += g[gOff..+dim] for every k (repeated ids count repeatedly). */
export function bagSumBackward(gE: Float32Array, dim: number, ids: ArrayLike<number>, g: Float32Array, gOff = 0): void {
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id < 0) continue;
    const o = id * dim;
    for (let c = 0; c < dim; c++) gE[o + c] = (gE[o + c] as number) + (g[gOff + c] as number);
  }
}

/** out = softmax(x[0..n)) computed stably; returns log Σ exp(x) (the log-partition). */
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
 */
export function softmaxBackward(p: Float32Array, g: Float32Array, out: Float32Array, n = p.length): void {
  let s = 0;
  for (let i = 0; i < n; i++) s += (p[i] as number) * (g[i] as number);
  for (let i = 0; i < n; i++) out[i] = (p[i] as number) * ((g[i] as number) - s);
}
