/**
 * The model registry: one entry per response model (`{name, create, train, load}`) that the CLI,
 * the chat server and the benchmark all read. Generic rankers register in `builtin.ts`; a testbed
 * registers its own models (the restaurant testbed: `rules`, `rules-dstc2`, `hcn`).
 *
 * A model file (`*.dgm`) names its kind in its header; `loadModel` finds the entry of that name.
 */
import { existsSync } from 'node:fs';
import { ConfigError, ModelFileError } from '../core/errors.js';
import { Registry } from '../core/registry.js';
import { readModelFile, writeModelFile, type ModelFileContent } from '../formats/model-file.js';
import type { FitHooks } from '../train/loop.js';
import type { KbTypes } from './match-type.js';
import { KbTypes as KbTypesClass } from './match-type.js';
import type { ModelContext, Ranker, ResponseModel, SavableRanker } from './ranker.js';

export type { SavableRanker };
import type { TrainData, TrainHooks } from './train-data.js';


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

/** What training returns (before timing). */
export interface Trained {
  readonly model: SavableRanker;
  /** Dev per-response accuracy of the returned model. */
  readonly dev: number;
  /** Best epoch (learned models) or chosen input mode (count-based baselines). */
  readonly selected: string;
  /** Training bot turns whose response is not a candidate (skipped). */
  readonly missing: number;
}

export interface TrainResult extends Trained {
  readonly seconds: number;
}

/** One model: how to build it untrained, train it, and load it from a model file (each optional). */
export interface ModelEntry {
  /** Builds the model from its context alone (rule-based bots, count-based rankers). */
  readonly create?: (ctx: ModelContext) => ResponseModel;
  /** Trains the model on dialogs; `dialogym train --model <name>`. */
  readonly train?: (data: TrainData, opts: TrainOptions, hooks: FitHooks & TrainHooks) => Trained;
  /** Rebuilds a trained model from a model file whose header names this model. */
  readonly load?: (content: ModelFileContent, file: string, kb?: KbTypes) => Ranker;
}

/**
 * Named models. Import `dialogym` (or `rankers/builtin.js` plus a testbed's `models.js`) before
 * looking a model up.
 *
 * @example
 * ```ts
 * import { models, createModel } from 'dialogym';
 * console.log(models.names()); // ['embeddings', 'hcn', 'memn2n', 'nn', 'rules', …]
 * const bot = createModel('rules');
 * ```
 */
export const models = new Registry<ModelEntry>('model');

/** Registers a model (a name may be registered once). */
export function registerModel(name: string, description: string, entry: ModelEntry): void {
  models.register(name, description, entry);
}

/** Names of the models that `createModel` can build without a model file. */
export function creatableModels(): string[] {
  return models.list().filter((e) => e.factory.create).map((e) => e.name);
}

/** Names of the models that `trainModel` can train. */
export function trainableModels(): string[] {
  return models.list().filter((e) => e.factory.train).map((e) => e.name);
}

/**
 * Builds a registered model that needs no training (`rules`, `rules-dstc2`, `tfidf`, `tfidf+type`).
 *
 * @example
 * ```ts
 * const rules = createModel('rules');
 * rules.respond([{ speaker: 'user', text: 'hello' }]); // 'hello what can i help you with today'
 * ```
 */
export function createModel(name: string, ctx: ModelContext = {}): ResponseModel {
  const entry = models.has(name) ? models.get(name) : undefined;
  if (!entry?.create) {
    const known = creatableModels().join(', ');
    if (entry?.train) throw new ConfigError(`model '${name}' has to be trained first: dialogym train --model ${name} … --out model.dgm (ready to use: ${known})`);
    throw new ConfigError(`unknown model '${name}' (known: ${known || 'none'})`);
  }
  return entry.create(ctx);
}

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Trains a registered model by name (what `dialogym train` and the benchmark run).
 *
 * @example
 * ```ts
 * const r = trainModel('memn2n', { train, dev, candidates }, { epochs: 10, seed: 1 });
 * saveModel('t1.dgm', r.model);
 * ```
 */
export function trainModel(name: string, data: TrainData, opts: TrainOptions = {}, hooks: FitHooks & TrainHooks = {}): TrainResult {
  const entry = models.has(name) ? models.get(name) : undefined;
  if (!entry?.train) throw new ConfigError(`--model: cannot train '${name}' (trainable: ${trainableModels().join(', ')})`);
  const t0 = performance.now();
  const r = entry.train(data, defined(opts), hooks);
  return { ...r, seconds: (performance.now() - t0) / 1000 };
}

/** Writes a trained model to a model file (atomically). */
export function saveModel(file: string, model: SavableRanker): void {
  writeModelFile(file, model.toModelFile());
}

/** A model from the content of a model file (`file` names it in errors). */
export function modelFromContent(c: ModelFileContent, file: string, kb?: KbTypes): Ranker {
  const load = models.has(c.model) ? models.get(c.model).load : undefined;
  if (!load) {
    const known = models.list().filter((e) => e.factory.load).map((e) => e.name);
    throw new ModelFileError(`${file}: unknown model kind '${c.model}' (known: ${known.join(', ')})`);
  }
  try {
    return load(c, file, kb);
  } catch (e) {
    if (e instanceof ModelFileError) throw e;
    throw new ModelFileError(`${file}: corrupt model file (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

/**
 * Loads a model file written by `dialogym train` / `saveModel`; `kb` replaces the KB types used for
 * match features.
 *
 * @example
 * ```ts
 * const m = loadModel('t1-memn2n.dgm');
 * const scores = m.rank(history, candidates);
 * ```
 */
export function loadModel(file: string, kb?: KbTypes): Ranker {
  return modelFromContent(readModelFile(file), file, kb);
}

/** Throws the error `createModel` would for a name that is neither a ready-to-use model nor a model file. */
export function checkModelName(nameOrFile: string): void {
  if (isModelFile(nameOrFile) || creatableModels().includes(nameOrFile)) return;
  createModel(nameOrFile);
}

/** Whether `--model <nameOrFile>` names a model file rather than a ready-to-use registered model. */
export function isModelFile(nameOrFile: string): boolean {
  return !creatableModels().includes(nameOrFile) && (nameOrFile.endsWith('.dgm') || existsSync(nameOrFile));
}

/**
 * `--model` as the CLI takes it: a registered name (`rules`, `tfidf`, …) or a model file; for a
 * model file, `ctx.kb` replaces its stored KB types.
 */
export function resolveModel(nameOrFile: string, ctx: ModelContext = {}): ResponseModel {
  if (isModelFile(nameOrFile)) return loadModel(nameOrFile, ctx.kb ? KbTypesClass.fromFacts(ctx.kb) : undefined);
  return createModel(nameOrFile, ctx);
}
