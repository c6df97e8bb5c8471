/**
 * Runs benchmark cells on worker threads: each worker trains and evaluates one cell at a time
 * (loading a task's data once), the main thread hands out the next cell when a worker is free.
 * A cell's rows do not depend on the worker that ran it (each cell seeds its own training).
 */
import { Worker } from 'node:worker_threads';
import { ConfigError, DialogymError } from '../../../core/errors.js';
import type { EpochReport } from '../../../train/loop.js';
import type { BenchmarkCell, BenchmarkHooks, CellContext, CellResult } from './cell.js';

/** Main thread → worker. */
export type ToWorker = { readonly type: 'cell'; readonly cell: BenchmarkCell };

/** Worker → main thread. */
export type FromWorker =
  | { readonly type: 'epoch'; readonly cell: BenchmarkCell; readonly report: EpochReport }
  | { readonly type: 'done'; readonly cell: BenchmarkCell; readonly result: CellResult }
  | { readonly type: 'error'; readonly name: string; readonly message: string };

function rebuildError(name: string, message: string): Error {
  if (name === 'ConfigError') return new ConfigError(message);
  if (name === 'FormatError' || name === 'DialogymError' || name === 'ModelFileError') return new DialogymError(message);
  return new Error(`benchmark worker: ${message}`);
}

/**
 * Runs `queue` (in that order) on `n` workers; `done` is called in the main thread per finished
 * cell. Rejects on the first error (the other workers are stopped).
 */
export function runOnWorkers(ctx: CellContext, queue: readonly BenchmarkCell[], n: number, hooks: BenchmarkHooks, done: (cell: BenchmarkCell, r: CellResult) => void): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let next = 0;
    let running = 0;
    let failed = false;
    const workers: Worker[] = [];
    const stopped = new Set<Worker>();
    const stop = (w: Worker): void => {
      stopped.add(w);
      void w.terminate();
    };
    const fail = (e: Error): void => {
      if (failed) return;
      failed = true;
      for (const w of workers) stop(w);
      reject(e);
    };
    const feed = (w: Worker): void => {
      const cell = queue[next];
      if (cell === undefined) {
        stop(w);
        if (running === 0) resolvePromise();
        return;
      }
      next++;
      running++;
      hooks.onCellStart?.(cell);
      w.postMessage({ type: 'cell', cell } satisfies ToWorker);
    };
    for (let i = 0; i < n; i++) {
      const w = new Worker(new URL('./worker.js', import.meta.url), { workerData: ctx });
      workers.push(w);
      w.on('message', (m: FromWorker) => {
        if (failed) return;
        if (m.type === 'epoch') hooks.onEpoch?.(m.cell, m.report);
        else if (m.type === 'error') fail(rebuildError(m.name, m.message));
        else {
          running--;
          try {
            done(m.cell, m.result);
          } catch (e) {
            fail(e instanceof Error ? e : new Error(String(e)));
            return;
          }
          feed(w);
        }
      });
      w.on('error', (e) => fail(e));
      w.on('exit', (code) => {
        if (!stopped.has(w) && !failed) fail(new Error(`benchmark worker exited unexpectedly with code ${code}`));
      });
    }
    for (const w of workers) feed(w);
  });
}
