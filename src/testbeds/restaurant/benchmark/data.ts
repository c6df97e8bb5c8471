/**
 * The data of one benchmark task: training / dev dialogs, test sets, candidates and KB types —
 * read from a folder of original bAbI dialog files, or generated in memory with the simulator.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog } from '../../../core/dialog.js';
import { ConfigError } from '../../../core/errors.js';
import { parseBabiCandidates, parseBabiDialogs, parseBabiKb, readBabiCandidates, readBabiDialogs, readBabiKb } from '../../../formats/babi.js';
import { CANDIDATES_FILE, KB_FILE, dialogFileName, generateRestaurantDataset } from '../dataset.js';
import type { Split, TaskId } from '../simulator.js';
import type { Restaurant } from '../kb.js';
import { BABI_KB, readKb } from '../kb-dialects.js';
import { KbTypes } from '../../../rankers/match-type.js';
import { testsOfTask, type BenchmarkTest } from './paper.js';

export interface BenchmarkTestSet {
  readonly test: BenchmarkTest;
  readonly dialogs: readonly Dialog[];
}

export interface TaskData {
  readonly task: number;
  readonly train: readonly Dialog[];
  readonly dev: readonly Dialog[];
  readonly tests: readonly BenchmarkTestSet[];
  readonly candidates: readonly string[];
  readonly kb: KbTypes;
}

/**
 * Where the benchmark's dialogs come from: a folder of original files, or the simulator.
 *
 * @example
 * ```ts
 * import type { BenchmarkSource } from 'dialogym/restaurant';
 * const original: BenchmarkSource = { kind: 'files', dir: 'data/dialog-bAbI-tasks' };
 * const generated: BenchmarkSource = { kind: 'generate', seed: 1, dialogs: 1000 };
 * ```
 */
export type BenchmarkSource =
  | { readonly kind: 'files'; readonly dir: string }
  | { readonly kind: 'generate'; readonly seed: number; readonly dialogs: number };

/**
 * At most this many dialogs per split (the first ones of each file); undefined = all.
 *
 * @example
 * ```ts
 * import type { SplitLimits } from 'dialogym/restaurant';
 * const quick: SplitLimits = { train: 200, dev: 100, test: 200 };
 * ```
 */
export interface SplitLimits {
  readonly train?: number;
  readonly dev?: number;
  readonly test?: number;
}

export const TASK6_STEM = 'dialog-babi-task6-dstc2';

function cap<T>(xs: readonly T[], n: number | undefined): readonly T[] {
  return n === undefined || xs.length <= n ? xs : xs.slice(0, n);
}

function limited(task: number, split: (s: Split) => readonly Dialog[], candidates: readonly string[], kb: KbTypes, lim: SplitLimits): TaskData {
  const tests = testsOfTask(task).map((test) => ({ test, dialogs: cap(split(test.endsWith('-OOV') ? 'tst-OOV' : 'tst'), lim.test) }));
  return { task, train: cap(split('trn'), lim.train), dev: cap(split('dev'), lim.dev), tests, candidates, kb };
}

/** Whether the folder holds the files of `task` (used to skip task 6 when it is absent). */
export function hasTaskFiles(dir: string, task: number): boolean {
  const stem = task === 6 ? TASK6_STEM : dialogFileName(task as TaskId, 'trn').replace(/-trn\.txt$/, '');
  return existsSync(join(dir, `${stem}-trn.txt`));
}

/** Reads task 1-6 from a folder with the original file names. */
export function readTaskData(dir: string, task: number, lim: SplitLimits = {}): TaskData {
  if (!existsSync(dir)) throw new ConfigError(`folder ${dir} not found`, { option: 'source' });
  if (task === 6) {
    const candidates = readBabiCandidates(join(dir, `${TASK6_STEM}-candidates.txt`)).candidates;
    const kb = KbTypes.fromFacts(readBabiKb(join(dir, `${TASK6_STEM}-kb.txt`)).facts);
    return limited(6, (s) => readBabiDialogs(join(dir, `${TASK6_STEM}-${s}.txt`)).dialogs, candidates, kb, lim);
  }
  if (!Number.isInteger(task) || task < 1 || task > 5) throw new ConfigError(`no bAbI dialog task ${task}`);
  const candidates = readBabiCandidates(join(dir, CANDIDATES_FILE)).candidates;
  const kb = KbTypes.fromFacts(readBabiKb(join(dir, KB_FILE)).facts);
  return limited(task, (s) => readBabiDialogs(join(dir, dialogFileName(task as TaskId, s))).dialogs, candidates, kb, lim);
}

/**
 * Generates task 1-5 with the simulator (`dialogs` per split; same seed, same data), on a generated
 * KB or on `restaurants` (e.g. the original KB, so that generated training data names the
 * restaurants of the original test sets).
 */
export function generateTaskData(seed: number, task: number, dialogs: number, lim: SplitLimits = {}, restaurants?: readonly Restaurant[]): TaskData {
  if (!Number.isInteger(task) || task < 1 || task > 5) throw new ConfigError(`the simulator generates tasks 1-5, not task ${task}`);
  const files = new Map(generateRestaurantDataset({ seed, tasks: [task as TaskId], dialogs, ...(restaurants ? { restaurants } : {}) }).map((f) => [f.name, f.text]));
  const text = (name: string): string => files.get(name) as string;
  const candidates = parseBabiCandidates(text(CANDIDATES_FILE), CANDIDATES_FILE).candidates;
  const kb = KbTypes.fromFacts(parseBabiKb(text(KB_FILE), KB_FILE).facts);
  return limited(task, (s) => parseBabiDialogs(text(dialogFileName(task as TaskId, s)), dialogFileName(task as TaskId, s)).dialogs, candidates, kb, lim);
}

/** The restaurants named in dialogs (the subjects of their KB-result lines). */
export function restaurantsOf(dialogs: readonly Dialog[]): Set<string> {
  const out = new Set<string>();
  for (const d of dialogs) for (const t of d.turns) if (t.speaker === 'kb') out.add(t.text.split(' ')[0] as string);
  return out;
}

/** The restaurants of the original KB in a folder of original files. */
export function originalRestaurants(dir: string): Restaurant[] {
  return readKb(join(dir, KB_FILE), BABI_KB).restaurants;
}

/** The data of a task from a source. */
export function loadTaskData(source: BenchmarkSource, task: number, lim: SplitLimits = {}): TaskData {
  return source.kind === 'files' ? readTaskData(source.dir, task, lim) : generateTaskData(source.seed, task, source.dialogs, lim);
}
