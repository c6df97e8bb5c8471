/**
 * Training a MemN2N: mini-batch Adam (or SGD) on softmax cross-entropy over the batch's responses
 * plus N sampled negative candidates, context and hard negatives (the paper's setting,
 * `memn2n-sampled.ts`; sparse updates), or, with `negatives: 0`, over all candidates (the
 * full-softmax path, kept for comparison).
 */
import { createRng } from '../core/rng.js';
import { ConfigError, errorText, optionName } from '../core/errors.js';
import { MemN2N, MEMN2N_DEFAULTS, type MemN2NConfig, type Encoded } from './memn2n.js';
import { WordVocab } from './word-vocab.js';
import { historyOf, trainingExamples } from './examples.js';
import { adam, sgd } from '../nn/params.js';
import { fitMiniBatches, miniBatchBasics, type FitHooks, type FitResult } from '../train/loop.js';
import { BackgroundEvaluator } from './evaluate-responses.js';
import { devAccuracy, type TrainData, type TrainHooks } from './train-data.js';
import { RareWordIndex, SampledBatch, historyWords, type SampledExample } from './memn2n-sampled.js';

export interface MemN2NTrainOptions extends MemN2NConfig {
  readonly epochs: number;
  readonly patience: number;
  readonly lr: number;
  readonly optimizer: 'sgd' | 'adam';
  readonly batchSize: number;
  readonly maxGradNorm: number;
  readonly initSd: number;
  readonly seed: number;
  /** Evaluate dev on a worker thread, overlapping the next epoch's training (same results). */
  readonly evalWorker: boolean;
  /** Generic kernels instead of the 32-column fast paths (same results, slower; for benchmarks). */
  readonly referenceKernels: boolean;
  /**
   * Negative candidates sampled per mini-batch (shared by its examples, besides the batch's own
   * responses); 0 = softmax over all candidates (the full path, slower). The paper's Tables 8/9: 100.
   */
  readonly negatives: number;
  /**
   * Sampled path: each example also scores the candidates sharing a word with its dialog that
   * occurs in at most this many candidates (restaurant names, cuisines, places; 0 = none).
   */
  readonly contextDf: number;
  /** Sampled path: context negatives scored per example at most, drawn anew each time when it has more (0 = all). */
  readonly contextMax: number;
  /**
   * Sampled path: each example also scores the `hardNegatives` wrong candidates that score highest
   * among all candidates under the current weights (0 = none).
   */
  readonly hardNegatives: number;
}

/**
 * The default recipe (`dialogym train --model memn2n`, the benchmark's profiles): the paper's
 * sampled softmax (100 negatives per batch, appendix Tables 8/9) plus each example's context
 * negatives and 10 hard negatives, sparse Adam at lr 0.003, stopping after 3 epochs without a
 * better dev score. Chosen on dev (see `FULL_PROFILE` of the restaurant benchmark and the README);
 * `negatives: 0` trains with the softmax over all candidates (the slower path), `optimizer: 'sgd'`,
 * `lr: 0.01`, `patience: 8`, `hardNegatives: 0` are the earlier recipe.
 */
export const MEMN2N_TRAIN_DEFAULTS: MemN2NTrainOptions = {
  ...MEMN2N_DEFAULTS,
  epochs: 30,
  patience: 3,
  lr: 0.003,
  optimizer: 'adam',
  batchSize: 32,
  maxGradNorm: 40,
  initSd: 0.1,
  seed: 1,
  evalWorker: true,
  referenceKernels: false,
  negatives: 100,
  contextDf: 64,
  contextMax: 0,
  hardNegatives: 10,
};

/** Vocabulary of a bag-of-words model: every word of the training dialogs and candidates. */
export function buildVocab(data: TrainData): WordVocab {
  const v = new WordVocab();
  for (const d of data.train) for (const t of d.turns) v.addText(t.text);
  for (const c of data.candidates) v.addText(c);
  return v;
}

export function trainMemN2N(data: TrainData, options: Partial<MemN2NTrainOptions> = {}, hooks: FitHooks & TrainHooks = {}): { model: MemN2N; fit: FitResult; missing: number } {
  const o: MemN2NTrainOptions = { ...MEMN2N_TRAIN_DEFAULTS, ...options };
  if (o.matchType && !data.kb) throw new ConfigError(errorText`memn2n ${optionName('matchType')} needs a KB file (${optionName('kb')})`);
  const rng = createRng(o.seed);
  const config: MemN2NConfig = { dim: o.dim, hops: o.hops, memorySize: o.memorySize, matchType: o.matchType };
  const model = new MemN2N(config, buildVocab(data), o.matchType ? data.kb : undefined);
  model.init(rng.fork('init'), o.initSd);
  model.referenceKernels = o.referenceKernels;
  hooks.onModel?.(model);
  const cand = model.candidates(data.candidates);
  const { examples, missing } = trainingExamples(data.train, (t) => cand.index.indexOf(t));
  const n = data.candidates.length;
  const sampled = o.negatives > 0;
  // The sampled path reads the history's words as ids (`historyWords`), not as the strings of `Encoded.context`.
  const encoded: Encoded[] = examples.map((e) => model.encode(historyOf(e), !sampled));
  const background = o.evalWorker && data.dev.length > 0 ? new BackgroundEvaluator(data.dev, data.candidates) : undefined;
  const common = {
    ...miniBatchBasics(model, rng, examples.length, o, o.optimizer === 'adam' ? adam(o.lr) : sgd(o.lr)),
    afterStep: () => model.touch(),
    evaluate: () => devAccuracy(model, data.dev, data.candidates),
    ...(background ? { startEvaluate: () => background.start(model) } : {}),
  };
  try {
    if (sampled) {
      const batch = new SampledBatch(model, data.candidates, { negatives: o.negatives, contextMax: o.contextMax, hard: o.hardNegatives, lr: o.lr, optimizer: o.optimizer });
      const rare = o.contextDf > 0 ? new RareWordIndex(cand.index, o.contextDf) : undefined;
      const words = historyWords(examples, (t) => model.vocab.encode(t));
      const items: SampledExample[] = encoded.map((x, k) => {
        const target = (examples[k] as { target: number }).target;
        const w = words[k] as Int32Array;
        return { x, target, words: w, context: rare ? rare.candidatesOf(w, target) : new Int32Array(0) };
      });
      const result = fitMiniBatches(
        {
          ...common,
          sparse: batch.optimizer,
          beforeBatch: (ks, r) => batch.begin(ks, items, r),
          example: (k, r) => batch.example(items[k] as SampledExample, r),
          afterExamples: () => batch.end(),
        },
        { epochs: o.epochs, patience: o.patience },
        hooks,
      );
      return { model, fit: result, missing };
    }
    const gC = model.candidateGradient(cand);
    const scratch = { scores: new Float32Array(n), g: new Float32Array(n) };
    let c!: ReturnType<typeof model.candidates>;
    const result = fitMiniBatches(
      {
        ...common,
        beforeBatch() {
          gC.fill(0);
          c = model.candidates(data.candidates);
        },
        example: (k) => model.lossAndGrad(encoded[k] as Encoded, (examples[k] as { target: number }).target, c, gC, scratch),
        afterExamples: () => model.candidatesBackward(c, gC),
      },
      { epochs: o.epochs, patience: o.patience },
      hooks,
    );
    return { model, fit: result, missing };
  } finally {
    background?.close();
  }
}
