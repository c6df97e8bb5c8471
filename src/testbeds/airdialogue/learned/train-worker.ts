/**
 * Worker of the batch runner (parallel.ts, over train/parts.ts): a replica of the customer and
 * agent models over the parameters' values in shared memory (workerData), computing the parts of
 * a batch it is given, each part's gradient into that part's shared buffer.
 */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../../core/pool-worker.js';
import { partsWorker, type PartsWorkerData } from '../../../train/parts.js';
import { DialogueModel } from './model.js';
import { batchWork, type BatchSetup } from './parallel.js';
import { Vocab } from './tokens.js';

const run = partsWorker(workerData as PartsWorkerData<BatchSetup>, ({ words, sizes }) => {
  const vocab = new Vocab(words);
  return batchWork({ vocab, customer: new DialogueModel('customer', vocab, sizes), agent: new DialogueModel('agent', vocab, sizes) });
});

export default poolTask(run);
