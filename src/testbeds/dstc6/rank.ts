/**
 * Ranking a DSTC6 dataset with any scoring function (a `Ranker` of the models registry, or a
 * `Responder` turned into one): history = `dstc6History(entry.utterances)`, candidates ranked by
 * score, highest first, ties in candidate order.
 */
import type { Turn } from '../../core/dialog.js';
import type { Dstc6Entry, Dstc6Result } from '../../formats/dstc6.js';
import { dstc6History, rankingResult } from '../../formats/dstc6.js';
import { orderByScore } from '../../metrics/ranking.js';
import { DialogymError } from '../../core/errors.js';

/**
 * A scoring function with the signature of `Ranker.rank`: one score per candidate, in candidate
 * order, higher = better. Pass `model.rank.bind(model)` for a registry model.
 *
 * @example
 * ```ts
 * import type { ScoreCandidates } from 'dialogym/dstc6';
 * const byLength: ScoreCandidates = (_history, candidates) => candidates.map((c) => -c.length);
 * ```
 */
export type ScoreCandidates = (history: readonly Turn[], candidates: readonly string[]) => ArrayLike<number>;

/**
 * Options of `rankDstc6`.
 *
 * @example
 * ```ts
 * import type { RankOptions } from 'dialogym/dstc6';
 * const opts: RankOptions = { onProgress: (done, total) => process.stderr.write(`\r${done}/${total}`) };
 * ```
 */
export interface RankOptions {
  /** Called after each entry. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Ranks every entry's candidates with `score` (history = `dstc6History(entry.utterances)`):
 * highest score first, ties in candidate order, NaN last; returns one result entry per dataset
 * entry, every candidate ranked. Throws a DialogymError when `score` returns the wrong number of
 * scores.
 *
 * @example
 * ```ts
 * import { readDstc6Data, createModel, isResponder, responderAsRanker } from 'dialogym';
 * import { rankDstc6, distinctCandidates } from 'dialogym/dstc6';
 * const entries = readDstc6Data('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json');
 * const m = createModel('tfidf', { candidates: distinctCandidates(entries) });
 * const ranker = isResponder(m) ? responderAsRanker(m) : m;
 * const results = rankDstc6(entries, (history, candidates) => ranker.rank(history, candidates));
 * ```
 */
export function rankDstc6(entries: readonly Dstc6Entry[], score: ScoreCandidates, opts: RankOptions = {}): Dstc6Result[] {
  return entries.map((e, i) => {
    const texts = e.candidates.map((c) => c.utterance);
    const scores = score(dstc6History(e.utterances), texts);
    if (scores.length !== texts.length) {
      throw new DialogymError(`dialog_id ${e.dialog_id}: the model returned ${scores.length} scores for ${texts.length} candidates`);
    }
    const order = orderByScore(scores);
    opts.onProgress?.(i + 1, entries.length);
    return rankingResult(
      e.dialog_id,
      order.map((k) => (e.candidates[k] as Dstc6Entry['candidates'][number]).candidate_id),
    );
  });
}

/**
 * Distinct candidate utterances of a dataset, in first-seen order (a model's candidate set, e.g.
 * `ModelContext.candidates`).
 *
 * @example
 * ```ts
 * import { readDstc6Data } from 'dialogym';
 * import { distinctCandidates } from 'dialogym/dstc6';
 * const candidates = distinctCandidates(readDstc6Data('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json'));
 * ```
 */
export function distinctCandidates(entries: readonly Dstc6Entry[]): string[] {
  const seen = new Set<string>();
  for (const e of entries) for (const c of e.candidates) seen.add(c.utterance);
  return [...seen];
}
