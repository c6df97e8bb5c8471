/**
 * The one worker pool of the project, over piscina. A worker module exports
 * `default poolTask((task, post) => result)` (pool-worker.ts); the main thread runs tasks with
 * `pool.run(task)`. On top of piscina:
 * - errors cross the thread as {name, message, …} and are rebuilt as the project's classes
 *   (`ConfigError`, `FormatError`, `ModelFileError`, `DialogymError`, plus the pool's own `errors`),
 *   so the CLI still prints one line and exits with the right code;
 * - `run(task, { onMessage })` gives the task a MessagePort for progress messages, all of them
 *   delivered before the task's promise settles;
 * - `runSync(task)` posts at once and returns a `join()` that blocks in `Atomics.wait` (no event loop
 *   needed) for the answer, for synchronous callers such as a training loop;
 * - a thread whose module fails to load (it throws at import, or while building from its
 *   `workerData`) stays up and answers every task with why (`WorkerStartError`, one line: the
 *   error's first line and the file:line it was thrown at): the thread loads the module itself
 *   (pool-entry.ts, `loadPoolTask`) and its answer reaches a caller blocked in `Atomics.wait` as
 *   any other, where an 'error' event of the thread would wait for an event loop that never runs.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';
import type { Piscina } from 'piscina';
import { createRequire } from 'node:module';
import { ConfigError, DialogymError, FormatError, ModelFileError, type ErrorText } from './errors.js';

/** An error as it crosses threads. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly reason?: string;
  /** A DialogymError's text with its option names marked (`DialogymError.text`), when it has any. */
  readonly text?: ErrorText;
}

/** What a task answers (pool-worker.ts builds it). */
export type Reply<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: WireError };

/** What crosses to the worker: the task, a port for its messages, shared memory for a synchronous caller. */
export interface Envelope<T> {
  readonly task: T;
  readonly port?: MessagePort;
  readonly sync?: SharedArrayBuffer;
}

/** Sync-answer layout: Int32 [0] = state, [1] = answer length; the v8-serialized reply from byte 8. */
export const SYNC_IDLE = 0;
export const SYNC_STARTED = 1;
export const SYNC_DONE = 2;
export const SYNC_HEADER = 8;

/**
 * A pool thread that could not start: its module failed to load (`reason`: the error's first line,
 * and where it was thrown when that is code of ours, `file:line`).
 */
export class WorkerStartError extends DialogymError {
  constructor(
    /** Names the pool or the work, e.g. 'AirDialogue training'. */
    readonly label: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${label}: a worker thread did not start: ${reason}`, options);
  }
}

/** The name a start failure crosses threads under (`WireError.name`). */
const START_FAILURE = 'WorkerStartError';
/** The name a task lost with its thread crosses under (rebuilt as `<label> failed: <message>`, as when the pool sees the thread die). */
const LOST = 'WorkerLost';

/** A task whose thread ended under it, as it crosses threads (pool-worker.ts tells a synchronous caller so). */
export const lostTask = (message: string): WireError => ({ name: LOST, message });

/**
 * Why a worker's module did not load, as it crosses threads (rebuilt as `WorkerStartError`):
 * the error's first line; for an error that is not one of the project's (those say what and where
 * themselves), the file:line of the first frame in a file (relative to the working folder when it
 * is inside it; a module's SyntaxError has none).
 */
export function startFailure(e: unknown): WireError {
  const w = toWireError(e);
  const place = e instanceof Error && !(e instanceof DialogymError) ? thrownAt(e) : undefined;
  // a module not found is "imported from" the loader: a detail of the pool, not a place to look
  const message = w.message.replace(/ imported from \S+\/core\/pool-worker\.js$/, '');
  return { name: START_FAILURE, message: `${message}${place ? ` (${place})` : ''}` };
}

/** The loader files of the pool, never the place a start failure names. */
const LOADERS = /\/core\/pool-(entry|thread|worker)\.js$/;

function thrownAt(e: Error): string | undefined {
  // frames "    at f (file:///…/x.js:3:9)", "    at file:///…/x.js:3:9", a CommonJS file's "/…/x.js:3:9"
  for (const [, file, line] of (e.stack ?? '').matchAll(/^\s+at (?:.*?\()?(file:\/\/[^\s()]+?|\/[^\s()]+?):(\d+):\d+\)?$/gm)) {
    const path = file!.startsWith('file:') ? fileURLToPath(file!) : file!;
    if (LOADERS.test(path)) continue;
    const rel = relative(process.cwd(), path);
    return `${rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path}:${line}`;
  }
  return undefined;
}

/** An error class rebuilt from its message. */
export type ErrorClass = new (message: string) => Error;

export function toWireError(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const message = e.message.split('\n')[0] ?? '';
  if (e instanceof FormatError) return { name: e.name, message, file: e.file, reason: e.reason, ...(e.line !== undefined ? { line: e.line } : {}) };
  if (e instanceof DialogymError && e.text.some((p) => typeof p !== 'string')) return { name: e.name, message, text: e.text };
  return { name: e.name, message };
}

export interface PoolOptions {
  /** The worker module (its default export is a `poolTask`). */
  readonly file: URL;
  /** Worker threads (≥ 1), all started at once. */
  readonly threads: number;
  /** Given to every worker (`workerData` of node:worker_threads), cloned once per thread. */
  readonly workerData?: unknown;
  /** Names the pool in errors that are not the project's (`<label>: <message>`). */
  readonly label: string;
  /** More error classes rebuilt by name (the core classes always are). */
  readonly errors?: readonly ErrorClass[];
  /** Tasks a thread is handed before it answers (default 1; more for a synchronous caller, see `runSync`). */
  readonly tasksPerThread?: number;
  /** Bytes for a synchronous answer (default 64 KiB). */
  readonly syncBytes?: number;
}

export interface RunOptions<P> {
  /** Receives what the task `post`s, in order, all before the promise settles. */
  readonly onMessage?: (message: P) => void;
}

const CORE_ERRORS: readonly ErrorClass[] = [ConfigError, ModelFileError, DialogymError];

/** Rebuilds a task's error: the core classes and `extra` by name, anything else as `<label>: <message>`. */
function rebuilder(label: string, extra: readonly ErrorClass[] = []): (w: WireError) => Error {
  const classes = new Map([...CORE_ERRORS, ...extra].map((c) => [c.name, c]));
  return (w) => {
    if (w.name === START_FAILURE) return new WorkerStartError(label, w.message);
    if (w.name === LOST) return lost(label, new Error(w.message));
    if (w.name === 'FormatError' && w.file !== undefined && w.reason !== undefined) return new FormatError(w.file, w.line, w.reason);
    const C = classes.get(w.name === 'FormatError' ? 'DialogymError' : w.name);
    if (C && w.text !== undefined && (C === DialogymError || C.prototype instanceof DialogymError)) return new (C as unknown as typeof DialogymError)(w.text);
    return C ? new C(w.message) : new Error(`${label}: ${w.message}`);
  };
}

/**
 * `make()`, the threads made (`new Worker` checks its options and clones the `workerData` there):
 * what it throws (a `workerData` that cannot be cloned, an ERR_WORKER_* error) as a `WorkerStartError`.
 */
function starting<X>(label: string, make: () => X): X {
  try {
    return make();
  } catch (e) {
    if (e instanceof DialogymError || !(e instanceof Error)) throw e;
    const message = e.message.split('\n')[0] ?? '';
    throw new WorkerStartError(label, e.name === 'DataCloneError' ? `workerData: ${message}` : message, { cause: e });
  }
}

/** A thread that died (or a pool that stopped) under a task. */
const lost = (label: string, e: unknown): DialogymError => new DialogymError(`${label} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });

/**
 * Flags of the pool's worker threads: the parent's, plus `--no-experimental-require-module` where
 * Node has it. piscina loads a worker module with `require()` first; on Node 20.19+ that is
 * require(esm), and a worker terminated while require(esm) instantiates our (ESM) module aborts the
 * whole process ("FATAL ERROR: v8::Module::IsGraphAsync … must be used on an instantiated
 * module", seen once in CI when a failed evaluation destroyed its pool while a second worker was
 * still loading). Without require(esm), piscina falls back to `import()`, which a termination
 * interrupts cleanly.
 */
let workerExecArgv: string[] | undefined;
let parentFlags: string[] | undefined;
/** The parent's flags a thread accepts (what a Worker inherits when given no `execArgv`), found once. */
const inherited = (): string[] => (parentFlags ??= threadableFlags(process.execArgv));
function workerFlags(): string[] {
  workerExecArgv ??= [
    ...inherited(),
    ...(process.allowedNodeEnvironmentFlags.has('--no-experimental-require-module') && !process.execArgv.includes('--no-experimental-require-module') ? ['--no-experimental-require-module'] : []),
  ];
  return workerExecArgv;
}

const INVALID_FLAGS = /invalid execArgv flags: (.*)$/s;

/**
 * The parent's flags that a worker thread accepts. A flag of the whole process (`--stack-trace-limit`,
 * `--v8-pool-size`, `--node-snapshot`, …) makes `new Worker` throw ERR_WORKER_INVALID_EXEC_ARGV,
 * and Node 26's test runner starts each test file with such flags in `process.execArgv`, so a pool
 * made under `node --test` could not start a thread. `new Worker` checks the flags before it starts
 * the thread and names the ones it refuses; those are left out. A plain run has no flags: nothing
 * is probed then.
 */
export function threadableFlags(flags: readonly string[]): string[] {
  if (flags.length === 0) return [];
  let kept = [...flags];
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      void new Worker('', { eval: true, execArgv: kept, stdout: true, stderr: true }).terminate();
      return kept;
    } catch (e) {
      const m = (e as { code?: string }).code === 'ERR_WORKER_INVALID_EXEC_ARGV' ? INVALID_FLAGS.exec((e as Error).message) : null;
      if (!m) throw e;
      const refused = new Set((m[1] as string).split(', '));
      kept = kept.filter((f) => !refused.has(f));
    }
  }
  return [];
}

export class Pool<T, R, P = never> {
  private readonly piscina: Piscina;
  private readonly rebuild: (w: WireError) => Error;
  private readonly label: string;
  private readonly syncBytes: number;
  /** The first error piscina reported outside a task (e.g. a thread that died before any task). */
  failure: Error | undefined;

  constructor(opts: PoolOptions) {
    if (!Number.isInteger(opts.threads) || opts.threads < 1) throw new ConfigError(`threads must be a positive integer, got ${opts.threads}`);
    this.label = opts.label;
    this.syncBytes = opts.syncBytes ?? 1 << 16;
    this.rebuild = rebuilder(opts.label, opts.errors);
    // piscina is loaded on first use, so verbs that never start a pool (and `--help`) don't load it.
    const { Piscina: PiscinaClass } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
    this.piscina = starting(opts.label, () => new PiscinaClass({
      // the thread loads the module itself (pool-entry.ts), to answer with why if it fails
      filename: fileURLToPath(new URL('./pool-entry.js', import.meta.url)),
      argv: [opts.file.href],
      minThreads: opts.threads,
      maxThreads: opts.threads,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: opts.tasksPerThread ?? 1,
      workerData: opts.workerData,
      recordTiming: false,
      execArgv: workerFlags(),
    }));
    this.piscina.on('error', (e: Error) => {
      this.failure ??= e;
    });
  }

  /** Runs `task` on a free thread; rejects with the task's error rebuilt, or a DialogymError when its thread died. */
  async run(task: T, opts: RunOptions<P> = {}): Promise<R> {
    const channel = opts.onMessage ? new MessageChannel() : undefined;
    const onMessage = opts.onMessage;
    if (channel && onMessage) channel.port1.on('message', (m: P) => onMessage(m));
    const envelope: Envelope<T> = { task, ...(channel ? { port: channel.port2 } : {}) };
    try {
      let reply: Reply<R>;
      try {
        reply = (await this.piscina.run(envelope, channel ? { transferList: [channel.port2] } : {})) as Reply<R>;
      } catch (e) {
        throw lost(this.label, e);
      }
      if (channel && onMessage) for (let m = receiveMessageOnPort(channel.port1); m; m = receiveMessageOnPort(channel.port1)) onMessage(m.message as P);
      if (!reply.ok) throw this.rebuild(reply.error);
      return reply.value;
    } finally {
      channel?.port1.close();
    }
  }

  /**
   * Posts `task` now (no event loop needed) and returns `join()`, which blocks until the answer
   * (or throws the task's error; a `WorkerStartError` when the thread's module failed to load; a
   * DialogymError `<label> failed: …` when the thread ended under the task).
   * `join()` gives `undefined` when no thread picked the task up within `startTimeoutMs` (a thread
   * that died without a word: out of memory, `process.exit` at import; `failure` may tell why once
   * the event loop has run).
   */
  runSync(task: T, startTimeoutMs: number): () => R | undefined {
    const sync = new SharedArrayBuffer(SYNC_HEADER + this.syncBytes);
    const control = new Int32Array(sync, 0, 2);
    // The answer comes through `sync`; a rejection here means the thread died (seen by `failure`).
    this.piscina.run({ task, sync } satisfies Envelope<T>).catch((e: unknown) => {
      this.failure ??= lost(this.label, e);
    });
    return () => {
      const t0 = performance.now();
      for (;;) {
        const state = Atomics.load(control, 0);
        if (state === SYNC_DONE) break;
        if (state === SYNC_IDLE && performance.now() - t0 > startTimeoutMs) return undefined;
        Atomics.wait(control, 0, state, state === SYNC_IDLE ? 50 : undefined);
      }
      const reply = deserialize(new Uint8Array(sync, SYNC_HEADER, Atomics.load(control, 1))) as Reply<R>;
      if (!reply.ok) throw this.rebuild(reply.error);
      return reply.value;
    };
  }

  /** Stops every thread; tasks still running reject. */
  async destroy(): Promise<void> {
    await this.piscina.destroy();
  }
}

interface Thread<R> {
  readonly worker: Worker;
  readonly pending: Map<number, (r: Reply<R> | Error) => void>;
  dead?: Error;
}

/**
 * Threads that keep state between tasks (the chat server's sessions): `run(k, task)` goes to
 * thread k, which answers its tasks in order. Same worker modules (`poolTask`), errors and
 * `workerData` as `Pool`, but plain postMessage instead of piscina, which measured slower for this
 * job (many small requests in flight, each pinned to its thread): `serve --workers 2` with the
 * sessions on piscina (pinned by a load balancer) took a median 80 µs of CPU per chat turn against
 * 58 µs here (bench/serve.bench.ts, 8 alternating rounds), with p99 3.4–4.1 ms against 0.7–1.0 ms
 * at 1,000 turns/s; bench/pool.bench.ts: piscina ~0.4× the rate of this class with 64 tasks in flight.
 */
export class PinnedThreads<T, R> {
  private readonly threads: Thread<R>[];
  private readonly rebuild: (w: WireError) => Error;
  private next = 0;

  constructor(opts: PoolOptions) {
    if (!Number.isInteger(opts.threads) || opts.threads < 1) throw new ConfigError(`threads must be a positive integer, got ${opts.threads}`);
    this.rebuild = rebuilder(opts.label, opts.errors);
    this.threads = Array.from({ length: opts.threads }, () => {
      const worker = starting(opts.label, () => new Worker(new URL('./pool-thread.js', import.meta.url), { argv: [opts.file.href], workerData: opts.workerData, execArgv: inherited() }));
      const t: Thread<R> = { worker, pending: new Map() };
      t.worker.on('message', (m: { id: number; reply: Reply<R> }) => {
        t.pending.get(m.id)?.(m.reply);
        t.pending.delete(m.id);
      });
      const fail = (e: unknown): void => {
        t.dead ??= lost(opts.label, e);
        for (const done of t.pending.values()) done(t.dead);
        t.pending.clear();
      };
      t.worker.on('error', fail);
      t.worker.on('exit', (code) => fail(new Error(`worker exited with code: ${code}`)));
      return t;
    });
  }

  get size(): number {
    return this.threads.length;
  }

  /** Runs `task` on thread `k` (0 ≤ k < size), after the tasks sent there before. */
  run(k: number, task: T): Promise<R> {
    const t = this.threads[k];
    if (!t) return Promise.reject(new ConfigError(`no thread ${k}`));
    if (t.dead) return Promise.reject(t.dead);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      t.pending.set(id, (r) => (r instanceof Error ? reject(r) : r.ok ? resolve(r.value) : reject(this.rebuild(r.error))));
      t.worker.postMessage({ id, envelope: { task } satisfies Envelope<T> });
    });
  }

  async destroy(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
