/** Summary statistics over repeated runs (training seeds): what a "mean ± sd" cell of a report is. */

/**
 * Mean and sample standard deviation (n − 1; 0 for one value) of a list of figures.
 *
 * @example
 * ```ts
 * meanSd([0.79, 0.81, 0.8]); // mean 0.8, sd 0.01 (up to rounding)
 * ```
 */
export function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const n = xs.length;
  const mean = xs.reduce((a, x) => a + x, 0) / Math.max(1, n);
  if (n < 2) return { mean, sd: 0 };
  return { mean, sd: Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) };
}
