/**
 * Worker of the batch runner (parallel.ts, over train/parts.ts): a replica of the customer and
 * agent models over the parameters' values in shared memory (workerData), computing the parts of
 * a batch it is given, each part's gradient into that part's shared buffer.
 */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../../core/pool-worker.js';
import { partsWorker, type PartsWorkerData } from '../../../train/parts.js';
import { batchWork, replicaModels, type ModelsSetup } from './parallel.js';

export default poolTask(partsWorker(workerData as PartsWorkerData<ModelsSetup>, (setup) => batchWork(replicaModels(setup))));
