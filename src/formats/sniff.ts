/**
 * What kind of file a file looks like, for errors that name the mistake: when a reader cannot
 * parse a file, it asks `sniff` what the file is, and a file of another known kind gets
 * `x.txt looks like a bAbI KB file, not a bAbI dialog file` (the CLI says which flag takes what:
 * `x.txt looks like a bAbI KB file; --data takes a bAbI dialog file`) instead of the parser's
 * complaint about some line. Only the error path sniffs: a file that parses pays nothing.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { FormatError } from '../core/errors.js';
import { readTextFile } from '../core/files.js';

/** The kinds of file dialogym reads, and how a message names each. */
export const FILE_KINDS = {
  'babi-dialogs': 'a bAbI dialog file',
  'babi-candidates': 'a bAbI candidates file',
  'babi-kb': 'a bAbI KB file',
  'dstc6-kb': 'a DSTC6 extended KB file',
  'dstc6-data': 'a DSTC6 dataset file (JSON)',
  'dstc6-results': 'a DSTC6 result or answers file (JSON)',
  'airdialogue-data': 'an AirDialogue data file (JSON Lines)',
  'airdialogue-kb': 'an AirDialogue KB file (JSON Lines)',
  'infobot-kb': 'a KB-InfoBot movie table (TSV)',
  'model-file': 'a dialogym model file',
  sqlite: 'an SQLite database',
} as const;

export type FileKind = keyof typeof FILE_KINDS;

/** A file of one known kind given where another was expected. `looksLike` is what it seems to be, `expected` what the reader wanted. */
export class MisreadError extends FormatError {
  readonly looksLike: FileKind;
  /** How a message names what it looks like (`a bAbI KB file`). */
  readonly looksLikeName: string;
  readonly expected: string;
  constructor(file: string, looksLike: FileKind, expected: string, options?: { cause?: unknown }) {
    super(file, undefined, `looks like ${FILE_KINDS[looksLike]}, not ${expected}`, { ...options, message: `${file} looks like ${FILE_KINDS[looksLike]}, not ${expected}` });
    this.looksLike = looksLike;
    this.looksLikeName = FILE_KINDS[looksLike];
    this.expected = expected;
  }
}

/** Bytes of a file's start that sniffing reads. */
const HEAD_BYTES = 64 * 1024;

const KB_TAB = /^1 \S+ [rR]_[A-Za-z0-9_]+\t\S.*$/;
const KB_SPACE = /^1 \S+ [rR]_[A-Za-z0-9_]+ \S+$/;

/** The kind of a file from the start of its content (text or bytes), or undefined when none fits. */
export function sniff(head: string | Uint8Array): FileKind | undefined {
  const bytes = typeof head === 'string' ? undefined : head;
  if (bytes !== undefined) {
    const magic = Buffer.from(bytes.subarray(0, 16)).toString('latin1');
    if (magic.startsWith('SQLite format 3\0')) return 'sqlite';
    if (magic.startsWith('DIALOGYM')) return 'model-file';
  }
  const text = (typeof head === 'string' ? head : Buffer.from(head.subarray(0, HEAD_BYTES)).toString('utf8')).slice(0, HEAD_BYTES);
  if (text.startsWith('DIALOGYM')) return 'model-file';
  if (text.startsWith('SQLite format 3')) return 'sqlite';
  const start = text.trimStart();
  if (start.startsWith('[')) {
    if (/"utterances"\s*:/.test(start) && /"candidates"\s*:/.test(start)) return 'dstc6-data';
    if (/"lst_candidate_id"\s*:/.test(start)) return 'dstc6-results';
    return undefined;
  }
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (text.length >= HEAD_BYTES) lines.pop(); // maybe cut
  const first = lines[0] ?? '';
  if (start.startsWith('{')) {
    if (/"(intent|dialogue|expected_action)"\s*:/.test(first)) return 'airdialogue-data';
    if (/"kb"\s*:/.test(first) && /"(reservation|flight_number)"\s*:/.test(first)) return 'airdialogue-kb';
    return undefined;
  }
  const body = lines.filter((l) => l !== '').slice(0, 200);
  if (body.length === 0) return undefined;
  if (/^\d+ /.test(first)) {
    if (body.every((l) => KB_TAB.test(l))) return body.some((l) => /[rR]_(atmosphere|restrictions)\t/.test(l)) ? 'dstc6-kb' : 'babi-kb';
    if (body.every((l) => KB_SPACE.test(l))) return 'babi-kb';
    if (body.every((l) => l.startsWith('1 ') && !l.includes('\t'))) return 'babi-candidates';
    // Dialogs: IDs that go up by one, TABs between user and bot.
    let last = 0;
    let ordered = true;
    for (const l of body) {
      const id = Number(/^(\d+) /.exec(l)?.[1] ?? NaN);
      if (!(id === 1 || id === last + 1)) ordered = false;
      last = id;
    }
    if (ordered && body.some((l) => l.includes('\t')) && body.some((l) => !l.startsWith('1 '))) return 'babi-dialogs';
    return undefined;
  }
  const columns = first.split('\t').length;
  if (columns >= 3 && body.length >= 2 && body.slice(1, 20).every((l) => l.split('\t').length === columns)) return 'infobot-kb';
  return undefined;
}

/** The first bytes of a file (empty when it cannot be read). */
export function fileHead(file: string): Uint8Array {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, n);
  } catch {
    return new Uint8Array(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The error to throw for `e`, raised while reading `file` (content `head`) as one of `accepted`
 * (described as `expected`, e.g. 'a bAbI dialog file'): a MisreadError when the file looks like
 * another known kind, else `e` itself.
 */
export function misread(e: unknown, head: string | Uint8Array, file: string, accepted: readonly FileKind[], expected: string): unknown {
  if (!(e instanceof FormatError) || e instanceof MisreadError) return e;
  const kind = sniff(head);
  return kind !== undefined && !accepted.includes(kind) ? new MisreadError(file, kind, expected, { cause: e }) : e;
}

/** Parses `text` (the content of `file`) with `parse`; a failure is passed through `misread`. */
export function parseAs<T>(text: string, file: string, accepted: readonly FileKind[], expected: string, parse: (text: string, file: string) => T): T {
  try {
    return parse(text, file);
  } catch (e) {
    throw misread(e, text, file, accepted, expected);
  }
}

/** `readTextFile`, where a binary file of a known kind (a model file, an SQLite KB) is a MisreadError. */
export function readTextAs(file: string, accepted: readonly FileKind[], expected: string): string {
  try {
    return readTextFile(file);
  } catch (e) {
    throw misread(e, fileHead(file), file, accepted, expected);
  }
}
