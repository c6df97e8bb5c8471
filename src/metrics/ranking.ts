/**
 * Response-prediction metrics, additive and mergeable: a state is built with `empty()`, grown with
 * `add…()`, combined with `merge()` (e.g. across worker threads) and read with `value()`.
 */
import { ConfigError } from '../core/errors.js';

/**
 * Counts behind per-response and per-dialog accuracy (the bAbI dialog paper's two numbers): a
 * dialog is correct when all its bot turns are. Built by `accuracy` and `evaluateDialogs`.
 *
 * @example
 * ```ts
 * import { accuracy, type AccuracyState } from 'dialogym';
 * const s: AccuracyState = { turns: 10, correctTurns: 9, dialogs: 2, correctDialogs: 1 };
 * accuracy.perResponse(s); // 0.9
 * ```
 */
export interface AccuracyState {
  /** Bot turns predicted. */
  readonly turns: number;
  /** Bot turns predicted right. */
  readonly correctTurns: number;
  /** Dialogs seen. */
  readonly dialogs: number;
  /** Dialogs with every bot turn right. */
  readonly correctDialogs: number;
}

/**
 * Per-response and per-dialog accuracy as an immutable, mergeable {@link AccuracyState}:
 * `empty()`, `addDialog(s, turnCorrect)` (one boolean per bot turn), `merge(a, b)`, and the
 * values `perResponse(s)` / `perDialog(s)` (0 when empty). Never throws.
 *
 * @example
 * ```ts
 * import { accuracy } from 'dialogym';
 * let s = accuracy.empty();
 * s = accuracy.addDialog(s, [true, true, false]);
 * s = accuracy.addDialog(s, [true]);
 * accuracy.perResponse(s); // 0.75
 * accuracy.perDialog(s);   // 0.5
 * ```
 */
export const accuracy = {
  empty(): AccuracyState {
    return { turns: 0, correctTurns: 0, dialogs: 0, correctDialogs: 0 };
  },
  /** Adds one dialog given whether each of its bot turns was predicted right. */
  addDialog(s: AccuracyState, turnCorrect: readonly boolean[]): AccuracyState {
    let c = 0;
    for (const x of turnCorrect) if (x) c++;
    return {
      turns: s.turns + turnCorrect.length,
      correctTurns: s.correctTurns + c,
      dialogs: s.dialogs + 1,
      correctDialogs: s.correctDialogs + (c === turnCorrect.length ? 1 : 0),
    };
  },
  /** Sums two states (e.g. from two workers). */
  merge(a: AccuracyState, b: AccuracyState): AccuracyState {
    return {
      turns: a.turns + b.turns,
      correctTurns: a.correctTurns + b.correctTurns,
      dialogs: a.dialogs + b.dialogs,
      correctDialogs: a.correctDialogs + b.correctDialogs,
    };
  },
  /** Fraction of bot turns right (0 with none). */
  perResponse(s: AccuracyState): number {
    return s.turns === 0 ? 0 : s.correctTurns / s.turns;
  },
  /** Fraction of dialogs with every bot turn right (0 with none). */
  perDialog(s: AccuracyState): number {
    return s.dialogs === 0 ? 0 : s.correctDialogs / s.dialogs;
  },
};

/**
 * Precision@k over ranked candidate lists, for several k at once: an example is a hit at k when
 * its true candidate is among the first k of the ranking. `add` takes the 1-based rank of the
 * true candidate, or `undefined` when it was not ranked at all (e.g. a dialog missing from a
 * result file), which is a miss at every k.
 *
 * @example
 * ```ts
 * import { precisionAtK, type PrecisionAtKState } from 'dialogym';
 * const s: PrecisionAtKState = { ks: [1, 5], examples: 4, hits: [2, 3] };
 * precisionAtK.value(s, 5); // 0.75
 * ```
 */
export interface PrecisionAtKState {
  /** The k tracked, each a positive integer. */
  readonly ks: readonly number[];
  /** Examples added. */
  readonly examples: number;
  /** hits[i] = examples whose true rank is ≤ ks[i]. */
  readonly hits: readonly number[];
}

/**
 * Precision@k for several k at once, as an immutable, mergeable {@link PrecisionAtKState}:
 * `empty(ks = [1, 2, 5])`, `add(s, trueRank)` (1-based rank of the true candidate, undefined =
 * not ranked), `merge(a, b)`, `value(s, k)`. `empty` throws a ConfigError for a k that is not a
 * positive integer; `merge` for different k lists; `value` for an untracked k.
 *
 * @example
 * ```ts
 * import { precisionAtK } from 'dialogym';
 * let s = precisionAtK.empty([1, 2]);
 * for (const rank of [1, 2, 3, undefined]) s = precisionAtK.add(s, rank);
 * precisionAtK.value(s, 1); // 0.25
 * precisionAtK.value(s, 2); // 0.5
 * ```
 */
export const precisionAtK = {
  /** A state with no examples, tracking `ks`. */
  empty(ks: readonly number[] = [1, 2, 5]): PrecisionAtKState {
    for (const k of ks) if (!Number.isInteger(k) || k < 1) throw new ConfigError(`precisionAtK: k must be a positive integer, got ${k}`);
    return { ks: [...ks], examples: 0, hits: ks.map(() => 0) };
  },
  /** Adds one example whose true candidate has 1-based rank `trueRank` (undefined: a miss at every k). */
  add(s: PrecisionAtKState, trueRank: number | undefined): PrecisionAtKState {
    return {
      ks: s.ks,
      examples: s.examples + 1,
      hits: s.hits.map((h, i) => h + (trueRank !== undefined && trueRank >= 1 && trueRank <= (s.ks[i] as number) ? 1 : 0)),
    };
  },
  /** Sums two states tracking the same k. */
  merge(a: PrecisionAtKState, b: PrecisionAtKState): PrecisionAtKState {
    if (a.ks.length !== b.ks.length || a.ks.some((k, i) => k !== b.ks[i])) {
      throw new ConfigError(`precisionAtK.merge: different k lists [${a.ks.join(',')}] and [${b.ks.join(',')}]`);
    }
    return { ks: a.ks, examples: a.examples + b.examples, hits: a.hits.map((h, i) => h + (b.hits[i] as number)) };
  },
  /** P@k for one of the state's k (0 with no examples). */
  value(s: PrecisionAtKState, k: number): number {
    const i = s.ks.indexOf(k);
    if (i < 0) throw new ConfigError(`precisionAtK: k=${k} not tracked (tracked: ${s.ks.join(', ')})`);
    return s.examples === 0 ? 0 : (s.hits[i] as number) / s.examples;
  },
};

/**
 * Mean reciprocal rank state: the mean of 1/rank of the true candidate (0 when it was not ranked)
 * is `sum / examples`.
 *
 * @example
 * ```ts
 * import { meanReciprocalRank, type MrrState } from 'dialogym';
 * const s: MrrState = { examples: 2, sum: 1.5 }; // ranks 1 and 2
 * meanReciprocalRank.value(s); // 0.75
 * ```
 */
export interface MrrState {
  /** Examples added. */
  readonly examples: number;
  /** Sum of 1/rank over the examples. */
  readonly sum: number;
}

/**
 * Mean reciprocal rank as an immutable, mergeable {@link MrrState}: `empty()`, `add(s,
 * trueRank)` (1-based rank of the true candidate; undefined = not ranked, counts 0), `merge(a,
 * b)`, `value(s)` (0 when empty). Never throws.
 *
 * @example
 * ```ts
 * import { meanReciprocalRank } from 'dialogym';
 * let s = meanReciprocalRank.empty();
 * for (const rank of [1, 2, undefined, 4]) s = meanReciprocalRank.add(s, rank);
 * meanReciprocalRank.value(s); // (1 + 0.5 + 0 + 0.25) / 4 = 0.4375
 * ```
 */
export const meanReciprocalRank = {
  empty(): MrrState {
    return { examples: 0, sum: 0 };
  },
  /** Adds one example whose true candidate has 1-based rank `trueRank` (undefined: counts 0). */
  add(s: MrrState, trueRank: number | undefined): MrrState {
    return { examples: s.examples + 1, sum: s.sum + (trueRank !== undefined && trueRank >= 1 ? 1 / trueRank : 0) };
  },
  merge(a: MrrState, b: MrrState): MrrState {
    return { examples: a.examples + b.examples, sum: a.sum + b.sum };
  },
  value(s: MrrState): number {
    return s.examples === 0 ? 0 : s.sum / s.examples;
  },
};

/**
 * Candidate indices best-first by score (highest first), ties kept in candidate order — what the
 * official DSTC6 baseline's `numpy.argsort(-scores)` gives on these short lists (numpy sorts
 * arrays of ≤ 16 items by insertion sort, which is stable). NaN scores sort last.
 *
 * @example
 * ```ts
 * import { orderByScore, rankOfIndex } from 'dialogym';
 * const order = orderByScore(new Float32Array([0.2, 0.9, 0.2, NaN])); // [1, 0, 2, 3]
 * rankOfIndex(order, 2); // 3
 * ```
 */
export function orderByScore(scores: ArrayLike<number>): number[] {
  const idx = Array.from({ length: scores.length }, (_, i) => i);
  const key = (i: number): number => {
    const v = scores[i] as number;
    return Number.isNaN(v) ? -Infinity : v;
  };
  // Array.prototype.sort is stable (ES2019).
  return idx.sort((a, b) => {
    const d = key(b) - key(a);
    return d > 0 ? 1 : d < 0 ? -1 : 0;
  });
}

/**
 * The 1-based rank of candidate `index` in a best-first order such as `orderByScore` returns
 * (undefined if absent): feed it to `precisionAtK.add` / `meanReciprocalRank.add`.
 *
 * @example
 * ```ts
 * import { orderByScore, rankOfIndex, meanReciprocalRank } from 'dialogym';
 * const trueIndex = 0;
 * const rank = rankOfIndex(orderByScore([0.1, 0.5, 0.3]), trueIndex); // 3
 * const s = meanReciprocalRank.add(meanReciprocalRank.empty(), rank);
 * ```
 */
export function rankOfIndex(order: readonly number[], index: number): number | undefined {
  const p = order.indexOf(index);
  return p < 0 ? undefined : p + 1;
}
