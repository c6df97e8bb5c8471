/**
 * Worker of `RlRunner` (rl-parallel.ts): a replica of the customer and agent models and of the
 * value layer over the parameters' values in shared memory (workerData), playing the episodes and
 * computing the supervised parts of an update it is given, each part's gradient into that part's
 * shared buffer.
 */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../../core/pool-worker.js';
import { DialogueModel } from './model.js';
import { rlWorkerReplica, valueLayer, type RlTask, type RlWorkerSetup } from './rl-parallel.js';
import { Vocab } from './tokens.js';

const run = rlWorkerReplica(workerData as RlWorkerSetup, (words, sizes) => {
  const vocab = new Vocab(words);
  return { vocab, sizes, customer: new DialogueModel('customer', vocab, sizes), agent: new DialogueModel('agent', vocab, sizes), value: valueLayer(sizes.hidden) };
});

export default poolTask<RlTask, unknown[]>(run);
