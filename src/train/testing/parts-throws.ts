/** A worker module of parts.test.ts that fails at import: its replica cannot be built from the setup (the line of `throw`). */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../core/pool-worker.js';
import { partsWorker, type PartsWorkerData } from '../parts.js';
import type { ToySetup } from './parts-toy.js';

export default poolTask(
  partsWorker(workerData as PartsWorkerData<ToySetup>, (setup) => {
    throw new RangeError(`toy setup of size ${setup.size}: no replica`);
  }),
);
