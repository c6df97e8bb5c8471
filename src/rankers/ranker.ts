/** What every response model implements, and the registry the CLI, server and benchmarks share. */
import type { Dialog, Turn } from '../core/dialog.js';
import type { ModelFileContent } from '../formats/model-file.js';

/**
 * A response model that scores candidate responses given the dialog so far: `rank` returns one
 * score per candidate, in candidate order, higher = better (pick with `argmax`, order with
 * `orderByScore`). Learned models and TF-IDF are rankers.
 *
 * @example
 * ```ts
 * import { argmax, type Ranker } from 'dialogym';
 * const lengthRanker: Ranker = {
 *   name: 'shortest',
 *   rank: (_history, candidates) => Float32Array.from(candidates, (c) => -c.length),
 * };
 * const scores = lengthRanker.rank([{ speaker: 'user', text: 'hi' }], ['hello there', 'hi']);
 * argmax(scores); // 1
 * ```
 */
export interface Ranker {
  /** The model's name (its registry name for built-in models). */
  readonly name: string;
  /** One score per candidate (same order), higher = better. */
  rank(history: readonly Turn[], candidates: readonly string[]): Float32Array;
}

/**
 * A model that writes its next response directly (rule-based bots): `respond` returns the bot's
 * next utterance given the turns so far. Use `responderAsRanker` to score candidates with it.
 *
 * @example
 * ```ts
 * import type { Responder } from 'dialogym';
 * const greeter: Responder = {
 *   name: 'greeter',
 *   respond: (history) => (history.length <= 1 ? 'hello what can i help you with today' : "i'm on it"),
 * };
 * ```
 */
export interface Responder {
  /** The model's name. */
  readonly name: string;
  /** The next bot utterance after `history`. */
  respond(history: readonly Turn[]): string;
  /**
   * Optional: possible responses, best first, when the history alone leaves a choice open; the
   * candidates (when known) may be used as evidence. `responderAsRanker` uses it when present.
   */
  respondRanked?(history: readonly Turn[], candidates?: readonly string[]): readonly string[];
}

/**
 * Any response model: a {@link Ranker} (scores candidates) or a {@link Responder} (writes its
 * response). `createModel`, `resolveModel` and `evaluateDialogs` take or return either; tell them
 * apart with `isResponder`.
 *
 * @example
 * ```ts
 * import { createModel, isResponder, type ResponseModel } from 'dialogym';
 * const m: ResponseModel = createModel('rules');
 * const kind = isResponder(m) ? 'writes responses' : 'ranks candidates';
 * ```
 */
export type ResponseModel = Ranker | Responder;

/**
 * Whether a response model is a {@link Responder} (has a `respond` method); a type guard.
 *
 * @example
 * ```ts
 * import { createModel, isResponder, responderAsRanker } from 'dialogym';
 * const m = createModel('rules');
 * const ranker = isResponder(m) ? responderAsRanker(m) : m;
 * ```
 */
export function isResponder(m: ResponseModel): m is Responder {
  return typeof (m as Responder).respond === 'function';
}

/**
 * What `createModel` / `resolveModel` pass to a model factory (each model reads what it needs):
 * candidates for rankers, KB facts for match-type features, training dialogs for models built
 * from data at construction.
 *
 * @example
 * ```ts
 * import { createModel, readBabiCandidates, readBabiKb, type ModelContext } from 'dialogym';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const ctx: ModelContext = {
 *   candidates: readBabiCandidates(dir + 'dialog-babi-candidates.txt').candidates,
 *   kb: readBabiKb(dir + 'dialog-babi-kb-all.txt').facts,
 * };
 * const tfidfType = createModel('tfidf+type', ctx);
 * ```
 */
export interface ModelContext {
  /** Candidate responses, when the task has a candidates file. */
  readonly candidates?: readonly string[];
  /** KB facts, when a KB file was given (match-type features). */
  readonly kb?: readonly { readonly entity: string; readonly attr: string; readonly value: string }[];
  /** Training dialogs, for models that learn from a file at construction (`rules-dstc2`). */
  readonly train?: readonly Dialog[];
  /** Accept a model file that is the checkpoint of an unfinished `train` run (refused by default). */
  readonly allowCheckpoint?: boolean;
}

/**
 * A trained ranker that can be written to a model file: `toModelFile()` gives the content that
 * `saveModel` writes and the registry entry's `load` reads back. `trainModel` returns one.
 *
 * @example
 * ```ts
 * import { trainModel, writeModelFile, type SavableRanker, type TrainData } from 'dialogym';
 * declare const data: TrainData;
 * const model: SavableRanker = trainModel('nn', data).model;
 * writeModelFile('out/nn.dgm', model.toModelFile()); // what saveModel does
 * ```
 */
export interface SavableRanker extends Ranker {
  /** The model's name, metadata and weights. */
  toModelFile(): ModelFileContent;
}

/**
 * Index of the best-scoring candidate (the first one on ties); 0 for an empty array. A NaN
 * score after the first is never chosen, but a NaN first score is returned (nothing compares
 * greater than NaN).
 *
 * @example
 * ```ts
 * import { argmax } from 'dialogym';
 * argmax(new Float32Array([0.1, 0.7, 0.7])); // 1
 * ```
 */
export function argmax(scores: Float32Array): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if ((scores[i] as number) > (scores[best] as number)) best = i;
  return best;
}

/**
 * A Responder as a Ranker: 1 for candidates equal to its response, 0 for the rest. A responder
 * with `respondRanked` scores its k-th alternative (0-based) n - k out of n, so the best
 * alternative present among the candidates ranks first.
 *
 * @example
 * ```ts
 * import { responderAsRanker, type Responder } from 'dialogym';
 * const bot: Responder = { name: 'hi', respond: () => 'hello' };
 * responderAsRanker(bot).rank([], ['bye', 'hello']); // Float32Array [0, 1]
 * ```
 */
export function responderAsRanker(r: Responder): Ranker {
  return {
    name: r.name,
    rank(history, candidates) {
      const wants = r.respondRanked ? r.respondRanked(history, candidates) : [r.respond(history)];
      const s = new Float32Array(candidates.length);
      for (let i = 0; i < candidates.length; i++) {
        const k = wants.indexOf(candidates[i] as string);
        if (k >= 0) s[i] = wants.length - k;
      }
      return s;
    },
  };
}
