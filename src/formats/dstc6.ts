/**
 * DSTC6 Track 1 JSON formats (dataset files, result/answer files).
 * Readers report `file: entry N (dialog_id …): reason` on a bad entry and `file:line: invalid JSON…`
 * on a syntax error; writers reproduce the original files' layout (Python json.dump) atomically.
 */
import type { Turn } from '../core/dialog.js';
import { FormatError } from '../core/errors.js';
import { writeFileAtomic } from '../core/files.js';
import { parseJsonText, pyJson } from './json-text.js';
import { checkSchema } from './schema.js';
import { FILE_KINDS, parseAs, readTextAs } from './sniff.js';
import { excerpt } from '../core/text.js';

/** A KB-result utterance inside a DSTC6 context: `<name> r_<attr> <value>` (or bAbI's `R_`). */
export function isDstc6KbLine(u: string): boolean {
  return /^\S+ [rR]_\w+ \S/.test(u);
}

/**
 * The dialog history of a DSTC6 entry: KB-result lines become `kb` turns; the other utterances
 * alternate user, bot, … starting with the user (KB lines do not break the alternation). The
 * context ends just before the bot turn to predict, so the last non-KB turn is a user turn.
 * DSTC6 writes the silent user turn as lower-case `<silence>`; it is kept as is.
 *
 * @example
 * ```ts
 * import { dstc6History } from 'dialogym';
 * dstc6History(['good morning', 'hello what can i help you with today', 'a table for two please']);
 * // [{ speaker: 'user', … }, { speaker: 'bot', … }, { speaker: 'user', text: 'a table for two please' }]
 * ```
 */
export function dstc6History(utterances: readonly string[]): Turn[] {
  const out: Turn[] = [];
  let user = true;
  for (const u of utterances) {
    if (isDstc6KbLine(u)) out.push({ speaker: 'kb', text: u });
    else {
      out.push({ speaker: user ? 'user' : 'bot', text: u });
      user = !user;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dataset files and result/answer files. The interfaces mirror the JSON field names exactly.

/**
 * One candidate response of a DSTC6 entry (field names as in the JSON files).
 *
 * @example
 * ```ts
 * import type { Dstc6Candidate } from 'dialogym';
 * const c: Dstc6Candidate = { candidate_id: '59ea7171-5da8-4623-b8f4-db491497b044', utterance: 'ok let me look into some options for you' };
 * ```
 */
export interface Dstc6Candidate {
  /** A UUID in the original files; unique within its entry. */
  readonly candidate_id: string;
  /** The response text. */
  readonly utterance: string;
}

/**
 * One DSTC6 dataset entry: a dialog context and the candidate next bot utterances (the test
 * files have 7–10 candidates per entry and no `answer`; the answers are in `*.answers.json`).
 *
 * @example
 * ```ts
 * import { dstc6History, type Dstc6Entry } from 'dialogym';
 * const e: Dstc6Entry = {
 *   dialog_id: 'd1',
 *   utterances: ['good morning', 'hello what can i help you with today', 'a table for two'],
 *   candidates: [{ candidate_id: 'c1', utterance: "i'm on it" }, { candidate_id: 'c2', utterance: 'where should it be' }],
 * };
 * const turns = dstc6History(e.utterances);
 * ```
 */
export interface Dstc6Entry {
  /** The entry's id (a UUID in the originals), unique within the file. */
  readonly dialog_id: string;
  /** The context: user, bot, … utterances and KB-result lines (see `dstc6History`). */
  readonly utterances: readonly string[];
  /** The candidate responses (at least one). */
  readonly candidates: readonly Dstc6Candidate[];
  /** Training files only: the correct candidate. */
  readonly answer?: Dstc6Candidate;
}

/**
 * One ranked candidate of a result (rank 1 = best).
 *
 * @example
 * ```ts
 * import type { Dstc6Rank } from 'dialogym';
 * const best: Dstc6Rank = { candidate_id: '59ea7171-5da8-4623-b8f4-db491497b044', rank: 1 };
 * ```
 */
export interface Dstc6Rank {
  /** A candidate id of the entry. */
  readonly candidate_id: string;
  /** An integer ≥ 1. */
  readonly rank: number;
}

/**
 * One entry of a result (or answers/truth) file. The answers files list only the correct
 * candidate, at rank 1; a system's results may rank any number of candidates.
 *
 * @example
 * ```ts
 * import type { Dstc6Result } from 'dialogym';
 * const r: Dstc6Result = { dialog_id: 'd1', lst_candidate_id: [{ candidate_id: 'c2', rank: 1 }, { candidate_id: 'c1', rank: 2 }] };
 * ```
 */
export interface Dstc6Result {
  /** The `dialog_id` of the dataset entry. */
  readonly dialog_id: string;
  /** Ranked candidates. */
  readonly lst_candidate_id: readonly Dstc6Rank[];
}

type Json = Record<string, unknown>;

function isObject(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function entryLabel(file: string, index: number, raw: unknown): string {
  const id = isObject(raw) && typeof raw.dialog_id === 'string' ? ` (dialog_id ${excerpt(raw.dialog_id)})` : '';
  return `${file}: entry ${index + 1}${id}`;
}

/** A `file: entry N (dialog_id …): reason` error (N is 1-based). */
export function entryError(file: string, index: number, raw: unknown, reason: string): FormatError {
  return new FormatError(entryLabel(file, index, raw), undefined, reason);
}

function topLevelArray(value: unknown, file: string, what: string): unknown[] {
  if (!Array.isArray(value)) throw new FormatError(file, undefined, `expected a JSON array of ${what}, got ${jsonKind(value)}`);
  return value;
}

function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/** The first schema violation of a parsed file, as `file: entry N (dialog_id …): field: reason`. */
function schemaError(name: 'dstc6-data' | 'dstc6-results', arr: unknown[], file: string): void {
  const issue = checkSchema(name, arr);
  if (!issue) return;
  if (issue.item === undefined) throw new FormatError(file, undefined, issue.reason);
  throw entryError(file, issue.item, arr[issue.item], issue.reason);
}

/**
 * Validates parsed JSON as a DSTC6 dataset against `schemas/dstc6-data.schema.json` (types,
 * non-blank utterances, at least one candidate, size limits), then checks what a schema cannot:
 * dialog_id unique in the file, candidate ids unique within the entry. Errors name the entry:
 * `file: entry N (dialog_id …): field: reason`.
 */
export function dstc6DataFromJson(value: unknown, file: string): Dstc6Entry[] {
  const arr = topLevelArray(value, file, 'dialog entries');
  schemaError('dstc6-data', arr, file);
  const seen = new Map<string, number>();
  const out: Dstc6Entry[] = [];
  (arr as Json[]).forEach((e, index) => {
    const id = e.dialog_id as string;
    const prev = seen.get(id);
    if (prev !== undefined) throw entryError(file, index, e, `duplicate dialog_id (first at entry ${prev + 1})`);
    seen.set(id, index);
    const ids = new Set<string>();
    const candidates = (e.candidates as Json[]).map((c, k): Dstc6Candidate => {
      const cid = c.candidate_id as string;
      if (ids.has(cid)) throw entryError(file, index, e, `candidates[${k}]: duplicate candidate_id ${cid}`);
      ids.add(cid);
      return { candidate_id: cid, utterance: c.utterance as string };
    });
    const entry: Dstc6Entry = { dialog_id: id, utterances: e.utterances as string[], candidates };
    const a = e.answer as Json | null | undefined;
    out.push(a ? { ...entry, answer: { candidate_id: a.candidate_id as string, utterance: a.utterance as string } } : entry);
  });
  return out;
}

/**
 * Parses the text of a DSTC6 dataset file (a JSON array of entries); `file` names it in errors.
 * Invalid JSON throws a FormatError `file:line: …`; a bad entry (missing or duplicate
 * dialog_id, non-string utterance, no candidates, duplicate candidate_id, malformed answer) a
 * FormatError `file: entry N (dialog_id …): reason`.
 *
 * @example
 * ```ts
 * import { parseDstc6Data } from 'dialogym';
 * const entries = parseDstc6Data('[{"dialog_id": "d1", "utterances": ["hi"], "candidates": [{"candidate_id": "c1", "utterance": "hello"}]}]', 'demo.json');
 * entries[0]?.candidates[0]?.utterance; // 'hello'
 * ```
 */
export function parseDstc6Data(text: string, file: string): Dstc6Entry[] {
  return parseAs(text, file, ['dstc6-data'], FILE_KINDS['dstc6-data'], (t, f) => dstc6DataFromJson(parseJsonText(t, f), f));
}

/**
 * Reads a DSTC6 dataset file (see `parseDstc6Data`); a missing file, bad JSON or a bad entry
 * throws a one-line FormatError.
 *
 * @example
 * ```ts
 * import { readDstc6Data } from 'dialogym';
 * const entries = readDstc6Data('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json');
 * console.log(entries.length); // 1000
 * ```
 */
export function readDstc6Data(file: string): Dstc6Entry[] {
  return parseDstc6Data(readTextAs(file, ['dstc6-data'], FILE_KINDS['dstc6-data']), file);
}

/**
 * Serialises entries in the original files' layout (Python `json.dump`: one line, keys in the
 * order dialog_id, candidates, utterances[, answer]; candidates as {utterance, candidate_id}),
 * so a file read with `parseDstc6Data` is written back byte for byte.
 *
 * @example
 * ```ts
 * import { formatDstc6Data } from 'dialogym';
 * formatDstc6Data([{ dialog_id: 'd1', utterances: ['hi'], candidates: [{ candidate_id: 'c1', utterance: 'hello' }] }]);
 * // '[{"dialog_id": "d1", "candidates": [{"utterance": "hello", "candidate_id": "c1"}], "utterances": ["hi"]}]'
 * ```
 */
export function formatDstc6Data(entries: readonly Dstc6Entry[]): string {
  return pyJson(
    entries.map((e) => {
      const o: Json = {
        dialog_id: e.dialog_id,
        candidates: e.candidates.map((c) => ({ utterance: c.utterance, candidate_id: c.candidate_id })),
        utterances: e.utterances,
      };
      if (e.answer) o.answer = { utterance: e.answer.utterance, candidate_id: e.answer.candidate_id };
      return o;
    }),
  );
}

/**
 * Writes entries as a DSTC6 dataset file (`formatDstc6Data`), atomically; parent folders are
 * created, file-system errors pass through.
 *
 * @example
 * ```ts
 * import { readDstc6Data, writeDstc6Data } from 'dialogym';
 * const entries = readDstc6Data('in.json');
 * writeDstc6Data('out/first-100.json', entries.slice(0, 100));
 * ```
 */
export function writeDstc6Data(file: string, entries: readonly Dstc6Entry[]): void {
  writeFileAtomic(file, formatDstc6Data(entries));
}

/**
 * Validates parsed JSON as a result/answers file against `schemas/dstc6-results.schema.json`.
 * Structure only (each entry has a dialog_id and a list of {candidate_id, rank ≥ 1}, a rank as an
 * integer or its decimal string); whether ids and ranks fit a dataset is `check`'s job.
 */
export function dstc6ResultsFromJson(value: unknown, file: string): Dstc6Result[] {
  const arr = topLevelArray(value, file, 'result entries');
  schemaError('dstc6-results', arr, file);
  return (arr as Json[]).map((raw) => ({
    dialog_id: raw.dialog_id as string,
    lst_candidate_id: (raw.lst_candidate_id as Json[]).map((c) => ({ candidate_id: c.candidate_id as string, rank: typeof c.rank === 'number' ? c.rank : Number((c.rank as string).trim()) })),
  }));
}

/**
 * Parses the text of a result or answers file (a JSON array of {dialog_id, lst_candidate_id});
 * `file` names it in errors. Checks structure only: a missing dialog_id or candidate_id, or a
 * rank that is not an integer ≥ 1 (integer strings are accepted, as the official scripts do),
 * throws a FormatError naming the entry.
 *
 * @example
 * ```ts
 * import { parseDstc6Results } from 'dialogym';
 * const [r] = parseDstc6Results('[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "c1", "rank": "1"}]}]', 'res.json');
 * r?.lst_candidate_id[0]?.rank; // 1
 * ```
 */
export function parseDstc6Results(text: string, file: string): Dstc6Result[] {
  return parseAs(text, file, ['dstc6-results'], FILE_KINDS['dstc6-results'], (t, f) => dstc6ResultsFromJson(parseJsonText(t, f), f));
}

/**
 * Reads a result or answers file (see `parseDstc6Results`); errors are one-line FormatErrors.
 *
 * @example
 * ```ts
 * import { readDstc6Results } from 'dialogym';
 * const answers = readDstc6Results('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.answers.json');
 * const truth = new Map(answers.map((a) => [a.dialog_id, a.lst_candidate_id[0]?.candidate_id]));
 * ```
 */
export function readDstc6Results(file: string): Dstc6Result[] {
  return parseDstc6Results(readTextAs(file, ['dstc6-results'], FILE_KINDS['dstc6-results']), file);
}

/**
 * Serialises results in the original answers files' layout (one line, Python `json.dump`
 * separators, keys dialog_id, lst_candidate_id; candidate_id before rank).
 *
 * @example
 * ```ts
 * import { formatDstc6Results, rankingResult } from 'dialogym';
 * formatDstc6Results([rankingResult('d1', ['c2', 'c1'])]);
 * // '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "c2", "rank": 1}, {"candidate_id": "c1", "rank": 2}]}]'
 * ```
 */
export function formatDstc6Results(results: readonly Dstc6Result[]): string {
  return pyJson(
    results.map((r) => ({
      dialog_id: r.dialog_id,
      lst_candidate_id: r.lst_candidate_id.map((c) => ({ candidate_id: c.candidate_id, rank: c.rank })),
    })),
  );
}

/**
 * Writes results as a result file (`formatDstc6Results`), atomically; parent folders are
 * created, file-system errors pass through.
 *
 * @example
 * ```ts
 * import { writeDstc6Results, rankingResult } from 'dialogym';
 * writeDstc6Results('out/results.json', [rankingResult('d1', ['c2', 'c1'])]);
 * ```
 */
export function writeDstc6Results(file: string, results: readonly Dstc6Result[]): void {
  writeFileAtomic(file, formatDstc6Results(results));
}

/**
 * A ranking result for one entry from candidate ids in best-first order: ranks 1, 2, … in that
 * order. Does not check the ids.
 *
 * @example
 * ```ts
 * import { rankingResult } from 'dialogym';
 * rankingResult('d1', ['c2', 'c1']);
 * // { dialog_id: 'd1', lst_candidate_id: [{ candidate_id: 'c2', rank: 1 }, { candidate_id: 'c1', rank: 2 }] }
 * ```
 */
export function rankingResult(dialogId: string, orderedCandidateIds: readonly string[]): Dstc6Result {
  return { dialog_id: dialogId, lst_candidate_id: orderedCandidateIds.map((candidate_id, k) => ({ candidate_id, rank: k + 1 })) };
}
