/** Training supervised embeddings: margin ranking loss, sampled negatives, mini-batch SGD. */
import { createRng, type Rng } from '../core/rng.js';
import { ConfigError, errorText, optionName } from '../core/errors.js';
import { Embeddings, EMBEDDINGS_DEFAULTS, type EmbeddingsConfig, type EncodedInput } from './embeddings.js';
import { historyOf, trainingExamples } from './examples.js';
import { adam, sgd } from '../nn/params.js';
import { fitMiniBatches, miniBatchBasics, type FitHooks, type FitResult } from '../train/loop.js';
import { devAccuracy, type TrainData, type TrainHooks } from './train-data.js';
import { buildVocab } from './memn2n-train.js';
import { SparseSgd, TouchedRows } from '../nn/sparse-rows.js';
import { SharedNegativesBatch, bagCounts } from './embeddings-batch.js';

export interface EmbeddingsTrainOptions extends EmbeddingsConfig {
  readonly epochs: number;
  readonly patience: number;
  readonly lr: number;
  readonly optimizer: 'sgd' | 'adam';
  readonly margin: number;
  /** Negative candidates sampled per example. */
  readonly negatives: number;
  readonly batchSize: number;
  readonly maxGradNorm: number;
  readonly initSd: number;
  readonly seed: number;
  /**
   * SGD steps only the embedding rows a batch used (the same weights as the dense step; much
   * less work on big vocabularies, e.g. with bigrams). False = the dense step over every row (the
   * baseline of `bench/embeddings.bench.ts`). Adam always steps densely.
   */
  readonly sparse: boolean;
  /**
   * Draw the negatives once per mini-batch and share them among its examples, with the batch's
   * other responses (`embeddings-batch.ts`); false = `negatives` fresh draws per example.
   */
  readonly sharedNegatives: boolean;
}

export const EMBEDDINGS_TRAIN_DEFAULTS: EmbeddingsTrainOptions = {
  ...EMBEDDINGS_DEFAULTS,
  epochs: 15,
  patience: 5,
  lr: 0.01,
  optimizer: 'sgd',
  margin: 0.1,
  negatives: 100,
  batchSize: 32,
  maxGradNorm: 40,
  initSd: 0.1,
  seed: 1,
  sparse: true,
  sharedNegatives: false,
};

export function trainEmbeddings(data: TrainData, options: Partial<EmbeddingsTrainOptions> = {}, hooks: FitHooks & TrainHooks = {}): { model: Embeddings; fit: FitResult; missing: number } {
  const o: EmbeddingsTrainOptions = { ...EMBEDDINGS_TRAIN_DEFAULTS, ...options };
  if (o.matchType && !data.kb) throw new ConfigError(errorText`embeddings ${optionName('matchType')} needs a KB file (${optionName('kb')})`);
  const n = data.candidates.length;
  if (n < 2) throw new ConfigError('embeddings: need at least 2 candidates');
  const rng = createRng(o.seed);
  const config: EmbeddingsConfig = { dim: o.dim, input: o.input, shareAB: o.shareAB, matchType: o.matchType, bigrams: o.bigrams === true };
  const vocab = buildVocab(data);
  if (o.bigrams) for (const text of [...data.train.flatMap((d) => d.turns.map((t) => t.text)), ...data.candidates]) vocab.addBigrams(text);
  const model = new Embeddings(config, vocab, o.matchType ? data.kb : undefined);
  model.init(rng.fork('init'), o.initSd);
  hooks.onModel?.(model);
  const cand = model.candidates(data.candidates);
  const { examples, missing } = trainingExamples(data.train, (t) => cand.index.indexOf(t));
  // Batch-shared negatives read each input as its distinct ids with counts (fewer row reads).
  const encoded = examples.map((e): EncodedInput & { counts?: Float32Array } => {
    const enc = model.encode(historyOf(e), cand);
    if (!o.sharedNegatives) return enc;
    const bag = bagCounts(enc.x);
    return { x: bag.ids, counts: bag.counts, slots: enc.slots };
  });
  const k = Math.min(o.negatives, n - 1);
  const tables = o.sparse && o.optimizer === 'sgd' ? model.params.map((p) => new TouchedRows(p)) : undefined;
  const [rowsA, rowsB] = tables ? [tables[0] as TouchedRows, (tables[1] ?? tables[0]) as TouchedRows] : [];
  const shared = o.sharedNegatives ? new SharedNegativesBatch(model, cand, k, o.margin, rowsA && rowsB ? { A: rowsA, B: rowsB } : undefined) : undefined;
  const target = (j: number): number => (examples[j] as { target: number }).target;
  const result = fitMiniBatches(
    {
      ...miniBatchBasics(model, rng, examples.length, o, o.optimizer === 'adam' ? adam(o.lr) : sgd(o.lr)),
      ...(shared
        ? {
            beforeBatch: (batch: readonly number[], r: Rng) => shared.begin(batch.map(target), r),
            afterExamples: () => shared.end(),
          }
        : {}),
      example(j, r) {
        const e = encoded[j] as EncodedInput & { counts?: Float32Array };
        if (shared) return shared.example(e.x, target(j), e.slots, e.counts);
        const pos = (examples[j] as { target: number }).target;
        const negs: number[] = [];
        while (negs.length < k) {
          const c = r.int(n);
          if (c !== pos) negs.push(c);
        }
        const present = e.slots ? model.presence(cand, e.slots) : undefined;
        const loss = model.lossAndGrad(e.x, pos, negs, cand, present, o.margin);
        if (rowsA && rowsB && loss > 0) {
          rowsA.touchAll(e.x);
          rowsB.touchAll(model.candidateIds(cand, pos, present));
          for (const c of negs) rowsB.touchAll(model.candidateIds(cand, c, present));
        }
        return loss;
      },
      ...(tables ? { sparse: new SparseSgd(o.lr, tables, []) } : {}),
      afterStep: () => model.touch(),
      evaluate: () => devAccuracy(model, data.dev, data.candidates),
    },
    { epochs: o.epochs, patience: o.patience },
    hooks,
  );
  return { model, fit: result, missing };
}
