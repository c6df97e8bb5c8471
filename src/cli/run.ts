/** Shared plumbing for CLI verbs: one-line errors, exit codes, flag parsing helpers. */
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
