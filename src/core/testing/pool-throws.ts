/** A worker module for pool.test.ts that fails at import: it throws while it builds its task (the line of `throw`). */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../pool-worker.js';

function build(data: unknown): (task: unknown) => unknown {
  throw new TypeError(`pool fixture: cannot build from ${JSON.stringify(data)}\nsecond line`);
}

export default poolTask(build(workerData));
