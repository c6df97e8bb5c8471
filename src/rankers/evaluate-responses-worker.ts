/**
 * Worker thread of `BackgroundEvaluator` (see evaluate-responses.ts): receives the dev dialogs and candidates
 * once, then model files (bytes); rebuilds each model, measures per-response accuracy on dev and
 * answers through shared memory, so a trainer blocked in `Atomics.wait` gets the result without
 * running its event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Dialog } from '../core/dialog.js';
import { decodeModelFile } from '../formats/model-file.js';
import { modelFromContent } from './registry.js';
import './builtin.js';
import { evaluateDialogs } from './evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';

interface Init {
  readonly dev: readonly Dialog[];
  readonly candidates: readonly string[];
  /** Int32 [0] = number of the last job answered (negative: it failed), [1] = message length, [2] = 1 once started. */
  readonly control: SharedArrayBuffer;
  /** Float64 [0] = accuracy of the last job. */
  readonly result: SharedArrayBuffer;
  /** UTF-8 error message of a failed job. */
  readonly message: SharedArrayBuffer;
}

const init = workerData as Init;
const control = new Int32Array(init.control);
const result = new Float64Array(init.result);
const message = new Uint8Array(init.message);
Atomics.store(control, 2, 1);

parentPort?.on('message', (job: { id: number; model: Uint8Array }) => {
  try {
    const ranker = modelFromContent(decodeModelFile(Buffer.from(job.model.buffer, job.model.byteOffset, job.model.byteLength)), '<training snapshot>');
    result[0] = accuracy.perResponse(evaluateDialogs(ranker, init.dev, { candidates: init.candidates }));
    Atomics.store(control, 0, job.id);
  } catch (e) {
    const bytes = Buffer.from(e instanceof Error ? e.message : String(e)).subarray(0, message.length);
    message.set(bytes);
    Atomics.store(control, 1, bytes.length);
    Atomics.store(control, 0, -job.id);
  }
  Atomics.notify(control, 0);
});
