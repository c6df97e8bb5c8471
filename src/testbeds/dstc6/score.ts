/**
 * The official DSTC6 Track 1 scoring (`score.py`): for each dialog of the truth file, a hit at k
 * when its true candidate id is among the result's ranks 1..k; P@k = hits / number of truth
 * dialogs (a dialog missing from the result is a miss). Like score.py, ranks above
 * `nbCandidates` (default 10) are dropped, and when a result lists a dialog or a rank twice the
 * later one wins. Also reports the mean reciprocal rank (within the kept ranks).
 */
import { ConfigError } from '../../core/errors.js';
import { readTextFile } from '../../core/files.js';
import type { Dstc6Result } from '../../formats/dstc6.js';
import { entryError, parseDstc6Results } from '../../formats/dstc6.js';
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

/**
 * The rank of `answer` in one result entry as score.py sees it: slot r holds the candidate of the
 * last item with rank r (ranks above `nb` dropped); the answer's rank is the first slot holding it.
 */
function rankOfAnswer(items: readonly { readonly candidate_id: string; readonly rank: number }[], answer: string, nb: number): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < items.length; i++) {
    const c = items[i] as Dstc6Result['lst_candidate_id'][number];
    if (c.candidate_id !== answer || c.rank > nb || (best !== undefined && c.rank >= best)) continue;
    let overwritten = false;
    for (let j = i + 1; j < items.length && !overwritten; j++) {
      const d = items[j] as Dstc6Result['lst_candidate_id'][number];
      overwritten = d.rank === c.rank && d.candidate_id !== answer;
    }
    if (!overwritten) best = c.rank;
  }
  return best;
}

/** Each result dialog's rank of its true answer (the last listing of a dialog wins), and how many listings repeat a dialog. */
function answerRanks(result: readonly Dstc6Result[], answers: ReadonlyMap<string, string>, nb: number): { ranks: Map<string, number | undefined>; duplicated: number } {
  const ranks = new Map<string, number | undefined>();
  let duplicated = 0;
  for (const r of result) {
    if (ranks.has(r.dialog_id)) duplicated++;
    const answer = answers.get(r.dialog_id);
    ranks.set(r.dialog_id, answer === undefined ? undefined : rankOfAnswer(r.lst_candidate_id, answer, nb));
  }
  return { ranks, duplicated };
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
  const { ranks, duplicated } = answerRanks(result, answers, nb);
  let precision = precisionAtK.empty(opts.ks ?? [1, 2, 5]);
  let mrr = meanReciprocalRank.empty();
  let missing = 0;
  for (const dialogId of answers.keys()) {
    if (!ranks.has(dialogId)) missing++;
    const rank = ranks.get(dialogId);
    precision = precisionAtK.add(precision, rank);
    mrr = meanReciprocalRank.add(mrr, rank);
  }
  return { precision, mrr, dialogs: answers.size, missing, duplicated };
}

/**
 * `scoreDstc6` on two files, read the quick way: JSON that is exactly a result file (arrays of
 * objects with just the two keys, integer ranks ≥ 1, non-empty ids) is scored as `JSON.parse`
 * returns it, without the nesting/number walk of `parseJsonText` (such a value cannot nest deeper
 * than four levels nor hold a non-finite number) and without the copy that `readDstc6Results`
 * makes; anything else goes through `readDstc6Results`'s checks, so errors are the same one-line
 * FormatErrors (`file: entry N (dialog_id …): reason`, `file:line: invalid JSON`).
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
  const truth = readResultsQuickly(truthFile);
  const result = readResultsQuickly(resultFile);
  return scoreDstc6(result, truth, { ...opts, truthFile });
}

/**
 * A result file's entries: as `JSON.parse` gives them when they have the exact shape within the
 * schema's bounds (schemas/dstc6-results.schema.json: ids of 1–200 characters, ≤ 100,000
 * candidates, integer ranks 1–1,000,000, no other key), else through the checking reader, which
 * parses again and reports what is wrong.
 */
function readResultsQuickly(file: string): readonly Dstc6Result[] {
  const text = readTextFile(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined; // parseDstc6Results below locates the error
  }
  return value !== undefined && hasExactResultShape(value) ? value : parseDstc6Results(text, file);
}

/** Own enumerable keys of an object, up to 3 (enough to tell "exactly two"). */
function keyCount(o: object): number {
  let n = 0;
  for (const k in o) if (Object.hasOwn(o, k) && ++n > 2) break;
  return n;
}

function hasExactResultShape(value: unknown): value is Dstc6Result[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const e: unknown = value[i];
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
    const { dialog_id: id, lst_candidate_id: items } = e as Record<string, unknown>;
    if (typeof id !== 'string' || id === '' || id.length > 200 || !Array.isArray(items) || items.length > 100_000 || keyCount(e) !== 2) return false;
    for (let j = 0; j < items.length; j++) {
      const c: unknown = items[j];
      if (typeof c !== 'object' || c === null || Array.isArray(c)) return false;
      const { candidate_id: cid, rank } = c as Record<string, unknown>;
      if (typeof cid !== 'string' || cid === '' || cid.length > 200 || typeof rank !== 'number' || !Number.isSafeInteger(rank) || rank < 1 || rank > 1_000_000 || keyCount(c) !== 2) return false;
    }
  }
  return true;
}
