/**
 * File reading with one-line errors (whole files, or line by line), atomic writes (temp file +
 * rename) and folders written as a whole (`StagedFolder`: staging folder + rename, or a marker that
 * every reader here checks while the files of an existing folder are swapped one by one).
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, basename, join, resolve, sep } from 'node:path';
import { homedir } from 'node:os';
import { FormatError, InternalError } from './errors.js';
import { pidAlive } from './pids.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Largest text file read whole (256 MiB; V8 strings stop at 512 Mi UTF-16 units, the originals are < 10 MB; larger files are read line by line: `readLines`). */
export const MAX_TEXT_FILE_BYTES = 256 * 1024 * 1024;

/** The one-line FormatError for a file-system error `e` met reading `file` (a FormatError passes through). */
function readFailure(file: string, e: unknown): FormatError {
  if (e instanceof FormatError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : code === 'EACCES' ? 'permission denied' : `cannot read (${code ?? String(e)})`;
  return new FormatError(file, undefined, reason);
}

/** Opens `file` for reading; errors as `readTextFile` says them. */
function openForReading(file: string): number {
  checkComplete(file);
  try {
    return openSync(file, 'r');
  } catch (e) {
    throw readFailure(file, e);
  }
}

/** Options of `readTextFile`. */
export interface TextFileOptions {
  /** Largest file accepted, in bytes (default and upper bound `MAX_TEXT_FILE_BYTES`, 256 MiB). */
  maxBytes?: number;
}

/**
 * Reads a UTF-8 text file. A missing/unreadable file, one over 256 MiB (or `o.maxBytes`), a file
 * holding NUL bytes or invalid UTF-8 throws a FormatError naming the file (and the line, for
 * binary content), and so does a file an interrupted `StagedFolder` commit was replacing. A leading
 * byte-order mark is dropped.
 *
 * @example
 * ```ts
 * import { readTextFile } from 'dialogym';
 * const text = readTextFile('data/dialog-bAbI-tasks/dialog-babi-candidates.txt');
 * const lines = text.split('\n').length;
 * ```
 */
export function readTextFile(file: string, o: TextFileOptions = {}): string {
  const max = Math.min(o.maxBytes ?? MAX_TEXT_FILE_BYTES, MAX_TEXT_FILE_BYTES);
  checkComplete(file);
  let buf: Buffer;
  try {
    const size = statSync(file).size;
    if (size > max) throw new FormatError(file, undefined, `file too large (${size} bytes; at most ${max})`);
    buf = readFileSync(file);
  } catch (e) {
    throw readFailure(file, e);
  }
  const nul = buf.indexOf(0);
  if (nul >= 0) throw new FormatError(file, lineOfOffset(buf, nul), 'binary data (NUL byte), not a text file');
  try {
    return decoder.decode(buf);
  } catch {
    throw new FormatError(file, firstInvalidUtf8Line(buf), 'binary data (invalid UTF-8), not a text file');
  }
}

function lineOfOffset(buf: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (buf[i] === 10) line++;
  return line;
}

function firstInvalidUtf8Line(buf: Buffer): number {
  let start = 0;
  let line = 1;
  for (let i = 0; i <= buf.length; i++) {
    if (i === buf.length || buf[i] === 10) {
      try {
        decoder.decode(buf.subarray(start, i));
      } catch {
        return line;
      }
      start = i + 1;
      line++;
    }
  }
  return line;
}

// ---------------------------------------------------------------------------------------------
// line by line

/** Longest line `readLines` accepts by default (16 MiB; an AirDialogue KB line is about 9 KB). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Bytes per read of `readLines` (1 MiB). */
const CHUNK_BYTES = 1024 * 1024;

/**
 * One line of a file as `readLines` gives it: its text (without the newline; a `\r` before it is
 * kept, as `text.split('\n')` keeps it), its number (1-based) and the byte offset just past it.
 *
 * @example
 * ```ts
 * import { readLines, type TextLine } from 'dialogym';
 * const first: TextLine | undefined = readLines('data/airdialogue/dev_kb.json').next().value ?? undefined;
 * console.log(first?.line, first?.end); // 1, the byte offset where line 2 starts
 * ```
 */
export interface TextLine {
  readonly text: string;
  readonly line: number;
  /** Byte offset just past the line and its newline: where the next line starts. */
  readonly end: number;
}

/**
 * Options of `readLines`.
 *
 * @example
 * ```ts
 * import type { LineReadOptions } from 'dialogym';
 * const o: LineReadOptions = { maxLineBytes: 1 << 20 };
 * ```
 */
export interface LineReadOptions {
  /** Longest line accepted, in bytes without its newline (default `MAX_LINE_BYTES`, 16 MiB). */
  maxLineBytes?: number;
  /** Bytes per read (default 1 MiB; tests make it small to cut lines across reads). */
  chunkBytes?: number;
  /** Byte offset of a line start to begin at (default 0; `lineOffset` finds one). */
  start?: number;
  /** The number of the line at `start` (default 1). */
  firstLine?: number;
}

/**
 * Reads a UTF-8 text file line by line, in chunks: the lines `readTextFile(file).split('\n')`
 * gives (without the empty string after a final newline), but never the whole file in memory, at
 * any file size. The file is held open until the loop ends (or breaks). Errors are FormatErrors
 * with the file and, for content, the line: a missing/unreadable file as `readTextFile` says it,
 * a line longer than `maxLineBytes` (found without buffering more of it), NUL bytes or invalid
 * UTF-8 in a line. A byte-order mark at the start of the file is dropped. Unlike `readTextFile`,
 * which checks the whole file for binary content first, the first bad line is reported first.
 *
 * @example
 * ```ts
 * import { readLines } from 'dialogym';
 * let longest = 0;
 * for (const { text, line } of readLines('data/airdialogue/train_kb.json')) if (text.length > longest) longest = text.length;
 * ```
 */
export function* readLines(file: string, o: LineReadOptions = {}): Generator<TextLine, void, undefined> {
  const max = o.maxLineBytes ?? MAX_LINE_BYTES;
  const chunk = Buffer.alloc(Math.max(1, o.chunkBytes ?? CHUNK_BYTES));
  const fd = openForReading(file);
  try {
    let pos = o.start ?? 0;
    let line = o.firstLine ?? 1;
    let atFileStart = pos === 0;
    // The bytes of the current line read so far (copies of pieces of earlier chunks), and their length.
    let pieces: Buffer[] = [];
    let pending = 0;
    const lineOf = (bytes: Buffer, end: number): TextLine => {
      if (bytes.indexOf(0) >= 0) throw new FormatError(file, line, 'binary data (NUL byte), not a text file');
      if (!isUtf8(bytes)) throw new FormatError(file, line, 'binary data (invalid UTF-8), not a text file');
      const bom = atFileStart && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      atFileStart = false;
      return { text: bytes.toString('utf8', bom ? 3 : 0), line: line++, end };
    };
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, pos);
      } catch (e) {
        throw readFailure(file, e);
      }
      if (n === 0) break;
      let from = 0;
      while (from < n) {
        const nl = chunk.indexOf(10, from);
        const stop = nl < 0 || nl >= n ? n : nl;
        if (pending + (stop - from) > max) throw new FormatError(file, line, `line longer than ${max} bytes`);
        if (stop === n) {
          pieces.push(Buffer.from(chunk.subarray(from, n)));
          pending += n - from;
          break;
        }
        const bytes = pieces.length === 0 ? chunk.subarray(from, stop) : Buffer.concat([...pieces, chunk.subarray(from, stop)]);
        pieces = [];
        pending = 0;
        yield lineOf(bytes, pos + stop + 1);
        from = stop + 1;
      }
      pos += n;
    }
    // The last line, unless nothing follows the last newline (or the file is a byte-order mark alone, which reads as empty text).
    const rest = Buffer.concat(pieces);
    if (pending > 0 && !(atFileStart && isBom(rest))) yield lineOf(rest, pos);
  } finally {
    closeSync(fd);
  }
}

/** Whether `bytes` are a UTF-8 byte-order mark and nothing else. */
function isBom(bytes: Uint8Array): boolean {
  return bytes.length === 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Counts the lines of `file` from byte offset `start` (a line start) to its end, as `readLines`
 * would give them (a final newline ends the last line; it does not start another), without
 * decoding them. File-system errors as `readLines`.
 *
 * @example
 * ```ts
 * import { countLines } from 'dialogym';
 * const dialogues = countLines('data/airdialogue/train_data.json'); // 321459 in the full release
 * ```
 */
export function countLines(file: string, start = 0): number {
  const r = scanLines(file, start, Infinity);
  return r.lines;
}

/**
 * The byte offset where line `n` (1-based) of `file` starts, found by scanning for newlines (no
 * decoding, no parsing); `undefined` when the file has fewer than `n` lines, with `lines` the
 * count it has. File-system errors as `readLines`.
 *
 * @example
 * ```ts
 * import { lineOffset, readLines } from 'dialogym';
 * const file = 'data/airdialogue/train_kb.json';
 * const at = lineOffset(file, 200000);
 * if (at.offset !== undefined) for (const l of readLines(file, { start: at.offset, firstLine: 200000 })) { console.log(l.text.length); break; }
 * ```
 */
export function lineOffset(file: string, n: number): { offset: number | undefined; lines: number } {
  if (!Number.isInteger(n) || n < 1) throw new InternalError(`lineOffset: line ${n} is not a positive integer`);
  if (n === 1) {
    const lines = scanLines(file, 0, 0).lines;
    return { offset: lines > 0 ? 0 : undefined, lines };
  }
  const r = scanLines(file, 0, n - 1);
  // Line n exists when n - 1 newlines were found and bytes follow the last of them.
  return r.lines >= n ? { offset: r.offset, lines: r.lines } : { offset: undefined, lines: r.lines };
}

/**
 * Scans `file` from `start` for newlines until `stopAfter` of them are found or the file ends.
 * Returns the lines seen (a last line without a newline counts; when stopping early, the line
 * after the last newline counts if it has any byte) and the offset just past the last newline counted.
 */
function scanLines(file: string, start: number, stopAfter: number): { lines: number; offset: number } {
  const fd = openForReading(file);
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let pos = start;
    let newlines = 0;
    let offset = start;
    let tail = false; // bytes after the last newline
    // Line 1 exists when the file has a byte, other than a byte-order mark alone (empty text).
    const firstExists = (): boolean => {
      const n = readSync(fd, chunk, 0, 4, start);
      return n > 0 && !(start === 0 && isBom(chunk.subarray(0, n)));
    };
    if (stopAfter === 0) return { lines: firstExists() ? 1 : 0, offset: start };
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, pos);
      if (n === 0) break;
      let from = 0;
      for (;;) {
        const nl = chunk.indexOf(10, from);
        if (nl < 0 || nl >= n) break;
        newlines++;
        offset = pos + nl + 1;
        from = nl + 1;
        if (newlines === stopAfter) {
          tail = from < n || readSync(fd, chunk, 0, 1, offset) > 0;
          return { lines: newlines + (tail ? 1 : 0), offset };
        }
      }
      tail = from < n;
      pos += n;
    }
    if (newlines === 0 && tail) tail = firstExists();
    return { lines: newlines + (tail ? 1 : 0), offset };
  } catch (e) {
    throw readFailure(file, e);
  } finally {
    closeSync(fd);
  }
}

let tmpCounter = 0;

/**
 * Creates `dir` and its missing parents, one level at a time: Node 20's `mkdirSync(…, { recursive:
 * true })` never returns for a path under /proc (ENOENT on every retry); here the error of the
 * level that cannot be made is thrown (a file where a folder should be: ENOTDIR).
 */
export function makeFolders(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (statSync(dir).isDirectory()) return;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR', syscall: 'mkdir', path: dir });
    }
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw e;
    makeFolders(parent);
    mkdirSync(dir);
  }
}

/** A fresh temp file name in `file`'s folder (created when missing), for a write renamed onto `file`. */
function tempBeside(file: string): string {
  const dir = dirname(file);
  makeFolders(dir);
  return join(dir, `.${basename(file)}.${process.pid}.${tmpCounter++}.tmp`);
}

/**
 * Writes `data` to `file` via a temp file in the same folder and a rename: readers never see a
 * half-written file. Creates missing parent folders; file-system errors (Node's, not dialogym's
 * classes) are rethrown after the temp file is removed.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from 'dialogym';
 * writeFileAtomic('out/results.txt', 'line 1\n');
 * writeFileAtomic('out/weights.bin', new Uint8Array([1, 2, 3]));
 * ```
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = tempBeside(file);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * A file written piece by piece and atomically: the pieces go to a temp file in the same folder
 * (buffered, flushed every 64 KiB), `commit` renames it onto `file`, `abort` removes it. Readers
 * never see a half-written file, and the writer holds at most one buffer in memory (e.g. `eval
 * --predictions` streams one line per bot turn). Missing parent folders are created.
 */
export class AtomicFileWriter {
  /** The temp file the pieces go to until `commit`. */
  readonly tmp: string;
  private fd: number | undefined;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(readonly file: string) {
    this.tmp = tempBeside(file);
    this.fd = openSync(this.tmp, 'w');
  }

  /** Appends `text` (written to the temp file once 64 KiB are pending, or at `flush`/`commit`). */
  write(text: string): void {
    if (this.fd === undefined) throw new InternalError(`${this.file}: write after commit or abort`);
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= 65536) this.flush();
  }

  /** Writes what is pending to the temp file. */
  flush(): void {
    if (this.fd === undefined || this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    try {
      writeSync(this.fd, text);
    } catch (e) {
      this.abort();
      throw e;
    }
  }

  /** Flushes, closes and renames the temp file onto the target. */
  commit(): void {
    this.flush();
    if (this.fd === undefined) throw new InternalError(`${this.file}: commit after commit or abort`);
    closeSync(this.fd);
    this.fd = undefined;
    try {
      renameSync(this.tmp, this.file);
    } catch (e) {
      rmSync(this.tmp, { force: true });
      throw e;
    }
  }

  /** Drops what was written: closes and removes the temp file (nothing happens after `commit`). */
  abort(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    this.pending = [];
    rmSync(this.tmp, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// folders written as a whole

/**
 * The marker an interrupted `StagedFolder` commit leaves in a folder whose files it was replacing
 * one by one: JSON `{writer, files}`. While it names a file, every reader here (`readTextFile`,
 * `readLines`, `countLines`, `lineOffset`) refuses that file in one line.
 */
export const INCOMPLETE_MARKER = '.dialogym-incomplete';
/** The staging folder of a commit into an existing folder: `<folder>/.dialogym-staging.<pid>.<n>`. */
const INSIDE_STAGING = /^\.dialogym-staging\.(\d+)\.\d+$/;
/** A temp file of `writeFileAtomic` / `AtomicFileWriter` (`.<name>.<pid>.<n>.tmp`), or the CLI's probe of an output folder (`.<name>.<pid>.check.tmp`). */
const TEMP_FILE = /^\..+\.(\d+)\.(?:\d+|check)\.tmp$/;

interface Marker {
  readonly writer: string;
  readonly files: readonly string[] | undefined;
}

/** The marker of `dir`, or undefined when there is none (an unreadable marker names every file). */
function readMarker(dir: string): Marker | undefined {
  const file = join(dir, INCOMPLETE_MARKER);
  if (!existsSync(file)) return undefined;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as { writer?: unknown; files?: unknown };
    const files = Array.isArray(m.files) && m.files.every((f) => typeof f === 'string') ? (m.files as string[]) : undefined;
    return { writer: typeof m.writer === 'string' ? m.writer : 'a write', files };
  } catch {
    return { writer: 'a write', files: undefined };
  }
}

/**
 * Throws a one-line FormatError when `file` is one an interrupted `StagedFolder` commit was
 * replacing (its folder's `INCOMPLETE_MARKER` names it): the folder mixes the old and the new files.
 *
 * @example
 * ```ts
 * import { checkComplete } from 'dialogym';
 * checkComplete('data/gen/dialog-babi-task1-API-calls-trn.txt'); // throws while the folder is half rewritten
 * ```
 */
export function checkComplete(file: string): void {
  const m = readMarker(dirname(file));
  if (!m || (m.files !== undefined && !m.files.includes(basename(file)))) return;
  throw new FormatError(file, undefined, `incomplete: \`${m.writer}\` was stopped while it replaced the files of this folder (part old, part new); run it again`);
}

/** Whether process `pid` may still run (this process counts as running: its leftovers are its own to remove). */
function running(pid: number): boolean {
  return pid === process.pid || pidAlive(pid);
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** `.<base>.<pid>.<n>.staging` / `.old` beside the folder `base`. */
function besidePattern(base: string): RegExp {
  return new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.\\d+\\.(staging|old)$`);
}

/**
 * Removes what writers killed before they finished left in and beside the folder `dir`: temp files
 * of atomic writes (`.<name>.<pid>.<n>.tmp`, and the CLI's `.<name>.<pid>.check.tmp` probes) and staging folders of `StagedFolder`, of processes
 * no longer running. When `dir` itself is missing because a commit was killed between its two
 * renames, the old folder is put back. The marker of a half-replaced folder stays (its files stay
 * mixed until they are written again). Returns how many leftovers were removed or put back.
 *
 * @example
 * ```ts
 * import { removeLeftovers } from 'dialogym';
 * const n = removeLeftovers('data/gen'); // 0 when no killed write left anything
 * ```
 */
export function removeLeftovers(dir: string): number {
  const abs = resolve(dir);
  const parent = dirname(abs);
  let n = 0;
  const pattern = besidePattern(basename(abs));
  // The old folder first (put back when the folder is missing), then the staging folders.
  const beside = entries(parent)
    .map((e) => ({ e, m: pattern.exec(e) }))
    .filter((x) => x.m !== null && !running(Number(x.m[1])))
    .sort((a, b) => (a.m?.[2] === 'old' ? -1 : 0) - (b.m?.[2] === 'old' ? -1 : 0));
  for (const { e, m } of beside) {
    const path = join(parent, e);
    if (m?.[2] === 'old' && !existsSync(abs)) renameSync(path, abs);
    else rmSync(path, { recursive: true, force: true });
    n++;
  }
  for (const e of entries(abs)) {
    const m = INSIDE_STAGING.exec(e) ?? TEMP_FILE.exec(e);
    if (!m || running(Number(m[1]))) continue;
    rmSync(join(abs, e), { recursive: true, force: true });
    n++;
  }
  return n;
}

let stagingCounter = 0;

/**
 * A folder of files written as a whole. The files go to a staging folder (`path(name)` /
 * `write(name, data)`); `commit` puts them in place:
 *  - a folder that did not exist is the staging folder renamed: readers see all the files or none;
 *  - an existing folder holding nothing but files of this commit (a folder the writer owns, e.g.
 *    the same dataset written again) is swapped: renamed aside, the staging folder renamed in, the
 *    old one removed — unless it is a symbolic link or holds the current directory;
 *  - any other folder (it holds the user's other files) gets the files one rename at a time, with
 *    `INCOMPLETE_MARKER` naming them until the last one is in: readers refuse them meanwhile.
 * Opening one first removes the leftovers of killed writers (`removeLeftovers`). File-system errors
 * are Node's; the staging folder is removed on `abort` and on a failed commit.
 *
 * @example
 * ```ts
 * import { StagedFolder } from 'dialogym';
 * const out = new StagedFolder('data/gen', 'dialogym generate restaurant');
 * out.write('a.txt', 'one\n');
 * out.write('b.txt', 'two\n');
 * out.commit(); // both files appear in data/gen, or (killed before) the folder is as it was
 * ```
 */
export class StagedFolder {
  /** Where the files go until `commit`. */
  private staging: string;
  private state: 'open' | 'committed' | 'aborted' = 'open';

  /** `writer` names the command in the one-line refusal of a half-replaced folder. */
  constructor(
    readonly dir: string,
    readonly writer: string,
  ) {
    removeLeftovers(dir);
    const abs = resolve(dir);
    const n = stagingCounter++;
    if (existsSync(abs)) this.staging = join(abs, `.dialogym-staging.${process.pid}.${n}`);
    else {
      makeFolders(dirname(abs));
      this.staging = join(dirname(abs), `.${basename(abs)}.${process.pid}.${n}.staging`);
    }
    mkdirSync(this.staging);
  }

  /** The staging path of the file `name` (a plain file name: no folder, not a marker or staging name). */
  path(name: string): string {
    if (this.state !== 'open') throw new InternalError(`${this.dir}: write after commit or abort`);
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes(sep) || name.startsWith('.dialogym-') || TEMP_FILE.test(name))
      throw new InternalError(`${this.dir}: '${name}' cannot be a file of a staged folder`);
    return join(this.staging, name);
  }

  /** Writes the file `name` to the staging folder. */
  write(name: string, data: string | Uint8Array): void {
    writeFileSync(this.path(name), data);
  }

  /** Puts the staged files in place (see the class); returns their names, sorted. */
  commit(): string[] {
    if (this.state !== 'open') throw new InternalError(`${this.dir}: commit after commit or abort`);
    this.state = 'committed';
    const abs = resolve(this.dir);
    try {
      const names = readdirSync(this.staging).sort();
      if (!existsSync(abs) && dirname(this.staging) === dirname(abs)) renameSync(this.staging, abs);
      else if (!(this.owned(abs, names) && this.swap(abs))) this.replaceFiles(abs, names);
      return names;
    } finally {
      rmSync(this.staging, { recursive: true, force: true });
    }
  }

  /** Drops the staged files. */
  abort(): void {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    rmSync(this.staging, { recursive: true, force: true });
  }

  /** Whether `abs` is a real folder (no link), away from the current directory, holding only files named in `names` (and this commit's staging and marker). */
  private owned(abs: string, names: readonly string[]): boolean {
    try {
      if (!lstatSync(abs).isDirectory()) return false;
    } catch {
      return false;
    }
    const cwd = process.cwd();
    if (cwd === abs || cwd.startsWith(abs.endsWith(sep) ? abs : abs + sep)) return false;
    const own = new Set([...names, INCOMPLETE_MARKER, basename(this.staging)]);
    return readdirSync(abs).every((e) => own.has(e));
  }

  /** Swaps the folder for the staging folder (false, nothing changed, when it cannot: the staging folder cannot be moved beside it). */
  private swap(abs: string): boolean {
    const parent = dirname(abs);
    const n = stagingCounter++;
    const fresh = join(parent, `.${basename(abs)}.${process.pid}.${n}.staging`);
    const old = join(parent, `.${basename(abs)}.${process.pid}.${n}.old`);
    try {
      renameSync(this.staging, fresh);
    } catch {
      return false;
    }
    this.staging = fresh;
    try {
      renameSync(abs, old);
    } catch {
      return false; // files one by one, from beside (the same file system: the staging folder was just moved out of it)
    }
    try {
      renameSync(fresh, abs);
    } catch (e) {
      renameSync(old, abs);
      throw e;
    }
    rmSync(old, { recursive: true, force: true });
    return true;
  }

  /** Renames the files in one by one under the marker (files an earlier killed commit left named stay named until written). */
  private replaceFiles(abs: string, names: readonly string[]): void {
    const marker = join(abs, INCOMPLETE_MARKER);
    const before = readMarker(abs)?.files ?? [];
    writeFileAtomic(marker, JSON.stringify({ writer: this.writer, files: [...new Set([...before, ...names])] }) + '\n');
    for (const name of names) renameSync(join(this.staging, name), join(abs, name));
    const left = before.filter((f) => !names.includes(f));
    if (left.length > 0) writeFileAtomic(marker, JSON.stringify({ writer: this.writer, files: left }) + '\n');
    else rmSync(marker, { force: true });
  }
}

/**
 * Writes `files` as the folder `dir` with a `StagedFolder` (all or nothing; see there); returns the names written.
 *
 * @example
 * ```ts
 * import { writeFolder } from 'dialogym';
 * writeFolder('results', 'dialogym benchmark', [{ name: 'benchmark.md', data: '| … |\n' }]);
 * ```
 */
export function writeFolder(dir: string, writer: string, files: Iterable<{ readonly name: string; readonly data: string | Uint8Array }>): string[] {
  const staged = new StagedFolder(dir, writer);
  try {
    for (const f of files) staged.write(f.name, f.data);
  } catch (e) {
    staged.abort();
    throw e;
  }
  return staged.commit();
}

/**
 * The user's dialogym folder, where trained outputs go by default (never the installed package,
 * which may be read-only or inside `node_modules`): `$DIALOGYM_HOME`, else
 * `$XDG_CACHE_HOME/dialogym`, else `~/.cache/dialogym`. Not created here.
 *
 * @example
 * ```ts
 * import { join } from 'node:path';
 * import { userDataDir } from 'dialogym';
 * const policies = join(userDataDir(), 'policies', 'infobot'); // where `infobot train` writes
 * ```
 */
export function userDataDir(): string {
  const own = process.env.DIALOGYM_HOME;
  if (own) return own;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'dialogym');
}
