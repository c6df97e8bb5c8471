/**
 * The bAbI dialog text formats (Bordes, Boureau & Weston 2017), read and written exactly:
 *
 * - dialog files: `ID user<TAB>bot` lines and TAB-less KB-result lines (`ID name R_attr value`,
 *   or task 6's `ID api_call no result`); IDs start at 1 in each dialog and go up by one; an empty
 *   line closes every dialog.
 * - candidate files: `1 utterance` per line (task 6's lacks the final newline, and one of its
 *   utterances starts with a space).
 * - KB files: `1 name R_attr<TAB>value` (tasks 1–5) or `1 name R_attr value` (task 6).
 *
 * Reading keeps what is needed to write the same bytes back (final newline, line ending, separator).
 */
import type { Dialog, Turn } from '../core/dialog.js';
import { DialogymError, FormatError } from '../core/errors.js';
import { excerpt } from '../core/text.js';
import { FILE_KINDS, parseAs, readTextAs, type FileKind } from './sniff.js';

/** The KB readers take bAbI and DSTC6 KB files alike. */
const KB_KINDS: readonly FileKind[] = ['babi-kb', 'dstc6-kb'];
const KB_FILE = 'a bAbI or DSTC6 KB file';
import { kbFactIssue, quoteKbValue } from './kb-values.js';

/**
 * A dialog read from a bAbI dialog file: `id` is its 0-based position in the file (`'0'`,
 * `'1'`, …); each `ID user<TAB>bot` line gives a user and a bot turn, each KB-result line a `kb`
 * turn.
 *
 * @example
 * ```ts
 * import type { BabiDialog } from 'dialogym';
 * const d: BabiDialog = {
 *   id: '0',
 *   line: 1,
 *   turns: [
 *     { speaker: 'user', text: 'hello' },
 *     { speaker: 'bot', text: 'hello what can i help you with today' },
 *   ],
 * };
 * ```
 */
export interface BabiDialog extends Dialog {
  /** 1-based line number of the dialog's first line in its file (0 when built in memory). */
  readonly line: number;
}

/**
 * A parsed bAbI dialog file: its dialogs, and the line ending needed to write it back byte for byte
 * with `formatBabiDialogs(f.dialogs, f.eol)`.
 *
 * @example
 * ```ts
 * import { readBabiDialogs, type BabiDialogFile } from 'dialogym';
 * const f: BabiDialogFile = readBabiDialogs('data/dialog-bAbI-tasks/dialog-babi-task1-API-calls-dev.txt');
 * console.log(f.dialogs.length, JSON.stringify(f.eol));
 * ```
 */
export interface BabiDialogFile {
  /** The dialogs, in file order. */
  readonly dialogs: BabiDialog[];
  /** Line ending used by the file (`\n` for every original). */
  readonly eol: '\n' | '\r\n';
}

/**
 * A parsed candidates file (`1 utterance` per line): the candidate responses in file order, and
 * what is needed to write the file back byte for byte with `formatBabiCandidates`.
 *
 * @example
 * ```ts
 * import { parseBabiCandidates, type BabiCandidates } from 'dialogym';
 * const c: BabiCandidates = parseBabiCandidates('1 hello\n1 api_call italian rome six cheap\n');
 * c.candidates; // ['hello', 'api_call italian rome six cheap']
 * ```
 */
export interface BabiCandidates {
  /** The utterances, without the leading `1 `. */
  readonly candidates: string[];
  /** Whether the last line ends with a newline (task 6's file does not). */
  readonly finalNewline: boolean;
  /** Line ending used by the file. */
  readonly eol: '\n' | '\r\n';
}

/**
 * One line of a bAbI KB file: a restaurant, an `R_` attribute and its value.
 *
 * @example
 * ```ts
 * import type { KbFact } from 'dialogym';
 * const f: KbFact = { entity: 'resto_seoul_cheap_korean_1stars', attr: 'R_cuisine', value: 'korean' };
 * ```
 */
export interface KbFact {
  /** Restaurant name, e.g. `resto_seoul_cheap_korean_1stars`. */
  readonly entity: string;
  /** Attribute with its `R_` prefix: `R_cuisine`, `R_location`, `R_price`, `R_rating`, `R_phone`, … */
  readonly attr: string;
  /** The value (may hold spaces). */
  readonly value: string;
}

/**
 * A parsed bAbI KB file: its facts in file order, and what is needed to write it back byte for
 * byte with `formatBabiKb`.
 *
 * @example
 * ```ts
 * import { readBabiKb, type BabiKbFile } from 'dialogym';
 * const kb: BabiKbFile = readBabiKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt');
 * const names = new Set(kb.facts.map((f) => f.entity));
 * ```
 */
export interface BabiKbFile {
  /** One fact per line. */
  readonly facts: KbFact[];
  /** Separator between attribute and value: TAB in tasks 1–5, a space in task 6. */
  readonly sep: '\t' | ' ';
  /** Whether the last line ends with a newline. */
  readonly finalNewline: boolean;
  /** Line ending used by the file. */
  readonly eol: '\n' | '\r\n';
}

function splitLines(text: string): { lines: string[]; eol: '\n' | '\r\n'; finalNewline: boolean } {
  const eol: '\n' | '\r\n' = /^[^\n]*\r\n/.test(text) ? '\r\n' : '\n';
  const finalNewline = text.endsWith('\n');
  const body = finalNewline ? text.slice(0, -1) : text;
  const lines = body.length === 0 && finalNewline ? [''] : body.split('\n');
  if (eol === '\r\n') for (let i = 0; i < lines.length; i++) lines[i] = (lines[i] as string).replace(/\r$/, '');
  return { lines: text.length === 0 ? [] : lines, eol, finalNewline };
}

const ID_RE = /^(\d+) /;

/**
 * Parses the text of a bAbI dialog file (tasks 1–6); `file` only names it in errors. A line
 * without a numeric ID, IDs that do not start at 1 and go up by one, a stray empty line, more
 * than one TAB, an empty bot side or a last dialog without its closing empty line throw a
 * FormatError (`file:line: reason`).
 *
 * @example
 * ```ts
 * import { parseBabiDialogs } from 'dialogym';
 * const { dialogs } = parseBabiDialogs('1 hello\thello what can i help you with today\n\n', 'demo.txt');
 * dialogs[0]?.turns.length; // 2
 * ```
 */
export function parseBabiDialogs(text: string, file = '<input>'): BabiDialogFile {
  return parseAs(text, file, ['babi-dialogs'], FILE_KINDS['babi-dialogs'], dialogsOf);
}

function dialogsOf(text: string, file: string): BabiDialogFile {
  const { lines, eol, finalNewline } = splitLines(text);
  if (lines.length === 0) throw new FormatError(file, 1, 'empty file: no dialog');
  const dialogs: BabiDialog[] = [];
  let turns: Turn[] = [];
  let startLine = 0;
  let lastId = 0;
  const close = (): void => {
    dialogs.push({ id: String(dialogs.length), turns, line: startLine });
    turns = [];
    lastId = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const ln = i + 1;
    if (raw === '') {
      if (lastId === 0) throw new FormatError(file, ln, 'empty line outside a dialog (two empty lines in a row, or an empty first line)');
      close();
      continue;
    }
    const m = ID_RE.exec(raw);
    if (!m) throw new FormatError(file, ln, `line does not start with a numeric ID and a space: ${JSON.stringify(clip(raw))}`);
    const id = Number(m[1]);
    if (String(id) !== m[1]) throw new FormatError(file, ln, `ID ${clip(m[1] as string)} is not a plain number (leading zero or too large)`);
    if (id === 1 && lastId > 0) throw new FormatError(file, ln, 'ID 1 without an empty line before it (each dialog must end with an empty line)');
    if (id !== lastId + 1) {
      throw new FormatError(file, ln, lastId === 0 ? `dialog starts with ID ${id}, expected 1` : `ID ${id} does not follow ID ${lastId} (IDs must increase by one)`);
    }
    if (lastId === 0) startLine = ln;
    lastId = id;
    const rest = raw.slice(m[0].length);
    const tab = rest.indexOf('\t');
    if (tab < 0) {
      if (rest.trim() === '') throw new FormatError(file, ln, 'line has an ID but no text');
      const kbIssue = kbLineIssue(rest);
      if (kbIssue) throw new FormatError(file, ln, kbIssue);
      turns.push({ speaker: 'kb', text: rest });
    } else {
      if (rest.indexOf('\t', tab + 1) >= 0) throw new FormatError(file, ln, 'more than one TAB on a line (expected `ID user<TAB>bot`)');
      const user = rest.slice(0, tab);
      const bot = rest.slice(tab + 1);
      // A KB-result line written with a TAB (as in KB files, `name R_attr<TAB>value`, or cut anywhere after
      // the attribute: `name R_attr val<TAB>ue`) would otherwise become a user/bot pair.
      if (/^\S+ [rR]_[A-Za-z0-9_]+( \S+)?$/.test(user) || (/^\S+$/.test(user) && /^[rR]_\S+ \S/.test(bot))) {
        throw new FormatError(file, ln, `a KB-result line must not hold a TAB (expected \`ID name R_attr value\` with spaces): ${JSON.stringify(clip(rest))}`);
      }
      // An empty user side occurs in task 6 (6 lines of the DSTC2 training file): kept as is.
      if (bot.trim() === '') throw new FormatError(file, ln, 'empty bot utterance after the TAB');
      turns.push({ speaker: 'user', text: user }, { speaker: 'bot', text: bot });
    }
  }
  if (lastId > 0 || !finalNewline) {
    throw new FormatError(file, lines.length, 'unexpected end of file: the last dialog is not closed by an empty line (truncated file?)');
  }
  return { dialogs, eol };
}

/**
 * `'<SILENCE>'`: the user placeholder for a bot turn that follows another bot turn (bAbI
 * convention: a line `n <SILENCE>\t<bot text>`).
 *
 * @example
 * ```ts
 * import { SILENCE } from 'dialogym';
 * const userSaidNothing = (text: string) => text === SILENCE;
 * ```
 */
export const SILENCE = '<SILENCE>';

/**
 * Serialises dialogs in the bAbI dialog format: each user turn and the bot turn after it on one
 * `ID user<TAB>bot` line, `kb` turns on lines of their own, an empty line after each dialog.
 * Throws a DialogymError for a user turn not followed by a bot turn, or a bot turn without a user
 * turn before it (use `SILENCE` as the user text).
 *
 * @example
 * ```ts
 * import { formatBabiDialogs, SILENCE } from 'dialogym';
 * formatBabiDialogs([{ id: 'a', turns: [
 *   { speaker: 'user', text: SILENCE }, { speaker: 'bot', text: 'api_call italian rome six cheap' },
 * ] }]); // '1 <SILENCE>\tapi_call italian rome six cheap\n\n'
 * ```
 */
export function formatBabiDialogs(dialogs: readonly Dialog[], eol: '\n' | '\r\n' = '\n'): string {
  const parts: string[] = [];
  for (const d of dialogs) {
    let id = 0;
    const ts = d.turns;
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i] as Turn;
      if (t.speaker === 'kb') {
        parts.push(`${++id} ${t.text}${eol}`);
      } else if (t.speaker === 'user') {
        const next = ts[i + 1];
        if (!next || next.speaker !== 'bot') throw new DialogymError(`dialog ${d.id}: user turn ${i} is not followed by a bot turn`);
        parts.push(`${++id} ${t.text}\t${next.text}${eol}`);
        i++;
      } else {
        throw new DialogymError(`dialog ${d.id}: bot turn ${i} without a user turn before it (use <SILENCE>)`);
      }
    }
    parts.push(eol);
  }
  return parts.join('');
}

/**
 * Reads a bAbI dialog file (see `parseBabiDialogs`). A missing, binary or malformed file throws
 * a FormatError naming the file and line.
 *
 * @example
 * ```ts
 * import { readBabiDialogs, botTurnIndices } from 'dialogym';
 * const { dialogs } = readBabiDialogs('data/dialog-bAbI-tasks/dialog-babi-task5-full-dialogs-trn.txt');
 * const examples = dialogs.reduce((n, d) => n + botTurnIndices(d).length, 0);
 * ```
 */
export function readBabiDialogs(file: string): BabiDialogFile {
  return parseBabiDialogs(readTextAs(file, ['babi-dialogs'], FILE_KINDS['babi-dialogs']), file);
}

/**
 * Parses a candidates file (`1 utterance` per line; every ID is 1 in the originals); `file`
 * only names it in errors. An empty line or candidate, a line without an ID, or a TAB (a dialog
 * file given by mistake) throws a FormatError.
 *
 * @example
 * ```ts
 * import { parseBabiCandidates } from 'dialogym';
 * const { candidates, finalNewline } = parseBabiCandidates('1 hello\n1 you are welcome');
 * // candidates: ['hello', 'you are welcome'], finalNewline: false
 * ```
 */
export function parseBabiCandidates(text: string, file = '<input>'): BabiCandidates {
  return parseAs(text, file, ['babi-candidates'], FILE_KINDS['babi-candidates'], candidatesOf);
}

function candidatesOf(text: string, file: string): BabiCandidates {
  const { lines, eol, finalNewline } = splitLines(text);
  if (lines.length === 0) throw new FormatError(file, 1, 'empty file: no candidate');
  const candidates: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const m = ID_RE.exec(raw);
    if (!m) throw new FormatError(file, i + 1, raw === '' ? 'empty line in a candidates file' : `line does not start with a numeric ID and a space: ${JSON.stringify(clip(raw))}`);
    if (m[1] !== '1') throw new FormatError(file, i + 1, `candidate lines start with ID 1, got ${clip(m[1] as string)}`);
    const text = raw.slice(m[0].length);
    if (text.trim() === '') throw new FormatError(file, i + 1, 'empty candidate');
    if (text.includes('\t')) throw new FormatError(file, i + 1, 'TAB in a candidate (is this a dialog file?)');
    candidates.push(text);
  }
  return { candidates, finalNewline, eol };
}

/**
 * Serialises candidates as `1 utterance` lines; `finalNewline` (default true) and `eol`
 * (default `\n`) as read by `parseBabiCandidates`, so a parsed file is written back unchanged.
 *
 * @example
 * ```ts
 * import { formatBabiCandidates } from 'dialogym';
 * formatBabiCandidates({ candidates: ['hello', 'you are welcome'] }); // '1 hello\n1 you are welcome\n'
 * ```
 */
export function formatBabiCandidates(c: { candidates: readonly string[]; finalNewline?: boolean; eol?: '\n' | '\r\n' }): string {
  const eol = c.eol ?? '\n';
  const s = c.candidates.map((x) => `1 ${x}`).join(eol);
  return c.finalNewline === false ? s : s + eol;
}

/**
 * Reads a candidates file (see `parseBabiCandidates`); errors are FormatErrors naming the file.
 *
 * @example
 * ```ts
 * import { readBabiCandidates } from 'dialogym';
 * const { candidates } = readBabiCandidates('data/dialog-bAbI-tasks/dialog-babi-candidates.txt');
 * console.log(candidates.length); // 4212
 * ```
 */
export function readBabiCandidates(file: string): BabiCandidates {
  return parseBabiCandidates(readTextAs(file, ['babi-candidates'], FILE_KINDS['babi-candidates']), file);
}

/**
 * Parses a KB file: `1 name R_attr<TAB>value` (tasks 1–5) or `1 name R_attr value` (task 6);
 * `file` only names it in errors. Lines of another shape, empty lines, or a separator that
 * changes between lines throw a FormatError.
 *
 * @example
 * ```ts
 * import { parseBabiKb } from 'dialogym';
 * const kb = parseBabiKb('1 resto_rome_cheap_italian_1stars R_cuisine\titalian\n');
 * kb.facts[0]; // { entity: 'resto_rome_cheap_italian_1stars', attr: 'R_cuisine', value: 'italian' }
 * kb.sep;      // '\t'
 * ```
 */
export function parseBabiKb(text: string, file = '<input>'): BabiKbFile {
  return parseAs(text, file, KB_KINDS, KB_FILE, kbOf);
}

function kbOf(text: string, file: string): BabiKbFile {
  const { lines, eol, finalNewline } = splitLines(text);
  if (lines.length === 0) throw new FormatError(file, 1, 'empty file: no KB fact');
  const facts: KbFact[] = [];
  let sep: '\t' | ' ' | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const m = ID_RE.exec(raw);
    if (!m) throw new FormatError(file, i + 1, raw === '' ? 'empty line in a KB file' : `line does not start with a numeric ID and a space: ${JSON.stringify(clip(raw))}`);
    if (m[1] !== '1') throw new FormatError(file, i + 1, `KB lines start with ID 1, got ${clip(m[1] as string)}`);
    const rest = raw.slice(m[0].length);
    const f = /^(\S+) (R_\S+)([\t ])(\S.*)$/.exec(rest);
    if (!f) throw new FormatError(file, i + 1, `expected \`name R_attr value\`, got ${JSON.stringify(clip(rest))}`);
    if (!ATTR_RE.test(f[2] as string)) throw new FormatError(file, i + 1, `bad attribute name ${JSON.stringify(clip(f[2] as string))} (expected R_ followed by letters, digits or _)`);
    if ((f[4] as string).includes('\t')) throw new FormatError(file, i + 1, 'TAB inside a KB value (one TAB or space between attribute and value only)');
    const bad = kbFactIssue(f[1] as string, f[4] as string, {});
    if (bad !== undefined) throw new FormatError(file, i + 1, `${quoteKbValue(f[1] as string)} ${f[2]}: ${bad}`);
    const s = f[3] as '\t' | ' ';
    if (sep === undefined) sep = s;
    else if (s !== sep) throw new FormatError(file, i + 1, `attribute/value separator changes from ${sep === '\t' ? 'TAB' : 'space'} to ${s === '\t' ? 'TAB' : 'space'}`);
    facts.push({ entity: f[1] as string, attr: f[2] as string, value: f[4] as string });
  }
  return { facts, sep: sep ?? '\t', finalNewline, eol };
}

/**
 * Serialises KB facts as `1 name R_attr<sep>value` lines; `sep` (default TAB), `finalNewline`
 * (default true) and `eol` (default `\n`) as read by `parseBabiKb`, so a parsed file is written
 * back unchanged.
 *
 * @example
 * ```ts
 * import { formatBabiKb } from 'dialogym';
 * formatBabiKb({ facts: [{ entity: 'resto_x', attr: 'R_price', value: 'cheap' }], sep: ' ' });
 * // '1 resto_x R_price cheap\n'
 * ```
 */
export function formatBabiKb(kb: { facts: readonly KbFact[]; sep?: '\t' | ' '; finalNewline?: boolean; eol?: '\n' | '\r\n' }): string {
  const eol = kb.eol ?? '\n';
  const sep = kb.sep ?? '\t';
  const s = kb.facts.map((f) => `1 ${f.entity} ${f.attr}${sep}${f.value}`).join(eol);
  return kb.finalNewline === false ? s : s + eol;
}

/**
 * Reads a bAbI KB file (see `parseBabiKb`); errors are FormatErrors naming the file.
 *
 * @example
 * ```ts
 * import { readBabiKb } from 'dialogym';
 * const { facts, sep } = readBabiKb('data/dialog-bAbI-tasks/dialog-babi-task6-dstc2-kb.txt');
 * // sep === ' ' for task 6, '\t' for dialog-babi-kb-all.txt
 * ```
 */
export function readBabiKb(file: string): BabiKbFile {
  return parseBabiKb(readTextAs(file, KB_KINDS, KB_FILE), file);
}

/** Attribute names of KB facts and KB-result lines: `R_` (or DSTC6's `r_`) and letters, digits, `_`. */
const ATTR_RE = /^[rR]_[A-Za-z0-9_]+$/;

/** Why a TAB-less dialog line is not a KB-result line (`name R_attr value`, or `api_call no result`), or undefined. */
function kbLineIssue(text: string): string | undefined {
  if (text === 'api_call no result') return undefined;
  const m = /^(\S+) (\S+) (\S.*)$/.exec(text);
  if (!m) return `a line without a TAB must be a KB-result line \`name R_attr value\`, got ${JSON.stringify(clip(text))}`;
  if (!ATTR_RE.test(m[2] as string)) return `bad attribute name ${JSON.stringify(clip(m[2] as string))} in a KB-result line (expected R_ followed by letters, digits or _)`;
  return undefined;
}

const clip = (s: string): string => excerpt(s);
