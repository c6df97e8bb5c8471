/** Running the built CLI in a child process, and the one-line-error assertion the CLI tests share. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cliPath } from './shared-data.js';

/** What a CLI run printed and how it exited (`code` -1 when it was killed by a signal). */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `dialogym <args>` with `input` on stdin (default: none, stdin at its end) and `env` (default: this process's). */
export function runCli(args: readonly string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): CliRun {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', input: opts.input ?? '', ...(opts.env ? { env: opts.env } : {}) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** `dialogym <args>` with nothing on stdin. */
export function cli(...args: string[]): CliRun {
  return runCli(args);
}

/**
 * The run failed (with exit `code` when given, else any non-zero code) with exactly one line on
 * stderr that matches `pattern`, and no stack trace.
 */
export function oneLineError(r: CliRun, pattern: RegExp, code?: number): void {
  if (code === undefined) assert.notEqual(r.code, 0, 'exit code must be non-zero');
  else assert.equal(r.code, code, r.stderr);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one error line expected, got:\n${r.stderr}`);
  assert.match(lines[0] as string, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
}
