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
 * last item with rank r (ranks above `nb` dropped); the answer's rank is the first slot holding it
 * (perezjln/dstc6-goal-oriented-end-to-end scripts/score.py: slots filled at line 63, the dialog's
 * last listing kept at line 65, `truth in test[0:k]` at line 76).
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
  // P@k state built by its definition (hits[i]: examples ranked 1..ks[i]) in one pass: adding the
  // 1,000 examples of a test file one by one (a new state each) cost ~2 ms of a ~70 ms CLI call.
  const { ks } = precisionAtK.empty(opts.ks ?? [1, 2, 5]);
  const hits = ks.map(() => 0);
  let mrr = meanReciprocalRank.empty();
  let missing = 0;
  for (const dialogId of answers.keys()) {
    if (!ranks.has(dialogId)) missing++;
    const rank = ranks.get(dialogId);
    if (rank !== undefined && rank >= 1) for (let i = 0; i < ks.length; i++) if (rank <= (ks[i] as number)) hits[i] = (hits[i] as number) + 1;
    mrr = meanReciprocalRank.add(mrr, rank);
  }
  return { precision: { ks, examples: answers.size, hits }, mrr, dialogs: answers.size, missing, duplicated };
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
  const text = readTextFile(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  }
  return hasExactResultShape(value, text) ? value : undefined;
}

/**
 * Whether `value`, parsed from `text`, is exactly a result file within the schema's bounds
 * (schemas/dstc6-results.schema.json: ids of 1–200 characters, ≤ 100,000 candidates, integer ranks
 * 1–1,000,000) with no other key: then it cannot nest deeper than four levels nor hold a
 * non-finite number, which is all `parseJsonText` checks beyond `JSON.parse`.
 *
 * "No other key" is read from the text: each key of an object is followed by one `:` outside the
 * strings, so a text with exactly two colons per object of `value` (the entries and their
 * candidates, each with both keys) has no other key anywhere (a colon inside a string, a key given
 * twice only add to the count, and the file then goes through the checking reader). One native
 * regex count is ~3× cheaper than counting the keys of the ~10,000 objects of a test file one by one.
 */
export function hasExactResultShape(value: unknown, text: string): value is Dstc6Result[] {
  if (!Array.isArray(value)) return false;
  let objects = value.length;
  for (let i = 0; i < value.length; i++) {
    // typeof 'object' and a string dialog_id: an object (an array has no such key)
    const e: unknown = value[i];
    if (typeof e !== 'object' || e === null) return false;
    const { dialog_id: id, lst_candidate_id: items } = e as Record<string, unknown>;
    if (typeof id !== 'string' || id === '' || id.length > 200 || !Array.isArray(items) || items.length > 100_000) return false;
    objects += items.length;
    for (let j = 0; j < items.length; j++) {
      const c: unknown = items[j];
      if (typeof c !== 'object' || c === null) return false;
      const { candidate_id: cid, rank } = c as Record<string, unknown>;
      // integer ranks 1..1,000,000 (NaN fails the comparisons)
      if (typeof cid !== 'string' || cid === '' || cid.length > 200 || typeof rank !== 'number' || !(rank >= 1 && rank <= 1_000_000 && rank % 1 === 0)) return false;
    }
  }
  return (text.match(/:/g)?.length ?? 0) === 2 * objects;
}
