/**
 * The CLI plumbing that needs no commander: one-line errors, exit codes, flag value parsers,
 * output, file lists (those two in ./plain-io.cts, which the CommonJS entry ./main.cts uses
 * alone). The commander-free paths (`dstc6 score` on a plain command line, see ./index.ts) import
 * this module alone; verbs import it through ./run.ts.
 */
import { closeSync, mkdirSync, openSync, realpathSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError, DialogymError, FormatError, InternalError, describeError } from '../core/errors.js';
import { processDone } from '../core/exit.js';
import { CATALOGUE } from '../datasets/catalogue.js';
import { resolveRef } from '../datasets/refs.js';
import { dataRoot } from '../datasets/store.js';
import type { FileKind, MisreadError } from '../formats/sniff.js';
import { describeForCli } from './option-flags.js';
import { isFolder, listFiles } from './plain-io.cjs';

export { exitOnEpipe, isFolder, writeStdoutSync } from './plain-io.cjs';

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
  process.stderr.write(`error: ${describeMisread(e) ?? describeSystemError(e) ?? describeForCli(e)}${bug}\n`);
  processDone();
  process.exit(e instanceof DialogymError ? e.exitCode : 1);
}

/** What a failed file-system call could not do, by its errno code. */
const SYSTEM_REASONS: Readonly<Record<string, string>> = {
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'not a folder (a file is in the way)',
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'already exists',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
};

/** The atomic writers' temp file `.<name>.<pid>.<n>.tmp` (src/core/files.ts) → the file it stands for. */
function targetOfTemp(path: string): string {
  return path.replace(/(^|\/)\.([^/]+)\.\d+\.(\d+|check)\.tmp$/, '$1$2');
}

/**
 * Whether `dir` can hold a new file, without leaving anything behind: a file is created and removed
 * in it when it exists, else its first missing level is created and removed (the parents of that
 * level must be folders). A ConfigError naming `flag` when it cannot.
 */
function checkFolderWritable(flag: string, dir: string, name: string): void {
  let base = dir;
  let below: string | undefined; // the first missing level under base, towards dir
  for (;;) {
    const folder = isFolder(base);
    if (folder === false) throw new ConfigError(`${flag}: ${base}: is a file, not a folder`);
    if (folder === true) break;
    const parent = dirname(base);
    if (parent === base) break;
    below = base;
    base = parent;
  }
  try {
    if (below === undefined) {
      const probe = join(dir, `.${name}.${process.pid}.check.tmp`);
      closeSync(openSync(probe, 'w'));
      rmSync(probe, { force: true });
    } else {
      mkdirSync(below);
      rmdirSync(below);
    }
  } catch (e) {
    throw new ConfigError(`${flag}: ${describeSystemError(e) ?? describeError(e)}`);
  }
}

/**
 * Parser of a flag naming an output file (`--out m.dgm`): checks before any work, and without
 * leaving anything behind, that the file can be written (see checkFolderWritable; missing folders
 * are created by the writer at the end), so that a run never computes for minutes and then loses
 * its result to a typo. One-line ConfigError naming the flag.
 */
export function outFileFlag(flag: string): (v: string) => string {
  return (v: string) => {
    if (v.trim() === '') throw new ConfigError(`${flag}: expected a file name, got ''`);
    if (isFolder(v) === true) throw new ConfigError(`${flag}: ${v}: is a directory, not a file`);
    checkFolderWritable(flag, dirname(v), basename(v));
    return v;
  };
}

/** Parser of a flag naming an output folder (`--out dir`): as `outFileFlag`, for a folder (created by the writer when missing). */
export function outFolderFlag(flag: string): (v: string) => string {
  return (v: string) => {
    if (v.trim() === '') throw new ConfigError(`${flag}: expected a folder name, got ''`);
    if (isFolder(v) === false) throw new ConfigError(`${flag}: ${v}: is a file, not a folder`);
    checkFolderWritable(flag, v, 'dialogym');
    return v;
  };
}

/**
 * A one-line `path: cannot <call> (<reason>)` for a Node file-system error (`EISDIR: illegal
 * operation on a directory, rename '…/.out.json.123.0.tmp' -> '…/out.json'`), naming the file the
 * user gave rather than the writers' temp file; undefined for any other error.
 */
export function describeSystemError(e: unknown): string | undefined {
  if (!(e instanceof Error) || e instanceof DialogymError) return undefined;
  const { code, syscall, path, dest } = e as NodeJS.ErrnoException & { dest?: string };
  if (typeof code !== 'string' || typeof syscall !== 'string' || typeof path !== 'string') return undefined;
  const file = targetOfTemp(dest ?? path);
  const temp = file !== (dest ?? path);
  const call = syscall === 'rename' || syscall === 'write' || (syscall === 'open' && temp) ? 'write' : syscall === 'mkdir' ? 'create the folder' : syscall;
  return `${file}: cannot ${call} (${SYSTEM_REASONS[code] ?? code})`;
}

/**
 * The path an input flag's value names: a dataset reference (`babi:task5-tst-oov`, `dstc6:tst1/task1`,
 * `babi` for the folder; docs/data.md) resolved in the data folder (`$DIALOGYM_DATA`, else the user
 * data folder), or the value itself (a path). A reference to a dataset that is not fetched is a
 * one-line ConfigError naming the flag and the `dialogym data fetch` to run.
 */
export function inputPath(flag: string, value: string): string {
  const path = resolveRef(flag, value, CATALOGUE, dataRoot().dir)?.path ?? value;
  FLAGS_OF.set(path, [...(FLAGS_OF.get(path) ?? []), flag]);
  return path;
}

/** The flags (or verbs, for an argument) that named each input file of this run, for `describeMisread`. */
const FLAGS_OF = new Map<string, string[]>();

/** What the flags whose name says it take: a file given to several flags failed in the one that does not take its kind. */
const TAKES: Readonly<Record<string, readonly FileKind[]>> = {
  '--candidates': ['babi-candidates'],
  '--kb': ['babi-kb', 'dstc6-kb', 'airdialogue-kb', 'sqlite'],
  '--dev-kb': ['airdialogue-kb'],
  '--answers': ['dstc6-results'],
  '--result': ['dstc6-results'],
};

/**
 * A file of one kind given where another was expected, naming what the flag takes: `x.txt looks
 * like a bAbI KB file; --data takes a bAbI dialog file` (undefined for any other error).
 */
function describeMisread(e: unknown): string | undefined {
  // A MisreadError (../formats/sniff.ts), known by its fields: this module stays free of the format readers.
  if (!(e instanceof FormatError) || typeof (e as Partial<MisreadError>).looksLikeName !== 'string') return undefined;
  const m = e as MisreadError;
  const flags = FLAGS_OF.get(m.file) ?? [];
  // Given to several flags: the one known not to take its kind, else the one not known to take it.
  const refusing = flags.filter((f) => TAKES[f] !== undefined && !TAKES[f].includes(m.looksLike));
  const unknown = flags.filter((f) => TAKES[f] === undefined);
  const flag = flags.length === 1 ? flags[0] : refusing.length === 1 ? refusing[0] : refusing.length === 0 && unknown.length === 1 ? unknown[0] : undefined;
  return flag === undefined ? undefined : `${m.file} looks like ${m.looksLikeName}; ${flag} takes ${m.expected}`;
}

/** The file a path names, links and `./` resolved (the path itself when it does not exist). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Refuses held-out data that is also training data: a ConfigError when one of the files of `a`
 * (comma-separated) is the file `b` names (`--train and --dev name the same file x.txt`).
 */
export function checkHeldOut(a: readonly [flag: string, files: string], b: readonly [flag: string, file: string | undefined]): void {
  if (b[1] === undefined) return;
  const held = realPath(b[1]);
  const same = a[1].split(',').find((f) => f !== '' && realPath(f) === held);
  if (same !== undefined) throw new ConfigError(`${a[0]} and ${b[0]} name the same file ${b[1]}: ${b[0]} must hold other dialogs than ${a[0]}`);
}

/** Parser of a flag naming an input file or folder: `inputPath`. */
export function inputFlag(flag: string): (v: string) => string {
  return (v: string) => inputPath(flag, v);
}

/** Parser of a flag naming input files joined by commas (`--train babi:task6-trn,babi:task6-dev`): each resolved by `inputPath`. */
export function inputListFlag(flag: string): (v: string) => string {
  return (v: string) => v.split(',').map((p) => (p === '' ? p : inputPath(flag, p))).join(',');
}

/** Parser of a variadic argument naming input files (`stats <file...>`): each resolved by `inputPath`. */
export function inputArgs(name: string): (v: string, previous: string[] | undefined) => string[] {
  return (v: string, previous: string[] | undefined) => [...(previous ?? []), inputPath(name, v)];
}

/** Parses an integer flag value, with a one-line error naming the flag. */
export function intFlag(name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): (v: string) => number {
  return (v: string) => {
    if (!/^-?\d+$/.test(v.trim())) throw new ConfigError(`${name}: expected an integer, got '${v}'`);
    const n = Number(v);
    // The env server's and the library's wording of the same refusal (`"seed" must be >= 0, got -1`).
    if (n < min) throw new ConfigError(`${name}: must be >= ${min}, got ${v.trim()}`);
    if (n > max || !Number.isSafeInteger(n)) throw new ConfigError(`${name}: must be <= ${max}, got ${v.trim()}`);
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

/**
 * Parser of a repeatable `key=value` flag (`--llm-option`, `--env-option`): collects the
 * `key=value`s in order; one without `=` or with an empty key is a ConfigError naming the flag.
 * `check` may refuse a key (a ConfigError of its own). `keyValues` reads the collected list.
 */
export function keyValueFlag(flag: string, check?: (key: string) => void): (v: string, list?: string[]) => string[] {
  return (v: string, list: string[] = []) => {
    const eq = v.indexOf('=');
    if (eq <= 0 || v.slice(0, eq).trim() === '') throw new ConfigError(`${flag}: expected key=value, got '${v}'`);
    check?.(v.slice(0, eq).trim());
    return [...list, v];
  };
}

/** The object of a `keyValueFlag`'s list: each value as JSON when it parses (`40`, `true`, `{"a":1}`), else as the string; a later key overrides an earlier one. */
export function keyValues(list: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of list) {
    const eq = v.indexOf('=');
    const raw = v.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // a plain string
    }
    out[v.slice(0, eq).trim()] = value;
  }
  return out;
}

/** Writes a line to stdout. */
export function out(line: string): void {
  process.stdout.write(line + '\n');
}

/**
 * The files a multi-file flag names: each value may hold several comma-separated paths, and a
 * folder stands for the files under it (recursively, sorted by path) whose name ends with `ext`.
 * A folder with no such file is a ConfigError naming the flag; a path that does not exist is
 * returned as is, for the reader to report.
 */
export function fileList(flag: string, values: string | readonly string[], ext: string): string[] {
  return listFiles(values, ext, (v) => inputPath(flag, v), (reason) => {
    throw new ConfigError(`${flag}: ${reason}`);
  });
}
