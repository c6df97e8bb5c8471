/**
 * The official DSTC6 Track 1 TF-IDF baseline (`baseline_tfidf.py`): a TfidfVectorizer fitted on the
 * file's entries (one document per entry: its utterances joined by spaces); each entry's
 * candidates are transformed with it and ranked by dot product with the entry's row, highest
 * first, ties in candidate order (numpy's argsort on these short lists is an insertion sort).
 */
import type { Dstc6Entry, Dstc6Result } from '../../formats/dstc6.js';
import { rankingResult } from '../../formats/dstc6.js';
import { orderByScore } from '../../metrics/ranking.js';
import { TfidfVectorizer, sparseDots } from './sklearn-text.js';

export interface TfidfBaselineOptions {
  /** Called after each entry (progress display). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** The per-candidate scores of every entry (entry order, candidate order). */
export function tfidfScores(entries: readonly Dstc6Entry[], opts: TfidfBaselineOptions = {}): Float64Array[] {
  const { vectorizer, rows } = TfidfVectorizer.fitTransform(entries.map((e) => e.utterances.join(' ')));
  const scratch = new Float64Array(vectorizer.size);
  const cache = new Map<string, ReturnType<TfidfVectorizer['transform']>>();
  return entries.map((e, i) => {
    const cands = e.candidates.map((c) => {
      let r = cache.get(c.utterance);
      if (r === undefined) {
        r = vectorizer.transform(c.utterance);
        cache.set(c.utterance, r);
      }
      return r;
    });
    const s = sparseDots(rows[i] as (typeof rows)[number], cands, scratch);
    opts.onProgress?.(i + 1, entries.length);
    return s;
  });
}

/** The baseline's result entries (every candidate ranked, 1 = best). */
export function tfidfBaseline(entries: readonly Dstc6Entry[], opts: TfidfBaselineOptions = {}): Dstc6Result[] {
  const scores = tfidfScores(entries, opts);
  return entries.map((e, i) => {
    const order = orderByScore(scores[i] as Float64Array);
    return rankingResult(
      e.dialog_id,
      order.map((k) => (e.candidates[k] as Dstc6Entry['candidates'][number]).candidate_id),
    );
  });
}
