/**
 * Worker task of `BackgroundEvaluator` (see evaluate-responses.ts): the dev dialogs and candidates
 * come once (workerData), then model files (bytes); rebuilds each model and measures its
 * per-response accuracy on dev.
 */
import { workerData } from 'node:worker_threads';
import type { Dialog } from '../core/dialog.js';
import { poolTask } from '../core/pool-worker.js';
import { decodeModelFile } from '../formats/model-file.js';
import { modelFromContent } from './registry.js';
import { evaluateDialogs } from './evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';

const { dev, candidates } = workerData as { readonly dev: readonly Dialog[]; readonly candidates: readonly string[] };

export default poolTask<Uint8Array, number>((model) => {
  const ranker = modelFromContent(decodeModelFile(Buffer.from(model.buffer, model.byteOffset, model.byteLength)), '<training snapshot>');
  return accuracy.perResponse(evaluateDialogs(ranker, dev, { candidates }));
});
