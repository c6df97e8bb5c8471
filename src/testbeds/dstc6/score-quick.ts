/**
 * The scoring rules of `score.py` (see ./score.ts) on entries as parsed, and `scoreDstc6FilesQuickly`:
 * two files scored when they are exactly result files, parsed and checked in the walk that scores
 * them (./score-scan.cts), with no format reader imported (anything unusual gives undefined, and
 * the caller goes through ./score.ts's checking readers, which score it or report the error).
 */
import { ConfigError } from '../../core/errors.js';
import type { Dstc6Result } from '../../formats/dstc6.js';
import { precisionAtK, type MrrState, type PrecisionAtKState } from '../../metrics/ranking.js';
import { rankOfAnswer, scoreFilesQuickly, scoreOfRanks, type AnswerRanks } from './score-scan.cjs';

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

/** The true answer of a truth entry: the candidate with rank 1 (the last one listed with it), or undefined. */
export function rankOneCandidate(entry: Dstc6Result): string | undefined {
  let id: string | undefined;
  for (const c of entry.lst_candidate_id) if (c.rank === 1) id = c.candidate_id;
  return id;
}

/** Each result dialog's rank of its true answer (the last listing of a dialog wins), and how many listings repeat a dialog. */
function answerRanks(result: readonly Dstc6Result[], answers: ReadonlyMap<string, string>, nb: number): AnswerRanks {
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
 * P@k and MRR of `result` against the true answers (dialog_id → candidate_id), by score.py's
 * rules; a ConfigError for an invalid `nbCandidates`.
 */
export function scoreAgainstAnswers(result: readonly Dstc6Result[], answers: ReadonlyMap<string, string>, opts: Omit<ScoreOptions, 'truthFile'> = {}): Dstc6Score {
  return scoreOfRanks(answerRanks(result, answers, nbCandidates(opts)), answers, precisionAtK.empty(opts.ks ?? [1, 2, 5]).ks);
}

function nbCandidates(opts: Omit<ScoreOptions, 'truthFile'>): number {
  const nb = opts.nbCandidates ?? 10;
  if (!Number.isInteger(nb) || nb < 1) throw new ConfigError(`nbCandidates must be a positive integer, got ${nb}`);
  return nb;
}

/**
 * `scoreDstc6Files` when both files are exactly result files in their plain spelling (read in one
 * JSON.parse and walk by ./score-scan.cts) and every truth entry has one rank-1 candidate and its own dialog_id;
 * undefined otherwise (invalid JSON, another shape or spelling, an unreadable file, a truth
 * problem), for the checking readers to score or report. `truths` caches truth files already read.
 */
export function scoreDstc6FilesQuickly(
  resultFile: string,
  truthFile: string,
  opts: Omit<ScoreOptions, 'truthFile'> = {},
  truths: Map<string, ReadonlyMap<string, string> | undefined> = new Map(),
): Dstc6Score | undefined {
  return scoreFilesQuickly(resultFile, truthFile, nbCandidates(opts), precisionAtK.empty(opts.ks ?? [1, 2, 5]).ks, truths);
}
