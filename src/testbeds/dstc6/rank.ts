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

/** What `Ranker.rank` is: one score per candidate, higher = better. */
export type ScoreCandidates = (history: readonly Turn[], candidates: readonly string[]) => ArrayLike<number>;

export interface RankOptions {
  readonly onProgress?: (done: number, total: number) => void;
}

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

/** Distinct candidate utterances of a dataset, in first-seen order (a model's candidate set). */
export function distinctCandidates(entries: readonly Dstc6Entry[]): string[] {
  const seen = new Set<string>();
  for (const e of entries) for (const c of e.candidates) seen.add(c.utterance);
  return [...seen];
}
