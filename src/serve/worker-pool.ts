/**
 * The server's sessions spread over worker threads: each worker loads the model and the KB and
 * holds its share of the sessions; the main thread keeps HTTP. A session lives in one worker for
 * its whole life: its id starts with the worker's number (`3.` + a random UUID), so requests are
 * routed without a table. New sessions go round-robin (skipping full workers); each worker holds at
 * most ⌈maxSessions / workers⌉ sessions and drops idle ones itself.
 */
import { Worker } from 'node:worker_threads';
import { DialogymError } from '../core/errors.js';
import { sessionNotFound, SessionNotFoundError, type JsonBody, type SessionBackend } from './backend.js';
import { InputError } from './session.js';
import { CapacityError, SESSION_STORE_DEFAULTS } from './sessions.js';
import type { WorkerInit, WorkerReply, WorkerRequest, WorkerStatus } from './session-worker.js';

export interface WorkerPoolOptions extends WorkerInit {
  /** Number of worker threads (≥ 1). */
  readonly workers: number;
}

type Pending = { resolve: (v: string | number | boolean) => void; reject: (e: Error) => void };

// Request bodies without the request number (a union member by member).
type Op = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'req'> : never) : never;

class WorkerHandle {
  private next = 0;
  private readonly pending = new Map<number, Pending>();
  private dead: Error | undefined;

  constructor(readonly worker: Worker) {
    worker.on('message', (m: WorkerReply | WorkerStatus) => {
      if (!('req' in m)) return;
      const p = this.pending.get(m.req);
      if (!p) return;
      this.pending.delete(m.req);
      if (m.ok) p.resolve(m.value);
      else p.reject(m.kind === 'input' ? new InputError(m.error) : m.kind === 'capacity' ? new CapacityError(m.error) : m.kind === 'not-found' ? sessionNotFound(m.error) : new DialogymError(`worker: ${m.error}`));
    });
    const fail = (e: Error): void => {
      this.dead ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    worker.on('error', (e) => fail(new DialogymError(`session worker failed: ${e.message}`)));
    worker.on('exit', (code) => fail(new DialogymError(`session worker exited (${code})`)));
  }

  call(op: Op): Promise<string | number | boolean> {
    if (this.dead) return Promise.reject(this.dead);
    const req = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(req, { resolve, reject });
      this.worker.postMessage({ ...op, req });
    });
  }
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
  const workers = Array.from({ length: opts.workers }, () => new Worker(WORKER_FILE, { workerData: init }));
  let model = '';
  try {
    const status = await Promise.all(
      workers.map(
        (w) =>
          new Promise<WorkerStatus>((resolve, reject) => {
            w.once('message', resolve);
            w.once('error', reject);
            w.once('exit', (code) => reject(new DialogymError(`session worker exited (${code}) while starting`)));
          }),
      ),
    );
    for (const s of status) if (!s.ready) throw new DialogymError(s.error);
    model = (status[0] as { model: string }).model;
  } catch (e) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw e;
  }
  const handles = workers.map((w) => new WorkerHandle(w));
  let turn = 0;
  const route = (id: string): { h: WorkerHandle; local: string } => {
    const dot = id.indexOf('.');
    const k = dot > 0 ? Number(id.slice(0, dot)) : NaN;
    const h = Number.isInteger(k) ? handles[k] : undefined;
    if (!h) throw sessionNotFound(id);
    return { h, local: id.slice(dot + 1) };
  };
  return {
    model,
    async size() {
      const n = await Promise.all(handles.map((h) => h.call({ op: 'size' })));
      return n.reduce<number>((a, b) => a + Number(b), 0);
    },
    async create() {
      // Round-robin; a full worker passes its turn to the next one.
      for (let tries = 0; tries < handles.length; tries++) {
        const k = turn++ % handles.length;
        try {
          return `${k}.${String(await (handles[k] as WorkerHandle).call({ op: 'create' }))}`;
        } catch (e) {
          if (!(e instanceof CapacityError) || tries + 1 === handles.length) throw e instanceof CapacityError ? new CapacityError(`too many sessions (${maxSessions}); try again later`) : e;
        }
      }
      throw new CapacityError(`too many sessions (${maxSessions}); try again later`);
    },
    async send(id, text): Promise<JsonBody> {
      const { h, local } = route(id);
      return { json: String(await h.call({ op: 'send', id: local, text }).catch(withId(id))) };
    },
    async transcript(id): Promise<JsonBody> {
      const { h, local } = route(id);
      const json = String(await h.call({ op: 'transcript', id: local }).catch(withId(id)));
      // The worker knows the session by its local id: the API shows the routed one.
      const t = JSON.parse(json) as { id: string };
      return { value: { ...t, id } };
    },
    async delete(id) {
      let r: { h: WorkerHandle; local: string };
      try {
        r = route(id);
      } catch {
        return false;
      }
      return Boolean(await r.h.call({ op: 'delete', id: r.local }));
    },
    sweep() {
      for (const h of handles) h.call({ op: 'sweep' }).catch(() => undefined);
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
