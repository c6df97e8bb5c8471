/**
 * Sparse gradients of embedding tables: a batch of bag-of-words examples touches a few hundred
 * rows of a V×d table, so zeroing, clipping and the SGD step visit only the rows marked as
 * touched (plus the small dense parameters). With plain SGD the result is exactly the dense
 * update: untouched rows have a zero gradient, so they neither move nor add to the norm.
 */
import type { Param } from './params.js';
import { adamUpdate } from './adam-update.js';

/** The rows of one `[rows, dim]` parameter whose gradient may be non-zero in this batch. */
export class TouchedRows {
  private readonly mark: Uint8Array;
  private readonly list: Int32Array;
  private count = 0;
  readonly dim: number;

  constructor(readonly param: Param) {
    const rows = param.shape[0] as number;
    this.dim = param.data.length / rows;
    this.mark = new Uint8Array(rows);
    this.list = new Int32Array(rows);
  }

  /** Marks one row (negative ids, i.e. unknown words, are ignored). */
  touch(row: number): void {
    if (row < 0 || this.mark[row] === 1) return;
    this.mark[row] = 1;
    this.list[this.count++] = row;
  }

  /** Marks every row of `ids`. */
  touchAll(ids: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) this.touch(ids[i] as number);
  }

  /** Rows marked so far. */
  get size(): number {
    return this.count;
  }

  /** Σ g² over the marked rows. */
  normSq(): number {
    const g = this.param.grad;
    const d = this.dim;
    let s = 0;
    for (let k = 0; k < this.count; k++) {
      const o = (this.list[k] as number) * d;
      for (let j = 0; j < d; j++) s += (g[o + j] as number) ** 2;
    }
    return s;
  }

  /** θ −= lr·scale·g on the marked rows. */
  step(lr: number, scale: number): void {
    const g = this.param.grad;
    const x = this.param.data;
    const d = this.dim;
    const a = lr * scale;
    for (let k = 0; k < this.count; k++) {
      const o = (this.list[k] as number) * d;
      for (let j = 0; j < d; j++) x[o + j] = (x[o + j] as number) - a * (g[o + j] as number);
    }
  }

  /**
   * Lazy Adam on the marked rows: moments `m`, `v` (same shape as the table) move only where the
   * row was touched; `a` = lr·√(1−β₂ᵗ)/(1−β₁ᵗ), gradients scaled by `scale` (clipping).
   */
  adamStep(m: Float32Array, v: Float32Array, a: number, beta1: number, beta2: number, eps: number, scale: number): void {
    const g = this.param.grad;
    const x = this.param.data;
    const d = this.dim;
    for (let k = 0; k < this.count; k++) {
      const o = (this.list[k] as number) * d;
      adamUpdate(x, g, m, v, o, o + d, a, beta1, beta2, eps, scale);
    }
  }

  /** Zeroes the marked rows' gradient and forgets the marks. */
  clear(): void {
    const g = this.param.grad;
    const d = this.dim;
    for (let k = 0; k < this.count; k++) {
      const r = this.list[k] as number;
      g.fill(0, r * d, r * d + d);
      this.mark[r] = 0;
    }
    this.count = 0;
  }
}

/** The global gradient norm over sparse tables and dense parameters, and the factor that clips it to `maxNorm`. */
function clipScale(tables: readonly TouchedRows[], dense: readonly Param[], maxNorm: number): { norm: number; scale: number } {
  let s = 0;
  for (const t of tables) s += t.normSq();
  for (const p of dense) for (let i = 0; i < p.grad.length; i++) s += (p.grad[i] as number) ** 2;
  const norm = Math.sqrt(s);
  return { norm, scale: norm > maxNorm && norm > 0 ? maxNorm / norm : 1 };
}

/**
 * SGD with global gradient-norm clipping over sparse tables (`TouchedRows`) and dense
 * parameters: what `miniBatchEpoch` does with `zeroGrads` / `clipGradNorm` / `sgd(lr).step`, at
 * the cost of the touched rows only. The same weights as the dense path, up to the order of
 * floating-point additions in the norm.
 */
export class SparseSgd {
  constructor(
    readonly lr: number,
    readonly tables: readonly TouchedRows[],
    readonly dense: readonly Param[],
  ) {}

  /** Zeroes every gradient the last batch wrote. */
  zero(): void {
    for (const t of this.tables) t.clear();
    for (const p of this.dense) p.grad.fill(0);
  }

  /** Clips to `maxNorm` and steps; returns the gradient norm before clipping. */
  clipAndStep(maxNorm: number): number {
    const { norm, scale } = clipScale(this.tables, this.dense, maxNorm);
    for (const t of this.tables) t.step(this.lr, scale);
    const a = this.lr * scale;
    for (const p of this.dense) {
      const x = p.data;
      const g = p.grad;
      for (let i = 0; i < x.length; i++) x[i] = (x[i] as number) - a * (g[i] as number);
    }
    return norm;
  }
}

/**
 * Adam over sparse tables (`TouchedRows`, lazy: a row's moments move only in batches that touch
 * it, as in TensorFlow's LazyAdam) and dense parameters (every step), after global gradient-norm
 * clipping: the sparse counterpart of `clipGradNorm` + `adam(lr).step`. Rows touched in every
 * batch get exactly the dense Adam update.
 */
export class SparseAdam {
  private t = 0;
  private readonly moments: Map<Param, [Float32Array, Float32Array]> = new Map();

  constructor(
    readonly lr: number,
    readonly tables: readonly TouchedRows[],
    readonly dense: readonly Param[],
    readonly beta1 = 0.9,
    readonly beta2 = 0.999,
    readonly eps = 1e-8,
  ) {
    for (const p of [...tables.map((t) => t.param), ...dense]) this.moments.set(p, [new Float32Array(p.data.length), new Float32Array(p.data.length)]);
  }

  /** Zeroes every gradient the last batch wrote. */
  zero(): void {
    for (const t of this.tables) t.clear();
    for (const p of this.dense) p.grad.fill(0);
  }

  /** Clips to `maxNorm` and steps; returns the gradient norm before clipping. */
  clipAndStep(maxNorm: number): number {
    const { norm, scale } = clipScale(this.tables, this.dense, maxNorm);
    this.t++;
    const { beta1, beta2, eps } = this;
    const a = (this.lr * Math.sqrt(1 - beta2 ** this.t)) / (1 - beta1 ** this.t);
    for (const t of this.tables) {
      const [m, v] = this.moments.get(t.param) as [Float32Array, Float32Array];
      t.adamStep(m, v, a, beta1, beta2, eps, scale);
    }
    for (const p of this.dense) {
      const [m, v] = this.moments.get(p) as [Float32Array, Float32Array];
      const x = p.data;
      const g = p.grad;
      adamUpdate(x, g, m, v, 0, x.length, a, beta1, beta2, eps, scale);
    }
    return norm;
  }
}
