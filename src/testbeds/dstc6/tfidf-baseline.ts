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

/**
 * Options of `tfidfScores` / `tfidfBaseline`.
 *
 * @example
 * ```ts
 * import type { TfidfBaselineOptions } from 'dialogym/dstc6';
 * const opts: TfidfBaselineOptions = { onProgress: (done, total) => { if (done === total) console.log('ranked', total); } };
 * ```
 */
export interface TfidfBaselineOptions {
  /** Called after each entry (progress display). */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * The baseline's per-candidate scores of every entry (entry order, candidate order): the dot
 * product of each candidate's tf-idf vector with its entry's, the vectorizer fitted on the
 * entries' joined utterances as scikit-learn's TfidfVectorizer does.
 *
 * @example
 * ```ts
 * import { readDstc6Data } from 'dialogym';
 * import { tfidfScores } from 'dialogym/dstc6';
 * const entries = readDstc6Data('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json');
 * const scores = tfidfScores(entries); // scores[i][k]: entry i, candidate k
 * ```
 */
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

/**
 * The official TF-IDF baseline's result (`baseline_tfidf.py`): every candidate of every entry
 * ranked by `tfidfScores`, 1 = best, ties in candidate order.
 *
 * @example
 * ```ts
 * import { readDstc6Data, writeDstc6Results } from 'dialogym';
 * import { tfidfBaseline } from 'dialogym/dstc6';
 * writeDstc6Results('out/tfidf-tst1-task1.json', tfidfBaseline(readDstc6Data('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json')));
 * ```
 */
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
