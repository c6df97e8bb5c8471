/** A worker module for pool.test.ts whose thread ends at import without a word (as one out of memory would). */
import { poolTask } from '../pool-worker.js';

process.exit(3);

export default poolTask(() => 0);
