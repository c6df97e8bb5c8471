/** Running the built CLI in a child process (to its end, or as a server until stopped), and the one-line-error assertion the CLI tests share. */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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

/** A server process started by `startServer`. */
export interface RunningServer {
  readonly child: ChildProcess;
  /** The `http://127.0.0.1:<port>` it announced on stderr. */
  readonly url: string;
  /** Its exit code (null: ended by a signal). */
  readonly exited: Promise<number | null>;
  /** What it has written on stderr so far. */
  stderr(): string;
}

/**
 * Starts `node <args>` (e.g. `[cliPath, 'serve', …, '--port', '0']`) and waits for the
 * `on http://127.0.0.1:<port>` its stderr announces; rejects with its stderr when it exits first,
 * or when `timeoutMs` pass (it is then killed). Its stdout is ignored.
 */
export function startServer(args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<RunningServer> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(opts.cwd ? { cwd: opts.cwd } : {}), ...(opts.env ? { env: opts.env } : {}) });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${args.join(' ')} did not start within ${opts.timeoutMs ?? 60_000} ms: ${stderr}`));
    }, opts.timeoutMs ?? 60_000);
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = / on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] as string, exited, stderr: () => stderr });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}): ${stderr}`));
    });
  });
}
