/**
 * Dense layers for the sequence models: an embedding table, an affine map and a tanh layer, each
 * with its hand-written backward that accumulates into the parameters' gradient buffers
 * (finite-difference checked in `layers.test.ts`).
 */
import type { Rng } from '../core/rng.js';
import { InternalError } from '../core/errors.js';
import { initNormal, param, type Param } from './params.js';
import { matMul } from './matmul.js';

/**
 * An embedding table E [n × dim]: `row(id)` is a view of one row; `backward(id, g)` adds g to
 * that row's gradient. An id outside [0, n) throws an InternalError.
 *
 * @example
 * ```ts
 * import { Embedding } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const emb = new Embedding(10, 4, 'E');
 * emb.init(createRng(1), 0.1);
 * const v = emb.row(3);          // Float32Array(4), a view into emb.E.data
 * emb.backward(3, new Float32Array([1, 0, 0, 0]));
 * ```
 */
export class Embedding {
  readonly E: Param;
  readonly params: Param[];
  constructor(
    readonly n: number,
    readonly dim: number,
    name = 'emb',
  ) {
    this.E = param(name, [n, dim]);
    this.params = [this.E];
  }

  /** Values ~ N(0, sd²). */
  init(rng: Rng, sd = 0.1): void {
    initNormal(this.E, rng, sd);
  }

  private check(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.n) throw new InternalError(`embedding ${this.E.name}: id ${id} out of range [0, ${this.n})`);
  }

  /** Row `id` (a view: do not write to it). */
  row(id: number): Float32Array {
    this.check(id);
    return this.E.data.subarray(id * this.dim, (id + 1) * this.dim);
  }

  /** Adds `alpha·g` to the gradient of row `id`. */
  backward(id: number, g: Float32Array, alpha = 1): void {
    this.check(id);
    const G = this.E.grad;
    const o = id * this.dim;
    for (let k = 0; k < this.dim; k++) G[o + k] = (G[o + k] as number) + alpha * (g[k] as number);
  }
}

/**
 * An affine map y = W·x + b, W [out × in] (optionally without bias). `forward` writes y;
 * `backward(x, dy, dx?)` accumulates ∂W, ∂b and adds Wᵀ·dy into `dx` when given.
 *
 * @example
 * ```ts
 * import { Linear, zeroGrads } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const lin = new Linear(3, 2, 'out');
 * lin.init(createRng(1));
 * const x = new Float32Array([1, 2, 3]);
 * const y = lin.forward(x);
 * zeroGrads(lin.params);
 * const dx = new Float32Array(3);
 * lin.backward(x, new Float32Array([1, -1]), dx);
 * ```
 */
export class Linear {
  readonly W: Param;
  readonly b: Param | null;
  readonly params: Param[];
  constructor(
    readonly inputSize: number,
    readonly outputSize: number,
    name = 'linear',
    bias = true,
  ) {
    this.W = param(`${name}.W`, [outputSize, inputSize]);
    this.b = bias ? param(`${name}.b`, [outputSize]) : null;
    this.params = this.b ? [this.W, this.b] : [this.W];
  }

  /** W ~ N(0, 1/in), b = 0. */
  init(rng: Rng): void {
    initNormal(this.W, rng, 1 / Math.sqrt(Math.max(1, this.inputSize)));
    this.b?.data.fill(0);
  }

  /** y = W·x + b into `out` (allocated when omitted). */
  forward(x: Float32Array, out = new Float32Array(this.outputSize)): Float32Array {
    const I = this.inputSize;
    if (x.length !== I) throw new InternalError(`linear ${this.W.name}: input has ${x.length} entries, expected ${I}`);
    const W = this.W.data;
    const b = this.b?.data;
    for (let r = 0; r < this.outputSize; r++) {
      let s = b ? (b[r] as number) : 0;
      const o = r * I;
      for (let c = 0; c < I; c++) s += (W[o + c] as number) * (x[c] as number);
      out[r] = s;
    }
    return out;
  }

  /** Accumulates ∂W += dy·xᵀ, ∂b += dy; adds Wᵀ·dy into `dx` when given. */
  backward(x: Float32Array, dy: Float32Array, dx?: Float32Array): void {
    const I = this.inputSize;
    const W = this.W.data;
    const gW = this.W.grad;
    const gb = this.b?.grad;
    for (let r = 0; r < this.outputSize; r++) {
      const a = dy[r] as number;
      if (a === 0) continue;
      if (gb) gb[r] = (gb[r] as number) + a;
      const o = r * I;
      for (let c = 0; c < I; c++) gW[o + c] = (gW[o + c] as number) + a * (x[c] as number);
      if (dx) for (let c = 0; c < I; c++) dx[c] = (dx[c] as number) + a * (W[o + c] as number);
    }
  }

  /**
   * `forward` over n inputs at once: Y (n × out) = X·Wᵀ + b for the rows of X (n × in), one
   * matrix product (`matMul`: float32 sums, the bias added last) into `out` (allocated when omitted).
   */
  forwardBatch(x: Float32Array, n: number, out: Float32Array = new Float32Array(n * this.outputSize)): Float32Array {
    const I = this.inputSize;
    const O = this.outputSize;
    if (x.length < n * I) throw new InternalError(`linear ${this.W.name}: ${x.length} input entries for ${n} rows of ${I}`);
    matMul(x, this.W.data, out, n, I, O, { transB: true });
    const b = this.b?.data;
    if (b) for (let i = 0; i < n; i++) for (let r = 0; r < O; r++) out[i * O + r] = (out[i * O + r] as number) + (b[r] as number);
    return out;
  }

  /**
   * `backward` over n rows at once: ∂W += ∂Yᵀ·X, ∂b += the column sums of ∂Y (n × out), and
   * ∂X += ∂Y·W into `dx` (n × in) when given — two matrix products.
   */
  backwardBatch(x: Float32Array, dy: Float32Array, n: number, dx?: Float32Array): void {
    const I = this.inputSize;
    const O = this.outputSize;
    matMul(dy, x, this.W.grad, O, n, I, { transA: true, accumulate: true });
    const gb = this.b?.grad;
    if (gb) for (let i = 0; i < n; i++) for (let r = 0; r < O; r++) gb[r] = (gb[r] as number) + (dy[i * O + r] as number);
    if (dx) matMul(dy, this.W.data, dx, n, O, I, { accumulate: true });
  }
}

/**
 * tanh in place: returns `x` with every entry replaced by its tanh.
 *
 * @example
 * ```ts
 * import { tanhInPlace } from 'dialogym/nn';
 * tanhInPlace(new Float32Array([0, 100])); // [0, 1]
 * ```
 */
export function tanhInPlace(x: Float32Array): Float32Array {
  for (let i = 0; i < x.length; i++) x[i] = Math.tanh(x[i] as number);
  return x;
}

/**
 * Gradient through y = tanh(a) given y: returns a new array dy ⊙ (1 − y²).
 *
 * @example
 * ```ts
 * import { tanhBackward } from 'dialogym/nn';
 * tanhBackward(new Float32Array([0]), new Float32Array([2])); // [2]
 * ```
 */
export function tanhBackward(y: Float32Array, dy: Float32Array): Float32Array {
  const out = new Float32Array(y.length);
  for (let i = 0; i < y.length; i++) out[i] = (dy[i] as number) * (1 - (y[i] as number) ** 2);
  return out;
}
