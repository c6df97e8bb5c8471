/**
 * The official DSTC6 Track 1 scoring (`score.py`): for each dialog of the truth file, a hit at k
 * when its true candidate id is among the result's ranks 1..k; P@k = hits / number of truth
 * dialogs (a dialog missing from the result is a miss). Like score.py, ranks above
 * `nbCandidates` (default 10) are dropped, and when a result lists a dialog or a rank twice the
 * later one wins. Also reports the mean reciprocal rank (within the kept ranks).
 */
import { ConfigError } from '../../core/errors.js';
import type { Dstc6Result } from '../../formats/dstc6.js';
import { entryError, readDstc6Results } from '../../formats/dstc6.js';
import { rankOneCandidate, scoreAgainstAnswers, scoreDstc6FilesQuickly, type Dstc6Score, type ScoreOptions } from './score-quick.js';

export type { Dstc6Score, ScoreOptions } from './score-quick.js';

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
    const id = rankOneCandidate(t);
    if (id === undefined) throw entryError(file, i, t, 'no candidate with rank 1 (the true answer)');
    if (out.has(t.dialog_id)) throw entryError(file, i, t, 'dialog_id listed twice');
    out.set(t.dialog_id, id);
  });
  return out;
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
  return scoreAgainstAnswers(result, truthAnswers(truth, opts.truthFile), opts);
}

/**
 * `scoreDstc6` on two files, read the quick way: JSON that is exactly a result file (arrays of
 * objects with just the two keys, integer ranks ≥ 1, non-empty ids) is scored as `JSON.parse`
 * returns it (./score-quick.ts), without the nesting/number walk of `parseJsonText` (such a value
 * cannot nest deeper than four levels nor hold a non-finite number) and without the copy that
 * `readDstc6Results` makes; anything else goes through `readDstc6Results`'s checks, so errors are
 * the same one-line FormatErrors (`file: entry N (dialog_id …): reason`, `file:line: invalid JSON`).
 *
 * @example
 * ```ts
 * import { precisionAtK } from 'dialogym';
 * import { scoreDstc6Files } from 'dialogym/dstc6';
 * const s = scoreDstc6Files('results/tst1-task1.json', 'tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.answers.json');
 * console.log(`P@1 ${precisionAtK.value(s.precision, 1)}`);
 * ```
 */
export function scoreDstc6Files(resultFile: string, truthFile: string, opts: Omit<ScoreOptions, 'truthFile'> = {}): Dstc6Score {
  const quick = scoreDstc6FilesQuickly(resultFile, truthFile, opts);
  if (quick !== undefined) return quick;
  const truth = readDstc6Results(truthFile); // the truth first, as the quick path reads them
  return scoreDstc6(readDstc6Results(resultFile), truth, { ...opts, truthFile });
}
