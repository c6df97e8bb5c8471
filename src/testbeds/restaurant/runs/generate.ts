/**
 * The `generate restaurant` run: bAbI dialog tasks 1–5 — four split files per task, the KB and the
 * candidates — from the simulator, written whole into `out` (all or none); and what the generate
 * runs share (their hooks and result; DSTC6's, dstc6/runs/generate.ts, builds on them). `dialogym
 * generate restaurant` is its CLI; a library user calls `generateRestaurantRun.run(options)`.
 */
import { writeFolder } from '../../../core/files.js';
import { inShard, shardItems, type Shard, type ShardItem } from '../../../core/shard.js';
import { BABI_KB, readKb } from '../kb-dialects.js';
import { generateRestaurantDataset } from '../dataset.js';
import type { TaskId } from '../simulator.js';
import { defineRun, type RunDefinition, type RunPart, type RunParts } from '../../../runs/run.js';

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

