/**
 * AirDialogue JSON Lines (Wei et al. 2018): data lines (`intent`, `action`, `expected_action`,
 * `dialogue`, `timestamps`, `correct_sample`, optional `search_info`) aligned line by line with KB
 * lines (`{"kb": [flights], "reservation": 0 | flight_number}`).
 *
 * Reading validates every line (`file:line: reason`); writing reproduces Python's `json.dumps`
 * default layout (`", "` / `": "` separators, ASCII-only escapes), so reading then writing an
 * original file gives it back byte for byte.
 */
import { DialogymError, FormatError } from '../core/errors.js';
import { readTextFile } from '../core/files.js';
import { parseJsonText } from './json-text.js';
import { checkSchema, type SchemaName } from './schema.js';
import { FILE_KINDS, parseAs, readTextAs } from './sniff.js';

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

/** Splits JSON Lines text into (line number, parsed value); a single trailing newline is allowed. */
function jsonLines(text: string, file: string): Array<{ line: number; value: unknown }> {
  const raw = text.split('\n');
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
  return raw.map((l, i) => {
    const s = l.endsWith('\r') ? l.slice(0, -1) : l;
    if (s.trim() === '') throw new FormatError(file, i + 1, 'empty line (expected one JSON object per line)');
    return { line: i + 1, value: parseJsonText(s, file, i + 1) };
  });
}

function parseWith<T>(text: string, file: string, schema: SchemaName, cross?: (v: T) => string | undefined): T[] {
  return jsonLines(text, file).map(({ line, value }) => {
    const issue = checkSchema(schema, value);
    if (issue) throw new FormatError(file, line, issue.reason);
    const bad = cross?.(value as T);
    if (bad !== undefined) throw new FormatError(file, line, bad);
    return value as T;
  });
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
  return parseAs(text, file, ['airdialogue-data'], FILE_KINDS['airdialogue-data'], (t, f) => parseWith<DataLine>(t, f, 'airdialogue-data'));
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
  return parseAs(text, file, ['airdialogue-kb'], FILE_KINDS['airdialogue-kb'], (t, f) => parseWith<KbLine>(t, f, 'airdialogue-kb', kbCrossChecks));
}

/**
 * Reads a data file (see `parseAirData`); a missing or malformed file throws a FormatError.
 *
 * @example
 * ```ts
 * import { readAirData } from 'dialogym';
 * const goals = readAirData('data/airdialogue/dev_data.json').map((d) => d.intent.goal);
 * ```
 */
export function readAirData(file: string): DataLine[] {
  return parseAirData(readTextAs(file, ['airdialogue-data'], FILE_KINDS['airdialogue-data']), file);
}

/**
 * Reads a KB file (see `parseAirKb`); a missing or malformed file throws a FormatError.
 *
 * @example
 * ```ts
 * import { readAirKb } from 'dialogym';
 * const withReservation = readAirKb('data/airdialogue/dev_kb.json').filter((k) => k.reservation !== 0).length;
 * ```
 */
export function readAirKb(file: string): KbLine[] {
  return parseAirKb(readTextAs(file, ['airdialogue-kb'], FILE_KINDS['airdialogue-kb']), file);
}

/** Checks that two line-aligned files have the same number of lines. */
export function checkAligned(fileA: string, nA: number, fileB: string, nB: number): void {
  if (nA === nB) return;
  const [shortFile, nShort, longFile, nLong] = nA < nB ? [fileA, nA, fileB, nB] : [fileB, nB, fileA, nA];
  throw new FormatError(shortFile, nShort + 1, `missing line: ${longFile} has ${nLong} lines, this file has ${nShort} (files must be aligned line by line)`);
}

/**
 * Reads a data file and its KB file and pairs them line by line. Files of different lengths
 * throw a FormatError at the first missing line of the shorter one; otherwise errors as
 * `readAirData` / `readAirKb`.
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * for (const { data, kb } of readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json')) {
 *   console.log(data.expected_action.status, kb.reservation);
 * }
 * ```
 */
export function readAirDialogue(dataFile: string, kbFile: string): AirExample[] {
  const data = readAirData(dataFile);
  const kbs = readAirKb(kbFile);
  checkAligned(dataFile, data.length, kbFile, kbs.length);
  return data.map((d, i) => {
    const kb = kbs[i] as KbLine;
    const numbers = new Set(kb.kb.map((f) => f.flight_number));
    for (const key of ['action', 'expected_action'] as const) {
      const bad = d[key].flight.find((n) => !numbers.has(n));
      if (bad !== undefined) throw new FormatError(dataFile, i + 1, `${key}: flight ${bad} is not a flight of line ${i + 1} of ${kbFile}`);
    }
    return { line: i + 1, data: d, kb };
  });
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
  return parseWith<Action | { action: Action }>(text, file, 'airdialogue-prediction').map((v) => ('action' in v && isObj(v.action) ? (v.action as Action) : (v as Action)));
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
export function readAirPredictions(file: string): Action[] {
  return parseAirPredictions(readTextFile(file), file);
}
