/** Entry of a `PinnedThreads` thread (pool.ts): loads the task module named in argv, answers `{id, envelope}` messages in order. */
import { parentPort } from 'node:worker_threads';
import type { Envelope, Reply } from './pool.js';
import { InternalError } from './errors.js';

const port = parentPort;
if (!port) throw new InternalError('pool-thread.js runs as a worker thread');
const handler = ((await import(process.argv[2] as string)) as { default: (e: Envelope<unknown>) => Promise<Reply<unknown> | null> }).default;
port.on('message', async ({ id, envelope }: { id: number; envelope: Envelope<unknown> }) => {
  port.postMessage({ id, reply: await handler(envelope) });
});
