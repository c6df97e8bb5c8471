/** What every response model implements, and the registry the CLI, server and benchmarks share. */
import type { Dialog, Turn } from '../core/dialog.js';
import type { ModelFileContent } from '../formats/model-file.js';

/** Scores candidate responses given the dialog so far (one score per candidate, higher = better). */
export interface Ranker {
  readonly name: string;
  rank(history: readonly Turn[], candidates: readonly string[]): Float32Array;
}

/** A model that writes its next response directly (rule-based bots). */
export interface Responder {
  readonly name: string;
  respond(history: readonly Turn[]): string;
  /**
   * Optional: possible responses, best first, when the history alone leaves a choice open; the
   * candidates (when known) may be used as evidence. `responderAsRanker` uses it when present.
   */
  respondRanked?(history: readonly Turn[], candidates?: readonly string[]): readonly string[];
}

export type ResponseModel = Ranker | Responder;

export function isResponder(m: ResponseModel): m is Responder {
  return typeof (m as Responder).respond === 'function';
}

/** Options a factory may receive (each model reads what it needs). */
export interface ModelContext {
  /** Candidate responses, when the task has a candidates file. */
  readonly candidates?: readonly string[];
  /** KB facts, when a KB file was given (match-type features). */
  readonly kb?: readonly { readonly entity: string; readonly attr: string; readonly value: string }[];
  /** Training dialogs, for models that learn from a file at construction (`rules-dstc2`). */
  readonly train?: readonly Dialog[];
}

/** A trained ranker that can be written to a model file. */
export interface SavableRanker extends Ranker {
  toModelFile(): ModelFileContent;
}

/** Index of the best-scoring candidate (first one on ties). */
export function argmax(scores: Float32Array): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if ((scores[i] as number) > (scores[best] as number)) best = i;
  return best;
}

/**
 * A Responder as a Ranker: 1 for candidates equal to its response, 0 for the rest. A responder
 * with `respondRanked` scores its k-th alternative (0-based) n - k out of n, so the best
 * alternative present among the candidates ranks first.
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
