/** What every trainer receives: dialogs, candidates and (optionally) KB types. */
import type { Dialog } from '../core/dialog.js';
import type { KbTypes } from './match-type.js';
import { evaluateDialogs } from './evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';
import type { Ranker } from './ranker.js';
import type { SavableRanker } from './ranker.js';

export interface TrainData {
  readonly train: readonly Dialog[];
  readonly dev: readonly Dialog[];
  readonly candidates: readonly string[];
  readonly kb?: KbTypes;
}

/** Progress inside an epoch (batches done / total) and per epoch. */
export interface TrainHooks {
  onBatch?(done: number, total: number): void;
  /** Called once with the model being trained, before the first epoch (e.g. to checkpoint it in onBest). */
  onModel?(model: SavableRanker): void;
}

/** Per-response accuracy of a ranker on dialogs. */
export function devAccuracy(r: Ranker, dialogs: readonly Dialog[], candidates: readonly string[]): number {
  return accuracy.perResponse(evaluateDialogs(r, dialogs, { candidates }));
}
