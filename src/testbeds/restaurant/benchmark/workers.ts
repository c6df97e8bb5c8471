/**
 * Runs benchmark cells on worker threads (core/pool): each worker trains and evaluates one cell at
 * a time (loading a task's data once), the next cell goes to the first worker that is free.
 * A cell's rows do not depend on the worker that ran it (each cell seeds its own training).
 */
import { Pool } from '../../../core/pool.js';
import { modelLists } from '../../../rankers/model-lists.js';
import type { EpochReport } from '../../../train/loop.js';
import type { BenchmarkCell, BenchmarkHooks, CellContext, CellResult } from './cell.js';
import type { ModelList } from '../../../rankers/model-entry.js';

/** What a benchmark worker is given: the cells' context and the model lists declared in the thread that started it. */
export interface WorkerData {
  readonly ctx: CellContext;
  readonly models: readonly ModelList[];
}

/**
 * Runs `queue` (in that order) on `n` workers; `done` is called in the main thread per finished
 * cell. Rejects on the first error (the other workers are stopped).
 */
export async function runOnWorkers(ctx: CellContext, queue: readonly BenchmarkCell[], n: number, hooks: BenchmarkHooks, done: (cell: BenchmarkCell, r: CellResult) => void): Promise<void> {
  // The workers declare the models this thread has declared (they start with the generic rankers only).
  const data: WorkerData = { ctx, models: modelLists() };
  const pool = new Pool<BenchmarkCell, CellResult, EpochReport>({ file: new URL('./worker.js', import.meta.url), threads: n, workerData: data, label: 'benchmark worker' });
  let next = 0;
  let failed = false;
  const feed = async (): Promise<void> => {
    for (let cell = queue[next]; cell !== undefined && !failed; cell = queue[next]) {
      next++;
      hooks.onCellStart?.(cell);
      const c = cell;
      done(c, await pool.run(c, { onMessage: (report) => hooks.onEpoch?.(c, report) }));
    }
  };
  try {
    await Promise.all(
      Array.from({ length: n }, () =>
        feed().catch((e: unknown) => {
          failed = true;
          throw e;
        }),
      ),
    );
  } finally {
    await pool.destroy();
  }
}
