/** Finite-difference gradient checking for the hand-written gradients (used by tests). */

/**
 * What `gradCheck` found: the worst relative error, where, and how many entries were checked.
 *
 * @example
 * ```ts
 * import type { GradCheckResult } from 'dialogym/nn';
 * const r: GradCheckResult = { maxRelError: 1e-4, worst: 3, checked: 10 };
 * if (r.maxRelError > 1e-2) throw new Error(`gradient wrong at ${r.worst}`);
 * ```
 */
export interface GradCheckResult {
  /** Largest |analytic − numeric| / max(1, |analytic|, |numeric|) over the checked entries. */
  readonly maxRelError: number;
  /** Index where it occurred. */
  readonly worst: number;
  /** Entries compared. */
  readonly checked: number;
}

/**
 * Compares `analytic` with central differences of `loss()` with respect to `x` (perturbed in
 * place and restored). Checks every entry, or `sample` evenly spread entries when given.
 * `worst` is −1 when every entry agrees exactly.
 *
 * @example
 * ```ts
 * import { gradCheck } from 'dialogym/nn';
 * const x = new Float32Array([1, 2]);
 * const loss = () => (x[0] ?? 0) ** 2 + 3 * (x[1] ?? 0); // ∂/∂x = [2·x0, 3]
 * const r = gradCheck(loss, x, new Float32Array([2, 3]));
 * r.maxRelError < 1e-3; // true
 * ```
 */
export function gradCheck(loss: () => number, x: Float32Array, analytic: Float32Array, eps = 1e-2, sample?: number): GradCheckResult {
  const step = sample && sample < x.length ? Math.max(1, Math.floor(x.length / sample)) : 1;
  let maxRelError = 0;
  let worst = -1;
  let checked = 0;
  for (let i = 0; i < x.length; i += step) {
    const orig = x[i] as number;
    x[i] = orig + eps;
    const up = loss();
    x[i] = orig - eps;
    const down = loss();
    x[i] = orig;
    const numeric = (up - down) / (2 * eps);
    const a = analytic[i] as number;
    const rel = Math.abs(a - numeric) / Math.max(1, Math.abs(a), Math.abs(numeric));
    if (rel > maxRelError) {
      maxRelError = rel;
      worst = i;
    }
    checked++;
  }
  return { maxRelError, worst, checked };
}
