/**
 * The official DSTC6 Track 1 scoring (`score.py`): for each dialog of the truth file, a hit at k
 * when its true candidate id is among the result's ranks 1..k; P@k = hits / number of truth
 * dialogs (a dialog missing from the result is a miss). Like score.py, ranks above
 * `nbCandidates` (default 10) are dropped, and when a result lists a dialog or a rank twice the
 * later one wins. Also reports the mean reciprocal rank (within the kept ranks).
 */
import { ConfigError } from '../../core/errors.js';
import type { Dstc6Result } from '../../formats/dstc6.js';
import { entryError } from '../../formats/dstc6.js';
import { meanReciprocalRank, precisionAtK, type MrrState, type PrecisionAtKState } from '../../metrics/ranking.js';

/**
 * Options of `scoreDstc6`.
 *
 * @example
 * ```ts
 * import { scoreDstc6, type ScoreOptions } from 'dialogym/dstc6';
 * const opts: ScoreOptions = { nbCandidates: 10, ks: [1, 2, 5], truthFile: 'answers.json' };
 * ```
 */
export interface ScoreOptions {
  /** Ranks above this are ignored (score.py's --input-nb-candidate). Default 10. */
  readonly nbCandidates?: number;
  /** The k of P@k. Default [1, 2, 5]. */
  readonly ks?: readonly number[];
  /** Names used in error messages. */
  readonly truthFile?: string;
}

/**
 * What `scoreDstc6` returns: P@k and MRR states (read them with `precisionAtK.value` and
 * `meanReciprocalRank.value` from `dialogym`) and counts of missing and duplicated dialogs.
 *
 * @example
 * ```ts
 * import { precisionAtK, meanReciprocalRank } from 'dialogym';
 * import { scoreDstc6, type Dstc6Score } from 'dialogym/dstc6';
 * declare const s: Dstc6Score;
 * console.log(`P@1 ${precisionAtK.value(s.precision, 1)} MRR ${meanReciprocalRank.value(s.mrr)} missing ${s.missing}/${s.dialogs}`);
 * ```
 */
export interface Dstc6Score {
  /** Hits at each k over the truth dialogs. */
  readonly precision: PrecisionAtKState;
  /** Reciprocal ranks over the truth dialogs (0 for a miss). */
  readonly mrr: MrrState;
  /** Truth dialogs. */
  readonly dialogs: number;
  /** Truth dialogs absent from the result. */
  readonly missing: number;
  /** Result dialogs listed more than once (the last listing counts, as in score.py). */
  readonly duplicated: number;
}

/**
 * The true candidate id of each truth dialog (dialog_id → candidate_id): its rank-1 candidate.
 * An entry without a rank-1 candidate, or a dialog listed twice, throws a FormatError naming the
 * entry (`file` names the truth file).
 *
 * @example
 * ```ts
 * import { readDstc6Results } from 'dialogym';
 * import { truthAnswers } from 'dialogym/dstc6';
 * const truth = truthAnswers(readDstc6Results('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.answers.json'));
 * truth.size; // 1000
 * ```
 */
export function truthAnswers(truth: readonly Dstc6Result[], file = 'truth'): Map<string, string> {
  const out = new Map<string, string>();
  truth.forEach((t, i) => {
    let id: string | undefined;
    for (const c of t.lst_candidate_id) if (c.rank === 1) id = c.candidate_id;
    if (id === undefined) throw entryError(file, i, t, 'no candidate with rank 1 (the true answer)');
    if (out.has(t.dialog_id)) throw entryError(file, i, t, 'dialog_id listed twice');
    out.set(t.dialog_id, id);
  });
  return out;
}

/** A result's kept ranking per dialog: slot r-1 holds the candidate id given rank r (≤ nbCandidates). */
function resultSlots(result: readonly Dstc6Result[], nb: number): { slots: Map<string, (string | undefined)[]>; duplicated: number } {
  const slots = new Map<string, (string | undefined)[]>();
  let duplicated = 0;
  for (const r of result) {
    const s: (string | undefined)[] = new Array<string | undefined>(nb).fill(undefined);
    for (const c of r.lst_candidate_id) if (c.rank <= nb) s[c.rank - 1] = c.candidate_id;
    if (slots.has(r.dialog_id)) duplicated++;
    slots.set(r.dialog_id, s);
  }
  return { slots, duplicated };
}

/**
 * The official DSTC6 scoring (`score.py`; rules in this module's description): P@k (default
 * k = 1, 2, 5) and MRR of `result` against `truth` (an answers file). Throws a ConfigError for an
 * invalid `nbCandidates` and a FormatError for a malformed truth file (see `truthAnswers`).
 *
 * @example
 * ```ts
 * import { readDstc6Data, readDstc6Results, precisionAtK } from 'dialogym';
 * import { tfidfBaseline, scoreDstc6 } from 'dialogym/dstc6';
 * const file = 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000';
 * const score = scoreDstc6(tfidfBaseline(readDstc6Data(file + '.json')), readDstc6Results(file + '.answers.json'));
 * console.log(precisionAtK.value(score.precision, 1));
 * ```
 */
export function scoreDstc6(result: readonly Dstc6Result[], truth: readonly Dstc6Result[], opts: ScoreOptions = {}): Dstc6Score {
  const nb = opts.nbCandidates ?? 10;
  if (!Number.isInteger(nb) || nb < 1) throw new ConfigError(`nbCandidates must be a positive integer, got ${nb}`);
  const answers = truthAnswers(truth, opts.truthFile);
  const { slots, duplicated } = resultSlots(result, nb);
  let precision = precisionAtK.empty(opts.ks ?? [1, 2, 5]);
  let mrr = meanReciprocalRank.empty();
  let missing = 0;
  for (const [dialogId, answerId] of answers) {
    const s = slots.get(dialogId);
    if (s === undefined) missing++;
    const at = s === undefined ? -1 : s.indexOf(answerId);
    const rank = at < 0 ? undefined : at + 1;
    precision = precisionAtK.add(precision, rank);
    mrr = meanReciprocalRank.add(mrr, rank);
  }
  return { precision, mrr, dialogs: answers.size, missing, duplicated };
}
