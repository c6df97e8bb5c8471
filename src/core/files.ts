/** File reading with one-line errors, and atomic writes (temp file + rename). */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { homedir } from 'node:os';
import { FormatError } from './errors.js';

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
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${tmpCounter++}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
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
