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
import { readTextFile } from '../core/files.js';

export interface BabiDialog extends Dialog {
  /** 1-based line number of the dialog's first line in its file (0 when built in memory). */
  readonly line: number;
}

export interface BabiDialogFile {
  readonly dialogs: BabiDialog[];
  /** Line ending used by the file (`\n` for every original). */
  readonly eol: '\n' | '\r\n';
}

export interface BabiCandidates {
  readonly candidates: string[];
  /** Whether the last line ends with a newline (task 6's file does not). */
  readonly finalNewline: boolean;
  readonly eol: '\n' | '\r\n';
}

export interface KbFact {
  readonly entity: string;
  readonly attr: string;
  readonly value: string;
}

export interface BabiKbFile {
  readonly facts: KbFact[];
  /** Separator between attribute and value: TAB in tasks 1–5, a space in task 6. */
  readonly sep: '\t' | ' ';
  readonly finalNewline: boolean;
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

/** Parses the text of a bAbI dialog file; `file` names it in errors. */
export function parseBabiDialogs(text: string, file = '<input>'): BabiDialogFile {
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
      turns.push({ speaker: 'kb', text: rest });
    } else {
      if (rest.indexOf('\t', tab + 1) >= 0) throw new FormatError(file, ln, 'more than one TAB on a line (expected `ID user<TAB>bot`)');
      const user = rest.slice(0, tab);
      const bot = rest.slice(tab + 1);
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

/** Serialises dialogs in the bAbI dialog format (user+bot pairs on one TAB line, KB lines alone). */
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

export function readBabiDialogs(file: string): BabiDialogFile {
  return parseBabiDialogs(readTextFile(file), file);
}

/** Parses a candidates file (`1 utterance` per line). */
export function parseBabiCandidates(text: string, file = '<input>'): BabiCandidates {
  const { lines, eol, finalNewline } = splitLines(text);
  if (lines.length === 0) throw new FormatError(file, 1, 'empty file: no candidate');
  const candidates: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const m = ID_RE.exec(raw);
    if (!m) throw new FormatError(file, i + 1, raw === '' ? 'empty line in a candidates file' : `line does not start with a numeric ID and a space: ${JSON.stringify(clip(raw))}`);
    const text = raw.slice(m[0].length);
    if (text.trim() === '') throw new FormatError(file, i + 1, 'empty candidate');
    if (text.includes('\t')) throw new FormatError(file, i + 1, 'TAB in a candidate (is this a dialog file?)');
    candidates.push(text);
  }
  return { candidates, finalNewline, eol };
}

export function formatBabiCandidates(c: { candidates: readonly string[]; finalNewline?: boolean; eol?: '\n' | '\r\n' }): string {
  const eol = c.eol ?? '\n';
  const s = c.candidates.map((x) => `1 ${x}`).join(eol);
  return c.finalNewline === false ? s : s + eol;
}

export function readBabiCandidates(file: string): BabiCandidates {
  return parseBabiCandidates(readTextFile(file), file);
}

/** Parses a KB file: `1 name R_attr<TAB>value` or `1 name R_attr value`. */
export function parseBabiKb(text: string, file = '<input>'): BabiKbFile {
  const { lines, eol, finalNewline } = splitLines(text);
  if (lines.length === 0) throw new FormatError(file, 1, 'empty file: no KB fact');
  const facts: KbFact[] = [];
  let sep: '\t' | ' ' | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const m = ID_RE.exec(raw);
    if (!m) throw new FormatError(file, i + 1, raw === '' ? 'empty line in a KB file' : `line does not start with a numeric ID and a space: ${JSON.stringify(clip(raw))}`);
    const rest = raw.slice(m[0].length);
    const f = /^(\S+) (R_\S+)([\t ])(\S.*)$/.exec(rest);
    if (!f) throw new FormatError(file, i + 1, `expected \`name R_attr value\`, got ${JSON.stringify(clip(rest))}`);
    const s = f[3] as '\t' | ' ';
    if (sep === undefined) sep = s;
    else if (s !== sep) throw new FormatError(file, i + 1, `attribute/value separator changes from ${sep === '\t' ? 'TAB' : 'space'} to ${s === '\t' ? 'TAB' : 'space'}`);
    facts.push({ entity: f[1] as string, attr: f[2] as string, value: f[4] as string });
  }
  return { facts, sep: sep ?? '\t', finalNewline, eol };
}

export function formatBabiKb(kb: { facts: readonly KbFact[]; sep?: '\t' | ' '; finalNewline?: boolean; eol?: '\n' | '\r\n' }): string {
  const eol = kb.eol ?? '\n';
  const sep = kb.sep ?? '\t';
  const s = kb.facts.map((f) => `1 ${f.entity} ${f.attr}${sep}${f.value}`).join(eol);
  return kb.finalNewline === false ? s : s + eol;
}

export function readBabiKb(file: string): BabiKbFile {
  return parseBabiKb(readTextFile(file), file);
}

function clip(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}
