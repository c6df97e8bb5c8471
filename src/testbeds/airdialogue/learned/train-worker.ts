/**
 * Worker of `BatchRunner` (parallel.ts): a replica of the customer and agent models over the
 * parameters' values in shared memory (workerData), computing the parts of a batch it is given,
 * each part's gradient into that part's shared buffer.
 */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../../core/pool-worker.js';
import { DialogueModel } from './model.js';
import { workerReplica, type DialogueLoss, type PartsTask, type WorkerSetup } from './parallel.js';
import { Vocab } from './tokens.js';

const run = workerReplica(workerData as WorkerSetup, (words, sizes) => {
  const vocab = new Vocab(words);
  return { vocab, customer: new DialogueModel('customer', vocab, sizes), agent: new DialogueModel('agent', vocab, sizes) };
});

export default poolTask<PartsTask, DialogueLoss[][]>(run);
