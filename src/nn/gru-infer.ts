/**
 * Allocation-free inference steps of a `Gru` (no cache for backpropagation), for evaluation loops
 * that run the cell millions of times. This is a deliberate speed copy of `Gru.step` (./gru.ts):
 * the same arithmetic in the same order (zero inputs add exact zeros), into preallocated buffers
 * and without the cache `Gru.backward` needs, so the states are bit-identical to the training-time
 * forward; ./gru-infer.test.ts keeps the two bit-identical. A change to one is made to both.
 */
import { sigmoid, type Gru } from './gru.js';
import { InternalError } from '../core/errors.js';


/**
 * Runs a trained {@link Gru} for inference without allocating: `step(x, h)` updates `h` in place,
 * bit-identical to `Gru.step`. An input or state of the wrong size throws an InternalError.
 *
 * @example
 * ```ts
 * import { Gru, GruRunner } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const gru = new Gru(3, 4);
 * gru.init(createRng(1));
 * const run = new GruRunner(gru);
 * const h = new Float32Array(4);
 * for (const x of [new Float32Array([1, 0, 0]), new Float32Array([0, 0, 1])]) run.step(x, h);
 * ```
 */
export class GruRunner {
  private readonly z: Float32Array;
  private readonly r: Float32Array;
  private readonly rh: Float32Array;

  constructor(readonly gru: Gru) {
    const H = gru.hiddenSize;
    this.z = new Float32Array(H);
    this.r = new Float32Array(H);
    this.rh = new Float32Array(H);
  }

  /** h ← GRU(x, h), in place. */
  step(x: Float32Array, h: Float32Array): void {
    const H = this.gru.hiddenSize;
    const I = this.gru.inputSize;
    if (x.length !== I || h.length !== H) throw new InternalError(`gru: input ${x.length}/${I}, state ${h.length}/${H}`);
    const W = this.gru.W.data;
    const U = this.gru.U.data;
    const b = this.gru.b.data;
    const z = this.z;
    const r = this.r;
    const rh = this.rh;
    for (let i = 0; i < H; i++) {
      let s = b[i] as number;
      const wo = i * I;
      for (let c = 0; c < I; c++) s += (W[wo + c] as number) * (x[c] as number);
      const uo = i * H;
      for (let c = 0; c < H; c++) s += (U[uo + c] as number) * (h[c] as number);
      z[i] = sigmoid(s);
    }
    for (let i = 0; i < H; i++) {
      const row = H + i;
      let s = b[row] as number;
      const wo = row * I;
      for (let c = 0; c < I; c++) s += (W[wo + c] as number) * (x[c] as number);
      const uo = row * H;
      for (let c = 0; c < H; c++) s += (U[uo + c] as number) * (h[c] as number);
      r[i] = sigmoid(s);
    }
    for (let i = 0; i < H; i++) rh[i] = (r[i] as number) * (h[i] as number);
    // The candidate needs the old state: compute it into r (no longer needed), then blend.
    for (let i = 0; i < H; i++) {
      const row = 2 * H + i;
      let s = b[row] as number;
      const wo = row * I;
      for (let c = 0; c < I; c++) s += (W[wo + c] as number) * (x[c] as number);
      const uo = row * H;
      for (let c = 0; c < H; c++) s += (U[uo + c] as number) * (rh[c] as number);
      r[i] = Math.tanh(s);
    }
    for (let i = 0; i < H; i++) {
      const zi = z[i] as number;
      h[i] = (1 - zi) * (r[i] as number) + zi * (h[i] as number);
    }
  }
}
