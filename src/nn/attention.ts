/**
 * Dot-product attention and pointer (copy) distributions with hand-written gradients
 * (finite-difference checked in `attention.test.ts`).
 *
 * Attention: scores s_i = q·k_i over n keys (rows of a row-major [n × d] array), weights
 * α = softmax(s), context c = Σ α_i v_i over values [n × dv]. With a learned projection of the
 * query (q = W·h, a `Linear`) this is Luong's "general" attention.
 *
 * Pointer: the same softmax read as a distribution over positions; the loss of a set of target
 * positions (several occurrences of the copied word all count) is −log Σ_{t∈T} α_t.
 */
import { InternalError } from '../core/errors.js';
import { softmax } from './kernels.js';
import { matMul } from './matmul.js';

/**
 * What `attend` computed: the weights over the n keys and the context vector.
 *
 * @example
 * ```ts
 * import { attend, type Attention } from 'dialogym/nn';
 * const a: Attention = attend(new Float32Array([1, 0]), new Float32Array([1, 0, 0, 1]), new Float32Array([5, 7]), 2, 2, 1);
 * a.alpha; // softmax([1, 0])
 * ```
 */
export interface Attention {
  readonly alpha: Float32Array;
  readonly context: Float32Array;
}

/**
 * Dot-product attention of query `q` (d) over `n` keys (`keys` [n × d]) and values (`values`
 * [n × dv]). Sizes that do not match throw an InternalError.
 *
 * @example
 * ```ts
 * import { attend } from 'dialogym/nn';
 * const keys = new Float32Array([1, 0, 0, 1]);   // 2 keys of size 2
 * const values = new Float32Array([10, 20]);      // 2 values of size 1
 * attend(new Float32Array([5, 0]), keys, values, 2, 2, 1).context; // ≈ [10.07]
 * ```
 */
export function attend(q: Float32Array, keys: Float32Array, values: Float32Array, n: number, d: number, dv: number): Attention {
  if (q.length !== d || keys.length < n * d || values.length < n * dv) throw new InternalError(`attend: sizes do not match (q ${q.length}, d ${d}, n ${n}, keys ${keys.length}, values ${values.length})`);
  const s = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let a = 0;
    const o = i * d;
    for (let k = 0; k < d; k++) a += (q[k] as number) * (keys[o + k] as number);
    s[i] = a;
  }
  const alpha = new Float32Array(n);
  softmax(s, alpha, n);
  const context = new Float32Array(dv);
  for (let i = 0; i < n; i++) {
    const w = alpha[i] as number;
    const o = i * dv;
    for (let k = 0; k < dv; k++) context[k] = (context[k] as number) + w * (values[o + k] as number);
  }
  return { alpha, context };
}

/**
 * Backward of `attend`: given ∂L/∂context (`dContext`) and, when the weights are used directly
 * too (a copy distribution), ∂L/∂α (`dAlpha`), adds ∂L/∂q into `dq`, ∂L/∂keys into `dKeys` and
 * ∂L/∂values into `dValues` (each optional).
 *
 * @example
 * ```ts
 * import { attend, attendBackward } from 'dialogym/nn';
 * const q = new Float32Array([1, 0]), keys = new Float32Array([1, 0, 0, 1]), values = new Float32Array([1, 2]);
 * const a = attend(q, keys, values, 2, 2, 1);
 * const dq = new Float32Array(2);
 * attendBackward(q, keys, values, 2, 2, 1, a.alpha, new Float32Array([1]), dq);
 * ```
 */
export function attendBackward(
  q: Float32Array,
  keys: Float32Array,
  values: Float32Array,
  n: number,
  d: number,
  dv: number,
  alpha: Float32Array,
  dContext: Float32Array,
  dq?: Float32Array,
  dKeys?: Float32Array,
  dValues?: Float32Array,
  dAlpha?: Float32Array,
): void {
  // ∂L/∂α_i = dContext · v_i; ∂L/∂s = α ⊙ (∂L/∂α − Σ α ∂L/∂α)
  const da = new Float32Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) {
    let a = 0;
    const o = i * dv;
    for (let k = 0; k < dv; k++) a += (dContext[k] as number) * (values[o + k] as number);
    if (dAlpha) a += dAlpha[i] as number;
    da[i] = a;
    mean += (alpha[i] as number) * a;
  }
  for (let i = 0; i < n; i++) {
    const w = alpha[i] as number;
    if (dValues) {
      const o = i * dv;
      for (let k = 0; k < dv; k++) dValues[o + k] = (dValues[o + k] as number) + w * (dContext[k] as number);
    }
    const ds = w * ((da[i] as number) - mean);
    if (ds === 0) continue;
    const o = i * d;
    for (let k = 0; k < d; k++) {
      if (dq) dq[k] = (dq[k] as number) + ds * (keys[o + k] as number);
      if (dKeys) dKeys[o + k] = (dKeys[o + k] as number) + ds * (q[k] as number);
    }
  }
}

/**
 * Where `attendRowsBackward` adds its gradients (each optional), and ∂L/∂α when the weights are
 * used directly too (rows × n).
 *
 * @example
 * ```ts
 * import type { AttendRowsGrads } from 'dialogym/nn';
 * const g: AttendRowsGrads = { dq: new Float32Array(4), dKeys: new Float32Array(6) };
 * ```
 */
export interface AttendRowsGrads {
  readonly dq?: Float32Array;
  readonly dKeys?: Float32Array;
  readonly dValues?: Float32Array;
  readonly dAlpha?: Float32Array;
}

/**
 * `attend` for `rows` queries at once over the same keys [n × d] and values [n × dv]: the weights
 * (rows × n) into `alpha` and the contexts (rows × dv) into `context`, as two matrix products
 * (`matMul`: float32 sums, so the numbers differ from `attend`'s in the last bits).
 *
 * @example
 * ```ts
 * import { attendRows } from 'dialogym/nn';
 * const keys = new Float32Array([1, 0, 0, 1]), values = new Float32Array([10, 20]);
 * const alpha = new Float32Array(4), context = new Float32Array(2);
 * attendRows(new Float32Array([5, 0, 0, 5]), 2, keys, values, 2, 2, 1, alpha, context); // context ≈ [10.07, 19.93]
 * ```
 */
export function attendRows(q: Float32Array, rows: number, keys: Float32Array, values: Float32Array, n: number, d: number, dv: number, alpha: Float32Array, context: Float32Array): void {
  if (q.length < rows * d || keys.length < n * d || values.length < n * dv || alpha.length < rows * n || context.length < rows * dv) throw new InternalError(`attendRows: sizes do not match (rows ${rows}, n ${n}, d ${d}, dv ${dv})`);
  matMul(q, keys, alpha, rows, d, n, { transB: true });
  for (let i = 0; i < rows; i++) {
    const row = alpha.subarray(i * n, (i + 1) * n);
    softmax(row, row, n);
  }
  matMul(alpha, values, context, rows, n, dv);
}

/**
 * Backward of `attendRows`: given ∂L/∂context (rows × dv) and, when the weights are used directly
 * too, ∂L/∂α (`grads.dAlpha`, rows × n), adds ∂L/∂q (rows × d) into `grads.dq`, ∂L/∂keys into
 * `grads.dKeys` and ∂L/∂values into `grads.dValues` (each optional) — matrix products over the rows.
 *
 * @example
 * ```ts
 * import { attendRows, attendRowsBackward } from 'dialogym/nn';
 * const q = new Float32Array([1, 0]), keys = new Float32Array([1, 0, 0, 1]), values = new Float32Array([1, 2]);
 * const alpha = new Float32Array(2), context = new Float32Array(1);
 * attendRows(q, 1, keys, values, 2, 2, 1, alpha, context);
 * const dq = new Float32Array(2);
 * attendRowsBackward(q, 1, keys, values, 2, 2, 1, alpha, new Float32Array([1]), { dq });
 * ```
 */
export function attendRowsBackward(q: Float32Array, rows: number, keys: Float32Array, values: Float32Array, n: number, d: number, dv: number, alpha: Float32Array, dContext: Float32Array, grads: AttendRowsGrads): void {
  const { dq, dKeys, dValues, dAlpha } = grads;
  // ∂L/∂α = ∂C·Vᵀ (+ dAlpha); ∂L/∂s = α ⊙ (∂L/∂α − Σ α ∂L/∂α) row by row
  const ds = new Float32Array(rows * n);
  matMul(dContext, values, ds, rows, dv, n, { transB: true });
  for (let i = 0; i < rows; i++) {
    const o = i * n;
    let mean = 0;
    for (let j = 0; j < n; j++) {
      const a = (ds[o + j] as number) + (dAlpha ? (dAlpha[o + j] as number) : 0);
      ds[o + j] = a;
      mean += (alpha[o + j] as number) * a;
    }
    for (let j = 0; j < n; j++) ds[o + j] = (alpha[o + j] as number) * ((ds[o + j] as number) - mean);
  }
  if (dValues) matMul(alpha, dContext, dValues, n, rows, dv, { transA: true, accumulate: true });
  if (dq) matMul(ds, keys, dq, rows, n, d, { accumulate: true });
  if (dKeys) matMul(ds, q, dKeys, n, rows, d, { transA: true, accumulate: true });
}

/**
 * Pointer loss over `n` scores: −log Σ_{t∈targets} softmax(scores)_t (a copy of a word that occurs
 * at several positions counts at all of them). Writes ∂loss/∂scores into `grad` (= p − p·1_T / P(T))
 * and returns the loss. An empty or out-of-range target list throws an InternalError.
 *
 * @example
 * ```ts
 * import { pointerLoss } from 'dialogym/nn';
 * const grad = new Float32Array(3);
 * pointerLoss(new Float32Array([0, 0, 0]), [0, 2], grad); // −log(2/3); grad = [−1/6, 1/3, −1/6]
 * ```
 */
export function pointerLoss(scores: Float32Array, targets: readonly number[], grad: Float32Array, n = scores.length): number {
  if (targets.length === 0) throw new InternalError('pointerLoss: no target position');
  softmax(scores, grad, n);
  let pt = 0;
  const seen = new Set<number>();
  for (const t of targets) {
    if (t < 0 || t >= n) throw new InternalError(`pointerLoss: target ${t} out of range [0, ${n})`);
    if (seen.has(t)) continue;
    seen.add(t);
    pt += grad[t] as number;
  }
  const loss = -Math.log(Math.max(pt, 1e-30));
  for (const t of seen) grad[t] = (grad[t] as number) - (grad[t] as number) / Math.max(pt, 1e-30);
  return loss;
}
