/**
 * Response-prediction metrics, additive and mergeable: a state is built with `empty()`, grown with
 * `add…()`, combined with `merge()` (e.g. across worker threads) and read with `value()`.
 */
import { ConfigError } from '../core/errors.js';

/** Per-response and per-dialog accuracy (the bAbI dialog paper's two numbers). */
export interface AccuracyState {
  readonly turns: number;
  readonly correctTurns: number;
  readonly dialogs: number;
  readonly correctDialogs: number;
}

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
  merge(a: AccuracyState, b: AccuracyState): AccuracyState {
    return {
      turns: a.turns + b.turns,
      correctTurns: a.correctTurns + b.correctTurns,
      dialogs: a.dialogs + b.dialogs,
      correctDialogs: a.correctDialogs + b.correctDialogs,
    };
  },
  perResponse(s: AccuracyState): number {
    return s.turns === 0 ? 0 : s.correctTurns / s.turns;
  },
  perDialog(s: AccuracyState): number {
    return s.dialogs === 0 ? 0 : s.correctDialogs / s.dialogs;
  },
};

/**
 * Precision@k over ranked candidate lists, for several k at once: an example is a hit at k when
 * its true candidate is among the first k of the ranking. `add` takes the 1-based rank of the
 * true candidate, or `undefined` when it was not ranked at all (e.g. a dialog missing from a
 * result file), which is a miss at every k.
 */
export interface PrecisionAtKState {
  readonly ks: readonly number[];
  readonly examples: number;
  /** hits[i] = examples whose true rank is ≤ ks[i]. */
  readonly hits: readonly number[];
}

export const precisionAtK = {
  empty(ks: readonly number[] = [1, 2, 5]): PrecisionAtKState {
    for (const k of ks) if (!Number.isInteger(k) || k < 1) throw new ConfigError(`precisionAtK: k must be a positive integer, got ${k}`);
    return { ks: [...ks], examples: 0, hits: ks.map(() => 0) };
  },
  add(s: PrecisionAtKState, trueRank: number | undefined): PrecisionAtKState {
    return {
      ks: s.ks,
      examples: s.examples + 1,
      hits: s.hits.map((h, i) => h + (trueRank !== undefined && trueRank >= 1 && trueRank <= (s.ks[i] as number) ? 1 : 0)),
    };
  },
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

/** Mean reciprocal rank: the mean of 1/rank of the true candidate (0 when it was not ranked). */
export interface MrrState {
  readonly examples: number;
  readonly sum: number;
}

export const meanReciprocalRank = {
  empty(): MrrState {
    return { examples: 0, sum: 0 };
  },
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

/** The 1-based rank of candidate `index` in a best-first order (undefined if absent). */
export function rankOfIndex(order: readonly number[], index: number): number | undefined {
  const p = order.indexOf(index);
  return p < 0 ? undefined : p + 1;
}
