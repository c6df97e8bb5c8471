/** The worker side of `Pool` (pool.ts): a worker module does `export default poolTask(fn)`. */
import { serialize } from 'node:v8';
import { lostTask, startFailure, SYNC_DONE, SYNC_HEADER, SYNC_STARTED, toWireError, type Envelope, type Reply } from './pool.js';

/** What a worker module's default export is: `poolTask(fn)`. */
export type PoolTaskHandler = (envelope: Envelope<unknown>) => Promise<Reply<unknown> | null>;

/**
 * Wraps `fn` as a pool task: its errors travel as data (rebuilt by the pool), `post` sends
 * messages to the caller's `onMessage`, and a synchronous caller gets the answer in shared memory.
 */
export function poolTask<T, R, P = never>(fn: (task: T, post: (message: P) => void) => R | Promise<R>): (envelope: Envelope<T>) => Promise<Reply<R> | null> {
  return answering(async (task: T, post: (message: P) => void): Promise<Reply<R>> => {
    try {
      return { ok: true, value: await fn(task, post) };
    } catch (e) {
      return { ok: false, error: toWireError(e) };
    }
  });
}

/**
 * The worker module `href` (a file URL) loaded, its default export the task function; when it
 * fails to load (it throws at import, or while it builds from its `workerData`; or it exports no
 * function), a task function that answers every task with why (`startFailure`, rebuilt by the
 * pool as `WorkerStartError`): the thread stays up, so a caller waiting for an answer gets it.
 */
export async function loadPoolTask(href: string): Promise<PoolTaskHandler> {
  let why: Reply<never>;
  try {
    const handler = ((await import(href)) as { default?: unknown }).default;
    if (typeof handler === 'function') return handler as PoolTaskHandler;
    why = { ok: false, error: startFailure(`${href} has no default export poolTask(…)`) };
  } catch (e) {
    why = { ok: false, error: startFailure(e) };
  }
  return answering(() => Promise.resolve(why));
}

/** A task function answering with what `reply` gives: to the caller's promise, or in shared memory for a synchronous caller. */
function answering<T, R, P>(reply: (task: T, post: (message: P) => void) => Promise<Reply<R>>): (envelope: Envelope<T>) => Promise<Reply<R> | null> {
  return async ({ task, port, sync }) => {
    if (!sync) return reply(task, (m) => port?.postMessage(m));
    const control = new Int32Array(sync, 0, 2);
    Atomics.store(control, 0, SYNC_STARTED);
    Atomics.notify(control, 0);
    watchExit();
    inFlight.add(sync);
    let answer: Reply<R>;
    try {
      answer = await reply(task, (m) => port?.postMessage(m));
    } finally {
      inFlight.delete(sync);
    }
    answerIn(sync, answer);
    return null;
  };
}

/** Writes `answer` into a synchronous caller's shared memory and wakes the caller. */
function answerIn(sync: SharedArrayBuffer, answer: Reply<unknown>): void {
  const control = new Int32Array(sync, 0, 2);
  let bytes = serialize(answer);
  if (bytes.length > sync.byteLength - SYNC_HEADER) bytes = serialize({ ok: false, error: { name: 'Error', message: `answer of ${bytes.length} bytes does not fit in ${sync.byteLength - SYNC_HEADER}` } } satisfies Reply<never>);
  new Uint8Array(sync, SYNC_HEADER).set(bytes);
  Atomics.store(control, 1, bytes.length);
  Atomics.store(control, 0, SYNC_DONE);
  Atomics.notify(control, 0);
}

/**
 * The synchronous callers' answers being computed on this thread. A caller blocked in
 * `Atomics.wait` hears nothing of the thread's 'exit' (its event loop does not run): when the
 * thread ends under a task (`process.exit`, an uncaught error), the task answers that it was lost.
 * (A thread stopped for lack of memory runs no exit handler: its caller keeps waiting.)
 */
const inFlight = new Set<SharedArrayBuffer>();
let watching = false;
function watchExit(): void {
  if (watching) return;
  watching = true;
  process.on('exit', (code) => {
    for (const sync of inFlight) answerIn(sync, { ok: false, error: lostTask(`the thread ended with exit code ${code} during the task`) });
  });
}
