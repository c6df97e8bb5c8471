/**
 * The CLI plumbing that needs no commander: one-line errors, exit codes, flag value parsers,
 * output, file lists. The commander-free paths (`dstc6 score` on a plain command line, see
 * ./index.ts) import this module alone; verbs import it through ./run.ts.
 */
import { readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, DialogymError, InternalError, describeError } from '../core/errors.js';

/** Whether --debug was given (stack traces on errors). */
export function debugEnabled(): boolean {
  return process.argv.includes('--debug') || process.env.DIALOGYM_DEBUG === '1';
}

/** Wraps a verb's action: errors become `error: <message>` on stderr and a non-zero exit code. */
export function action<A extends unknown[]>(fn: (...args: A) => void | Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      fail(e);
    }
  };
}

export function fail(e: unknown): never {
  if (debugEnabled() && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  const bug = e instanceof InternalError ? ' (a bug in dialogym: rerun with --debug and report it)' : '';
  process.stderr.write(`error: ${describeError(e)}${bug}\n`);
  process.exit(e instanceof DialogymError ? e.exitCode : 1);
}

/** Parses an integer flag value, with a one-line error naming the flag. */
export function intFlag(name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): (v: string) => number {
  return (v: string) => {
    if (!/^-?\d+$/.test(v.trim())) throw new ConfigError(`${name}: expected an integer, got '${v}'`);
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${name}: ${v} is out of range [${min}, ${max}]`);
    return n;
  };
}

/** Parses a float flag value. */
export function floatFlag(name: string, min = -Infinity, max = Infinity): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new ConfigError(`${name}: expected a number in [${min}, ${max}], got '${v}'`);
    return n;
  };
}

/** Writes a line to stdout. */
export function out(line: string): void {
  process.stdout.write(line + '\n');
}

/** Ends the process quietly (exit 0) when the reader of `stream` has gone (EPIPE: `dialogym … | head`). */
export function exitOnEpipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
  });
}

/**
 * Writes `text` to stdout with blocking writes on fd 1, without creating `process.stdout` (a
 * stream over a pipe costs ~2 ms of a ~65 ms call: what the plain `dstc6 score` prints through).
 * A closed pipe (EPIPE) ends the process quietly, as `exitOnEpipe` does for the stream; a
 * non-blocking stdout that is full (EAGAIN) gets the rest through `process.stdout`. Do not mix
 * with `out` in one run.
 */
export function writeStdoutSync(text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') process.exit(0);
    if (code !== 'EAGAIN') throw e;
    exitOnEpipe(process.stdout);
    process.stdout.write(bytes.subarray(done));
  }
}

/**
 * The files a multi-file flag names: each value may hold several comma-separated paths, and a
 * folder stands for the files under it (recursively, sorted by path) whose name ends with `ext`.
 * A folder with no such file is a ConfigError naming the flag; a path that does not exist is
 * returned as is, for the reader to report.
 */
export function fileList(flag: string, values: string | readonly string[], ext: string): string[] {
  const out: string[] = [];
  for (const value of typeof values === 'string' ? [values] : values) {
    for (const path of value.split(',')) {
      if (path === '') continue;
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        // not there: the reader reports it (`path: no such file`)
      }
      if (!isDir) {
        out.push(path);
        continue;
      }
      const found = filesUnder(path).filter((f) => f.endsWith(ext));
      if (found.length === 0) throw new ConfigError(`${flag}: ${path}: no *${ext} file in this folder`);
      out.push(...found);
    }
  }
  if (out.length === 0) throw new ConfigError(`${flag}: no file given`);
  return out;
}

/** A symbolic link to a file (results often link to a shared run's files); links to folders are not followed (no cycles). */
function isFileBehind(link: string): boolean {
  try {
    return statSync(link).isFile();
  } catch {
    return false; // a dangling link
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile() || (e.isSymbolicLink() && isFileBehind(p))) out.push(p);
  }
  return out;
}
