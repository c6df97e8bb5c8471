/**
 * AirDialogue JSON Lines (Wei et al. 2018): data lines (`intent`, `action`, `expected_action`,
 * `dialogue`, `timestamps`, `correct_sample`, optional `search_info`) aligned line by line with KB
 * lines (`{"kb": [flights], "reservation": 0 | flight_number}`).
 *
 * Reading validates every line (`file:line: reason`, the first bad line first); writing reproduces
 * Python's `json.dumps` default layout (`", "` / `": "` separators, ASCII-only escapes), so reading
 * then writing an original file gives it back byte for byte.
 *
 * Two ways to read a file: streaming (`airDataLines`, `airKbLines`, `airExamples`,
 * `airPredictionLines`: generators over the lines, read in chunks, any file size, nothing kept
 * behind the line being parsed), and whole (`readAirData`, `readAirKb`, `readAirDialogue`,
 * `readAirPredictions`: arrays, for files up to `MAX_ARRAY_FILE_BYTES`). Both give the same values
 * and the same errors. The full release's KB files are too large for arrays: `train_kb.json` is
 * about 2.8 GB, and one parsed KB line (30 flight objects) costs about 4.8 KB of heap, so its
 * 321,459 lines would need some 1.5 GB as objects, on top of whatever the consumer derives.
 */
import { DialogymError, FormatError } from '../core/errors.js';
import { AtomicFileWriter, countLines, lineOffset, readLines, type LineReadOptions } from '../core/files.js';
import { parseJsonText } from './json-text.js';
import { checkSchema, type SchemaName } from './schema.js';
import { FILE_KINDS, fileHead, misread, type FileKind } from './sniff.js';
import { statSync } from 'node:fs';

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'June', 'July', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;
export type Month = (typeof MONTHS)[number];
export const GOALS = ['book', 'change', 'cancel'] as const;
export type Goal = (typeof GOALS)[number];
export const STATUSES = ['book', 'change', 'cancel', 'no_flight', 'no_reservation'] as const;
export type Status = (typeof STATUSES)[number];
export const DAY_SEGMENTS = ['morning', 'afternoon', 'evening'] as const;
export type DaySegment = (typeof DAY_SEGMENTS)[number];
export const CLASSES = ['economy', 'business'] as const;
export type FlightClass = (typeof CLASSES)[number];

/**
 * The customer's private context (the `intent` of a data line): trip, name, goal and
 * constraints. Days are strings (`"12"`), months names from `MONTHS` (`"June"`). Absent optional
 * keys mean "any".
 *
 * @example
 * ```ts
 * import type { Intent } from 'dialogym';
 * const intent: Intent = {
 *   departure_airport: 'DFW', return_airport: 'IAD', departure_month: 'June', departure_day: '12',
 *   return_month: 'June', return_day: '14', name: 'Emily Edwards', goal: 'book', max_price: 200,
 *   max_connections: 1, return_time: 'afternoon',
 * };
 * ```
 */
export interface Intent {
  departure_airport: string;
  return_airport: string;
  departure_month: Month;
  departure_day: string;
  return_month: Month;
  return_day: string;
  name: string;
  goal: Goal;
  /** 5000 means "any price". */
  max_price: number;
  /** Absent means "any" (2). */
  max_connections?: number;
  class?: FlightClass;
  departure_time?: DaySegment;
  return_time?: DaySegment;
  airline_preference?: 'normal-cost';
}

/**
 * One flight of the agent's database (a KB line holds 30). Times are hours 0–23; flight numbers
 * are 1000–1029 in the original KBs.
 *
 * @example
 * ```ts
 * import type { Flight } from 'dialogym';
 * const f: Flight = {
 *   airline: 'Spirit', class: 'economy', departure_airport: 'IAD', departure_day: '12', departure_month: 'June',
 *   departure_time_num: 17, flight_number: 1000, num_connections: 1, price: 200,
 *   return_airport: 'DTW', return_day: '14', return_month: 'June', return_time_num: 2,
 * };
 * ```
 */
export interface Flight {
  airline: string;
  class: FlightClass;
  departure_airport: string;
  departure_day: string;
  departure_month: Month;
  departure_time_num: number;
  flight_number: number;
  num_connections: number;
  price: number;
  return_airport: string;
  return_day: string;
  return_month: Month;
  return_time_num: number;
}

/**
 * One line of a KB file: the agent's private context, the flight database and the customer's
 * existing reservation (a flight number, 0 = none).
 *
 * @example
 * ```ts
 * import { readAirKb, type KbLine } from 'dialogym';
 * const kb: KbLine = readAirKb('data/airdialogue/dev_kb.json')[0]!;
 * const cheapest = Math.min(...kb.kb.map((f) => f.price));
 * const hasReservation = kb.reservation !== 0;
 * ```
 */
export interface KbLine {
  kb: Flight[];
  reservation: number;
}

/**
 * A final action of the agent: what it did and for whom. `status` is free text in human data;
 * the valid ones are `STATUSES` (`book`, `change`, `cancel`, `no_flight`, `no_reservation`).
 * `flight` holds the flight number for `book`/`change`, and is empty otherwise.
 *
 * @example
 * ```ts
 * import type { Action } from 'dialogym';
 * const booked: Action = { status: 'book', name: 'Emily Edwards', flight: [1027] };
 * const none: Action = { status: 'no_flight', name: 'Emily Edwards', flight: [] };
 * ```
 */
export interface Action {
  status: string;
  /** The customer's name. */
  name: string;
  /** Flight numbers (0 or 1 of them). */
  flight: number[];
}

export interface SearchEvent {
  timestmamp: number;
  button_name?: string;
  field_name?: string;
  field_value?: string;
}

/**
 * One line of a data file: the customer's intent, the action the human agent took, the action
 * the task expects, and (in the original files) the conversation as `"customer: …"` /
 * `"agent: …"` strings with their Unix timestamps.
 *
 * @example
 * ```ts
 * import { readAirData, type DataLine } from 'dialogym';
 * const lines: DataLine[] = readAirData('data/airdialogue/dev_data.json');
 * const agreed = lines.filter((d) => d.action.status === d.expected_action.status).length;
 * ```
 */
export interface DataLine {
  /** The customer's private context. */
  intent: Intent;
  /** The action the agent took. */
  action: Action;
  /** The correct action for this intent and KB. */
  expected_action: Action;
  /** Utterances, each prefixed `customer: ` or `agent: `. */
  dialogue?: string[];
  timestamps?: number[];
  correct_sample?: boolean;
  search_info?: SearchEvent[];
}

/**
 * One example: line `line` (1-based) of a data file and of its KB file, as `readAirDialogue`
 * pairs them.
 *
 * @example
 * ```ts
 * import { readAirDialogue, type AirExample } from 'dialogym';
 * const ex: AirExample = readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json')[0]!;
 * console.log(ex.line, ex.data.intent.goal, ex.kb.kb.length); // 1 'book' 30
 * ```
 */
export interface AirExample {
  line: number;
  data: DataLine;
  kb: KbLine;
}

// ---------------------------------------------------------------------------------------------
// validation: schemas/airdialogue-*.schema.json, then the checks a schema cannot express

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Unique flight numbers in a KB line, and a reservation that is one of them (or 0). */
function kbCrossChecks(v: KbLine): string | undefined {
  const numbers = new Set<number>();
  for (let i = 0; i < v.kb.length; i++) {
    const n = (v.kb[i] as Flight).flight_number;
    if (numbers.has(n)) return `kb[${i}]: duplicate flight_number ${n}`;
    numbers.add(n);
  }
  if (v.reservation !== 0 && !numbers.has(v.reservation)) return `"reservation" ${v.reservation} is not a flight of this kb`;
  return undefined;
}

/** A JSON Lines format: its schema, the checks a schema cannot express, and the kind sniffing knows it as. */
interface LineFormat<T> {
  readonly schema: SchemaName;
  readonly cross?: (v: T) => string | undefined;
  /** Undefined for predictions (any object holding an action; nothing to mistake it for). */
  readonly kind?: FileKind;
}

const DATA_FORMAT: LineFormat<DataLine> = { schema: 'airdialogue-data', kind: 'airdialogue-data' };
const KB_FORMAT: LineFormat<KbLine> = { schema: 'airdialogue-kb', cross: kbCrossChecks, kind: 'airdialogue-kb' };
const PREDICTION_FORMAT: LineFormat<Action | { action: Action }> = { schema: 'airdialogue-prediction' };

/** Parses and validates line `line` of `file` (its text without the newline; a final `\r` is dropped). */
function parseLine<T>(raw: string, file: string, line: number, f: LineFormat<T>): T {
  const s = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (s.trim() === '') throw new FormatError(file, line, 'empty line (expected one JSON object per line)');
  const value = parseJsonText(s, file, line);
  const issue = checkSchema(f.schema, value);
  if (issue) throw new FormatError(file, line, issue.reason);
  const bad = f.cross?.(value as T);
  if (bad !== undefined) throw new FormatError(file, line, bad);
  return value as T;
}

/** The error to throw for `e`, met reading `source` (its text, or the file) in format `f`: a MisreadError when it looks like another kind. */
function misreadAs(e: unknown, head: string | Uint8Array, file: string, f: LineFormat<unknown>): unknown {
  return f.kind === undefined ? e : misread(e, head, file, [f.kind], FILE_KINDS[f.kind]);
}

/** Parses JSON Lines text line by line (a single trailing newline is allowed); the first bad line throws. */
function parseText<T>(text: string, file: string, f: LineFormat<T>): T[] {
  try {
    const raw = text.split('\n');
    if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
    return raw.map((l, i) => parseLine(l, file, i + 1, f));
  } catch (e) {
    throw misreadAs(e, text, file, f as LineFormat<unknown>);
  }
}

/**
 * Parses the text of a data file (JSON Lines); `file` names it in errors. Every line is
 * validated (intent fields and types, actions, optional dialogue and timestamps): invalid JSON or
 * a bad field throws a FormatError `file:line: reason`.
 *
 * @example
 * ```ts
 * import { readTextFile, parseAirData } from 'dialogym';
 * const file = 'data/airdialogue/dev_data.json';
 * const lines = parseAirData(readTextFile(file), file);
 * ```
 */
export function parseAirData(text: string, file = '<data>'): DataLine[] {
  return parseText(text, file, DATA_FORMAT);
}

/**
 * Parses the text of a KB file (JSON Lines of `{"kb": [flights], "reservation": n}`); `file`
 * names it in errors. Every line and flight is validated; a bad one throws a FormatError
 * `file:line: reason`.
 *
 * @example
 * ```ts
 * import { readTextFile, parseAirKb } from 'dialogym';
 * const kbs = parseAirKb(readTextFile('data/airdialogue/dev_kb.json'), 'dev_kb.json');
 * ```
 */
export function parseAirKb(text: string, file = '<kb>'): KbLine[] {
  return parseText(text, file, KB_FORMAT);
}

// ---------------------------------------------------------------------------------------------
// streaming readers

/**
 * Options of the streaming readers: the line reader's (`maxLineBytes`, default 16 MiB;
 * `chunkBytes`) and, for `airExamples`, where to start and a progress callback.
 *
 * @example
 * ```ts
 * import type { AirReadOptions } from 'dialogym';
 * const o: AirReadOptions = { fromLine: 1000, onBytes: (b) => console.error(`${b} bytes`) };
 * ```
 */
export interface AirReadOptions extends Pick<LineReadOptions, 'maxLineBytes' | 'chunkBytes'> {
  /** The first line to read (1-based; default 1), found by scanning for newlines, not by parsing the lines before it. */
  fromLine?: number;
  /** Lines to read at most (default: to the end; files longer than that are not checked further). */
  maxLines?: number;
  /** Called after each line (each pair, for `airExamples`) with the bytes read so far of the (first) file. */
  onBytes?: (bytes: number) => void;
}

/** A parsed line, its number and the byte offset past it. */
interface Parsed<T> {
  readonly value: T;
  readonly line: number;
  readonly end: number;
}

/** Where line `o.fromLine` of `file` starts: the `readLines` options to begin there, or the line count when the file is shorter. */
function startOf(file: string, o: AirReadOptions): { start: number; firstLine: number } | { lines: number } {
  const from = o.fromLine ?? 1;
  if (from === 1) return { start: 0, firstLine: 1 };
  const at = lineOffset(file, from);
  return at.offset === undefined ? { lines: at.lines } : { start: at.offset, firstLine: from };
}

/** The lines of `file` parsed in format `f`, from `from` (errors: `file:line: reason`, or a MisreadError). */
function* parsedLines<T>(file: string, f: LineFormat<T>, o: AirReadOptions, from: { start: number; firstLine: number } = { start: 0, firstLine: 1 }): Generator<Parsed<T>, void, undefined> {
  try {
    const lineOptions: LineReadOptions = { ...from, ...(o.maxLineBytes !== undefined ? { maxLineBytes: o.maxLineBytes } : {}), ...(o.chunkBytes !== undefined ? { chunkBytes: o.chunkBytes } : {}) };
    for (const l of readLines(file, lineOptions)) yield { value: parseLine(l.text, file, l.line, f), line: l.line, end: l.end };
  } catch (e) {
    throw misreadAs(e, fileHead(file), file, f as LineFormat<unknown>);
  }
}

/** The values of a file in format `f`, from `o.fromLine`; `onBytes` after each line. */
function* valuesOf<T>(file: string, f: LineFormat<T>, o: AirReadOptions): Generator<T, void, undefined> {
  const from = startOf(file, o);
  const max = o.maxLines ?? Infinity;
  if ('lines' in from || max <= 0) return;
  let n = 0;
  for (const p of parsedLines(file, f, o, from)) {
    yield p.value;
    o.onBytes?.(p.end);
    if (++n >= max) return;
  }
}

/**
 * The lines of a data file, one `DataLine` at a time, read in chunks (any file size; each line is
 * parsed, validated and dropped before the next is read). Errors as `parseAirData` (`file:line:
 * reason`, the first bad line first), plus a line longer than `o.maxLineBytes`.
 *
 * @example
 * ```ts
 * import { airDataLines } from 'dialogym';
 * let booked = 0;
 * for (const d of airDataLines('data/airdialogue/train_data.json')) if (d.action.status === 'book') booked++;
 * ```
 */
export function airDataLines(file: string, o: AirReadOptions = {}): Generator<DataLine, void, undefined> {
  return valuesOf(file, DATA_FORMAT, o);
}

/**
 * The lines of a KB file, one `KbLine` at a time, read in chunks (module description: the full
 * `train_kb.json` is some 2.8 GB; only the line being parsed is held). Errors as `parseAirKb`.
 *
 * @example
 * ```ts
 * import { airKbLines } from 'dialogym';
 * let withReservation = 0;
 * for (const k of airKbLines('data/airdialogue/train_kb.json')) if (k.reservation !== 0) withReservation++;
 * ```
 */
export function airKbLines(file: string, o: AirReadOptions = {}): Generator<KbLine, void, undefined> {
  return valuesOf(file, KB_FORMAT, o);
}

/**
 * The actions of a predictions file, one line at a time (see `parseAirPredictions`).
 *
 * @example
 * ```ts
 * import { airPredictionLines } from 'dialogym';
 * for (const a of airPredictionLines('out/predictions.jsonl')) console.log(a.status);
 * ```
 */
export function* airPredictionLines(file: string, o: AirReadOptions = {}): Generator<Action, void, undefined> {
  for (const v of valuesOf(file, PREDICTION_FORMAT, o)) yield actionOf(v);
}

/** Checks that two line-aligned files have the same number of lines. */
export function checkAligned(fileA: string, nA: number, fileB: string, nB: number): void {
  if (nA === nB) return;
  const [shortFile, nShort, longFile, nLong] = nA < nB ? [fileA, nA, fileB, nB] : [fileB, nB, fileA, nA];
  throw new FormatError(shortFile, nShort + 1, `missing line: ${longFile} has ${nLong} lines, this file has ${nShort} (files must be aligned line by line)`);
}

/** A file read line by line in step with others. */
interface AlignedSource {
  readonly file: string;
  readonly format: LineFormat<unknown>;
}

/**
 * Line i of every file, in step, from line `o.fromLine`. When one file ends before another, the
 * `checkAligned` error at the first missing line of the shorter file (the longer one's remaining
 * lines are counted, not parsed). The first source's bytes go to `o.onBytes`.
 */
function* alignedLines(sources: readonly AlignedSource[], o: AirReadOptions): Generator<{ line: number; values: unknown[] }, void, undefined> {
  const starts = sources.map((s) => startOf(s.file, o));
  const firstLine = o.fromLine ?? 1;
  // Files shorter than the first line asked for: aligned only if all are.
  const short = starts.findIndex((s) => 'lines' in s);
  if (short >= 0) {
    const long = starts.findIndex((s) => !('lines' in s));
    if (long < 0) return;
    const longStart = starts[long] as { start: number };
    checkAligned(sources[short]!.file, (starts[short] as { lines: number }).lines, sources[long]!.file, firstLine - 1 + countLines(sources[long]!.file, longStart.start));
  }
  const its = sources.map((s, i) => parsedLines(s.file, s.format, o, starts[i] as { start: number; firstLine: number }));
  try {
    for (let n = 0; n < (o.maxLines ?? Infinity); n++) {
      const next = its.map((it) => it.next());
      const ended = next.findIndex((r) => r.done === true);
      if (ended < 0) {
        const parsed = next.map((r) => r.value as Parsed<unknown>);
        yield { line: parsed[0]!.line, values: parsed.map((p) => p.value) };
        o.onBytes?.(parsed[0]!.end);
        continue;
      }
      const going = next.findIndex((r) => r.done !== true);
      if (going < 0) return;
      const p = next[going]!.value as Parsed<unknown>;
      checkAligned(sources[ended]!.file, p.line - 1, sources[going]!.file, p.line + countLines(sources[going]!.file, p.end));
    }
  } finally {
    for (const it of its) it.return();
  }
}

/** Pairs a data line with its KB line: the actions' flights must be flights of the KB line. */
function pairOf(data: DataLine, kb: KbLine, line: number, dataFile: string, kbFile: string): AirExample {
  const numbers = new Set(kb.kb.map((f) => f.flight_number));
  for (const key of ['action', 'expected_action'] as const) {
    const bad = data[key].flight.find((n) => !numbers.has(n));
    if (bad !== undefined) throw new FormatError(dataFile, line, `${key}: flight ${bad} is not a flight of line ${line} of ${kbFile}`);
  }
  return { line, data, kb };
}

/**
 * Line i of a data file with line i of its KB file, one example at a time, both read in chunks
 * (any file size). Errors as `readAirDialogue`: a bad line of either file, an action naming a
 * flight its KB line lacks, and files of different lengths — found at the line where one of
 * them ends. `o.fromLine` starts at a later line (found by scanning both files for newlines, not
 * by parsing the lines before it); `o.onBytes` follows the data file.
 *
 * @example
 * ```ts
 * import { airExamples } from 'dialogym';
 * let correct = 0;
 * for (const { data, kb } of airExamples('data/airdialogue/train_data.json', 'data/airdialogue/train_kb.json')) {
 *   if (data.correct_sample === true && kb.reservation === 0) correct++;
 * }
 * ```
 */
export function* airExamples(dataFile: string, kbFile: string, o: AirReadOptions = {}): Generator<AirExample, void, undefined> {
  const sources = [
    { file: dataFile, format: DATA_FORMAT as LineFormat<unknown> },
    { file: kbFile, format: KB_FORMAT as LineFormat<unknown> },
  ];
  for (const { line, values } of alignedLines(sources, o)) yield pairOf(values[0] as DataLine, values[1] as KbLine, line, dataFile, kbFile);
}

/**
 * `airExamples` with line i of a predictions file beside each example (a predictions file of
 * another length is refused where it ends, as the KB file is).
 *
 * @example
 * ```ts
 * import { airPredictedExamples } from 'dialogym';
 * let booked = 0;
 * for (const { pred } of airPredictedExamples('dev_data.json', 'dev_kb.json', 'out/pred.jsonl')) if (pred.status === 'book') booked++;
 * ```
 */
export function* airPredictedExamples(dataFile: string, kbFile: string, predFile: string, o: AirReadOptions = {}): Generator<{ example: AirExample; pred: Action }, void, undefined> {
  const sources = [
    { file: dataFile, format: DATA_FORMAT as LineFormat<unknown> },
    { file: kbFile, format: KB_FORMAT as LineFormat<unknown> },
    { file: predFile, format: PREDICTION_FORMAT as LineFormat<unknown> },
  ];
  for (const { line, values } of alignedLines(sources, o)) {
    yield { example: pairOf(values[0] as DataLine, values[1] as KbLine, line, dataFile, kbFile), pred: actionOf(values[2] as Action | { action: Action }) };
  }
}

// ---------------------------------------------------------------------------------------------
// whole files

/**
 * Largest file the array readers take (1 GiB): the full release's data files (`train_data.json`,
 * about 0.5 GB) and dev KB (`dev_kb.json`, about 0.36 GB) fit; its `train_kb.json` (about 2.8 GB)
 * does not and is read with `airKbLines` / `airExamples`.
 */
export const MAX_ARRAY_FILE_BYTES = 1024 * 1024 * 1024;

/** Refuses a file over `MAX_ARRAY_FILE_BYTES` (or `maxBytes`) for an array reader. Missing files are left to the line reader. */
function checkArraySize(file: string, f: LineFormat<unknown>, stream: string, maxBytes = MAX_ARRAY_FILE_BYTES): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return;
  }
  if (size <= maxBytes) return;
  const e = new FormatError(file, undefined, `file too large to read whole (${size} bytes; at most ${maxBytes}): read it line by line (${stream})`);
  throw misreadAs(e, fileHead(file), file, f);
}

/**
 * Options of the array readers: the streaming readers' and the largest file taken.
 *
 * @example
 * ```ts
 * import { readAirKb, type AirArrayOptions } from 'dialogym';
 * const o: AirArrayOptions = { maxBytes: 64 * 1024 * 1024 };
 * const kbs = readAirKb('data/airdialogue/dev_kb.json', o);
 * ```
 */
export interface AirArrayOptions extends Omit<AirReadOptions, 'fromLine' | 'onBytes'> {
  /** Largest file taken (default `MAX_ARRAY_FILE_BYTES`, 1 GiB). */
  maxBytes?: number;
}

/**
 * Reads a data file whole (see `parseAirData`; at most `MAX_ARRAY_FILE_BYTES`: larger files are
 * read with `airDataLines`); a missing or malformed file throws a FormatError.
 *
 * @example
 * ```ts
 * import { readAirData } from 'dialogym';
 * const goals = readAirData('data/airdialogue/dev_data.json').map((d) => d.intent.goal);
 * ```
 */
export function readAirData(file: string, o: AirArrayOptions = {}): DataLine[] {
  checkArraySize(file, DATA_FORMAT as LineFormat<unknown>, 'airDataLines, airExamples', o.maxBytes);
  return [...airDataLines(file, o)];
}

/**
 * Reads a KB file whole (see `parseAirKb`; at most `MAX_ARRAY_FILE_BYTES`: larger files are read
 * with `airKbLines`); a missing or malformed file throws a FormatError.
 *
 * @example
 * ```ts
 * import { readAirKb } from 'dialogym';
 * const withReservation = readAirKb('data/airdialogue/dev_kb.json').filter((k) => k.reservation !== 0).length;
 * ```
 */
export function readAirKb(file: string, o: AirArrayOptions = {}): KbLine[] {
  checkArraySize(file, KB_FORMAT as LineFormat<unknown>, 'airKbLines, airExamples', o.maxBytes);
  return [...airKbLines(file, o)];
}

/**
 * Reads a data file and its KB file whole and pairs them line by line (`airExamples` as an array;
 * each file at most `MAX_ARRAY_FILE_BYTES`). Files of different lengths throw a FormatError at
 * the first missing line of the shorter one; otherwise errors as `readAirData` / `readAirKb`.
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * for (const { data, kb } of readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json')) {
 *   console.log(data.expected_action.status, kb.reservation);
 * }
 * ```
 */
export function readAirDialogue(dataFile: string, kbFile: string, o: AirArrayOptions = {}): AirExample[] {
  checkArraySize(dataFile, DATA_FORMAT as LineFormat<unknown>, 'airExamples', o.maxBytes);
  checkArraySize(kbFile, KB_FORMAT as LineFormat<unknown>, 'airExamples', o.maxBytes);
  return [...airExamples(dataFile, kbFile, o)];
}

// ---------------------------------------------------------------------------------------------
// writing (Python json.dumps layout)

function pyString(s: string): string {
  let o = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) o += '\\"';
    else if (c === 0x5c) o += '\\\\';
    else if (c === 0x0a) o += '\\n';
    else if (c === 0x0d) o += '\\r';
    else if (c === 0x09) o += '\\t';
    else if (c === 0x08) o += '\\b';
    else if (c === 0x0c) o += '\\f';
    else if (c < 0x20 || c > 0x7e) o += '\\u' + c.toString(16).padStart(4, '0');
    else o += s[i];
  }
  return o + '"';
}

/** Serialises a JSON value the way Python's `json.dumps(v)` does with default arguments. */
export function pyJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new DialogymError(`cannot serialise ${v}`);
    return String(v);
  }
  if (typeof v === 'string') return pyString(v);
  if (Array.isArray(v)) return '[' + v.map(pyJson).join(', ') + ']';
  if (typeof v === 'object') {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v as Obj)) {
      if (x === undefined) continue;
      parts.push(pyString(k) + ': ' + pyJson(x));
    }
    return '{' + parts.join(', ') + '}';
  }
  throw new DialogymError(`cannot serialise a ${typeof v}`);
}

/**
 * Serialises values as JSON Lines in Python's `json.dumps` layout (`", "` and `": "`
 * separators, non-ASCII escaped as `\uXXXX`, object keys in insertion order, each line ending
 * in a newline), so parsed original lines are written back byte for byte. Throws a DialogymError
 * for a non-finite number or a function/symbol/bigint.
 *
 * @example
 * ```ts
 * import { formatAirLines } from 'dialogym';
 * formatAirLines([{ status: 'book', name: 'Emily Edwards', flight: [1027] }]);
 * // '{"status": "book", "name": "Emily Edwards", "flight": [1027]}\n'
 * ```
 */
export function formatAirLines(items: readonly unknown[]): string {
  let s = '';
  for (const x of items) s += pyJson(x) + '\n';
  return s;
}

/**
 * Writes values as JSON Lines in `formatAirLines`' layout to `file`, a line at a time through a
 * temp file renamed at the end (atomic): any number of lines — one string of them all stops at
 * V8's 512 Mi characters, some 60,000 KB lines. Returns the number of lines written.
 *
 * @example
 * ```ts
 * import { writeAirLines, airKbLines } from 'dialogym';
 * // a copy of a KB file without its reservations, line by line
 * writeAirLines('out/kb.json', (function* () { for (const k of airKbLines('data/airdialogue/train_kb.json')) yield { ...k, reservation: 0 }; })());
 * ```
 */
export function writeAirLines(file: string, items: Iterable<unknown>): number {
  const w = new AtomicFileWriter(file);
  let n = 0;
  try {
    for (const x of items) {
      w.write(pyJson(x) + '\n');
      n++;
    }
  } catch (e) {
    w.abort();
    throw e;
  }
  w.commit();
  return n;
}

/**
 * Parses a predictions file: one JSON object per line, either an action (`{"status", "name",
 * "flight"}`) or an object holding one under `"action"` (as data lines and self-play outputs do).
 * `file` names it in errors; a line that is not such an object throws a FormatError `file:line: reason`.
 *
 * @example
 * ```ts
 * import { parseAirPredictions } from 'dialogym';
 * parseAirPredictions('{"status": "no_flight", "name": "Jo Lee", "flight": []}\n{"action": {"status": "book", "name": "Al Wu", "flight": [1003]}}\n');
 * // [{ status: 'no_flight', … }, { status: 'book', name: 'Al Wu', flight: [1003] }]
 * ```
 */
export function parseAirPredictions(text: string, file = '<pred>'): Action[] {
  return parseText(text, file, PREDICTION_FORMAT).map(actionOf);
}

/** The action of a prediction line: the line itself, or what it holds under `"action"`. */
function actionOf(v: Action | { action: Action }): Action {
  return 'action' in v && isObj(v.action) ? (v.action as Action) : (v as Action);
}

/**
 * Reads a predictions file (see `parseAirPredictions`); errors are FormatErrors naming the file
 * and line.
 *
 * @example
 * ```ts
 * import { readAirPredictions, readAirData } from 'dialogym';
 * const pred = readAirPredictions('out/predictions.jsonl');
 * const gold = readAirData('data/airdialogue/dev_data.json').map((d) => d.expected_action);
 * ```
 */
export function readAirPredictions(file: string, o: AirArrayOptions = {}): Action[] {
  checkArraySize(file, PREDICTION_FORMAT as LineFormat<unknown>, 'airPredictionLines', o.maxBytes);
  return [...airPredictionLines(file, o)];
}
