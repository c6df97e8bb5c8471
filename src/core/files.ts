/** File reading with one-line errors, and atomic writes (temp file + rename). */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { homedir } from 'node:os';
import { FormatError, InternalError } from './errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Largest text file read (256 MiB; V8 strings stop at 512 Mi UTF-16 units, the originals are < 10 MB). */
const MAX_TEXT_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Reads a UTF-8 text file. A missing/unreadable file, one over 256 MiB, a file holding NUL bytes
 * or invalid UTF-8 throws a FormatError naming the file (and the line, for binary content).
 *
 * @example
 * ```ts
 * import { readTextFile } from 'dialogym';
 * const text = readTextFile('data/dialog-bAbI-tasks/dialog-babi-candidates.txt');
 * const lines = text.split('\n').length;
 * ```
 */
export function readTextFile(file: string): string {
  let buf: Buffer;
  try {
    const size = statSync(file).size;
    if (size > MAX_TEXT_FILE_BYTES) throw new FormatError(file, undefined, `file too large (${size} bytes; at most ${MAX_TEXT_FILE_BYTES})`);
    buf = readFileSync(file);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : code === 'EACCES' ? 'permission denied' : `cannot read (${code ?? String(e)})`;
    throw new FormatError(file, undefined, reason);
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
