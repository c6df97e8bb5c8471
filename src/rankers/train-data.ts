/** What every trainer receives: dialogs, candidates and (optionally) KB types. */
import type { Dialog } from '../core/dialog.js';
import type { KbTypes } from './match-type.js';
import { evaluateDialogs } from './evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';
import type { Ranker } from './ranker.js';
import type { SavableRanker } from './ranker.js';

/**
 * What every trainer receives (`trainModel`'s `data`): training and dev dialogs, the candidate
 * responses, and optionally the KB's entity types for match-type features (build them with
 * `KbTypes.fromFacts` from `dialogym/rankers`).
 *
 * @example
 * ```ts
 * import { readBabiDialogs, readBabiCandidates, type TrainData } from 'dialogym';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const data: TrainData = {
 *   train: readBabiDialogs(dir + 'dialog-babi-task1-API-calls-trn.txt').dialogs,
 *   dev: readBabiDialogs(dir + 'dialog-babi-task1-API-calls-dev.txt').dialogs,
 *   candidates: readBabiCandidates(dir + 'dialog-babi-candidates.txt').candidates,
 * };
 * ```
 */
export interface TrainData {
  /** Dialogs to learn from. */
  readonly train: readonly Dialog[];
  /** Dialogs for model selection and early stopping. */
  readonly dev: readonly Dialog[];
  /** The candidate responses a ranker chooses from. */
  readonly candidates: readonly string[];
  /** Entity types of the KB, for match-type features (`TrainOptions.matchType`). */
  readonly kb?: KbTypes;
}

/**
 * Progress hooks of a trainer beside the epoch hooks (`FitHooks`): batches done in the current
 * epoch, and the model under training, given once before the first epoch.
 *
 * @example
 * ```ts
 * import { trainModel, type TrainData } from 'dialogym';
 * import type { TrainHooks } from 'dialogym/rankers';
 * declare const data: TrainData;
 * const hooks: TrainHooks = { onBatch: (done, total) => process.stderr.write(`\r${done}/${total}`) };
 * trainModel('memn2n', data, { epochs: 1 }, hooks);
 * ```
 */
export interface TrainHooks {
  onBatch?(done: number, total: number): void;
  /** Called once with the model being trained, before the first epoch (e.g. to checkpoint it in onBest). */
  onModel?(model: SavableRanker): void;
}

/**
 * Per-response accuracy of a ranker on dialogs (`evaluateDialogs` then
 * `accuracy.perResponse`): what trainers select on. 0 for dialogs without bot turns.
 *
 * @example
 * ```ts
 * import { devAccuracy, Tfidf } from 'dialogym/rankers';
 * import { readBabiDialogs, readBabiCandidates } from 'dialogym';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const candidates = readBabiCandidates(dir + 'dialog-babi-candidates.txt').candidates;
 * const dev = readBabiDialogs(dir + 'dialog-babi-task1-API-calls-dev.txt').dialogs;
 * devAccuracy(Tfidf.fit(candidates, { input: 'last', matchType: false }), dev, candidates);
 * ```
 */
export function devAccuracy(r: Ranker, dialogs: readonly Dialog[], candidates: readonly string[]): number {
  return accuracy.perResponse(evaluateDialogs(r, dialogs, { candidates }));
}
