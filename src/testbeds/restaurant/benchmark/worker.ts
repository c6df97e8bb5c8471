/** Worker-thread entry of the benchmark: runs the cells it is sent (see workers.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { cellData, runCell, type CellContext } from './cell.js';
import type { TaskData } from './data.js';
import type { FromWorker, ToWorker } from './workers.js';

const port = parentPort;
if (port === null) throw new Error('benchmark-worker.js runs as a worker thread');
const ctx = workerData as CellContext;
let cached: { task: number; data: TaskData } | undefined;

port.on('message', (m: ToWorker) => {
  try {
    if (cached?.task !== m.cell.task) cached = { task: m.cell.task, data: cellData(ctx, m.cell.task) };
    const result = runCell(ctx, cached.data, m.cell, (report) => port.postMessage({ type: 'epoch', cell: m.cell, report } satisfies FromWorker));
    port.postMessage({ type: 'done', cell: m.cell, result } satisfies FromWorker);
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    port.postMessage({ type: 'error', name: err.name, message: err.message.split('\n')[0] ?? '' } satisfies FromWorker);
  }
});
