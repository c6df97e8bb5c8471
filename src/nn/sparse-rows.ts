/**
 * Sparse gradients of embedding tables: a batch of bag-of-words examples touches a few hundred
 * rows of a V×d table, so zeroing, clipping and the SGD step visit only the rows marked as
 * touched (plus the small dense parameters). With plain SGD the result is exactly the dense
 * update: untouched rows have a zero gradient, so they neither move nor add to the norm.
 */
import type { Param } from './params.js';

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
    let s = 0;
    for (const t of this.tables) s += t.normSq();
    for (const p of this.dense) for (let i = 0; i < p.grad.length; i++) s += (p.grad[i] as number) ** 2;
    const norm = Math.sqrt(s);
    const scale = norm > maxNorm && norm > 0 ? maxNorm / norm : 1;
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
