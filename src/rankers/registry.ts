/**
 * The model registry: one entry per response model (`{name, create, train, load}`) that the CLI,
 * the chat server and the benchmark all read. It lists the generic rankers (`builtin.ts`) from
 * the start; a testbed's models are declared light by its descriptor's list (`ModelList`: names,
 * descriptions, what each does; `model-lists.ts`), which the list of testbeds (`testbeds/index.ts`)
 * declares synchronously, so every listing sees them, and their code is loaded by one step,
 * `loadModels` (`import 'dialogym'` does it); a user's own model, `registerModel`.
 *
 * A model file (`*.dgm`) names its kind in its header; `loadModel` finds the entry of that name.
 */
import { existsSync } from 'node:fs';
import { ConfigError, InternalError, ModelFileError, errorText, optionName } from '../core/errors.js';
import { Registry, type RegistryEntry } from '../core/registry.js';
import { didYouMean } from '../core/suggest.js';
import { readModelFile, writeModelFile, type ModelFileContent } from '../formats/model-file.js';
import type { FitHooks } from '../train/loop.js';
import { RANKER_MODELS } from './builtin.js';
import { KbTypes } from './match-type.js';
import { usesOf, type ModelDeclaration, type ModelDefinition, type ModelEntry, type ModelList, type TrainOptions, type TrainResult } from './model-entry.js';
import { declareModelList, modelLists, sameList } from './model-lists.js';
import type { ModelContext, Ranker, ResponseModel, SavableRanker } from './ranker.js';
import type { TrainData, TrainHooks } from './train-data.js';

export type { SavableRanker };
export type { ModelDeclaration, ModelDefinition, ModelEntry, ModelList, ModelUse, TrainOptions, Trained, TrainResult } from './model-entry.js';
export { pickTrainOptions } from './model-entry.js';
export { declareModelList, modelLists } from './model-lists.js';

/** The declared lists the registry has taken in (`absorb`), in declaration order. */
const absorbed: ModelList[] = [];
/** The entries of the declared models whose code is loaded, by name. */
const loadedEntries = new Map<string, ModelEntry>();
/** The loading of each declared list's code, once (by `sameList`; a failed import may be retried). */
const loading: { list: ModelList; done: Promise<void> }[] = [];

/**
 * The model registry (`models`): a `Registry` that takes in the lists declared light
 * (`model-lists.ts`) before each lookup, so a declaration made by the list of testbeds, which
 * does not import the registry, is seen by every listing and lookup.
 */
class ModelRegistry extends Registry<ModelEntry> {
  override register(name: string, description: string, factory: ModelEntry): void {
    absorb();
    super.register(name, description, factory);
  }
  override has(name: string): boolean {
    absorb();
    return super.has(name);
  }
  override get(name: string): ModelEntry {
    absorb();
    return super.get(name);
  }
  override names(): string[] {
    absorb();
    return super.names();
  }
  override list(): RegistryEntry<ModelEntry>[] {
    absorb();
    return super.list();
  }
}

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
export const models: Registry<ModelEntry> = new ModelRegistry('model');
for (const d of RANKER_MODELS) models.register(d.name, d.description, d.entry);

/** Registers the models of the lists declared since the last call: each name with its description and an entry that runs its loaded code. */
function absorb(): void {
  const fresh = modelLists().filter((l) => !absorbed.some((a) => sameList(a, l)));
  if (fresh.length === 0) return;
  absorbed.push(...fresh); // before registering: the registry's own lookups call back here
  for (const list of fresh) {
    const taken = list.models.find((d) => Registry.prototype.has.call(models, d.name));
    if (taken) throw new ConfigError(`model '${taken.name}' registered twice`);
    for (const d of list.models) Registry.prototype.register.call(models, d.name, d.description, declaredEntry(list, d));
  }
}

/** The registry's entry of a declared model: what its declaration says it does, each call run by its loaded code (a ConfigError naming the step that loads it before). */
function declaredEntry(list: ModelList, d: ModelDeclaration): ModelEntry {
  const code = (): ModelEntry => {
    const e = loadedEntries.get(d.name);
    if (!e) throw notLoaded(list, d.name);
    return e;
  };
  const can = new Set(d.can);
  return {
    ...(can.has('create') ? { create: (ctx: ModelContext) => (code().create as NonNullable<ModelEntry['create']>)(ctx) } : {}),
    ...(can.has('train') ? { train: (data: TrainData, o: TrainOptions, hooks: FitHooks & TrainHooks) => (code().train as NonNullable<ModelEntry['train']>)(data, o, hooks) } : {}),
    ...(can.has('load') ? { load: (c: ModelFileContent, file: string, kb?: KbTypes) => (code().load as NonNullable<ModelEntry['load']>)(c, file, kb) } : {}),
  };
}

/** The ConfigError of a declared model used before its code is loaded. */
function notLoaded(list: ModelList, name: string): ConfigError {
  return new ConfigError(`model '${name}' is ${list.owner}'s and its code is not loaded: \`await loadModels()\` first (\`import 'dialogym'\` does it)`);
}

/** Throws the ConfigError of a declared model whose code is not loaded (nothing for any other name). */
function checkLoaded(name: string): void {
  absorb();
  const list = absorbed.find((l) => l.models.some((d) => d.name === name));
  if (list && !loadedEntries.has(name)) throw notLoaded(list, name);
}

/** Loads the code of `list` (once): its module's export, checked against the declarations (an InternalError when they differ). */
function loadList(list: ModelList): Promise<void> {
  const known = loading.find((l) => sameList(l.list, list));
  if (known) return known.done;
  const done = (async () => {
    const mod = (await import(list.module)) as Record<string, unknown>;
    const entries = mod[list.export] as Readonly<Record<string, ModelEntry>> | undefined;
    const where = `${list.module} (${list.export})`;
    if (entries === null || typeof entries !== 'object') throw new InternalError(`${where}: no model entries exported`);
    const declared = list.models.map((d) => d.name);
    const extra = Object.keys(entries).filter((n) => !declared.includes(n));
    if (extra.length > 0) throw new InternalError(`${where}: model '${extra[0]}' is not declared in its list`);
    for (const d of list.models) {
      const e = entries[d.name];
      if (!e) throw new InternalError(`${where}: declared model '${d.name}' has no entry`);
      const uses = usesOf(e).join(', ');
      const said = (['create', 'train', 'load'] as const).filter((u) => d.can.includes(u)).join(', ');
      if (uses !== said) throw new InternalError(`${where}: model '${d.name}' does ${uses || 'nothing'}, declared ${said || 'nothing'}`);
    }
    for (const d of list.models) loadedEntries.set(d.name, entries[d.name] as ModelEntry);
  })();
  const entry = { list, done };
  loading.push(entry);
  done.catch(() => loading.splice(loading.indexOf(entry), 1));
  return done;
}

/**
 * Loads the code of the declared models (of those named, or of every declared list), so that
 * `createModel`, `trainModel` and `loadModel` run them: the one asynchronous step before a
 * declared model is used (`import 'dialogym'` takes it for every testbed). Models registered with
 * their entry (the generic rankers, `registerModel`, a list of `ModelDefinition`s) need none. An
 * unknown name is the registry's ConfigError.
 *
 * @example
 * ```ts
 * import { loadModels, createModel } from 'dialogym';
 * await loadModels(['rules']);
 * const bot = createModel('rules');
 * ```
 */
export async function loadModels(names?: readonly string[]): Promise<void> {
  absorb();
  for (const n of names ?? []) models.get(n);
  const lists = names === undefined ? absorbed : absorbed.filter((l) => l.models.some((d) => names.includes(d.name)));
  await Promise.all(lists.map(loadList));
}

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
 * Declares a model list in `models`: each of its models under its name — a list of definitions
 * (`ModelDefinition`: name, description, entry) at once, or a `ModelList` declared light, its code
 * loaded by `loadModels` (a worker thread declares the lists `modelLists` gave it so). Declaring
 * the same list again does nothing; a name another entry already has is a ConfigError
 * (`model 'x' registered twice`), as with `registerModel`.
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
export function declareModels(defs: readonly ModelDefinition[] | ModelList): void {
  if (!isDefinitions(defs)) {
    declareModelList(defs);
    absorb();
    return;
  }
  if (declaredLists.has(defs)) return;
  const taken = defs.find((d) => models.has(d.name));
  if (taken) throw new ConfigError(`model '${taken.name}' registered twice`);
  for (const d of defs) models.register(d.name, d.description, d.entry);
  declaredLists.add(defs);
}

function isDefinitions(defs: readonly ModelDefinition[] | ModelList): defs is readonly ModelDefinition[] {
  return Array.isArray(defs);
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
  checkLoaded(c.model); // not a corrupt file: the step that loads its code is missing
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
