/**
 * A generated DSTC6 Track 1 set (training or one of the four test sets) for one task: the dataset
 * file, named like the original, and for test sets the `.answers.json` file.
 *
 * Sets: trn and tst1 use KB 1 and the atmosphere slot; tst2 KB 2 (out-of-vocabulary) + atmosphere;
 * tst3 KB 1 + atmosphere + restrictions; tst4 KB 2 + atmosphere + restrictions. Training goals and
 * test goals come from disjoint halves of the api_call space (see sim-dialog.ts `goalHalf`).
 *
 * Streams: the KBs use `fork('kb')` of the seed (unless given); a file uses
 * `fork('task<t>').fork(<set>)`, split into `map` (hard-distractor map) and one stream per entry
 * (`entry<i>`), so files are independent of each other and of the generation order.
 */
import { createRng, type Rng } from '../../core/rng.js';
import { ConfigError } from '../../core/errors.js';
import { formatDstc6Data, formatDstc6Results, type Dstc6Entry, type Dstc6Result } from '../../formats/dstc6.js';
import type { Restaurant } from '../restaurant/kb.js';
import { DSTC6_KB, formatKb } from '../restaurant/kb-dialects.js';
import { KB_FILE_NAMES, generateExtendedKbs, kbIdOf } from './extended-kb.js';
import { drawDistractorMap, makeEntry } from './entries.js';
import { generateDialog, goalPools, makeSimContext, type Dstc6Task } from './sim-dialog.js';

export { SET_SPECS, DSTC6_SETS, type Dstc6Set, type SetSpec } from './sets.js';
import { SET_SPECS, type Dstc6Set } from './sets.js';

/**
 * The task part of DSTC6 file names: 1 `task1API`, 2 `task2REFINE`, 3 `task3OPTIONS`,
 * 4 `task4INFOS`, 5 `task5FULL`.
 *
 * @example
 * ```ts
 * import { DSTC6_TASK_NAMES } from 'dialogym/dstc6';
 * DSTC6_TASK_NAMES[5]; // 'task5FULL'
 * ```
 */
export const DSTC6_TASK_NAMES: Readonly<Record<Dstc6Task, string>> = { 1: 'task1API', 2: 'task2REFINE', 3: 'task3OPTIONS', 4: 'task4INFOS', 5: 'task5FULL' };

/**
 * The original file name of a task's dataset file in a set, e.g.
 * `dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json`; `examples` (default: the set's) is part
 * of the name.
 *
 * @example
 * ```ts
 * import { dstc6FileName } from 'dialogym/dstc6';
 * dstc6FileName(1, 'tst1');       // 'dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json'
 * dstc6FileName(5, 'trn', 500);   // 'dialog-task5FULL-kb1_atmosphere-distr0.5-trn500.json'
 * dstc6FileName(2, 'tst4');       // 'dialog-task2REFINE-kb2_atmosphere_restrictions-distr0.5-tst1000.json'
 * ```
 */
export function dstc6FileName(task: Dstc6Task, set: Dstc6Set, examples = SET_SPECS[set].examples): string {
  const s = SET_SPECS[set];
  return `dialog-${DSTC6_TASK_NAMES[task]}-kb${s.kb}_atmosphere${s.restrictions ? '_restrictions' : ''}-distr0.5-${set === 'trn' ? 'trn' : 'tst'}${examples}.json`;
}

/**
 * The answers file name of a dataset file: `.json` replaced by `.answers.json`.
 *
 * @example
 * ```ts
 * import { answersFileName } from 'dialogym/dstc6';
 * answersFileName('dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json');
 * // 'dialog-task1API-kb1_atmosphere-distr0.5-tst1000.answers.json'
 * ```
 */
export function answersFileName(dataFile: string): string {
  return dataFile.replace(/\.json$/, '.answers.json');
}

/**
 * Options of `generateSet`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKb, type GenerateSetOptions } from 'dialogym/dstc6';
 * const opts: GenerateSetOptions = { task: 1, set: 'tst1', restaurants: generateExtendedKb(createRng(1), 1), rng: createRng(2), examples: 10 };
 * ```
 */
export interface GenerateSetOptions {
  readonly task: Dstc6Task;
  readonly set: Dstc6Set;
  /** The KB's restaurants (its vocabulary must be the set's KB: 1 for trn/tst1/tst3, 2 for tst2/tst4). */
  readonly restaurants: readonly Restaurant[];
  /** Stream of this file (see the file comment). */
  readonly rng: Rng;
  /** Number of entries (default: the set's). */
  readonly examples?: number;
  /** Called after each entry. */
  readonly onEntry?: (done: number, total: number) => void;
  /** Only the entries whose index passes (a sharded run's part); each entry has its own stream. */
  readonly include?: (index: number) => boolean;
}

/**
 * What `generateSet` returns: the dataset entries and, in the same order, their answers
 * (the true candidate at rank 1).
 *
 * @example
 * ```ts
 * import { formatDstc6Data, formatDstc6Results } from 'dialogym';
 * import type { GeneratedSet } from 'dialogym/dstc6';
 * declare const set: GeneratedSet;
 * const data = formatDstc6Data(set.entries), answers = formatDstc6Results(set.answers);
 * ```
 */
export interface GeneratedSet {
  /** The dataset entries (training entries carry `answer`). */
  readonly entries: Dstc6Entry[];
  /** One answers entry per dataset entry. */
  readonly answers: Dstc6Result[];
}

/**
 * Simulates one task's file of a set: `examples` dialogs, each cut at a random bot turn into
 * an entry with its candidates (the answer, hard distractors, context utterances). Throws a
 * ConfigError for a non-positive `examples` or a KB whose vocabulary is not the set's.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKb, generateSet } from 'dialogym/dstc6';
 * const restaurants = generateExtendedKb(createRng(1).fork('kb1'), 1);
 * const { entries, answers } = generateSet({ task: 1, set: 'tst1', restaurants, rng: createRng(1).fork('task1'), examples: 20 });
 * ```
 */
export function generateSet(opts: GenerateSetOptions): GeneratedSet {
  const spec = SET_SPECS[opts.set];
  const n = opts.examples ?? spec.examples;
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`examples must be a positive integer, got ${n}`);
  const kbId = kbIdOf(opts.restaurants);
  if (kbId !== spec.kb) throw new ConfigError(`${opts.set} needs a KB ${spec.kb} (${spec.kb === 1 ? 'in-vocabulary' : 'out-of-vocabulary'} cuisines/locations), got ${kbId === undefined ? 'a KB with mixed or unknown values' : `KB ${kbId}`}`);
  const ctx = makeSimContext(opts.restaurants, spec.kb, spec.restrictions, opts.set === 'trn' ? 0 : 1);
  const pools = goalPools(ctx);
  const map = drawDistractorMap(opts.rng.fork('map'), opts.task, ctx);
  const entries: Dstc6Entry[] = [];
  const answers: Dstc6Result[] = [];
  for (let i = 0; i < n; i++) {
    if (opts.include && !opts.include(i)) continue;
    const rng = opts.rng.fork(`entry${i}`);
    const turns = generateDialog(opts.task, rng.fork('dialog'), ctx, pools);
    const { entry, answer } = makeEntry(rng.fork('cut'), opts.task, turns, ctx, map, { withAnswer: opts.set === 'trn' });
    entries.push(entry);
    answers.push(answer);
    opts.onEntry?.(i + 1, n);
  }
  return { entries, answers };
}

/**
 * Options of `generateDstc6Files`.
 *
 * @example
 * ```ts
 * import type { DatasetOptions } from 'dialogym/dstc6';
 * const opts: DatasetOptions = { seed: 1, tasks: [1, 2, 3, 4, 5], set: 'tst3', examples: 100 };
 * ```
 */
export interface DatasetOptions {
  /** Seed of the KB and of every file. */
  readonly seed: number;
  /** Tasks to write a file for. */
  readonly tasks: readonly Dstc6Task[];
  readonly set: Dstc6Set;
  /** Entries per file (default: the set's). */
  readonly examples?: number;
  /** A real or earlier-generated extended KB to use instead of generating one from the seed. */
  readonly restaurants?: readonly Restaurant[];
  readonly onProgress?: (p: { task: Dstc6Task; done: number; total: number }) => void;
  /**
   * Only the entries whose index over the whole set passes (task position × entries per file +
   * entry index): a sharded run's part (`generateDstc6Sets`; entries are seeded one by one).
   */
  readonly include?: (index: number) => boolean;
}

/**
 * One generated file: its original-style name and its full text.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from 'dialogym';
 * import type { GeneratedFile } from 'dialogym/dstc6';
 * declare const files: GeneratedFile[];
 * for (const f of files) writeFileAtomic(`out/dstc6/${f.name}`, f.text);
 * ```
 */
export interface GeneratedFile {
  /** File name (no folder). */
  readonly name: string;
  /** File contents. */
  readonly text: string;
}

/**
 * Generates the entries of one set, one `GeneratedSet` per task of `opts.tasks` (only the entries
 * `opts.include` selects, when given). Errors as `generateSet`.
 *
 * @example
 * ```ts
 * import { generateDstc6Sets } from 'dialogym/dstc6';
 * const [t1] = generateDstc6Sets({ seed: 1, tasks: [1], set: 'tst1', examples: 10, include: (k) => k % 2 === 0 });
 * t1?.entries.length; // 5
 * ```
 */
export function generateDstc6Sets(opts: DatasetOptions): GeneratedSet[] {
  const root = createRng(opts.seed);
  const spec = SET_SPECS[opts.set];
  const restaurants = opts.restaurants ?? generateExtendedKbs(root.fork('kb'))[spec.kb];
  const perFile = opts.examples ?? spec.examples;
  return opts.tasks.map((task, t) =>
    generateSet({
      task,
      set: opts.set,
      restaurants,
      rng: root.fork(`task${task}`).fork(opts.set),
      ...(opts.examples !== undefined ? { examples: opts.examples } : {}),
      ...(opts.include ? { include: (i: number) => (opts.include as (k: number) => boolean)(t * perFile + i) } : {}),
      onEntry: (done, total) => opts.onProgress?.({ task, done, total }),
    }),
  );
}

/**
 * The files of a set from its entries (`sets[j]` for task `opts.tasks[j]`): per task the dataset
 * file and, for test sets, the answers file; plus the KB file generated from the seed when
 * `opts.restaurants` is not given.
 *
 * @example
 * ```ts
 * import { dstc6SetFiles, generateDstc6Sets } from 'dialogym/dstc6';
 * const opts = { seed: 1, tasks: [1, 2] as const, set: 'tst1' as const, examples: 20 };
 * const files = dstc6SetFiles(opts, generateDstc6Sets(opts)); // the same as generateDstc6Files(opts)
 * ```
 */
export function dstc6SetFiles(opts: DatasetOptions, sets: readonly GeneratedSet[]): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  opts.tasks.forEach((task, t) => {
    const { entries, answers } = sets[t] as GeneratedSet;
    const name = dstc6FileName(task, opts.set, entries.length);
    files.push({ name, text: formatDstc6Data(entries) });
    if (opts.set !== 'trn') files.push({ name: answersFileName(name), text: formatDstc6Results(answers) });
  });
  if (!opts.restaurants) {
    const kb = SET_SPECS[opts.set].kb;
    files.push({ name: KB_FILE_NAMES[kb], text: formatKb(generateExtendedKbs(createRng(opts.seed).fork('kb'))[kb], DSTC6_KB) });
  }
  return files;
}

/**
 * Generates the files of one set: per task the dataset file (training entries carry `answer`)
 * and, for test sets, the answers file; plus the generated KB file when no KB was given.
 * Errors as `generateSet`.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from 'dialogym';
 * import { generateDstc6Files } from 'dialogym/dstc6';
 * for (const f of generateDstc6Files({ seed: 1, tasks: [1], set: 'tst1', examples: 50 })) {
 *   writeFileAtomic(`out/dstc6/tst1/${f.name}`, f.text); // data, answers and extendedkb1.txt
 * }
 * ```
 */
export function generateDstc6Files(opts: DatasetOptions): GeneratedFile[] {
  return dstc6SetFiles(opts, generateDstc6Sets(opts));
}
