/**
 * Response-prediction metrics, additive and mergeable: a state is built with `empty()`, grown with
 * `add…()`, combined with `merge()` (e.g. across worker threads) and read with `value()`.
 */

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
