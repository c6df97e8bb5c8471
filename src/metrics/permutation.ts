/**
 * Two-sample comparisons of a study's agents: the two-sided permutation test on the difference of
 * means (KB-InfoBot's Figure 3 compares success rates and turns this way), and the Wilson score
 * interval of a success rate.
 *
 * The permutation test's statistic is |mean(a) − mean(b)|; its p-value is the share of the
 * relabellings of the pooled values (every way to choose |a| of them as group a) whose statistic is
 * at least the observed one. It is computed
 * - exactly when the values are all 0 or 1 (a success): the statistic depends only on how many
 *   successes fall in group a, whose distribution over the relabellings is hypergeometric, so the
 *   sum runs over at most min(|a|, successes) + 1 terms at any sample size;
 * - exactly by enumerating the relabellings when there are at most `maxExact` of them (C(n, |a|));
 * - else by Monte-Carlo: `samples` relabellings drawn with a seeded `Rng`, p = (1 + hits) /
 *   (1 + samples) (never 0: the observed labelling is one of the relabellings; Phipson & Smyth 2010).
 */
import { ConfigError } from '../core/errors.js';
import { createRng } from '../core/rng.js';

/**
 * Options of {@link permutationTest}.
 *
 * @example
 * ```ts
 * import { permutationTest, type PermutationOptions } from 'dialogym';
 * const o: PermutationOptions = { maxExact: 10_000, samples: 50_000, seed: 1 };
 * permutationTest([3, 4, 4, 5, 9, 6, 5, 7], [2, 2, 3, 3, 3, 4, 6, 4], o).method; // 'exact' (12,870 relabellings)
 * ```
 */
export interface PermutationOptions {
  /** Enumerate the relabellings when there are at most this many; default 200,000. */
  readonly maxExact?: number;
  /** Relabellings drawn when not enumerated; default 20,000. */
  readonly samples?: number;
  /** Seed of the Monte-Carlo draws; default 0. */
  readonly seed?: number;
}

/**
 * What {@link permutationTest} found.
 *
 * @example
 * ```ts
 * import { permutationTest, type PermutationResult } from 'dialogym';
 * const r: PermutationResult = permutationTest([1, 2, 3], [4, 5, 6]);
 * console.log(r.p, r.difference, r.method, r.permutations); // 0.1 -3 exact 20
 * ```
 */
export interface PermutationResult {
  /** The two-sided p-value. */
  readonly p: number;
  /** mean(a) − mean(b). */
  readonly difference: number;
  /** How p was computed (module description). */
  readonly method: 'exact' | 'monte-carlo';
  /** Relabellings counted: all of them (exact), or the ones drawn. */
  readonly permutations: number;
}

/** Values this close to the observed statistic count as reaching it (sums of the same numbers in another order). */
const EPS = 1e-9;

/** C(n, k) as a float (exact while below 2^53). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const m = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= m; i++) c = (c * (n - m + i)) / i;
  return Math.round(c);
}

/** log C(n, k), for the hypergeometric terms of large samples. */
function logBinomial(n: number, k: number): number {
  let s = 0;
  const m = Math.min(k, n - k);
  for (let i = 1; i <= m; i++) s += Math.log(n - m + i) - Math.log(i);
  return s;
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

function checkSample(name: string, xs: readonly number[]): void {
  if (xs.length === 0) throw new ConfigError(`permutationTest: sample ${name} is empty`);
  const bad = xs.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw new ConfigError(`permutationTest: sample ${name}[${bad}] is not a finite number, got ${String(xs[bad])}`);
}

/**
 * The two-sided permutation test of mean(a) = mean(b) (module description).
 *
 * @example
 * ```ts
 * import { permutationTest } from 'dialogym';
 * permutationTest([1, 2, 3], [4, 5, 6]).p; // 0.1 (2 of the 20 relabellings are as extreme)
 * permutationTest([1, 1, 0], [0, 0, 0, 0]).p; // 1/7 (successes: hypergeometric)
 * ```
 */
export function permutationTest(a: readonly number[], b: readonly number[], o: PermutationOptions = {}): PermutationResult {
  checkSample('a', a);
  checkSample('b', b);
  const maxExact = o.maxExact ?? 200_000;
  const samples = o.samples ?? 20_000;
  const difference = mean(a) - mean(b);
  const observed = Math.abs(difference) - EPS;
  const na = a.length;
  const nb = b.length;
  const pooled = [...a, ...b];
  const n = pooled.length;
  const total = pooled.reduce((s, x) => s + x, 0);
  const stat = (sumA: number, k: number): number => Math.abs(sumA / k - (total - sumA) / (n - k));

  if (pooled.every((x) => x === 0 || x === 1)) {
    // Successes: k of the `total` ones land in group a with probability C(total,k) C(n−total, na−k) / C(n, na).
    const denom = logBinomial(n, na);
    let p = 0;
    for (let k = Math.max(0, na - (n - total)); k <= Math.min(na, total); k++) {
      if (stat(k, na) >= observed) p += Math.exp(logBinomial(total, k) + logBinomial(n - total, na - k) - denom);
    }
    return { p: Math.min(1, p), difference, method: 'exact', permutations: binomial(n, na) };
  }

  // Enumerate the smaller group's choices (the statistic is symmetric in the two groups).
  const k = Math.min(na, nb);
  const count = binomial(n, k);
  if (count <= maxExact) {
    let hits = 0;
    const idx = Array.from({ length: k }, (_, i) => i);
    for (;;) {
      let s = 0;
      for (const i of idx) s += pooled[i] as number;
      if (stat(s, k) >= observed) hits++;
      // Next k-combination of 0..n−1 in lexicographic order.
      let i = k - 1;
      while (i >= 0 && (idx[i] as number) === n - k + i) i--;
      if (i < 0) break;
      idx[i] = (idx[i] as number) + 1;
      for (let j = i + 1; j < k; j++) idx[j] = (idx[j - 1] as number) + 1;
    }
    return { p: hits / count, difference, method: 'exact', permutations: count };
  }

  if (!Number.isSafeInteger(samples) || samples < 1) throw new ConfigError(`permutationTest: samples must be a positive integer, got ${samples}`);
  const rng = createRng(o.seed ?? 0);
  const work = pooled.slice();
  let hits = 0;
  for (let r = 0; r < samples; r++) {
    // A uniform k-subset: the first k places of a partial Fisher–Yates shuffle.
    let s = 0;
    for (let i = 0; i < k; i++) {
      const j = i + rng.int(n - i);
      const t = work[i] as number;
      work[i] = work[j] as number;
      work[j] = t;
      s += work[i] as number;
    }
    if (stat(s, k) >= observed) hits++;
  }
  return { p: (1 + hits) / (1 + samples), difference, method: 'monte-carlo', permutations: samples };
}

/** z of a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a success rate (`successes` of `n`), 95 % by default; [0, 1] for n = 0.
 *
 * @example
 * ```ts
 * import { wilsonInterval } from 'dialogym';
 * wilsonInterval(5, 10); // [0.2366, 0.7634] (to 4 places)
 * ```
 */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
