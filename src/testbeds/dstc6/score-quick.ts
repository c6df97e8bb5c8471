/**
 * The scoring rules of `score.py` (see ./score.ts) on entries as parsed, and `scoreDstc6FilesQuickly`:
 * two files scored when they are exactly result files, with no format reader imported (the
 * CLI's plain `dialogym dstc6 score` loads this module, not ./score.ts; anything unusual gives
 * undefined, and the caller goes through ./score.ts's checking readers for the error).
 */
import { ConfigError } from '../../core/errors.js';
import { readTextFile } from '../../core/files.js';
import type { Dstc6Result } from '../../formats/dstc6.js';
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

/** The true answer of a truth entry: the candidate with rank 1 (the last one listed with it), or undefined. */
export function rankOneCandidate(entry: Dstc6Result): string | undefined {
  let id: string | undefined;
  for (const c of entry.lst_candidate_id) if (c.rank === 1) id = c.candidate_id;
  return id;
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
 * P@k and MRR of `result` against the true answers (dialog_id → candidate_id), by score.py's
 * rules; a ConfigError for an invalid `nbCandidates`.
 */
export function scoreAgainstAnswers(result: readonly Dstc6Result[], answers: ReadonlyMap<string, string>, opts: Omit<ScoreOptions, 'truthFile'> = {}): Dstc6Score {
  const nb = opts.nbCandidates ?? 10;
  if (!Number.isInteger(nb) || nb < 1) throw new ConfigError(`nbCandidates must be a positive integer, got ${nb}`);
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
 * `scoreDstc6Files` when both files are exactly result files (`hasExactResultShape`) and every
 * truth entry has one rank-1 candidate and its own dialog_id; undefined otherwise (invalid JSON,
 * another shape, a truth problem), for the checking readers to report. An unreadable file is the
 * readers' FormatError already.
 */
export function scoreDstc6FilesQuickly(resultFile: string, truthFile: string, opts: Omit<ScoreOptions, 'truthFile'> = {}): Dstc6Score | undefined {
  const truth = parsedResults(truthFile);
  if (truth === undefined) return undefined;
  const answers = new Map<string, string>();
  for (const t of truth) {
    const id = rankOneCandidate(t);
    if (id === undefined || answers.has(t.dialog_id)) return undefined;
    answers.set(t.dialog_id, id);
  }
  const result = parsedResults(resultFile);
  return result === undefined ? undefined : scoreAgainstAnswers(result, answers, opts);
}

/** A file's entries as `JSON.parse` gives them when it is exactly a result file, else undefined. */
function parsedResults(file: string): readonly Dstc6Result[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readTextFile(file));
  } catch (e) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  }
  return hasExactResultShape(value) ? value : undefined;
}

/** Own enumerable keys of an object, up to 3 (enough to tell "exactly two"). */
function keyCount(o: object): number {
  let n = 0;
  for (const k in o) if (Object.hasOwn(o, k) && ++n > 2) break;
  return n;
}

/**
 * Whether parsed JSON is exactly a result file within the schema's bounds
 * (schemas/dstc6-results.schema.json: ids of 1–200 characters, ≤ 100,000 candidates, integer ranks
 * 1–1,000,000) with no other key: then it cannot nest deeper than four levels nor hold a
 * non-finite number, which is all `parseJsonText` checks beyond `JSON.parse`.
 */
export function hasExactResultShape(value: unknown): value is Dstc6Result[] {
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
