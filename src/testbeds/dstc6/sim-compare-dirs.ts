/**
 * Compares a folder of generated DSTC6 test sets with the real ones, file by file (same set, same
 * task) and pooled per task over the sets: the figures of `sim-compare.ts`.
 *
 * A folder holds the sets either in `tst1/` … `tst4/` sub-folders (the layout of the real test
 * release) or directly; a file is matched by its task name (`task1API` …) and set.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DialogymError } from '../../core/errors.js';
import { readDstc6Data, type Dstc6Entry } from '../../formats/dstc6.js';
import { compareFigures, fileFigures, type FileComparison } from './sim-compare.js';
import { DSTC6_TASK_NAMES } from './sim-dataset.js';
import type { Dstc6Task } from './sim-dialog.js';
import { TEST_SETS, type TestSet } from './sets.js';

export { TEST_SETS, type TestSet };

/**
 * The numbers of one comparison of a generated file (or pool) with a real one: entry counts,
 * mean utterances per entry and their relative difference, the largest difference of the
 * candidate-count histograms, and coverage/precision of delexicalised user utterances (whole and
 * split into units).
 *
 * @example
 * ```ts
 * import type { ComparisonFigures } from 'dialogym/dstc6';
 * declare const f: ComparisonFigures;
 * console.log(`user coverage ${(100 * f.userCoverage).toFixed(1)}%, precision ${(100 * f.userPrecision).toFixed(1)}%`);
 * ```
 */
export interface ComparisonFigures extends Pick<FileComparison, 'utteranceRelDiff' | 'candidateMaxDiff' | 'userCoverage' | 'userPrecision' | 'userPrecisionDistinct' | 'unitCoverage' | 'unitPrecision'> {
  readonly realEntries: number;
  readonly generatedEntries: number;
  readonly realMeanUtterances: number;
  readonly generatedMeanUtterances: number;
  readonly realDistinctUser: number;
  readonly generatedDistinctUser: number;
}

/**
 * The comparison of one generated file with the real file of the same set and task.
 *
 * @example
 * ```ts
 * import { compareDstc6Dirs, type FilePair } from 'dialogym/dstc6';
 * declare const generatedDir: string;
 * const pairs: readonly FilePair[] = compareDstc6Dirs(generatedDir, 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0').files;
 * for (const p of pairs) console.log(p.set, p.task, p.utteranceRelDiff);
 * ```
 */
export interface FilePair extends ComparisonFigures {
  readonly set: TestSet;
  readonly task: Dstc6Task;
  readonly realFile: string;
  readonly generatedFile: string;
}

/**
 * The comparison of one task with all its compared sets pooled.
 *
 * @example
 * ```ts
 * import type { TaskPool } from 'dialogym/dstc6';
 * declare const pool: TaskPool;
 * console.log(`task ${pool.task} over ${pool.sets.join('+')}: unit coverage ${pool.unitCoverage}`);
 * ```
 */
export interface TaskPool extends ComparisonFigures {
  readonly task: Dstc6Task;
  readonly sets: readonly TestSet[];
}

/**
 * What `compareDstc6Dirs` returns: per-file comparisons and per-task pools.
 *
 * @example
 * ```ts
 * import { compareDstc6Dirs, formatDirComparison, type DirComparison } from 'dialogym/dstc6';
 * declare const generatedDir: string;
 * const c: DirComparison = compareDstc6Dirs(generatedDir, 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0');
 * console.log(c.files.length, c.tasks.length);
 * ```
 */
export interface DirComparison {
  /** One comparison per (set, task) found in both folders. */
  readonly files: readonly FilePair[];
  /** Per task, all its compared sets pooled. */
  readonly tasks: readonly TaskPool[];
}

function figures(c: FileComparison): ComparisonFigures {
  return {
    realEntries: c.real.entries,
    generatedEntries: c.generated.entries,
    realMeanUtterances: c.real.meanUtterances,
    generatedMeanUtterances: c.generated.meanUtterances,
    utteranceRelDiff: c.utteranceRelDiff,
    candidateMaxDiff: c.candidateMaxDiff,
    realDistinctUser: c.real.userUtterances.size,
    generatedDistinctUser: c.generated.userUtterances.size,
    userCoverage: c.userCoverage,
    userPrecision: c.userPrecision,
    userPrecisionDistinct: c.userPrecisionDistinct,
    unitCoverage: c.unitCoverage,
    unitPrecision: c.unitPrecision,
  };
}

/**
 * The test-set data file of `task` for `set` under `dir/<set>/` (a `dialog-<task name>-…-tst<n>.json`
 * file, answers files excluded), or undefined. Despite the module description, a flat folder is
 * not searched: this always returns undefined when `dir/<set>/` does not exist.
 *
 * @example
 * ```ts
 * import { findTestFile } from 'dialogym/dstc6';
 * findTestFile('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0', 'tst1', 1);
 * // 'data/…/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json'
 * ```
 */
export function findTestFile(dir: string, set: TestSet, task: Dstc6Task): string | undefined {
  const name = DSTC6_TASK_NAMES[task];
  const matches = (n: string): boolean => n.startsWith(`dialog-${name}-`) && n.endsWith('.json') && !n.endsWith('.answers.json') && /-tst\d+\.json$/.test(n);
  const sub = join(dir, set);
  if (existsSync(sub) && statSync(sub).isDirectory()) {
    const f = readdirSync(sub).sort().find(matches);
    if (f !== undefined) return join(sub, f);
  }
  // Flat layout: the set is told by the KB/restrictions part of the name, which tst1/tst3 and
  // tst2/tst4 share with each other, so only a folder holding one set can be read flat.
  return undefined;
}

/**
 * Compares the generated test sets in `generatedDir` with the real ones in `realDir`, file by
 * file (same set and task, found with `findTestFile`) and pooled per task. Throws a DialogymError
 * when a folder does not exist or no (set, task) file exists in both; data-file errors are
 * FormatErrors.
 *
 * @example
 * ```ts
 * import { compareDstc6Dirs, formatDirComparison } from 'dialogym/dstc6';
 * const c = compareDstc6Dirs('out/dstc6-generated', 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0');
 * console.log(formatDirComparison(c).join('\n'));
 * ```
 */
export function compareDstc6Dirs(generatedDir: string, realDir: string): DirComparison {
  for (const d of [generatedDir, realDir]) if (!existsSync(d) || !statSync(d).isDirectory()) throw new DialogymError(`${d}: not a folder`);
  const files: FilePair[] = [];
  const pooled = new Map<Dstc6Task, { real: Dstc6Entry[]; gen: Dstc6Entry[]; sets: TestSet[] }>();
  for (const set of TEST_SETS)
    for (const task of [1, 2, 3, 4, 5] as const) {
      const realFile = findTestFile(realDir, set, task);
      const generatedFile = findTestFile(generatedDir, set, task);
      if (realFile === undefined || generatedFile === undefined) continue;
      const real = readDstc6Data(realFile);
      const gen = readDstc6Data(generatedFile);
      files.push({ set, task, realFile, generatedFile, ...figures(compareFigures(fileFigures(real), fileFigures(gen))) });
      const p = pooled.get(task) ?? { real: [], gen: [], sets: [] };
      p.real.push(...real);
      p.gen.push(...gen);
      p.sets.push(set);
      pooled.set(task, p);
    }
  if (files.length === 0)
    throw new DialogymError(`no test set found in both ${generatedDir} and ${realDir} (expected tst1/ … tst4/ folders with dialog-task<N>…-tst<n>.json files)`);
  const tasks = [...pooled.entries()].sort((a, b) => a[0] - b[0]).map(([task, p]): TaskPool => ({ task, sets: p.sets, ...figures(compareFigures(fileFigures(p.real), fileFigures(p.gen))) }));
  return { files, tasks };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

function row(label: string, f: ComparisonFigures): string {
  const sign = f.generatedMeanUtterances >= f.realMeanUtterances ? '+' : '-';
  return [
    label.padEnd(24),
    `${f.realMeanUtterances.toFixed(2)} / ${f.generatedMeanUtterances.toFixed(2)} (${sign}${pct(f.utteranceRelDiff)})`.padEnd(26),
    `${(100 * f.candidateMaxDiff).toFixed(1)} pp`.padEnd(10),
    `${pct(f.userCoverage)} / ${pct(f.userPrecisionDistinct)} / ${pct(f.userPrecision)}`.padEnd(24),
    `${pct(f.unitCoverage)} / ${pct(f.unitPrecision)}`,
  ].join(' ');
}

/**
 * A readable table of a comparison: one row per file, then one per task pool, then a legend.
 *
 * @example
 * ```ts
 * import { compareDstc6Dirs, formatDirComparison } from 'dialogym/dstc6';
 * declare const generatedDir: string, realDir: string;
 * for (const line of formatDirComparison(compareDstc6Dirs(generatedDir, realDir))) console.log(line);
 * ```
 */
export function formatDirComparison(c: DirComparison): string[] {
  const head = `${'file'.padEnd(24)} ${'utterances/entry real/gen'.padEnd(26)} ${'cand-hist'.padEnd(10)} ${'users cov/prec/prec-inst'.padEnd(24)} units cov/prec`;
  const lines = [head];
  for (const f of c.files) lines.push(row(`${f.set} ${DSTC6_TASK_NAMES[f.task]}`, f));
  lines.push('', 'pooled per task:');
  for (const t of c.tasks) lines.push(row(`${t.sets.length === 4 ? 'all' : t.sets.join('+')} ${DSTC6_TASK_NAMES[t.task]}`, t));
  lines.push(
    '',
    'users: distinct delexicalised user utterances — coverage of the real ones by the generated file, precision of the generated ones (distinct / counted with repetitions).',
    'units: the same with requests split into opener + slot phrases (whole requests rarely repeat between two real files either).',
  );
  return lines;
}
