/**
 * DSTC6 result files read the quick way for scoring: a file that is exactly a result file
 * (schemas/dstc6-results.schema.json: an array of `{dialog_id, lst_candidate_id: [{candidate_id,
 * rank}]}` with no other key, ids of 1–200 characters, at most 100,000 candidates, integer ranks
 * 1–1,000,000) in ASCII is parsed by `JSON.parse` and checked in the same walk that scores it (the
 * truth's answers, a result's ranks): nothing is built and then walked again, and none of
 * `parseJsonText`'s nesting/number walk is needed (such a value cannot nest deeper than four
 * levels nor hold a non-finite number).
 *
 * Anything else (non-ASCII bytes, invalid JSON, another shape or key, a file too large or
 * unreadable) gives undefined, and the caller goes through the checking readers, which score what
 * they accept or report the one-line error. A native byte scanner was measured first: it beat
 * `JSON.parse` only once the JIT had compiled it, and cost 2–3× more on the first file.
 *
 * CommonJS with no import of the ES modules, so that the CLI's CommonJS entry (src/cli/main.cts)
 * can score a plain `dialogym dstc6 score` without starting the ES module loader; ./score-quick.ts
 * uses the same functions.
 */
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Largest file read here: larger ones go to the checking readers (keep ≤ core/files.ts MAX_TEXT_FILE_BYTES; a test checks it). */
export const SCAN_MAX_BYTES = 256 * 1024 * 1024;
/** Schema bounds (schemas/dstc6-results.schema.json). */
const MAX_ID = 200;
const MAX_CANDIDATES = 100_000;
const MAX_RANK = 1_000_000;

/** An entry as JSON.parse gives it (unchecked). */
interface Entry {
  readonly dialog_id: unknown;
  readonly lst_candidate_id: unknown;
}

/** A candidate as JSON.parse gives it (unchecked). */
interface Candidate {
  readonly candidate_id: unknown;
  readonly rank: unknown;
}

/** A candidate once checked. */
interface CheckedCandidate {
  readonly candidate_id: string;
  readonly rank: number;
}

/**
 * Whether `items` are at most MAX_CANDIDATES objects with a candidate_id of 1–MAX_ID characters
 * and an integer rank 1..MAX_RANK. A loop of its own, with no call: the hot loop of a file, which
 * V8's optimizing compiler compiles in a fraction of the time it takes for the whole walk.
 */
function candidatesOk(items: readonly unknown[]): boolean {
  if (items.length > MAX_CANDIDATES) return false;
  for (let j = 0; j < items.length; j++) {
    const c: unknown = items[j];
    if (typeof c !== 'object' || c === null) return false;
    const { candidate_id: cid, rank } = c as Candidate;
    // integer ranks 1..MAX_RANK (NaN fails the comparisons)
    if (typeof cid !== 'string' || cid === '' || cid.length > MAX_ID || typeof rank !== 'number' || !(rank >= 1 && rank <= MAX_RANK && rank % 1 === 0)) return false;
  }
  return true;
}

/**
 * A file's text when it is ASCII, or undefined when it is not, cannot be read or is larger than
 * SCAN_MAX_BYTES (the checking readers then read or report it). ASCII: one character a byte,
 * what UTF-8 decoding gives too.
 */
export function readAsciiFile(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    if (size > SCAN_MAX_BYTES) return undefined;
    const buf = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const n = readSync(fd, buf, done, size - done, null);
      if (n === 0) return undefined; // the file shrank while read
      done += n;
    }
    return isAscii(buf) ? buf.toString('latin1') : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Walks the entries of `text` when it is exactly a result file, calling `onEntry` with each
 * entry's dialog id and candidates once they are checked; whether it is one and every call
 * returned true. "No other key" is read from the text: each key of an object is followed by one
 * `:` outside the strings, so a text with exactly two colons per object (the entries and their
 * candidates, each with both keys checked) has no other key anywhere (a colon inside a string, a
 * key given twice only add to the count, and the file then goes to the checking reader); one
 * native regex count costs ~0.5 ms a test file, against ~10 ms for a loop of `indexOf` calls
 * before the JIT has compiled it.
 */
export function walkResultFile(text: string, onEntry: (dialogId: string, items: readonly CheckedCandidate[]) => boolean): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (!Array.isArray(value)) return false;
  let objects = value.length;
  for (let i = 0; i < value.length; i++) {
    // typeof 'object' and a string dialog_id: an object (an array has no such key)
    const e: unknown = value[i];
    if (typeof e !== 'object' || e === null) return false;
    const { dialog_id: id, lst_candidate_id: items } = e as Entry;
    if (typeof id !== 'string' || id === '' || id.length > MAX_ID || !Array.isArray(items) || !candidatesOk(items) || !onEntry(id, items as CheckedCandidate[])) return false;
    objects += items.length;
  }
  return (text.match(/:/g)?.length ?? 0) === 2 * objects;
}

/**
 * The true answers of a truth file read exactly (dialog_id → the candidate_id of its rank-1
 * candidate, the last listed with rank 1), or undefined when the file is not exactly a result
 * file, an entry has no rank-1 candidate or a dialog is listed twice (the checking reader names it).
 */
export function scanTruth(text: string): Map<string, string> | undefined {
  const answers = new Map<string, string>();
  const ok = walkResultFile(text, (id, items) => {
    let one: string | undefined;
    for (let k = 0; k < items.length; k++) if ((items[k] as CheckedCandidate).rank === 1) one = (items[k] as CheckedCandidate).candidate_id;
    if (one === undefined || answers.has(id)) return false;
    answers.set(id, one);
    return true;
  });
  return ok ? answers : undefined;
}

/** Each result dialog's rank of its true answer (the last listing of a dialog wins) and how many listings repeat a dialog. */
export interface AnswerRanks {
  readonly ranks: Map<string, number | undefined>;
  readonly duplicated: number;
}

/**
 * The rank of each result dialog's true answer as score.py sees it (`rankOfAnswer`), or undefined
 * when `text` is not exactly a result file.
 */
export function scanAnswerRanks(text: string, answers: ReadonlyMap<string, string>, nb: number): AnswerRanks | undefined {
  const ranks = new Map<string, number | undefined>();
  let duplicated = 0;
  const ok = walkResultFile(text, (id, items) => {
    if (ranks.has(id)) duplicated++;
    const answer = answers.get(id);
    ranks.set(id, answer === undefined ? undefined : rankOfAnswer(items, answer, nb));
    return true;
  });
  return ok ? { ranks, duplicated } : undefined;
}

/**
 * The rank of `answer` among one entry's items as score.py sees it, or undefined when no kept
 * slot holds it: slot r holds the candidate of the last item with rank r (ranks above `nb`
 * dropped), and the answer's rank is the first slot holding it (perezjln/dstc6-goal-oriented-end-to-end
 * scripts/score.py: slots filled at line 63, the dialog's last listing kept at line 65,
 * `truth in test[0:k]` at line 76).
 */
export function rankOfAnswer(items: readonly { readonly candidate_id: string; readonly rank: number }[], answer: string, nb: number): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < items.length; i++) {
    const c = items[i] as (typeof items)[number];
    if (c.candidate_id !== answer || c.rank > nb || (best !== undefined && c.rank >= best)) continue;
    let overwritten = false;
    for (let j = i + 1; j < items.length && !overwritten; j++) {
      const d = items[j] as (typeof items)[number];
      overwritten = d.rank === c.rank && d.candidate_id !== answer;
    }
    if (!overwritten) best = c.rank;
  }
  return best;
}

/** A score as ../../metrics/ranking.ts states it (PrecisionAtKState, MrrState) with the counts of `Dstc6Score` (./score-quick.ts). */
export interface QuickScore {
  readonly precision: { readonly ks: readonly number[]; readonly examples: number; readonly hits: readonly number[] };
  readonly mrr: { readonly examples: number; readonly sum: number };
  readonly dialogs: number;
  readonly missing: number;
  readonly duplicated: number;
}

/**
 * The score of the truth dialogs (in their order) given each result dialog's rank of its answer:
 * hits at each of `ks`, reciprocal ranks summed (a dialog missing from the result, or ranked
 * beyond the kept slots, is a miss and adds 0), missing dialogs.
 */
export function scoreOfRanks({ ranks, duplicated }: AnswerRanks, answers: ReadonlyMap<string, string>, ks: readonly number[]): QuickScore {
  const hits = ks.map(() => 0);
  let sum = 0;
  let missing = 0;
  for (const dialogId of answers.keys()) {
    if (!ranks.has(dialogId)) missing++;
    const rank = ranks.get(dialogId);
    if (rank !== undefined && rank >= 1) for (let i = 0; i < ks.length; i++) if (rank <= (ks[i] as number)) hits[i] = (hits[i] as number) + 1;
    sum += rank !== undefined && rank >= 1 ? 1 / rank : 0;
  }
  const n = answers.size;
  return { precision: { ks, examples: n, hits }, mrr: { examples: n, sum }, dialogs: n, missing, duplicated };
}

/**
 * The score of `resultFile` against `truthFile` when both are exactly result files in ASCII and
 * every truth entry has one rank-1 candidate and its own dialog_id; undefined otherwise, for the
 * checking readers. `truths` caches the truth files already read (one answers file for many results).
 */
export function scoreFilesQuickly(resultFile: string, truthFile: string, nb: number, ks: readonly number[], truths: Map<string, ReadonlyMap<string, string> | undefined>): QuickScore | undefined {
  if (!truths.has(truthFile)) {
    const text = readAsciiFile(truthFile);
    truths.set(truthFile, text === undefined ? undefined : scanTruth(text));
  }
  const answers = truths.get(truthFile);
  if (answers === undefined) return undefined;
  const text = readAsciiFile(resultFile);
  const ranks = text === undefined ? undefined : scanAnswerRanks(text, answers, nb);
  return ranks === undefined ? undefined : scoreOfRanks(ranks, answers, ks);
}
