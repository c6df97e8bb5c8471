/**
 * Entry of a `PinnedThreads` thread (pool.ts): loads the task module named in argv (`loadPoolTask`:
 * a module that fails to load answers with why), answers `{id, envelope}` messages in order.
 */
import { parentPort } from 'node:worker_threads';
import type { Envelope } from './pool.js';
import { InternalError } from './errors.js';
import { loadPoolTask } from './pool-worker.js';

const port = parentPort;
if (!port) throw new InternalError('pool-thread.js runs as a worker thread');
const handler = await loadPoolTask(process.argv[2] as string);
port.on('message', async ({ id, envelope }: { id: number; envelope: Envelope<unknown> }) => {
  port.postMessage({ id, reply: await handler(envelope) });
});
