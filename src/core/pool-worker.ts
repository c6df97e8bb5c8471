/** The worker side of `Pool` (pool.ts): a worker module does `export default poolTask(fn)`. */
import { serialize } from 'node:v8';
import { SYNC_DONE, SYNC_HEADER, SYNC_STARTED, toWireError, type Envelope, type Reply } from './pool.js';

/**
 * Wraps `fn` as a pool task: its errors travel as data (rebuilt by the pool), `post` sends
 * messages to the caller's `onMessage`, and a synchronous caller gets the answer in shared memory.
 */
export function poolTask<T, R, P = never>(fn: (task: T, post: (message: P) => void) => R | Promise<R>): (envelope: Envelope<T>) => Promise<Reply<R> | null> {
  return async ({ task, port, sync }) => {
    const control = sync ? new Int32Array(sync, 0, 2) : undefined;
    if (control) {
      Atomics.store(control, 0, SYNC_STARTED);
      Atomics.notify(control, 0);
    }
    let reply: Reply<R>;
    try {
      reply = { ok: true, value: await fn(task, (m) => port?.postMessage(m)) };
    } catch (e) {
      reply = { ok: false, error: toWireError(e) };
    }
    if (!control || !sync) return reply;
    let bytes = serialize(reply);
    if (bytes.length > sync.byteLength - SYNC_HEADER) bytes = serialize({ ok: false, error: { name: 'Error', message: `answer of ${bytes.length} bytes does not fit in ${sync.byteLength - SYNC_HEADER}` } } satisfies Reply<R>);
    new Uint8Array(sync, SYNC_HEADER).set(bytes);
    Atomics.store(control, 1, bytes.length);
    Atomics.store(control, 0, SYNC_DONE);
    Atomics.notify(control, 0);
    return null;
  };
}
