/**
 * A {@link Gru} over a batch of sequences at once, time-major and length-sorted (the packed
 * layout of PyTorch's `PackedSequence`): step t holds the first `sizes[t]` sequences (sizes
 * non-increasing), its rows at offset Σ_{u<t} sizes[u]. The products go through matrix
 * products (`matMul`, `MatMulWorkspace`):
 *
 * - forward: the input side of every step, X·Wᵀ + b, is one product over all rows; each step then
 *   multiplies the batch's states by the recurrent weights held in a workspace (Uzr, then Un
 *   after the reset gate);
 * - backward: each step only propagates ∂h back through U (two products); the gradients of W, U
 *   and b and the inputs' gradients are products over all rows after the loop.
 *
 * The equations are `Gru.step`'s; the numbers differ from it in summation order only (float32
 * sums in the products, float64 in `step`). One sequence is a batch of one (sizes all 1).
 */
import { InternalError } from '../core/errors.js';
import { sigmoid, type Gru } from './gru.js';
import { MatMulWorkspace, matMul } from './matmul.js';

/**
 * What `gruForwardPacked` keeps for `gruBackwardPacked`: the packed rows (P = Σ sizes) of the
 * inputs, the previous states, the gates and the new states.
 *
 * @example
 * ```ts
 * import { Gru, gruForwardPacked } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const gru = new Gru(2, 3);
 * gru.init(createRng(1));
 * const run = gruForwardPacked(gru, new Float32Array([1, 0, 0, 1]), [1, 1]);
 * console.log(run.rows.h.subarray(3, 6)); // the state after the second step
 * ```
 */
export interface GruPacked {
  readonly sizes: readonly number[];
  /** Row offset of each step. */
  readonly offsets: readonly number[];
  /**
   * P rows each (P = Σ sizes), the fields of `GruCache` of every row's step: inputs `x` (P × I),
   * then (P × H) previous states `hPrev` (h0's row at t = 0), gates `z`, `r`, candidates `n`,
   * `rh` = r ⊙ hPrev and new states `h`.
   */
  readonly rows: Readonly<Record<'x' | 'hPrev' | 'z' | 'r' | 'n' | 'rh' | 'h', Float32Array>>;
}


interface Held {
  ws: MatMulWorkspace;
  /** Handles: Uzrᵀ (H × 2H), Unᵀ (H × H), Uzr (2H × H), Un (H × H). */
  zrT: number;
  nT: number;
  zr: number;
  n: number;
}
const workspaces = new WeakMap<Gru, Held>();

/** The workspace of `gru` with its recurrent weights as they are now. */
function heldWeights(gru: Gru): Held {
  const H = gru.hiddenSize;
  const U = gru.U.data;
  const Uzr = U.subarray(0, 2 * H * H);
  const Un = U.subarray(2 * H * H, 3 * H * H);
  let w = workspaces.get(gru);
  if (!w) {
    const ws = new MatMulWorkspace();
    w = { ws, zrT: ws.hold(Uzr, H, 2 * H, true), nT: ws.hold(Un, H, H, true), zr: ws.hold(Uzr, 2 * H, H), n: ws.hold(Un, H, H) };
    workspaces.set(gru, w);
    return w;
  }
  w.ws.set(w.zrT, Uzr, true);
  w.ws.set(w.nT, Un, true);
  w.ws.set(w.zr, Uzr);
  w.ws.set(w.n, Un);
  return w;
}

function layout(sizes: readonly number[]): { offsets: number[]; rows: number } {
  const offsets: number[] = [];
  let rows = 0;
  sizes.forEach((s, t) => {
    if (!Number.isInteger(s) || s < 1 || (t > 0 && s > (sizes[t - 1] as number))) throw new InternalError(`gru (packed): step sizes must be positive and non-increasing, got ${sizes.join(',')}`);
    offsets.push(rows);
    rows += s;
  });
  return { offsets, rows };
}

/**
 * Runs `gru` over packed sequences (module description): `x` holds P = Σ sizes rows of the input
 * size, `h0` the first states of the `sizes[0]` sequences (zeros when omitted).
 *
 * @example
 * ```ts
 * import { Gru, gruForwardPacked } from 'dialogym/nn';
 * const gru = new Gru(1, 2);
 * // two sequences of lengths 2 and 1: step 0 holds both, step 1 the first
 * const run = gruForwardPacked(gru, new Float32Array([1, 2, 3]), [2, 1]);
 * run.rows.h.length; // 3 rows × 2
 * ```
 */
export function gruForwardPacked(gru: Gru, x: Float32Array, sizes: readonly number[], h0?: Float32Array): GruPacked {
  const H = gru.hiddenSize;
  const I = gru.inputSize;
  const { offsets, rows: P } = layout(sizes);
  if (x.length < P * I) throw new InternalError(`gru (packed): ${x.length} input entries for ${P} rows of ${I}`);
  const B = sizes[0] ?? 0;
  const start = h0 ?? new Float32Array(B * H);
  // input side of every step at once: pre = X·Wᵀ + b (P × 3H)
  const pre = new Float32Array(P * 3 * H);
  matMul(x, gru.W.data, pre, P, I, 3 * H, { transB: true });
  const b = gru.b.data;
  for (let i = 0; i < P; i++) for (let j = 0; j < 3 * H; j++) pre[i * 3 * H + j] = (pre[i * 3 * H + j] as number) + (b[j] as number);
  const hPrev = new Float32Array(P * H);
  const z = new Float32Array(P * H);
  const r = new Float32Array(P * H);
  const n = new Float32Array(P * H);
  const rh = new Float32Array(P * H);
  const h = new Float32Array(P * H);
  const w = heldWeights(gru);
  const g = new Float32Array(B * 2 * H);
  const gn = new Float32Array(B * H);
  for (let t = 0; t < sizes.length; t++) {
    const rowsT = sizes[t] as number;
    const o = (offsets[t] as number) * H;
    if (t === 0) hPrev.set(start.subarray(0, rowsT * H), 0);
    else hPrev.set(h.subarray((offsets[t - 1] as number) * H, (offsets[t - 1] as number) * H + rowsT * H), o);
    w.ws.mul(hPrev, rowsT, w.zrT, g, false, o, 0);
    for (let i = 0; i < rowsT; i++) {
      const pr = ((offsets[t] as number) + i) * 3 * H;
      for (let j = 0; j < H; j++) {
        const k = o + i * H + j;
        const zj = sigmoid((pre[pr + j] as number) + (g[i * 2 * H + j] as number));
        const rj = sigmoid((pre[pr + H + j] as number) + (g[i * 2 * H + H + j] as number));
        z[k] = zj;
        r[k] = rj;
        rh[k] = rj * (hPrev[k] as number);
      }
    }
    w.ws.mul(rh, rowsT, w.nT, gn, false, o, 0);
    for (let i = 0; i < rowsT; i++) {
      const pr = ((offsets[t] as number) + i) * 3 * H;
      for (let j = 0; j < H; j++) {
        const k = o + i * H + j;
        const nj = Math.tanh((pre[pr + 2 * H + j] as number) + (gn[i * H + j] as number));
        n[k] = nj;
        const zj = z[k] as number;
        h[k] = (1 - zj) * nj + zj * (hPrev[k] as number);
      }
    }
  }
  return { sizes, offsets, rows: { x, hPrev, z, r, n, rh, h } };
}

/**
 * Backpropagation through time over packed sequences: `dh` (P × H) holds ∂L/∂h of every row from
 * the losses (zeros where none). Accumulates the gradients of W, U and b, adds ∂L/∂x into `dx`
 * (P × I) when given, and returns ∂L/∂h0 (sizes[0] × H).
 *
 * @example
 * ```ts
 * import { Gru, gruBackwardPacked, gruForwardPacked, zeroGrads } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const gru = new Gru(1, 2);
 * gru.init(createRng(1));
 * const run = gruForwardPacked(gru, new Float32Array([1, 2]), [1, 1]);
 * zeroGrads(gru.params);
 * const dh0 = gruBackwardPacked(gru, run, new Float32Array([0, 0, 1, 1])); // ∂L/∂h_1 = 1
 * ```
 */
export function gruBackwardPacked(gru: Gru, run: GruPacked, dh: Float32Array, dx?: Float32Array): Float32Array {
  const c = run.rows;
  const H = gru.hiddenSize;
  const I = gru.inputSize;
  const { sizes, offsets } = run;
  const P = c.h.length / H;
  if (dh.length < P * H) throw new InternalError(`gru (packed): ${dh.length} state gradients for ${P} rows of ${H}`);
  const B = sizes[0] ?? 0;
  const w = heldWeights(gru);
  const carry = new Float32Array(B * H);
  const dzr = new Float32Array(P * 2 * H);
  const dn = new Float32Array(P * H);
  const drh = new Float32Array(B * H);
  for (let t = sizes.length - 1; t >= 0; t--) {
    const rowsT = sizes[t] as number;
    const o = (offsets[t] as number) * H;
    for (let i = 0; i < rowsT; i++) {
      for (let j = 0; j < H; j++) {
        const k = o + i * H + j;
        const d = (dh[k] as number) + (carry[i * H + j] as number);
        const zj = c.z[k] as number;
        const nj = c.n[k] as number;
        carry[i * H + j] = d * zj;
        dn[k] = d * (1 - zj) * (1 - nj * nj);
        dzr[2 * o + i * 2 * H + j] = d * ((c.hPrev[k] as number) - nj) * zj * (1 - zj);
      }
    }
    // candidate: ∂(r ⊙ hPrev) = ∂an·Un
    w.ws.mul(dn, rowsT, w.n, drh, false, o, 0);
    for (let i = 0; i < rowsT; i++) {
      for (let j = 0; j < H; j++) {
        const k = o + i * H + j;
        const rj = c.r[k] as number;
        const d = drh[i * H + j] as number;
        carry[i * H + j] = (carry[i * H + j] as number) + d * rj;
        dzr[2 * o + i * 2 * H + H + j] = d * (c.hPrev[k] as number) * rj * (1 - rj);
      }
    }
    // gates: ∂hPrev += [∂az ∂ar]·Uzr
    w.ws.mul(dzr, rowsT, w.zr, carry, true, 2 * o, 0);
  }
  const gb = gru.b.grad;
  for (let i = 0; i < P; i++) {
    for (let j = 0; j < 2 * H; j++) gb[j] = (gb[j] as number) + (dzr[i * 2 * H + j] as number);
    for (let j = 0; j < H; j++) gb[2 * H + j] = (gb[2 * H + j] as number) + (dn[i * H + j] as number);
  }
  const gW = gru.W.grad;
  const gU = gru.U.grad;
  const W = gru.W.data;
  matMul(dzr, c.x, gW.subarray(0, 2 * H * I), 2 * H, P, I, { transA: true, accumulate: true });
  matMul(dn, c.x, gW.subarray(2 * H * I), H, P, I, { transA: true, accumulate: true });
  matMul(dzr, c.hPrev, gU.subarray(0, 2 * H * H), 2 * H, P, H, { transA: true, accumulate: true });
  matMul(dn, c.rh, gU.subarray(2 * H * H), H, P, H, { transA: true, accumulate: true });
  if (dx) {
    matMul(dzr, W.subarray(0, 2 * H * I), dx, P, 2 * H, I, { accumulate: true });
    matMul(dn, W.subarray(2 * H * I), dx, P, H, I, { accumulate: true });
  }
  return carry;
}
