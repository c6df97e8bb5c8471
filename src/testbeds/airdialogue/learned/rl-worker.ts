/**
 * Worker of `RlRunner` (rl-parallel.ts, over train/parts.ts): a replica of the customer and agent
 * models and of the value layer over the parameters' values in shared memory (workerData),
 * playing the episodes and computing the supervised parts of an update it is given, each part's
 * gradient into that part's shared buffer.
 */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../../core/pool-worker.js';
import { partsWorker, type PartsWorkerData } from '../../../train/parts.js';
import { DialogueModel } from './model.js';
import { rlWork, valueLayer, type RlSetup } from './rl-parallel.js';
import { Vocab } from './tokens.js';

const run = partsWorker(workerData as PartsWorkerData<RlSetup>, ({ words, sizes, settings }) => {
  const vocab = new Vocab(words);
  return rlWork({ vocab, sizes, customer: new DialogueModel('customer', vocab, sizes), agent: new DialogueModel('agent', vocab, sizes), value: valueLayer(sizes.hidden) }, settings);
});

export default poolTask(run);
