/**
 * Table 2 of Bordes, Boureau & Weston (2017), "Learning end-to-end goal-oriented dialog": test
 * accuracy per test set and model, per-response (per-dialog in parentheses when the paper gives it).
 */

/** The models of Table 2, in the paper's column order (the contract names of benchmark.json).
 *
 * @example
 * ```ts
 * import { PAPER_MODELS } from 'dialogym/restaurant';
 * PAPER_MODELS.length; // 6
 * ```
 */
export const PAPER_MODELS = ['tfidf', 'tfidf+type', 'nn', 'embeddings', 'memn2n', 'memn2n+match'] as const;
/**
 * A model of the paper's Table 2.
 *
 * @example
 * ```ts
 * import { paperCell, type PaperModel } from 'dialogym/restaurant';
 * const m: PaperModel = 'memn2n+match';
 * paperCell('T1-OOV', m); // { perResponse: 96.5, perDialog: 82.7 }
 * ```
 */
export type PaperModel = (typeof PAPER_MODELS)[number];

/**
 * The supervised-embeddings variants of the paper's appendix Table 10 (match-type features,
 * bigrams), run by the benchmark beside Table 2 (Table 10's plain column is Table 2's `embeddings`).
 *
 * @example
 * ```ts
 * import { TABLE10_MODELS } from 'dialogym/restaurant';
 * TABLE10_MODELS; // ['embeddings+match', 'embeddings+bigrams']
 * ```
 */
export const TABLE10_MODELS = ['embeddings+match', 'embeddings+bigrams'] as const;

/**
 * dialogym's variants (no paper value of their own, reported apart): the stronger count-based
 * baselines — `tfidf+type-word` (a matched type as its name word, chosen on dev) and `nn+prev`
 * (word overlap, keyed on the last user utterance or with the bot turn before it, chosen on dev) —
 * and `hcn`, the Hybrid Code Network of issue #7.
 *
 * @example
 * ```ts
 * import { VARIANT_MODELS } from 'dialogym/restaurant';
 * VARIANT_MODELS; // ['tfidf+type-word', 'nn+prev', 'hcn']
 * ```
 */
export const VARIANT_MODELS = ['tfidf+type-word', 'nn+prev', 'hcn'] as const;

/** Every model the benchmark can run, in column order: Table 2's, Table 10's variants, then dialogym's variants.
 *
 * @example
 * ```ts
 * import { BENCHMARK_MODELS } from 'dialogym/restaurant';
 * BENCHMARK_MODELS.at(-1); // 'hcn'
 * ```
 */
export const BENCHMARK_MODELS = [...PAPER_MODELS, ...TABLE10_MODELS, ...VARIANT_MODELS] as const;
/**
 * A model the benchmark can run: one of Table 2's, a Table 10 variant, or one of dialogym's variants.
 *
 * @example
 * ```ts
 * import { parseModels, type BenchmarkModel } from 'dialogym/restaurant';
 * const models: BenchmarkModel[] = parseModels('hcn,memn2n');
 * ```
 */
export type BenchmarkModel = (typeof BENCHMARK_MODELS)[number];

export function isPaperModel(m: BenchmarkModel): m is PaperModel {
  return (PAPER_MODELS as readonly string[]).includes(m);
}

/** Whether a model is one of dialogym's variants (`VARIANT_MODELS`), reported apart from the paper's tables. */
export function isVariantModel(m: BenchmarkModel): boolean {
  return (VARIANT_MODELS as readonly string[]).includes(m);
}

/**
 * Whether a model learns weights from a seed (embeddings, MemN2N, HCN): `--seeds k` trains it k
 * times, and it passes against the paper when its mean is at most `PAPER_TOLERANCE` below. The
 * count-based baselines are deterministic: run once, they pass within the tolerance either way.
 */
export function isLearnedModel(m: BenchmarkModel): boolean {
  return m.startsWith('embeddings') || m.startsWith('memn2n') || m === 'hcn';
}

/** Column headers as the paper prints them (variants: our label). */
export const PAPER_MODEL_LABELS: Readonly<Record<BenchmarkModel, string>> = {
  tfidf: 'TF-IDF (no type)',
  'tfidf+type': 'TF-IDF + type',
  nn: 'Nearest Neighbor',
  embeddings: 'Supervised Embeddings',
  memn2n: 'MemNNs',
  'memn2n+match': 'MemNNs + match type',
  'embeddings+match': 'Sup. Emb. + match type',
  'embeddings+bigrams': 'Sup. Emb. + bigrams',
  'tfidf+type-word': 'TF-IDF + type word',
  'nn+prev': 'NN + previous turn',
  hcn: 'HCN',
};

/** For each of dialogym's count-based variants, the paper's method it strengthens (its value is shown beside, for reference). */
export const VARIANT_OF: Readonly<Partial<Record<BenchmarkModel, PaperModel>>> = { 'tfidf+type-word': 'tfidf+type', 'nn+prev': 'nn' };

/** The test sets of Table 2, in the paper's row order.
 *
 * @example
 * ```ts
 * import { BENCHMARK_TESTS } from 'dialogym/restaurant';
 * BENCHMARK_TESTS.length; // 11: T1–T5, T1-OOV–T5-OOV, T6
 * ```
 */
export const BENCHMARK_TESTS = ['T1', 'T2', 'T3', 'T4', 'T5', 'T1-OOV', 'T2-OOV', 'T3-OOV', 'T4-OOV', 'T5-OOV', 'T6'] as const;
/**
 * A test set of Table 2: `T1`–`T6` and the out-of-vocabulary `T1-OOV`–`T5-OOV`.
 *
 * @example
 * ```ts
 * import { paperCell, type BenchmarkTest } from 'dialogym/restaurant';
 * const t: BenchmarkTest = 'T6';
 * paperCell(t, 'memn2n').perResponse; // 41.1
 * ```
 */
export type BenchmarkTest = (typeof BENCHMARK_TESTS)[number];

/** One published cell: per-response accuracy in %, and per-dialog accuracy in % when published. */
export interface PaperCell {
  readonly perResponse: number;
  readonly perDialog?: number;
}

const c = (perResponse: number, perDialog?: number): PaperCell => (perDialog === undefined ? { perResponse } : { perResponse, perDialog });

/** Rows of Table 2; columns in `PAPER_MODELS` order. */
const ROWS: Readonly<Record<BenchmarkTest, readonly PaperCell[]>> = {
  T1: [c(5.6), c(22.4), c(55.1), c(100, 100), c(99.9, 99.6), c(100, 100)],
  T2: [c(3.4), c(16.4), c(68.3), c(68.4), c(100, 100), c(98.3, 83.9)],
  T3: [c(8.0), c(8.0), c(58.8), c(64.9), c(74.9, 2.0), c(74.9, 0)],
  T4: [c(9.5), c(17.8), c(28.6), c(57.2), c(59.5, 3.0), c(100, 100)],
  T5: [c(4.6), c(8.1), c(57.1), c(75.4), c(96.1, 49.4), c(93.4, 19.7)],
  'T1-OOV': [c(5.8), c(22.4), c(44.1), c(60.0), c(72.3), c(96.5, 82.7)],
  'T2-OOV': [c(3.5), c(16.8), c(68.3), c(68.3), c(78.9), c(94.5, 48.4)],
  'T3-OOV': [c(8.3), c(8.3), c(58.8), c(65.0), c(74.4), c(75.2)],
  'T4-OOV': [c(9.8), c(17.2), c(28.6), c(57.0), c(57.6), c(100, 100)],
  'T5-OOV': [c(4.6), c(9.0), c(48.4), c(58.2), c(65.5), c(77.7)],
  T6: [c(1.6), c(1.6), c(21.9), c(22.6), c(41.1), c(41.0)],
};

/**
 * The paper's published value for a test set and model: per-response accuracy in %, and
 * per-dialog accuracy in % when the paper gives it.
 *
 * @example
 * ```ts
 * import { paperCell } from 'dialogym/restaurant';
 * paperCell('T5', 'memn2n'); // { perResponse: 96.1, perDialog: 49.4 }
 * ```
 */
export function paperCell(test: BenchmarkTest, model: PaperModel): PaperCell {
  return ROWS[test][PAPER_MODELS.indexOf(model)] as PaperCell;
}

/** Rows of the appendix's Table 10 (from the paper's appendix); columns: `embeddings+match`, `embeddings+bigrams` (its plain column is Table 2's). */
const TABLE10_ROWS: Readonly<Record<BenchmarkTest, readonly [PaperCell, PaperCell]>> = {
  T1: [c(83.2, 0), c(98.6, 92.4)],
  T2: [c(68.4, 0), c(68.3, 0)],
  T3: [c(64.9, 0), c(64.9, 0)],
  T4: [c(57.2, 0), c(57.3, 0)],
  T5: [c(76.2, 0), c(83.4, 0)],
  'T1-OOV': [c(67.2, 0), c(58.8, 0)],
  'T2-OOV': [c(68.3, 0), c(68.3, 0)],
  'T3-OOV': [c(65.0, 0), c(62.1, 0)],
  'T4-OOV': [c(57.1, 0), c(57.0, 0)],
  'T5-OOV': [c(64.4, 0), c(50.4, 0)],
  T6: [c(22.1, 0), c(21.8, 0)],
};

/**
 * The paper's appendix Table 10 value of an embeddings variant: per-response accuracy in %,
 * per-dialog in %.
 *
 * @example
 * ```ts
 * import { table10Cell } from 'dialogym/restaurant';
 * table10Cell('T5', 'embeddings+bigrams'); // { perResponse: 83.4, perDialog: 0 }
 * ```
 */
export function table10Cell(test: BenchmarkTest, model: (typeof TABLE10_MODELS)[number]): PaperCell {
  return TABLE10_ROWS[test][TABLE10_MODELS.indexOf(model)] as PaperCell;
}

/** The paper's value (Table 2 or the appendix's Table 10), or undefined for one of dialogym's variants. */
export function paperCellOf(test: BenchmarkTest, model: BenchmarkModel): PaperCell | undefined {
  if (isPaperModel(model)) return paperCell(test, model);
  if (model === 'embeddings+match' || model === 'embeddings+bigrams') return table10Cell(test, model);
  return undefined;
}

/** Test set names of a task: `T<n>` and, for tasks 1-5, `T<n>-OOV`. */
export function testsOfTask(task: number): BenchmarkTest[] {
  return (task <= 5 ? [`T${task}`, `T${task}-OOV`] : [`T${task}`]) as BenchmarkTest[];
}
