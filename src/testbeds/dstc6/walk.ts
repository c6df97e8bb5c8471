/**
 * The official `dataset_walker.py`: a plain, readable version of a DSTC6 dataset file (utterances,
 * candidates, the correct answer), and its `--output-statistics` figures.
 */
import type { Dstc6Entry, Dstc6Result } from '../../formats/dstc6.js';
import { countVectorizerVocabulary } from './sklearn-text.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';

/**
 * The true candidate id per dialog (dialog_id → candidate_id) from an answers file: its
 * best-ranked candidate. Unlike `truthAnswers` it never throws (a dialog listed twice keeps the
 * last listing; one without candidates is left out).
 *
 * @example
 * ```ts
 * import { readDstc6Results } from 'dialogym';
 * import { answerIds } from 'dialogym/dstc6';
 * const answers = answerIds(readDstc6Results('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.answers.json'));
 * ```
 */
export function answerIds(answers: readonly Dstc6Result[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of answers) {
    const best = a.lst_candidate_id.reduce<{ id: string; rank: number } | undefined>(
      (b, c) => (b === undefined || c.rank < b.rank ? { id: c.candidate_id, rank: c.rank } : b),
      undefined,
    );
    if (best) out.set(a.dialog_id, best.id);
  }
  return out;
}

/**
 * The plain text of one entry in dataset_walker.py's layout; the true candidate (from the entry's
 * `answer` or from `answers`) is also marked in the candidate list with `  <= answer`.
 *
 * @example
 * ```ts
 * import { readDstc6Data, readDstc6Results } from 'dialogym';
 * import { walkEntry, answerIds } from 'dialogym/dstc6';
 * const file = 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000';
 * const answers = answerIds(readDstc6Results(file + '.answers.json'));
 * console.log(walkEntry(readDstc6Data(file + '.json')[0]!, answers).join('\n'));
 * ```
 */
export function walkEntry(e: Dstc6Entry, answers?: ReadonlyMap<string, string>): string[] {
  const lines = [`dialog_id: ${e.dialog_id}`, 'Utterances:'];
  for (const u of e.utterances) lines.push(` * ${u}`);
  const answerId = e.answer?.candidate_id ?? answers?.get(e.dialog_id);
  lines.push('Candidates:');
  for (const c of e.candidates) lines.push(` * ${c.candidate_id} - ${c.utterance}${c.candidate_id === answerId ? '  <= answer' : ''}`);
  lines.push('Answer:');
  if (answerId === undefined) lines.push('None');
  else {
    const text = e.answer?.utterance ?? e.candidates.find((c) => c.candidate_id === answerId)?.utterance;
    lines.push(` * ${answerId} - ${text ?? '(not among the candidates)'}`);
  }
  lines.push('');
  return lines;
}

/**
 * dataset_walker.py's statistics of a dataset file (same definitions; official names in the
 * field comments), plus candidate counts.
 *
 * @example
 * ```ts
 * import type { Dstc6Stats } from 'dialogym/dstc6';
 * declare const s: Dstc6Stats;
 * console.log(`${s.entries} entries, ${s.utterancesPerEntry.toFixed(2)} utterances each, vocabulary ${s.vocabulary}`);
 * ```
 */
export interface Dstc6Stats {
  /** nb_dialog */
  readonly entries: number;
  /** nb_utterance_total */
  readonly utterances: number;
  /** nb_utterance_per_dialog (mean utterances per entry) */
  readonly utterancesPerEntry: number;
  /** nb_utterance_unic (distinct utterance strings) */
  readonly distinctUtterances: number;
  /** voc_total_len: CountVectorizer() vocabulary of the utterances */
  readonly vocabulary: number;
  /** voc_non_stop_len: CountVectorizer(stop_words="english") vocabulary */
  readonly vocabularyNonStop: number;
  /** Candidates over all entries. */
  readonly candidates: number;
  /** Fewest candidates of an entry (0 for no entries). */
  readonly candidatesMin: number;
  /** Most candidates of an entry. */
  readonly candidatesMax: number;
}

/**
 * Computes `Dstc6Stats` for a dataset's entries (`dataset_walker.py --output-statistics`), plus
 * the two vocabularies themselves (sorted terms). Never throws.
 *
 * @example
 * ```ts
 * import { readDstc6Data } from 'dialogym';
 * import { dstc6Stats, formatDstc6Stats } from 'dialogym/dstc6';
 * const stats = dstc6Stats(readDstc6Data('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json'));
 * console.log(formatDstc6Stats(stats).join('\n'));
 * ```
 */
export function dstc6Stats(entries: readonly Dstc6Entry[]): Dstc6Stats & { readonly vocabularyTerms: string[]; readonly vocabularyNonStopTerms: string[] } {
  const distinct = new Set<string>();
  let utterances = 0;
  let candidates = 0;
  let candidatesMin = Infinity;
  let candidatesMax = 0;
  for (const e of entries) {
    utterances += e.utterances.length;
    for (const u of e.utterances) distinct.add(u);
    candidates += e.candidates.length;
    candidatesMin = Math.min(candidatesMin, e.candidates.length);
    candidatesMax = Math.max(candidatesMax, e.candidates.length);
  }
  // The vocabulary of all utterances equals that of the distinct ones.
  const vocabularyTerms = countVectorizerVocabulary(distinct);
  const vocabularyNonStopTerms = vocabularyTerms.filter((t) => !ENGLISH_STOP_WORDS.has(t));
  return {
    entries: entries.length,
    utterances,
    utterancesPerEntry: entries.length === 0 ? 0 : utterances / entries.length,
    distinctUtterances: distinct.size,
    vocabulary: vocabularyTerms.length,
    vocabularyNonStop: vocabularyNonStopTerms.length,
    candidates,
    candidatesMin: entries.length === 0 ? 0 : candidatesMin,
    candidatesMax,
    vocabularyTerms,
    vocabularyNonStopTerms,
  };
}

/**
 * Readable statistics lines, one per figure (official figure names in brackets), e.g.
 * `entries: 1000  [nb_dialog]`.
 *
 * @example
 * ```ts
 * import { readDstc6Data } from 'dialogym';
 * import { dstc6Stats, formatDstc6Stats } from 'dialogym/dstc6';
 * declare const file: string;
 * for (const line of formatDstc6Stats(dstc6Stats(readDstc6Data(file)))) console.log(line);
 * ```
 */
export function formatDstc6Stats(s: Dstc6Stats): string[] {
  const mean = (x: number): string => String(Math.round(x * 1e4) / 1e4);
  return [
    `entries: ${s.entries}  [nb_dialog]`,
    `utterances total: ${s.utterances}  [nb_utterance_total]`,
    `utterances per entry: ${mean(s.utterancesPerEntry)}  [nb_utterance_per_dialog]`,
    `distinct utterances: ${s.distinctUtterances}  [nb_utterance_unic]`,
    `vocabulary: ${s.vocabulary}  [voc_total_len]`,
    `vocabulary without stop words: ${s.vocabularyNonStop}  [voc_non_stop_len]`,
    `candidates total: ${s.candidates}`,
    `candidates per entry: min ${s.candidatesMin}, mean ${mean(s.entries === 0 ? 0 : s.candidates / s.entries)}, max ${s.candidatesMax}`,
  ];
}
