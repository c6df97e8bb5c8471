/** Finite-difference gradient checking for the hand-written gradients (used by tests). */

export interface GradCheckResult {
  /** Largest |analytic − numeric| / max(1, |analytic|, |numeric|) over the checked entries. */
  readonly maxRelError: number;
  /** Index where it occurred. */
  readonly worst: number;
  readonly checked: number;
}

/**
 * Compares `analytic` with central differences of `loss()` with respect to `x` (perturbed in
 * place and restored). Checks every entry, or `sample` evenly spread entries when given.
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
