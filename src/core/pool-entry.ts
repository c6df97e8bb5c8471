/**
 * Entry of a `Pool` thread (pool.ts): piscina loads this module, which loads the worker module
 * named in argv (`loadPoolTask`: a module that fails to load answers its tasks with why). piscina
 * awaits a default export that is a promise.
 */
import { InternalError } from './errors.js';
import { loadPoolTask } from './pool-worker.js';

const href = process.argv[2];
if (href === undefined) throw new InternalError('pool-entry.js runs as a pool thread, the worker module in argv');
export default loadPoolTask(href);
