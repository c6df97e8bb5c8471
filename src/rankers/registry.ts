/**
 * The model registry: one entry per response model (`{name, create, train, load}`) that the CLI,
 * the chat server and the benchmark all read. It lists the generic rankers (`builtin.ts`) from
 * the start; a testbed's models come from its descriptor's list (`declareModels`, called by the
 * list of testbeds, `testbeds/index.ts`, when it loads them); a user's own model, `registerModel`.
 *
 * A model file (`*.dgm`) names its kind in its header; `loadModel` finds the entry of that name.
 */
import { existsSync } from 'node:fs';
import { ConfigError, ModelFileError, errorText, optionName } from '../core/errors.js';
import { Registry } from '../core/registry.js';
import { didYouMean } from '../core/suggest.js';
import { readModelFile, writeModelFile, type ModelFileContent } from '../formats/model-file.js';
import type { FitHooks } from '../train/loop.js';
import { RANKER_MODELS } from './builtin.js';
import { KbTypes } from './match-type.js';
import type { ModelDefinition, ModelEntry, TrainOptions, TrainResult } from './model-entry.js';
import type { ModelContext, Ranker, ResponseModel, SavableRanker } from './ranker.js';
import type { TrainData, TrainHooks } from './train-data.js';

export type { SavableRanker };
export type { ModelDefinition, ModelEntry, TrainOptions, Trained, TrainResult } from './model-entry.js';
export { pickTrainOptions } from './model-entry.js';

/**
 * Named models: the generic rankers (`RANKER_MODELS`) from the start, the testbeds' models once
 * their list has declared them (`import 'dialogym'` does; the CLI's model verbs too).
 *
 * @example
 * ```ts
 * import { models, createModel } from 'dialogym';
 * console.log(models.names()); // ['embeddings', 'hcn', 'memn2n', 'nn', 'rules', …]
 * const bot = createModel('rules');
 * ```
 */
export const models = new Registry<ModelEntry>('model');
for (const d of RANKER_MODELS) models.register(d.name, d.description, d.entry);

/**
 * Registers a model under `name` with a one-line description (shown by `dialogym models`). A
 * name may be registered once: a second registration throws a ConfigError.
 *
 * @example
 * ```ts
 * import { registerModel, createModel } from 'dialogym';
 * registerModel('always-hello', 'answers hello to everything', {
 *   create: () => ({ name: 'always-hello', respond: () => 'hello what can i help you with today' }),
 * });
 * const bot = createModel('always-hello');
 * ```
 */
export function registerModel(name: string, description: string, entry: ModelEntry): void {
  models.register(name, description, entry);
}

/** The lists `declareModels` has declared (a list is declared once). */
const declaredLists = new WeakSet<readonly ModelDefinition[]>();

/**
 * Declares a model list (a testbed's, as its descriptor's `models` gives it) in `models`: each of
 * its models under its name. Declaring the same list again does nothing; a name another entry
 * already has is a ConfigError (`model 'x' registered twice`), as with `registerModel`.
 *
 * @example
 * ```ts
 * import { declareModels, createModel, type ModelDefinition } from 'dialogym/rankers';
 * const mine: readonly ModelDefinition[] = [{ name: 'hello', description: 'says hello', entry: { create: () => ({ name: 'hello', respond: () => 'hello' }) } }];
 * declareModels(mine);
 * declareModels(mine); // the same list: nothing new
 * createModel('hello');
 * ```
 */
export function declareModels(defs: readonly ModelDefinition[]): void {
  if (declaredLists.has(defs)) return;
  const taken = defs.find((d) => models.has(d.name));
  if (taken) throw new ConfigError(`model '${taken.name}' registered twice`);
  for (const d of defs) models.register(d.name, d.description, d.entry);
  declaredLists.add(defs);
}

/**
 * Names of the models that `createModel` can build without a model file, sorted.
 *
 * @example
 * ```ts
 * import { creatableModels } from 'dialogym';
 * creatableModels(); // ['rules', 'rules-dstc2', 'tfidf', 'tfidf+type']
 * ```
 */
export function creatableModels(): string[] {
  return models.list().filter((e) => e.factory.create).map((e) => e.name);
}

/**
 * The models named, one entry each — name and its registry description (what it is and when to
 * use it) — as the CLI's help lists them; unknown names are left out. With `width`, a description
 * longer than the line wraps at word boundaries, its further lines indented under its first.
 *
 * @example
 * ```ts
 * import { describeModels, trainableModels } from 'dialogym/rankers';
 * console.log(describeModels(trainableModels(), 80));
 * ```
 */
export function describeModels(names: readonly string[], width = Infinity): string {
  const list = models.list().filter((e) => names.includes(e.name));
  const w = Math.max(0, ...list.map((e) => e.name.length));
  const indent = ' '.repeat(w + 4);
  return list.map((e) => `  ${e.name.padEnd(w)}  ${wrapWords(e.description, width - indent.length).join(`\n${indent}`)}`).join('\n');
}

/** `text`'s words in lines of at most `width` characters (a longer word stands alone). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/**
 * Names of the models that `trainModel` can train, sorted.
 *
 * @example
 * ```ts
 * import { trainableModels } from 'dialogym';
 * trainableModels(); // ['embeddings', 'hcn', 'memn2n', 'nn', 'tfidf']
 * ```
 */
export function trainableModels(): string[] {
  return models.list().filter((e) => e.factory.train).map((e) => e.name);
}

/**
 * Builds a registered model that needs no training (`rules`, `rules-dstc2`, `tfidf`,
 * `tfidf+type`) from `ctx` (candidates, KB facts, training dialogs: what the model needs). Throws
 * a ConfigError for an unknown name, for a model that must be trained first, or when the model
 * lacks what it needs in `ctx` (e.g. `tfidf` without candidates).
 *
 * @example
 * ```ts
 * import { createModel, isResponder } from 'dialogym';
 * const rules = createModel('rules');
 * if (isResponder(rules)) rules.respond([{ speaker: 'user', text: 'hello' }]); // 'hello what can i help you with today'
 * ```
 */
export function createModel(name: string, ctx: ModelContext = {}): ResponseModel {
  const entry = models.has(name) ? models.get(name) : undefined;
  if (!entry?.create) {
    const known = creatableModels().join(', ');
    if (entry?.train) throw new ConfigError(errorText`model '${name}' has to be trained first: ${{ run: 'train', options: [['model', name], ['train', '<dialogs file>'], ['out', 'model.dgm']] }} (ready to use: ${known})`);
    throw new ConfigError(`unknown model '${name}'${didYouMean(name, models.names())} (ready to use: ${known || 'none'}; to train first: ${trainableModels().filter((m) => !creatableModels().includes(m)).join(', ')})`);
  }
  return entry.create(ctx);
}

/**
 * Trains a registered model by name (what `dialogym train` and the benchmark run) on
 * `data.train`, selecting on `data.dev`; `opts` as in {@link TrainOptions}; `hooks` report
 * progress (epochs, batches, best model). Throws a ConfigError for a name that cannot be trained.
 *
 * @example
 * ```ts
 * import { trainModel, saveModel, type TrainData } from 'dialogym';
 * declare const data: TrainData; // train/dev dialogs and candidates, e.g. read with readBabiDialogs
 * const { train, dev, candidates } = data;
 * const r = trainModel('memn2n', { train, dev, candidates }, { epochs: 10, seed: 1 });
 * saveModel('t1.dgm', r.model);
 * ```
 */
export function trainModel(name: string, data: TrainData, opts: TrainOptions = {}, hooks: FitHooks & TrainHooks = {}): TrainResult {
  const entry = models.has(name) ? models.get(name) : undefined;
  if (!entry?.train) throw new ConfigError(`cannot train '${name}'${didYouMean(name, trainableModels())} (trainable: ${trainableModels().join(', ')})`, { option: 'model' });
  const t0 = performance.now();
  const r = entry.train(data, opts, hooks);
  return { ...r, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Writes a trained model to a model file (atomically, via `toModelFile()` and
 * `writeModelFile`); parent folders are created. Read it back with `loadModel`. With
 * `opts.candidates` the file also stores the candidate set (`storedCandidates` reads it back), so
 * that evaluating or chatting with the file needs no candidates file.
 *
 * @example
 * ```ts
 * import { trainModel, saveModel, loadModel, type TrainData } from 'dialogym';
 * declare const data: TrainData;
 * saveModel('out/embeddings.dgm', trainModel('embeddings', data, { epochs: 5 }).model);
 * const again = loadModel('out/embeddings.dgm');
 * ```
 */
export function saveModel(file: string, model: SavableRanker, opts: { readonly candidates?: readonly string[] } = {}): void {
  writeModelFile(file, opts.candidates !== undefined ? { ...model.toModelFile(), candidates: opts.candidates } : model.toModelFile());
}

/**
 * The candidate responses a model file stores (written by `dialogym train` or `saveModel` with
 * `candidates`), or undefined for a registered model name or a file that stores none (files of
 * earlier versions). Errors as `readModelFile` for an unreadable file.
 *
 * @example
 * ```ts
 * import { storedCandidates } from 'dialogym/rankers';
 * storedCandidates('rules');          // undefined: not a model file
 * storedCandidates('t1-memn2n.dgm');  // ['hello what can i help you with today', …]
 * ```
 */
export function storedCandidates(nameOrFile: string): readonly string[] | undefined {
  return isModelFile(nameOrFile) ? readModelFile(nameOrFile).candidates : undefined;
}

/**
 * A model from the decoded content of a model file (`file` names it in errors): the registry
 * entry named by `c.model` loads it; `kb` replaces its KB types. An unknown model kind, or any
 * error while loading, throws a ModelFileError (`<file>: corrupt model file (…)`).
 *
 * @example
 * ```ts
 * import { modelFromContent } from 'dialogym/rankers';
 * import { readModelFile } from 'dialogym';
 * const content = readModelFile('out/nn-task1.dgm');
 * const model = modelFromContent(content, 'out/nn-task1.dgm'); // what loadModel does
 * ```
 */
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
 * match features. The header's model name picks the registry entry. A missing, corrupt or
 * unknown-kind file throws a ModelFileError naming the file.
 *
 * @example
 * ```ts
 * import { loadModel, argmax, type Turn } from 'dialogym';
 * declare const history: Turn[];
 * declare const candidates: string[];
 * const m = loadModel('t1-memn2n.dgm');
 * const scores = m.rank(history, candidates);
 * const best = candidates[argmax(scores)];
 * ```
 */
export function loadModel(file: string, kb?: KbTypes): Ranker {
  return modelFromContent(readModelFile(file), file, kb);
}

/**
 * Throws the ConfigError `createModel` would for a name that is neither a ready-to-use model
 * nor a model file (see `isModelFile`); returns nothing otherwise. The CLI checks `--model`
 * with it before reading any data.
 *
 * @example
 * ```ts
 * import { checkModelName } from 'dialogym/rankers';
 * checkModelName('tfidf');       // fine
 * checkModelName('model.dgm');   // fine: a model file (not opened here)
 * checkModelName('memn2n');      // ConfigError: model 'memn2n' has to be trained first …
 * ```
 */
export function checkModelName(nameOrFile: string): void {
  if (isModelFile(nameOrFile) || creatableModels().includes(nameOrFile)) return;
  createModel(nameOrFile);
}

/**
 * Whether `--model <nameOrFile>` names a model file rather than a ready-to-use registered
 * model: not a creatable model's name, and either ending in `.dgm` or an existing path.
 *
 * @example
 * ```ts
 * import { isModelFile } from 'dialogym/rankers';
 * isModelFile('rules');         // false
 * isModelFile('t1-memn2n.dgm'); // true, whether or not the file exists
 * ```
 */
export function isModelFile(nameOrFile: string): boolean {
  return !creatableModels().includes(nameOrFile) && (nameOrFile.endsWith('.dgm') || existsSync(nameOrFile));
}

/**
 * `--model` as the CLI takes it: a registered name (`rules`, `tfidf`, …) or a model file (a
 * path ending in `.dgm`, or any existing file, unless it is a registered name); for a model file,
 * `ctx.kb` replaces its stored KB types. Errors as `createModel` (ConfigError) or `loadModel`
 * (ModelFileError); the checkpoint of an unfinished `train` run is a ConfigError unless
 * `ctx.allowCheckpoint`.
 *
 * @example
 * ```ts
 * import { resolveModel, readBabiCandidates } from 'dialogym';
 * const candidates = readBabiCandidates('data/dialog-bAbI-tasks/dialog-babi-candidates.txt').candidates;
 * const a = resolveModel('tfidf', { candidates });
 * const b = resolveModel('out/memn2n-task1.dgm');
 * ```
 */
export function resolveModel(nameOrFile: string, ctx: ModelContext = {}): ResponseModel {
  return isModelFile(nameOrFile) ? resolveModelContent(readModelFile(nameOrFile), nameOrFile, ctx) : createModel(nameOrFile, ctx);
}

/**
 * What `resolveModel` does with a model file, for a caller that has decoded it already (e.g. for
 * the candidates it stores): the checkpoint of an unfinished `train` run is a ConfigError unless
 * `ctx.allowCheckpoint`; `ctx.kb` replaces the stored KB types; `file` names it in errors. The
 * file is not read again.
 *
 * @example
 * ```ts
 * import { readModelFile } from 'dialogym';
 * import { resolveModelContent } from 'dialogym/rankers';
 * const content = readModelFile('t1-memn2n.dgm');
 * const model = resolveModelContent(content, 't1-memn2n.dgm');
 * const candidates = content.candidates; // what the file stores, without a second read
 * ```
 */
export function resolveModelContent(c: ModelFileContent, file: string, ctx: ModelContext = {}): ResponseModel {
  if (c.checkpoint === true && ctx.allowCheckpoint !== true) {
    throw new ConfigError(errorText`${file}: checkpoint of an unfinished run (the best epoch so far of a \`train\` that did not finish); pass ${optionName('allowCheckpoint')} to use it anyway`);
  }
  return modelFromContent(c, file, ctx.kb ? KbTypes.fromFacts(ctx.kb) : undefined);
}
