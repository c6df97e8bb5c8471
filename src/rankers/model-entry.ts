/**
 * What a model of the registry is (`ModelEntry`, `ModelDefinition`) and what its trainer reads
 * (`TrainOptions`, `pickTrainOptions`): the vocabulary shared by `registry.ts`, the generic rankers
 * (`builtin.ts`, which the registry lists) and a testbed's models, apart from the registry so that
 * `builtin.ts` does not import it back.
 */
import type { FitHooks } from '../train/loop.js';
import type { ModelFileContent } from '../formats/model-file.js';
import type { KbTypes } from './match-type.js';
import type { ModelContext, Ranker, ResponseModel, SavableRanker } from './ranker.js';
import type { TrainData, TrainHooks } from './train-data.js';

/**
 * Options common to the trainers of `trainModel`; each trainer reads what applies to it and
 * ignores the rest (undefined = the model's default). `memn2n`: matchType, hops, dim, lr, epochs,
 * patience, seed, optimizer, batchSize, memorySize, negatives, hardNegatives; `embeddings`: matchType, dim, lr, epochs,
 * patience, seed, optimizer, batchSize, margin, negatives, sharedNegatives, shareAB, input, bigrams; `tfidf`: matchType,
 * input; `hcn`: hidden, lr, epochs, patience, seed, batchSize; `nn`: none.
 *
 * @example
 * ```ts
 * import type { TrainOptions } from 'dialogym';
 * const opts: TrainOptions = { hops: 3, dim: 20, epochs: 50, patience: 10, seed: 1, matchType: true };
 * ```
 */
export interface TrainOptions {
  /** Add match-type features from the KB (§4.5 of the bAbI dialog paper; needs `TrainData.kb`). */
  readonly matchType?: boolean;
  /** memn2n: number of memory hops. */
  readonly hops?: number;
  /** Embedding dimension. */
  readonly dim?: number;
  /** Learning rate. */
  readonly lr?: number;
  /** Maximum number of epochs. */
  readonly epochs?: number;
  /** Early stopping: epochs without a better dev accuracy before stopping. */
  readonly patience?: number;
  /** Seed of initialisation and shuffling. */
  readonly seed?: number;
  readonly optimizer?: 'sgd' | 'adam';
  /** Examples per mini-batch. */
  readonly batchSize?: number;
  /** memn2n: most recent history turns kept in memory. */
  readonly memorySize?: number;
  /** embeddings: margin of the ranking loss. */
  readonly margin?: number;
  /** embeddings: sampled negative candidates per example; memn2n: per mini-batch (0 = softmax over all candidates). */
  readonly negatives?: number;
  /** memn2n: hard negatives per example besides the sampled ones: the best-scoring wrong candidates among all (0 = none). */
  readonly hardNegatives?: number;
  /** embeddings: the sampled negatives are drawn once per mini-batch and shared by its examples, with the batch's other responses (much less work per example). */
  readonly sharedNegatives?: boolean;
  /** embeddings: bags of bigrams besides the words (the paper's appendix Table 10). */
  readonly bigrams?: boolean;
  /** embeddings: one embedding matrix for contexts and responses. */
  readonly shareAB?: boolean;
  /** What the context is: the last user utterance or the whole history. */
  readonly input?: 'last' | 'history';
  /** hcn: GRU state size. */
  readonly hidden?: number;
  /** hcn (task 6): the rules' response (`dstc2-heard`) as an input of every step. */
  readonly rulesAdvice?: boolean;
  /** hcn with `rulesAdvice`: its own choice only at this probability or more, else the rules' response. */
  readonly adviceGate?: number;
}

/**
 * What a registry entry's `train` returns: the model and how it was selected on dev.
 * `trainModel` adds the training time to it ({@link TrainResult}).
 *
 * @example
 * ```ts
 * import { registerModel, NearestNeighbour, type Trained } from 'dialogym/rankers';
 * registerModel('nn-pair', 'nearest neighbour keyed on the last two turns', {
 *   train: (data): Trained => ({ model: NearestNeighbour.fit(data.train, { input: 'pair' }), dev: NaN, selected: 'input=pair', missing: 0 }),
 * });
 * ```
 */
export interface Trained {
  readonly model: SavableRanker;
  /** Dev per-response accuracy of the returned model. */
  readonly dev: number;
  /** Best epoch (learned models) or chosen input mode (count-based baselines). */
  readonly selected: string;
  /** Training bot turns whose response is not a candidate (skipped). */
  readonly missing: number;
}

/**
 * What `trainModel` returns: the trained model (save it with `saveModel`), its dev per-response
 * accuracy, what was selected on dev (`epoch=12`, `input=last`), the number of training bot turns
 * skipped because their response is not a candidate, and the training time.
 *
 * @example
 * ```ts
 * import { trainModel, saveModel, readBabiDialogs, readBabiCandidates, type TrainResult } from 'dialogym';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const r: TrainResult = trainModel('nn', {
 *   train: readBabiDialogs(dir + 'dialog-babi-task1-API-calls-trn.txt').dialogs,
 *   dev: readBabiDialogs(dir + 'dialog-babi-task1-API-calls-dev.txt').dialogs,
 *   candidates: readBabiCandidates(dir + 'dialog-babi-candidates.txt').candidates,
 * });
 * console.log(`${r.model.name}: dev ${r.dev.toFixed(3)} (${r.selected}) in ${r.seconds.toFixed(1)} s`);
 * saveModel('out/nn-task1.dgm', r.model);
 * ```
 */
export interface TrainResult extends Trained {
  /** Wall-clock training time. */
  readonly seconds: number;
}

/**
 * One model of the registry: how to build it untrained, train it, and load it from a model file
 * (each optional). `load` receives the decoded file; errors it throws other than a
 * ModelFileError are reported by `loadModel` as a corrupt file.
 *
 * @example
 * ```ts
 * import { registerModel, type ModelEntry } from 'dialogym';
 * const echo: ModelEntry = {
 *   create: () => ({ name: 'echo', respond: (history) => history.at(-1)?.text ?? '' }),
 * };
 * registerModel('echo', 'repeats the last turn', echo);
 * ```
 */
export interface ModelEntry {
  /** Builds the model from its context alone (rule-based bots, count-based rankers). */
  readonly create?: (ctx: ModelContext) => ResponseModel;
  /** Trains the model on dialogs; `dialogym train --model <name>`. */
  readonly train?: (data: TrainData, opts: TrainOptions, hooks: FitHooks & TrainHooks) => Trained;
  /** Rebuilds a trained model from a model file whose header names this model. */
  readonly load?: (content: ModelFileContent, file: string, kb?: KbTypes) => Ranker;
}

/**
 * A model as a testbed declares it (its descriptor's `models`): name, one-line description, entry.
 *
 * @example
 * ```ts
 * import type { ModelDefinition } from 'dialogym/rankers';
 * const echo: ModelDefinition = { name: 'echo', description: 'repeats the last turn', entry: { create: () => ({ name: 'echo', respond: (h) => h[h.length - 1]?.text ?? '' }) } };
 * ```
 */
export interface ModelDefinition {
  readonly name: string;
  readonly description: string;
  readonly entry: ModelEntry;
}

/**
 * The options a trainer reads, without the undefined ones (each trainer fills in its defaults):
 * what a registry entry hands its trainer from the shared `TrainOptions`.
 *
 * @example
 * ```ts
 * import { pickTrainOptions } from 'dialogym/rankers';
 * pickTrainOptions({ hops: 3, dim: undefined, lr: 0.01 }, ['hops', 'dim']); // { hops: 3 }
 * ```
 */
export function pickTrainOptions<K extends keyof TrainOptions>(o: TrainOptions, keys: readonly K[]): Pick<TrainOptions, K> {
  const out: Partial<Pick<TrainOptions, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out as Pick<TrainOptions, K>;
}

/**
 * What a model's entry does (`ModelEntry`'s members): built untrained (`create`), trained
 * (`train`), rebuilt from a model file (`load`).
 *
 * @example
 * ```ts
 * import type { ModelUse } from 'dialogym/rankers';
 * const hcn: readonly ModelUse[] = ['train', 'load'];
 * ```
 */
export type ModelUse = 'create' | 'train' | 'load';

/**
 * A model declared before its code is loaded: its name, its one-line description and what its
 * entry does (so `creatableModels`, `trainableModels` and the help lists know it at once).
 *
 * @example
 * ```ts
 * import type { ModelDeclaration } from 'dialogym/rankers';
 * const rules: ModelDeclaration = { name: 'rules', description: 'rule-based bot', can: ['create'] };
 * ```
 */
export interface ModelDeclaration {
  readonly name: string;
  readonly description: string;
  readonly can: readonly ModelUse[];
}

/**
 * Models declared light, their code loaded later by one step (`loadModels`), as a testbed's
 * descriptor declares its models: the declarations, and the module whose export `export` holds
 * their entries by name (`Readonly<Record<string, ModelEntry>>`, one per declared name, each doing
 * what its declaration says). Plain data, so a worker thread can be handed the lists of the thread
 * that started it (`modelLists`, `declareModels`).
 *
 * @example
 * ```ts
 * import type { ModelList } from 'dialogym/rankers';
 * const mine: ModelList = {
 *   owner: 'my package',
 *   module: new URL('./my-models.js', import.meta.url).href,
 *   export: 'MY_MODELS',
 *   models: [{ name: 'hello', description: 'says hello', can: ['create'] }],
 * };
 * ```
 */
export interface ModelList {
  /** Whose models they are, as an error names it (`the restaurant testbed`). */
  readonly owner: string;
  /** The URL of the module of their code. */
  readonly module: string;
  /** The module's export that holds their entries by name. */
  readonly export: string;
  readonly models: readonly ModelDeclaration[];
}

/** What an entry does, in `ModelUse` order. */
export function usesOf(entry: ModelEntry): ModelUse[] {
  return (['create', 'train', 'load'] as const).filter((u) => entry[u] !== undefined);
}
