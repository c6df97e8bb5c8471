/**
 * The server's sessions spread over worker threads: each worker loads the model and the KB and
 * holds its share of the sessions; the main thread keeps HTTP. A session lives in one worker for
 * its whole life: its id starts with the worker's number (`3.` + a random UUID), so requests are
 * routed without a table. New sessions go round-robin (skipping full workers); each worker holds at
 * most ⌈maxSessions / workers⌉ sessions and drops idle ones itself.
 */
import { DialogymError } from '../core/errors.js';
import { PinnedThreads } from '../core/pool.js';
import { sessionNotFound, SessionNotFoundError, type JsonBody, type SessionBackend } from './backend.js';
import { InputError } from './session.js';
import { CapacityError, SESSION_STORE_DEFAULTS } from './sessions.js';
import type { WorkerInit, WorkerRequest } from './session-worker.js';

export interface WorkerPoolOptions extends WorkerInit {
  /** Number of worker threads (≥ 1). */
  readonly workers: number;
}

/** A worker knows a session by its local id: errors name the id the client sent. */
const withId =
  (id: string) =>
  (e: unknown): never => {
    throw e instanceof SessionNotFoundError ? sessionNotFound(id) : e;
  };

const WORKER_FILE = new URL('./session-worker.js', import.meta.url);

/** Starts the workers; resolves once every one has loaded the model (rejects with the first setup error). */
export async function startWorkerPool(opts: WorkerPoolOptions): Promise<SessionBackend & { readonly model: string }> {
  if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new DialogymError(`workers must be a positive integer, got ${opts.workers}`);
  const maxSessions = opts.store.maxSessions ?? SESSION_STORE_DEFAULTS.maxSessions;
  const init: WorkerInit = { setup: opts.setup, session: opts.session, store: { ...opts.store, maxSessions: Math.ceil(maxSessions / opts.workers) } };
  // Session ids start with their thread's number k.
  const pool = new PinnedThreads<WorkerRequest, string | number | boolean>({ file: WORKER_FILE, threads: opts.workers, workerData: init, label: 'session worker', errors: [InputError, CapacityError, SessionNotFoundError] });
  const threads = Array.from({ length: opts.workers }, (_, k) => k);
  let model = '';
  try {
    model = String((await Promise.all(threads.map((k) => pool.run(k, { op: 'init' }))))[0]);
  } catch (e) {
    await pool.destroy();
    throw e;
  }
  const call = (k: number, op: WorkerRequest): Promise<string | number | boolean> => pool.run(k, op);
  let turn = 0;
  const route = (id: string): { k: number; local: string } => {
    const dot = id.indexOf('.');
    const k = dot > 0 ? Number(id.slice(0, dot)) : NaN;
    if (!Number.isInteger(k) || k < 0 || k >= threads.length) throw sessionNotFound(id);
    return { k, local: id.slice(dot + 1) };
  };
  return {
    model,
    async size() {
      const n = await Promise.all(threads.map((_, k) => call(k, { op: 'size' })));
      return n.reduce<number>((a, b) => a + Number(b), 0);
    },
    async create() {
      // Round-robin; a full worker passes its turn to the next one.
      for (let tries = 0; tries < threads.length; tries++) {
        const k = turn++ % threads.length;
        try {
          return `${k}.${String(await call(k, { op: 'create' }))}`;
        } catch (e) {
          if (!(e instanceof CapacityError) || tries + 1 === threads.length) throw e instanceof CapacityError ? new CapacityError(`too many sessions (${maxSessions}); try again later`) : e;
        }
      }
      throw new CapacityError(`too many sessions (${maxSessions}); try again later`);
    },
    async send(id, text): Promise<JsonBody> {
      const { k, local } = route(id);
      return { json: String(await call(k, { op: 'send', id: local, text }).catch(withId(id))) };
    },
    async transcript(id): Promise<JsonBody> {
      const { k, local } = route(id);
      const json = String(await call(k, { op: 'transcript', id: local }).catch(withId(id)));
      // The worker knows the session by its local id: the API shows the routed one.
      const t = JSON.parse(json) as { id: string };
      return { value: { ...t, id } };
    },
    async delete(id) {
      let r: { k: number; local: string };
      try {
        r = route(id);
      } catch {
        return false;
      }
      return Boolean(await call(r.k, { op: 'delete', id: r.local }));
    },
    sweep() {
      threads.forEach((_, k) => call(k, { op: 'sweep' }).catch(() => undefined));
    },
    async close() {
      await pool.destroy();
    },
  };
}
