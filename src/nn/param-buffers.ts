/**
 * Parameters laid out in one flat buffer, for data-parallel training over threads: the values of
 * a model in one `SharedArrayBuffer` that the replica of every thread views (no copy per step),
 * and one gradient buffer per part of a batch. The gradient of the batch is the sum of its parts'
 * gradients in part order (`sumParts`), each part computed alone from zero, so it is the same
 * bits whichever thread computed which part, and however many threads there were.
 *
 * @example
 * ```ts
 * import { param, paramSize, viewParams, sumParts } from 'dialogym/nn';
 * const ps = [param('W', [2, 3]), param('b', [2])];
 * const values = viewParams(ps, 'data', new SharedArrayBuffer(4 * paramSize(ps)), true); // copies, then views
 * const parts = [new Float32Array(paramSize(ps)), new Float32Array(paramSize(ps))];
 * const grad = viewParams(ps, 'grad', new ArrayBuffer(4 * paramSize(ps)));
 * sumParts(grad, parts, 2); // grad = parts[0] + parts[1]
 * values.length; // 8
 * ```
 */
import { InternalError } from '../core/errors.js';
import type { Param } from './params.js';

/**
 * Entries of all of `ps` (the length of their flat buffer).
 *
 * @example
 * ```ts
 * import { param, paramSize } from 'dialogym/nn';
 * paramSize([param('W', [2, 3]), param('b', [2])]); // 8
 * ```
 */
export function paramSize(ps: readonly Param[]): number {
  return ps.reduce((a, p) => a + p.data.length, 0);
}

/**
 * Makes the `field` ('data' or 'grad') of every parameter of `ps` a view into `buffer`, one after
 * the other in order (`copy`: the current contents are copied in first); returns the whole
 * buffer as one Float32Array. The parameters' objects stay the same, so every layer holding them
 * reads the new storage from then on.
 *
 * @example
 * ```ts
 * import { param, paramSize, viewParams } from 'dialogym/nn';
 * const ps = [param('W', [2, 2]), param('b', [2])];
 * const shared = viewParams(ps, 'data', new SharedArrayBuffer(4 * paramSize(ps)), true);
 * shared[4] = 1; // ps[1].data[0] is 1: a worker given `shared.buffer` sees the same values
 * ```
 */
export function viewParams(ps: readonly Param[], field: 'data' | 'grad', buffer: ArrayBufferLike, copy = false): Float32Array {
  const n = paramSize(ps);
  if (buffer.byteLength < 4 * n) throw new InternalError(`viewParams: ${buffer.byteLength} bytes for ${n} float32 entries`);
  const flat = new Float32Array(buffer, 0, n);
  let at = 0;
  for (const p of ps) {
    const view = flat.subarray(at, at + p.data.length);
    if (copy) view.set(p[field]);
    (p as { -readonly [K in keyof Param]: Param[K] })[field] = view;
    at += p.data.length;
  }
  return flat;
}

/**
 * `out` = parts[0] + parts[1] + … + parts[n − 1], added in that order in float32 (the first
 * `n` parts; `out` may be parts[0] itself, then the others are added to it).
 *
 * @example
 * ```ts
 * import { sumParts } from 'dialogym/nn';
 * const out = new Float32Array(2);
 * sumParts(out, [new Float32Array([1, 2]), new Float32Array([3, 4])], 2); // out = [4, 6]
 * ```
 */
export function sumParts(out: Float32Array, parts: readonly Float32Array[], n: number): void {
  const first = parts[0];
  if (!first || n < 1 || n > parts.length) throw new InternalError(`sumParts: ${n} of ${parts.length} parts`);
  if (out !== first) out.set(first.subarray(0, out.length));
  for (let k = 1; k < n; k++) {
    const g = parts[k] as Float32Array;
    for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (g[i] as number);
  }
}
