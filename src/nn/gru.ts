/**
 * A gated recurrent unit (Cho et al. 2014) with hand-written gradients and backpropagation
 * through time. For input x (size I) and previous state h (size H):
 *
 *   z  = σ(Wz·x + Uz·h + bz)          update gate
 *   r  = σ(Wr·x + Ur·h + br)          reset gate
 *   n  = tanh(Wn·x + Un·(r ⊙ h) + bn) candidate state
 *   h' = (1 − z) ⊙ n + z ⊙ h
 *
 * Parameters: W [3H × I] (rows z, r, n), U [3H × H] (rows z, r, n), b [3H]. Inputs are often
 * sparse feature vectors: the input-side products skip zero entries of x.
 */
import type { Rng } from '../core/rng.js';
import { initNormal, param, type Param } from './params.js';
import { InternalError } from '../core/errors.js';

/**
 * One step of a {@link Gru}: its input, previous state, gate activations and new state `h`, kept
 * for `stepBackward` / `backward`.
 *
 * @example
 * ```ts
 * import { Gru, type GruCache } from 'dialogym/nn';
 * const gru = new Gru(3, 2);
 * const c: GruCache = gru.step(new Float32Array([1, 0, 0]), new Float32Array(2));
 * console.log(c.h, c.z);
 * ```
 */
export interface GruCache {
  /** The step's input. */
  readonly x: Float32Array;
  /** The state before the step. */
  readonly hPrev: Float32Array;
  /** Update gate. */
  readonly z: Float32Array;
  /** Reset gate. */
  readonly r: Float32Array;
  /** Candidate state. */
  readonly n: Float32Array;
  /** r ⊙ hPrev. */
  readonly rh: Float32Array;
  /** The new state. */
  readonly h: Float32Array;
  /** Indices of the non-zero entries of x. */
  readonly nz: Int32Array;
}

/**
 * The logistic function, computed without overflow on either side; every GRU path (training,
 * batched, inference, the row kernels) uses this one, so their gates agree bit for bit.
 *
 * @example
 * ```ts
 * import { sigmoid } from 'dialogym/nn';
 * sigmoid(0); // 0.5
 * ```
 */
export const sigmoid = (a: number): number => (a >= 0 ? 1 / (1 + Math.exp(-a)) : Math.exp(a) / (1 + Math.exp(a)));

function nonZeros(x: Float32Array): Int32Array {
  let k = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== 0) k++;
  const out = new Int32Array(k);
  k = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== 0) out[k++] = i;
  return out;
}

/**
 * A gated recurrent unit with hand-written gradients (equations in this module's description):
 * `step` / `forward` run it and keep caches, `stepBackward` / `backward` accumulate the gradients
 * of `W`, `U`, `b` (through time). Parameters start at zero: call `init(rng)`. An input of the
 * wrong size throws an InternalError. For inference without caches use {@link GruRunner}.
 *
 * @example
 * ```ts
 * import { Gru, zeroGrads } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const gru = new Gru(4, 8);
 * gru.init(createRng(1));
 * const caches = gru.forward([new Float32Array([1, 0, 0, 0]), new Float32Array([0, 1, 0, 0])]);
 * zeroGrads(gru.params);
 * gru.backward(caches, [undefined, new Float32Array(8).fill(1)]); // ∂L/∂h_1 = 1
 * ```
 */
export class Gru {
  readonly W: Param;
  readonly U: Param;
  readonly b: Param;
  readonly params: Param[];

  constructor(
    readonly inputSize: number,
    readonly hiddenSize: number,
    prefix = 'gru',
  ) {
    this.W = param(`${prefix}.W`, [3 * hiddenSize, inputSize]);
    this.U = param(`${prefix}.U`, [3 * hiddenSize, hiddenSize]);
    this.b = param(`${prefix}.b`, [3 * hiddenSize]);
    this.params = [this.W, this.U, this.b];
  }

  /** W ~ N(0, 1/I), U ~ N(0, 1/H), b = 0 (the update-gate bias starts at `zBias`). */
  init(rng: Rng, zBias = 0): void {
    const H = this.hiddenSize;
    initNormal(this.W, rng.fork('W'), 1 / Math.sqrt(Math.max(1, this.inputSize)));
    initNormal(this.U, rng.fork('U'), 1 / Math.sqrt(H));
    this.b.data.fill(0);
    this.b.data.fill(zBias, 0, H);
  }

  /** One step: returns the cache holding the new state `h`. */
  step(x: Float32Array, hPrev: Float32Array): GruCache {
    const H = this.hiddenSize;
    const I = this.inputSize;
    if (x.length !== I) throw new InternalError(`gru: input has ${x.length} entries, expected ${I}`);
    const W = this.W.data;
    const U = this.U.data;
    const b = this.b.data;
    const nz = nonZeros(x);
    const z = new Float32Array(H);
    const r = new Float32Array(H);
    const n = new Float32Array(H);
    const rh = new Float32Array(H);
    const h = new Float32Array(H);
    // Pre-activation of gate row `row`: its bias, W's row over x's non-zeros, U's row over `hh`.
    const pre = (row: number, hh: Float32Array): number => {
      let s = b[row] as number;
      const wo = row * I;
      for (let k = 0; k < nz.length; k++) {
        const c = nz[k] as number;
        s += (W[wo + c] as number) * (x[c] as number);
      }
      const uo = row * H;
      for (let c = 0; c < H; c++) s += (U[uo + c] as number) * (hh[c] as number);
      return s;
    };
    for (let i = 0; i < H; i++) z[i] = sigmoid(pre(i, hPrev));
    for (let i = 0; i < H; i++) r[i] = sigmoid(pre(H + i, hPrev));
    for (let i = 0; i < H; i++) rh[i] = (r[i] as number) * (hPrev[i] as number);
    for (let i = 0; i < H; i++) n[i] = Math.tanh(pre(2 * H + i, rh));
    for (let i = 0; i < H; i++) {
      const zi = z[i] as number;
      h[i] = (1 - zi) * (n[i] as number) + zi * (hPrev[i] as number);
    }
    return { x, hPrev, z, r, n, rh, h, nz };
  }

  /** Runs the cell over a sequence from `h0` (zeros when omitted). */
  forward(xs: readonly Float32Array[], h0?: Float32Array): GruCache[] {
    let h = h0 ?? new Float32Array(this.hiddenSize);
    const out: GruCache[] = [];
    for (const x of xs) {
      const c = this.step(x, h);
      out.push(c);
      h = c.h;
    }
    return out;
  }

  /**
   * Backward of one step: given ∂L/∂h' (`dh`), accumulates parameter gradients and returns
   * ∂L/∂hPrev; adds ∂L/∂x into `dx` when given.
   */
  stepBackward(c: GruCache, dh: Float32Array, dx?: Float32Array): Float32Array {
    const H = this.hiddenSize;
    const I = this.inputSize;
    const W = this.W.data;
    const U = this.U.data;
    const gW = this.W.grad;
    const gU = this.U.grad;
    const gb = this.b.grad;
    const dhPrev = new Float32Array(H);
    const daz = new Float32Array(H);
    const dar = new Float32Array(H);
    const dan = new Float32Array(H);
    for (let i = 0; i < H; i++) {
      const g = dh[i] as number;
      const zi = c.z[i] as number;
      const ni = c.n[i] as number;
      dhPrev[i] = g * zi;
      dan[i] = g * (1 - zi) * (1 - ni * ni);
      daz[i] = g * ((c.hPrev[i] as number) - ni) * zi * (1 - zi);
    }
    // Candidate: an = Wn·x + Un·rh + bn.
    const drh = new Float32Array(H);
    for (let i = 0; i < H; i++) {
      const a = dan[i] as number;
      if (a === 0) continue;
      const row = 2 * H + i;
      gb[row] = (gb[row] as number) + a;
      const uo = row * H;
      for (let j = 0; j < H; j++) {
        drh[j] = (drh[j] as number) + a * (U[uo + j] as number);
        gU[uo + j] = (gU[uo + j] as number) + a * (c.rh[j] as number);
      }
    }
    for (let j = 0; j < H; j++) {
      const ri = c.r[j] as number;
      dhPrev[j] = (dhPrev[j] as number) + (drh[j] as number) * ri;
      dar[j] = (drh[j] as number) * (c.hPrev[j] as number) * ri * (1 - ri);
    }
    // Gates: az = Wz·x + Uz·h + bz, ar likewise.
    for (let g = 0; g < 2; g++) {
      const da = g === 0 ? daz : dar;
      for (let i = 0; i < H; i++) {
        const a = da[i] as number;
        if (a === 0) continue;
        const row = g * H + i;
        gb[row] = (gb[row] as number) + a;
        const uo = row * H;
        for (let j = 0; j < H; j++) {
          dhPrev[j] = (dhPrev[j] as number) + a * (U[uo + j] as number);
          gU[uo + j] = (gU[uo + j] as number) + a * (c.hPrev[j] as number);
        }
      }
    }
    // Input side (all three blocks), over the non-zero inputs only (dx needs every input).
    for (let g = 0; g < 3; g++) {
      const da = g === 0 ? daz : g === 1 ? dar : dan;
      for (let i = 0; i < H; i++) {
        const a = da[i] as number;
        if (a === 0) continue;
        const wo = (g * H + i) * I;
        for (let k = 0; k < c.nz.length; k++) {
          const col = c.nz[k] as number;
          gW[wo + col] = (gW[wo + col] as number) + a * (c.x[col] as number);
        }
        if (dx) for (let col = 0; col < I; col++) dx[col] = (dx[col] as number) + a * (W[wo + col] as number);
      }
    }
    return dhPrev;
  }

  /**
   * Backpropagation through time: `dhs[t]` is ∂L/∂h_t from the loss at step t (undefined = none).
   * Accumulates parameter gradients; returns ∂L/∂h0. `dxs[t]`, when given, receives ∂L/∂x_t.
   */
  backward(caches: readonly GruCache[], dhs: readonly (Float32Array | undefined)[], dxs?: readonly Float32Array[]): Float32Array {
    return throughTime(this.hiddenSize, caches, dhs, dxs, (c, d, dx) => this.stepBackward(c, d, dx));
  }
}

/**
 * The loop of backpropagation through time over `stepBackward` (`Gru.backward`, `GruBackprop`):
 * from the last step to the first, ∂L/∂h_t = the carry from step t + 1 plus `dhs[t]`; returns ∂L/∂h0.
 *
 * @example
 * ```ts
 * import { Gru, throughTime } from 'dialogym/nn';
 * const gru = new Gru(2, 4);
 * const caches = gru.forward([new Float32Array([1, 0])]);
 * const dh0 = throughTime(4, caches, [new Float32Array(4).fill(1)], undefined, (c, dh, dx) => gru.stepBackward(c, dh, dx));
 * ```
 */
export function throughTime(H: number, caches: readonly GruCache[], dhs: readonly (Float32Array | undefined)[], dxs: readonly Float32Array[] | undefined, stepBackward: (c: GruCache, dh: Float32Array, dx: Float32Array | undefined) => Float32Array): Float32Array {
  let carry: Float32Array = new Float32Array(H);
  for (let t = caches.length - 1; t >= 0; t--) {
    const d = new Float32Array(carry);
    const local = dhs[t];
    if (local) for (let i = 0; i < H; i++) d[i] = (d[i] as number) + (local[i] as number);
    carry = stepBackward(caches[t] as GruCache, d, dxs?.[t]);
  }
  return carry;
}
