/**
 * The model lists declared light (`ModelList`: names, descriptions, what each model does, the
 * module of their code), kept apart from the registry so that declaring one imports no ranker code:
 * the list of testbeds (src/testbeds/index.ts) declares its testbeds' models here, synchronously,
 * and the registry (`registry.ts`) takes them in before its first lookup; their code is loaded by
 * `loadModels`.
 */
import type { ModelList } from './model-entry.js';

const lists: ModelList[] = [];

/** Whether `a` and `b` are the same list (the same module and export: also a copy handed to a worker thread). */
export function sameList(a: ModelList, b: ModelList): boolean {
  return a.module === b.module && a.export === b.export;
}

/**
 * Declares `list` (once: the same list again does nothing). The registry takes it in at its next
 * lookup; a name already taken is then its ConfigError (`model 'x' registered twice`).
 *
 * @example
 * ```ts
 * import { declareModelList } from 'dialogym/rankers';
 * declareModelList({ owner: 'my package', module: new URL('./my-models.js', import.meta.url).href, export: 'MY_MODELS', models: [{ name: 'hello', description: 'says hello', can: ['create'] }] });
 * ```
 */
export function declareModelList(list: ModelList): void {
  if (!lists.some((l) => sameList(l, list))) lists.push(list);
}

/**
 * The lists declared so far, in order: plain data, what a worker thread is handed to declare the
 * same models as the thread that started it.
 *
 * @example
 * ```ts
 * import { Worker } from 'node:worker_threads';
 * import { modelLists } from 'dialogym/rankers';
 * // in the worker: for (const list of workerData.models) declareModels(list); await loadModels();
 * new Worker(new URL('./my-worker.js', import.meta.url), { workerData: { models: modelLists() } });
 * ```
 */
export function modelLists(): readonly ModelList[] {
  return lists.slice();
}
