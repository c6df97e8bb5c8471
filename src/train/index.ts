/**
 * One entry point to train any learned ranker by name (used by `dialogym train` and benchmarks).
 */
import { ConfigError } from '../core/errors.js';
import type { SavableRanker } from '../models/saved.js';
import type { FitHooks } from './loop.js';
import { devAccuracy, type TrainData, type TrainHooks } from './data.js';
import { trainTfidf, trainNn } from './baselines.js';
import { trainEmbeddings, type EmbeddingsTrainOptions } from './embeddings.js';
import { trainMemN2N, type MemN2NTrainOptions } from './memn2n.js';
import { trainHcn, type HcnTrainOptions } from './hcn.js';

export const TRAINABLE_MODELS = ['tfidf', 'nn', 'embeddings', 'memn2n', 'hcn'] as const;
export type TrainableModel = (typeof TRAINABLE_MODELS)[number];

/** Options common to the trainers; each reads what applies (undefined = the model's default). */
export interface TrainOptions {
  readonly matchType?: boolean;
  readonly hops?: number;
  readonly dim?: number;
  readonly lr?: number;
  readonly epochs?: number;
  readonly patience?: number;
  readonly seed?: number;
  readonly optimizer?: 'sgd' | 'adam';
  readonly batchSize?: number;
  readonly memorySize?: number;
  readonly margin?: number;
  readonly negatives?: number;
  readonly shareAB?: boolean;
  readonly input?: 'last' | 'history';
  /** hcn: GRU state size. */
  readonly hidden?: number;
}

export interface TrainResult {
  readonly model: SavableRanker;
  /** Dev per-response accuracy of the returned model. */
  readonly dev: number;
  /** Best epoch (learned models) or chosen input mode (count-based baselines). */
  readonly selected: string;
  readonly seconds: number;
  /** Training bot turns whose response is not a candidate (skipped). */
  readonly missing: number;
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function trainModel(kind: string, data: TrainData, opts: TrainOptions = {}, hooks: FitHooks & TrainHooks = {}): TrainResult {
  const t0 = performance.now();
  const secs = (): number => (performance.now() - t0) / 1000;
  switch (kind) {
    case 'tfidf': {
      const c = trainTfidf(data, defined({ matchType: opts.matchType, inputs: opts.input ? [opts.input] : undefined }));
      return { model: c.model, dev: c.dev[c.chosen] as number, selected: `input=${c.chosen}`, seconds: secs(), missing: 0 };
    }
    case 'nn': {
      const c = trainNn(data);
      return { model: c.model, dev: c.dev[c.chosen] as number, selected: `input=${c.chosen}`, seconds: secs(), missing: 0 };
    }
    case 'embeddings': {
      const o: Partial<EmbeddingsTrainOptions> = defined({
        matchType: opts.matchType, dim: opts.dim, lr: opts.lr, epochs: opts.epochs, patience: opts.patience, seed: opts.seed, optimizer: opts.optimizer,
        batchSize: opts.batchSize, margin: opts.margin, negatives: opts.negatives, shareAB: opts.shareAB, input: opts.input,
      });
      const r = trainEmbeddings(data, o, hooks);
      return { model: r.model, dev: r.fit.bestDev, selected: `epoch=${r.fit.bestEpoch}`, seconds: secs(), missing: r.missing };
    }
    case 'memn2n': {
      const o: Partial<MemN2NTrainOptions> = defined({
        matchType: opts.matchType, hops: opts.hops, dim: opts.dim, lr: opts.lr, epochs: opts.epochs, patience: opts.patience, seed: opts.seed,
        optimizer: opts.optimizer, batchSize: opts.batchSize, memorySize: opts.memorySize,
      });
      const r = trainMemN2N(data, o, hooks);
      return { model: r.model, dev: r.fit.bestDev, selected: `epoch=${r.fit.bestEpoch}`, seconds: secs(), missing: r.missing };
    }
    case 'hcn': {
      if (!data.kb?.facts) throw new ConfigError('hcn needs a KB file (--kb) to recognise entities');
      const o: Partial<HcnTrainOptions> = defined({ hidden: opts.hidden, lr: opts.lr, epochs: opts.epochs, patience: opts.patience, seed: opts.seed, batchSize: opts.batchSize });
      const r = trainHcn({ train: data.train, dev: data.dev, facts: data.kb.facts, candidates: data.candidates }, o, hooks);
      return { model: r.model, dev: r.fit.bestDev, selected: `epoch=${r.fit.bestEpoch}`, seconds: secs(), missing: 0 };
    }
    default:
      throw new ConfigError(`--model: cannot train '${kind}' (trainable: ${TRAINABLE_MODELS.join(', ')})`);
  }
}

export { devAccuracy, type TrainData };
