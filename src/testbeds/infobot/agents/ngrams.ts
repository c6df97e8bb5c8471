/**
 * Bag of n-grams (n ≤ 2) of a user utterance, the input of the neural belief tracker (paper §3.4,
 * the official `featN = 2`): the lower-cased word tokens (stop words kept, `7.2` and `pg-13` whole)
 * and every pair of adjacent tokens. The vocabulary is fixed at training time: every unigram of the KB
 * values, plus the unigrams and (frequent) bigrams of sample utterances, capped by frequency.
 */
import { wordTokens } from '../text.js';
import { ModelFileError } from '../../../core/errors.js';

/** Unigram and bigram keys of an utterance (with repeats).
 *
 * @example
 * ```ts
 * import { ngramKeys } from 'dialogym/infobot';
 * ngramKeys('rated pg-13 please'); // ['rated', 'pg-13', 'please', 'rated pg-13', 'pg-13 please']
 * ```
 */
export function ngramKeys(text: string): string[] {
  const t = wordTokens(text);
  const out = [...t];
  for (let i = 0; i + 1 < t.length; i++) out.push(`${t[i] as string} ${t[i + 1] as string}`);
  return out;
}

/**
 * Options of `NgramVocab.build`.
 *
 * @example
 * ```ts
 * import type { NgramVocabOptions } from 'dialogym/infobot';
 * const opts: NgramVocabOptions = { minBigramCount: 5, maxSize: 4000 };
 * ```
 */
export interface NgramVocabOptions {
  /** Bigrams seen fewer times in the sample utterances are dropped (default 3). */
  minBigramCount?: number;
  /** Largest vocabulary (most frequent first; KB unigrams always kept; default 6000). */
  maxSize?: number;
}

/**
 * The n-gram vocabulary of the neural tracker (module description above): `build` makes it from
 * the KB values and sample utterances, `featurize(text)` gives the ids of an utterance's known
 * n-grams. The constructor throws a ModelFileError for duplicate entries (a corrupt file).
 *
 * @example
 * ```ts
 * import { NgramVocab, splitKbs } from 'dialogym/infobot';
 * const vocab = NgramVocab.build(splitKbs('small', 1).full.vocab, ['i am looking for a comedy', 'it is rated pg-13']);
 * vocab.featurize('a comedy please'); // ids of 'a', 'comedy', … that are in the vocabulary
 * ```
 */
export class NgramVocab {
  private readonly ids: Map<string, number>;

  constructor(readonly entries: readonly string[]) {
    this.ids = new Map(entries.map((e, i) => [e, i]));
    if (this.ids.size !== entries.length) throw new ModelFileError('n-gram vocabulary has duplicate entries');
  }

  get size(): number {
    return this.entries.length;
  }

  /** Builds the vocabulary from the KB's value strings and sample utterances (deterministic order). */
  static build(values: readonly (readonly string[])[], utterances: Iterable<string>, opts: NgramVocabOptions = {}): NgramVocab {
    const minBigram = opts.minBigramCount ?? 3;
    const maxSize = opts.maxSize ?? 6000;
    const kbUnigrams = new Set<string>();
    for (const slot of values) for (const v of slot) for (const t of wordTokens(v)) kbUnigrams.add(t);
    const counts = new Map<string, number>();
    for (const u of utterances) for (const k of ngramKeys(u)) counts.set(k, (counts.get(k) ?? 0) + 1);
    const rest = [...counts]
      .filter(([k, c]) => !kbUnigrams.has(k) && (!k.includes(' ') || c >= minBigram))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([k]) => k);
    const entries = [...[...kbUnigrams].sort(), ...rest].slice(0, Math.max(maxSize, kbUnigrams.size));
    return new NgramVocab(entries);
  }

  /** Ids of the distinct known n-grams of an utterance (unknown n-grams are dropped). */
  featurize(text: string): Int32Array {
    const seen = new Set<number>();
    for (const k of ngramKeys(text)) {
      const id = this.ids.get(k);
      if (id !== undefined) seen.add(id);
    }
    return Int32Array.from(seen);
  }
}

/** Per slot, per value: the ids of the value's n-grams (the tracker's tied value embeddings).
 *
 * @example
 * ```ts
 * import { NgramVocab, valueNgramIds, splitKbs } from 'dialogym/infobot';
 * const { vocab: values } = splitKbs('small', 1).full;
 * const ids = valueNgramIds(NgramVocab.build(values, []), values); // ids[j][v]
 * ```
 */
export function valueNgramIds(vocab: NgramVocab, values: readonly (readonly string[])[]): Int32Array[][] {
  return values.map((slot) => slot.map((v) => vocab.featurize(v)));
}
