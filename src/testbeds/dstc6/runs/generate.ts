/**
 * The `generate dstc6` run: DSTC6 Track 1 dataset files, with answers for the test sets, from the
 * simulator, written whole into `out` (all or none). `dialogym generate dstc6` is its CLI; a library
 * user calls `generateDstc6Run.run(options)`.
 */
import { writeFolder } from '../../../core/files.js';
import { inShard, shardItems, type Shard, type ShardItem } from '../../../core/shard.js';
import type { Dstc6Entry, Dstc6Result } from '../../../formats/dstc6.js';
import { defineRun, type RunDefinition, type RunPart, type RunParts } from '../../../runs/run.js';
import { DSTC6_KB, readKb } from '../../restaurant/kb-dialects.js';
import type { GenerateHooks, GenerateResult } from '../../restaurant/runs/generate.js';
import { SET_SPECS, dstc6SetFiles, generateDstc6Sets, type DatasetOptions, type Dstc6Set, type GeneratedSet } from '../sim-dataset.js';
import type { Dstc6Task } from '../sim-dialog.js';

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
