/**
 * A chat's sessions spread over worker threads: each worker opens the chat (the restaurant's: its
 * model and KB) and holds its share of the sessions; the main thread keeps HTTP. A session lives in one worker for
 * its whole life: its id starts with the worker's number (`3.` + a random UUID), so requests are
 * routed without a table. New sessions go round-robin (skipping full workers); each worker holds at
 * most ⌈maxSessions / workers⌉ sessions and drops idle ones itself.
 */
import { CapacityError, DialogymError, InputError, SessionNotFoundError } from '../core/errors.js';
import { PinnedThreads } from '../core/pool.js';
import { sessionNotFound, SESSION_STORE_DEFAULTS, type JsonBody, type SessionBackend } from './chat-sessions.js';
import type { WorkerInit, WorkerRequest } from './session-worker.js';

export interface WorkerPoolOptions extends WorkerInit {
  /** Number of worker threads (≥ 1). */
  readonly workers: number;
}

const WORKER_FILE = new URL('./session-worker.js', import.meta.url);

/** Starts the workers; resolves once every one has opened the chat (rejects with the first error). */
export async function startWorkerPool(opts: WorkerPoolOptions): Promise<SessionBackend> {
  if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new DialogymError(`workers must be a positive integer, got ${opts.workers}`);
  const maxSessions = opts.store.maxSessions ?? SESSION_STORE_DEFAULTS.maxSessions;
  const init: WorkerInit = { testbed: opts.testbed, options: opts.options, store: { ...opts.store, maxSessions: Math.ceil(maxSessions / opts.workers) } };
  // Session ids start with their thread's number k (`k.` + the worker's id).
  const pool = new PinnedThreads<WorkerRequest, string | number | boolean>({ file: WORKER_FILE, threads: opts.workers, workerData: init, label: 'session worker', errors: [InputError, CapacityError, SessionNotFoundError] });
  const threads = Array.from({ length: opts.workers }, (_, k) => k);
  try {
    await Promise.all(threads.map((k) => pool.run(k, { op: 'init' })));
  } catch (e) {
    await pool.destroy();
    throw e;
  }
  const call = (k: number, op: WorkerRequest): Promise<string | number | boolean> => pool.run(k, op);
  let turn = 0;
  const route = (id: string): number => {
    const dot = id.indexOf('.');
    const k = dot > 0 ? Number(id.slice(0, dot)) : NaN;
    if (!Number.isInteger(k) || k < 0 || k >= threads.length) throw sessionNotFound(id);
    return k;
  };
  return {
    async size() {
      const n = await Promise.all(threads.map((_, k) => call(k, { op: 'size' })));
      return n.reduce<number>((a, b) => a + Number(b), 0);
    },
    async create(body): Promise<JsonBody> {
      // Round-robin; a full worker passes its turn to the next one.
      for (let tries = 0; tries < threads.length; tries++) {
        const k = turn++ % threads.length;
        try {
          return { json: String(await call(k, { op: 'create', prefix: `${k}.`, body })) };
        } catch (e) {
          if (!(e instanceof CapacityError) || tries + 1 === threads.length) throw e instanceof CapacityError ? new CapacityError(`too many sessions (${maxSessions}); try again later`) : e;
        }
      }
      throw new CapacityError(`too many sessions (${maxSessions}); try again later`);
    },
    async answer(id, name, body): Promise<JsonBody> {
      return { json: String(await call(route(id), { op: 'answer', id, name, body })) };
    },
    async delete(id) {
      let k: number;
      try {
        k = route(id);
      } catch {
        return false;
      }
      return Boolean(await call(k, { op: 'delete', id }));
    },
    sweep() {
      threads.forEach((_, k) => call(k, { op: 'sweep' }).catch(() => undefined));
    },
    async close() {
      await pool.destroy();
    },
  };
}
