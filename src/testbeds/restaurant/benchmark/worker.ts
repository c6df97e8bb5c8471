/** Worker-thread task of the benchmark: runs one cell, keeping the last task's data (see workers.ts). */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../../../core/pool-worker.js';
import { declareModels, loadModels } from '../../../rankers/registry.js';
import type { EpochReport } from '../../../train/loop.js';
import { cellData, runCell, type BenchmarkCell, type CellResult } from './cell.js';
import type { TaskData } from './data.js';
import type { WorkerData } from './workers.js';

const { ctx, models } = workerData as WorkerData;
let cached: { task: number; data: TaskData } | undefined;
let ready: Promise<void> | undefined;

/** The model lists of the thread that started this one, declared here and their code loaded, once. */
function modelsReady(): Promise<void> {
  for (const list of models) declareModels(list);
  return loadModels();
}

export default poolTask<BenchmarkCell, CellResult, EpochReport>(async (cell, post) => {
  await (ready ??= modelsReady());
  if (cached?.task !== cell.task) cached = { task: cell.task, data: cellData(ctx, cell.task) };
  return runCell(ctx, cached.data, cell, post);
});
