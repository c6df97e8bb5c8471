/** Worker-thread task of the benchmark: runs one cell, keeping the last task's data (see workers.ts). */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../../core/pool-worker.js';
import type { EpochReport } from '../../../train/loop.js';
import { cellData, runCell, type BenchmarkCell, type CellContext, type CellResult } from './cell.js';
import type { TaskData } from './data.js';

const ctx = workerData as CellContext;
let cached: { task: number; data: TaskData } | undefined;

export default poolTask<BenchmarkCell, CellResult, EpochReport>((cell, post) => {
  if (cached?.task !== cell.task) cached = { task: cell.task, data: cellData(ctx, cell.task) };
  return runCell(ctx, cached.data, cell, post);
});
