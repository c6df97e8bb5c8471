/**
 * Accounting of chat requests: tokens in (prompt) and out (completion) as the server's `usage`
 * reports them, requests, cost from prices per million tokens, and latency percentiles.
 */

/**
 * Tokens and requests of an episode or a run (`usage` of `evaluate`'s records and summary).
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, type TokenUsage } from 'dialogym';
 * const { summary } = await evaluate('restaurant-task1-v1', createAgent('rules'), { episodes: 2 });
 * const used: TokenUsage | undefined = summary.usage; // undefined: the rule bot reports no tokens
 * ```
 */
export interface TokenUsage {
  readonly requests: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
}

/** No requests yet. */
export const NO_USAGE: TokenUsage = { requests: 0, tokensIn: 0, tokensOut: 0 };

/** The sum of two usages. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { requests: a.requests + b.requests, tokensIn: a.tokensIn + b.tokensIn, tokensOut: a.tokensOut + b.tokensOut };
}

/** Prices in currency units per million tokens (`--price-in`, `--price-out`). */
export interface Prices {
  readonly in: number;
  readonly out: number;
}

/**
 * The cost of `u` at `prices` (in the prices' currency), rounded to 1e-9 so sums of the same
 * tokens print the same; undefined without prices.
 *
 * @example
 * ```ts
 * costOf({ requests: 3, tokensIn: 1_000_000, tokensOut: 500_000 }, { in: 0.15, out: 0.6 }); // 0.45
 * ```
 */
export function costOf(u: TokenUsage, prices: Prices | undefined): number | undefined {
  if (prices === undefined) return undefined;
  return Math.round(((u.tokensIn * prices.in + u.tokensOut * prices.out) / 1e6) * 1e9) / 1e9;
}

/**
 * The p-th percentile (0 < p ≤ 100) of `values` by the nearest-rank method (the smallest value
 * with at least p % of the values at or below it); NaN for no values.
 *
 * @example
 * ```ts
 * percentile([5, 1, 4, 2, 3], 50); // 3
 * percentile([5, 1, 4, 2, 3], 95); // 5
 * ```
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.slice().sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}
