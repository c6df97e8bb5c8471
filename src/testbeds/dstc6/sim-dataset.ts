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
import { KB_FILE_NAMES, generateExtendedKbs, kbIdOf, type KbId } from './extended-kb.js';
import { drawDistractorMap, makeEntry } from './entries.js';
import { generateDialog, goalPools, makeSimContext, type Dstc6Task } from './sim-dialog.js';

export type Dstc6Set = 'trn' | 'tst1' | 'tst2' | 'tst3' | 'tst4';
export const DSTC6_SETS: readonly Dstc6Set[] = ['trn', 'tst1', 'tst2', 'tst3', 'tst4'];

export interface SetSpec {
  readonly kb: KbId;
  readonly restrictions: boolean;
  /** Default number of entries. */
  readonly examples: number;
}

export const SET_SPECS: Readonly<Record<Dstc6Set, SetSpec>> = {
  trn: { kb: 1, restrictions: false, examples: 10_000 },
  tst1: { kb: 1, restrictions: false, examples: 1000 },
  tst2: { kb: 2, restrictions: false, examples: 1000 },
  tst3: { kb: 1, restrictions: true, examples: 1000 },
  tst4: { kb: 2, restrictions: true, examples: 1000 },
};

export const DSTC6_TASK_NAMES: Readonly<Record<Dstc6Task, string>> = { 1: 'task1API', 2: 'task2REFINE', 3: 'task3OPTIONS', 4: 'task4INFOS', 5: 'task5FULL' };

/** `dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json` and friends. */
export function dstc6FileName(task: Dstc6Task, set: Dstc6Set, examples = SET_SPECS[set].examples): string {
  const s = SET_SPECS[set];
  return `dialog-${DSTC6_TASK_NAMES[task]}-kb${s.kb}_atmosphere${s.restrictions ? '_restrictions' : ''}-distr0.5-${set === 'trn' ? 'trn' : 'tst'}${examples}.json`;
}

export function answersFileName(dataFile: string): string {
  return dataFile.replace(/\.json$/, '.answers.json');
}

export interface GenerateSetOptions {
  readonly task: Dstc6Task;
  readonly set: Dstc6Set;
  /** The KB's restaurants (its vocabulary must be the set's KB: 1 for trn/tst1/tst3, 2 for tst2/tst4). */
  readonly restaurants: readonly Restaurant[];
  /** Stream of this file (see the file comment). */
  readonly rng: Rng;
  readonly examples?: number;
  readonly onEntry?: (done: number, total: number) => void;
}

export interface GeneratedSet {
  readonly entries: Dstc6Entry[];
  readonly answers: Dstc6Result[];
}

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
    const rng = opts.rng.fork(`entry${i}`);
    const turns = generateDialog(opts.task, rng.fork('dialog'), ctx, pools);
    const { entry, answer } = makeEntry(rng.fork('cut'), opts.task, turns, ctx, map, { withAnswer: opts.set === 'trn' });
    entries.push(entry);
    answers.push(answer);
    opts.onEntry?.(i + 1, n);
  }
  return { entries, answers };
}

export interface DatasetOptions {
  readonly seed: number;
  readonly tasks: readonly Dstc6Task[];
  readonly set: Dstc6Set;
  readonly examples?: number;
  /** A real or earlier-generated extended KB to use instead of generating one from the seed. */
  readonly restaurants?: readonly Restaurant[];
  readonly onProgress?: (p: { task: Dstc6Task; done: number; total: number }) => void;
}

export interface GeneratedFile {
  readonly name: string;
  readonly text: string;
}

/**
 * Generates the files of one set: per task the dataset file (training entries carry `answer`)
 * and, for test sets, the answers file; plus the generated KB file when no KB was given.
 */
export function generateDstc6Files(opts: DatasetOptions): GeneratedFile[] {
  const root = createRng(opts.seed);
  const spec = SET_SPECS[opts.set];
  const restaurants = opts.restaurants ?? generateExtendedKbs(root.fork('kb'))[spec.kb];
  const files: GeneratedFile[] = [];
  for (const task of opts.tasks) {
    const { entries, answers } = generateSet({
      task,
      set: opts.set,
      restaurants,
      rng: root.fork(`task${task}`).fork(opts.set),
      ...(opts.examples !== undefined ? { examples: opts.examples } : {}),
      onEntry: (done, total) => opts.onProgress?.({ task, done, total }),
    });
    const name = dstc6FileName(task, opts.set, entries.length);
    files.push({ name, text: formatDstc6Data(entries) });
    if (opts.set !== 'trn') files.push({ name: answersFileName(name), text: formatDstc6Results(answers) });
  }
  if (!opts.restaurants) files.push({ name: KB_FILE_NAMES[spec.kb], text: formatKb(restaurants, DSTC6_KB) });
  return files;
}
