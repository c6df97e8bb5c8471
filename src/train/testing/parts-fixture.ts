/** The worker module of parts.test.ts: the toy work (parts-toy.ts) over the shared values. */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../core/pool-worker.js';
import { partsWorker, type PartsWorkerData } from '../parts.js';
import { toyWork, type ToySetup } from './parts-toy.js';

export default poolTask(partsWorker(workerData as PartsWorkerData<ToySetup>, toyWork));
