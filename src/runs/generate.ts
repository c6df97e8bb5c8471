/**
 * The generate runs: `generate restaurant` (bAbI dialog tasks 1–5 — four split files per task, the
 * KB and the candidates — from the simulator) and `generate dstc6` (DSTC6 Track 1 dataset files, with
 * answers for the test sets). The files are written whole into `out` (all or none). `dialogym
 * generate restaurant|dstc6` are their CLI; a library user calls `generateRestaurantRun.run(options)`
 * / `generateDstc6Run.run(options)`.
 */
import { writeFolder } from '../core/files.js';
import { inShard, shardItems, type Shard, type ShardItem } from '../core/shard.js';
import type { Dstc6Entry, Dstc6Result } from '../formats/dstc6.js';
import { DSTC6_KB, BABI_KB, readKb } from '../testbeds/restaurant/kb-dialects.js';
import { generateRestaurantDataset } from '../testbeds/restaurant/dataset.js';
import type { TaskId } from '../testbeds/restaurant/simulator.js';
import { SET_SPECS, dstc6SetFiles, generateDstc6Sets, type DatasetOptions, type Dstc6Set, type GeneratedSet } from '../testbeds/dstc6/sim-dataset.js';
import type { Dstc6Task } from '../testbeds/dstc6/sim-dialog.js';
import { defineRun, type RunDefinition, type RunPart, type RunParts } from './run.js';

/**
 * What the generate runs report as they go: the dialogs (entries) the part makes, then each one made.
 *
 * @example
 * ```ts
 * import type { GenerateHooks } from 'dialogym';
 * const hooks: GenerateHooks = { onItem: (p) => { if (p.done === p.total) console.error(`task ${p.task} ${p.split}: ${p.total}`); } };
 * ```
 */
export interface GenerateHooks {
  onStart?(total: number): void;
  /** One more dialog (entry) of `task`'s `split` file: `done` of its `total`. */
  onItem?(p: { readonly task: number; readonly split: string; readonly done: number; readonly total: number }): void;
}

/**
 * The result of a generate run: the folder, the files written, the dialogs (entries) they hold.
 *
 * @example
 * ```ts
 * import type { GenerateResult } from 'dialogym';
 * const r: GenerateResult = { out: 'data', files: ['dialog-babi-task1-API-calls-trn.txt'], dialogs: 1000 };
 * ```
 */
export interface GenerateResult {
  readonly out: string;
  readonly files: readonly string[];
  /** Dialogs (bAbI) or entries (DSTC6) in the files. */
  readonly dialogs: number;
}

/**
 * Options of the `generate restaurant` run (schemas/run-generate-restaurant.schema.json).
 *
 * @example
 * ```ts
 * import type { GenerateRestaurantOptions } from 'dialogym';
 * const o: GenerateRestaurantOptions = { tasks: [1, 2, 3, 4, 5], seed: 1, dialogs: 1000, out: 'data' };
 * ```
 */
export interface GenerateRestaurantOptions {
  /** Tasks 1–5. */
  readonly tasks: readonly number[];
  /** Default 1 (same seed, same files). */
  readonly seed?: number;
  readonly out: string;
  /** Dialogs per split (default 1000). */
  readonly dialogs?: number;
  /** A bAbI KB file to use instead of generating one. */
  readonly kb?: string;
}

async function restaurantPart(o: GenerateRestaurantOptions, shard: Shard | undefined, hooks: GenerateHooks = {}): Promise<RunPart<GenerateRestaurantOptions>> {
  const tasks = o.tasks as readonly TaskId[];
  const dialogs = o.dialogs ?? 1000;
  const restaurants = o.kb !== undefined ? readKb(o.kb, BABI_KB).restaurants : undefined;
  // The items are the files (4 per task, then the KB and the candidates): each split has its own stream.
  const fileCount = tasks.length * 4 + 2;
  const mine = shardItems(shard, fileCount);
  hooks.onStart?.(mine.filter((k) => k < tasks.length * 4).length * dialogs);
  const files = generateRestaurantDataset({
    seed: o.seed ?? 1,
    tasks,
    dialogs,
    ...(restaurants ? { restaurants } : {}),
    files: (k) => inShard(shard, k),
    onProgress: (p) => hooks.onItem?.(p),
  });
  const items = files.map((f, j) => ({ k: mine[j] as number, name: f.name, text: f.text }));
  return { run: 'generate restaurant', options: o, ...(shard ? { shard } : {}), total: fileCount, items, meta: {}, info: {} };
}

async function restaurantFinish(p: RunParts<GenerateRestaurantOptions>): Promise<GenerateResult> {
  const items = p.items as readonly (ShardItem & { name: string; text: string })[];
  // All files or none: a run killed while writing leaves the folder as it was, or refused by its readers (core/files.ts StagedFolder).
  writeFolder(p.options.out, 'dialogym generate restaurant', items.map((f) => ({ name: f.name, data: f.text })));
  const dialogs = items.reduce((n, f) => n + (f.name.startsWith('dialog-babi-task') ? (f.text.match(/^1 /gm)?.length ?? 0) : 0), 0);
  return { out: p.options.out, files: items.map((f) => f.name), dialogs };
}

/**
 * The `generate restaurant` run: bAbI dialog tasks 1–5 from the simulator, written into `out` whole;
 * `part` / `finish` split the files into shards and put them together (the same bytes).
 *
 * @example
 * ```ts
 * import { generateRestaurantRun } from 'dialogym';
 * const r = await generateRestaurantRun.run({ tasks: [1], dialogs: 20, out: 'data' });
 * console.log(r.files.length, r.dialogs); // 6 files, 80 dialogs
 * ```
 */
export const generateRestaurantRun: RunDefinition<GenerateRestaurantOptions, GenerateResult, GenerateHooks> = defineRun<GenerateRestaurantOptions, GenerateResult, GenerateHooks>({
  id: 'generate restaurant',
  schema: 'run-generate-restaurant',
  part: restaurantPart,
  finish: restaurantFinish,
});

/**
 * Options of the `generate dstc6` run (schemas/run-generate-dstc6.schema.json).
 *
 * @example
 * ```ts
 * import type { GenerateDstc6Options } from 'dialogym';
 * const o: GenerateDstc6Options = { tasks: [1, 2, 3, 4, 5], set: 'tst3', seed: 1, out: 'dstc6' };
 * ```
 */
export interface GenerateDstc6Options {
  /** Tasks 1–5. */
  readonly tasks: readonly number[];
  /** trn (KB 1, atmosphere), tst1 (KB 1), tst2 (KB 2, OOV), tst3 (KB 1 + restrictions), tst4 (KB 2 + restrictions). */
  readonly set: Dstc6Set;
  /** Default 1. */
  readonly seed?: number;
  readonly out: string;
  /** Entries per file (default: the set's). */
  readonly dialogs?: number;
  /** An extended KB file to use instead of generating one. */
  readonly kb?: string;
}

function dstc6Options(o: GenerateDstc6Options): DatasetOptions {
  const restaurants = o.kb !== undefined ? readKb(o.kb, DSTC6_KB).restaurants : undefined;
  return { seed: o.seed ?? 1, tasks: o.tasks as readonly Dstc6Task[], set: o.set, ...(o.dialogs !== undefined ? { examples: o.dialogs } : {}), ...(restaurants ? { restaurants } : {}) };
}

async function dstc6Part(o: GenerateDstc6Options, shard: Shard | undefined, hooks: GenerateHooks = {}): Promise<RunPart<GenerateDstc6Options>> {
  const opts = dstc6Options(o);
  const perFile = o.dialogs ?? SET_SPECS[o.set].examples;
  // The items are the entries (task position × entries per file + entry): each entry has its own stream.
  const total = opts.tasks.length * perFile;
  const mine = shardItems(shard, total);
  hooks.onStart?.(mine.length);
  const sets = generateDstc6Sets({ ...opts, include: (k) => inShard(shard, k), onProgress: (p) => hooks.onItem?.({ ...p, split: o.set }) });
  const flat = sets.flatMap((s) => s.entries.map((entry, j) => ({ entry, answer: s.answers[j] })));
  const items = flat.map((x, j) => ({ k: mine[j] as number, entry: x.entry, answer: x.answer }));
  return { run: 'generate dstc6', options: o, ...(shard ? { shard } : {}), total, items, meta: { perFile }, info: {} };
}

async function dstc6Finish(p: RunParts<GenerateDstc6Options>): Promise<GenerateResult> {
  const opts = dstc6Options(p.options);
  const perFile = p.meta['perFile'] as number;
  const sets: GeneratedSet[] = opts.tasks.map(() => ({ entries: [], answers: [] }));
  for (const it of p.items as readonly (ShardItem & { entry: Dstc6Entry; answer: Dstc6Result })[]) {
    const s = sets[Math.floor(it.k / perFile)] as GeneratedSet;
    s.entries.push(it.entry);
    s.answers.push(it.answer);
  }
  const files = dstc6SetFiles(opts, sets);
  writeFolder(p.options.out, 'dialogym generate dstc6', files.map((f) => ({ name: f.name, data: f.text }))); // all files or none (core/files.ts StagedFolder)
  return { out: p.options.out, files: files.map((f) => f.name), dialogs: p.items.length };
}

/**
 * The `generate dstc6` run: DSTC6 Track 1 dataset files (and the answers of a test set) from the
 * simulator, written into `out` whole; `part` / `finish` split the entries into shards and put them
 * together (the same bytes).
 *
 * @example
 * ```ts
 * import { generateDstc6Run } from 'dialogym';
 * const r = await generateDstc6Run.run({ tasks: [1], set: 'tst1', dialogs: 10, out: 'dstc6' });
 * console.log(r.files); // the data file, its answers, the KB
 * ```
 */
export const generateDstc6Run: RunDefinition<GenerateDstc6Options, GenerateResult, GenerateHooks> = defineRun<GenerateDstc6Options, GenerateResult, GenerateHooks>({
  id: 'generate dstc6',
  schema: 'run-generate-dstc6',
  part: dstc6Part,
  finish: dstc6Finish,
});
