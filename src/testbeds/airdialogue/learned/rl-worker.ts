/**
 * Worker of `RlRunner` (rl-parallel.ts, over train/parts.ts): a replica of the customer and agent
 * models and of the value layer over the parameters' values in shared memory (workerData),
 * playing the episodes and computing the supervised parts of an update it is given, each part's
 * gradient into that part's shared buffer.
 */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../../core/pool-worker.js';
import { partsWorker, type PartsWorkerData } from '../../../train/parts.js';
import { replicaModels } from './parallel.js';
import { rlWork, valueLayer, type RlSetup } from './rl-parallel.js';

export default poolTask(partsWorker(workerData as PartsWorkerData<RlSetup>, (setup) => rlWork({ ...replicaModels(setup), value: valueLayer(setup.sizes.hidden) }, setup.settings)));
