/**
 * The DSTC6 sets (training and the four test sets) and what defines each: light, so the testbed's
 * descriptor (testbed.ts) reads them without the simulator. Re-exported by sim-dataset.ts.
 */
import type { KbId } from './extended-kb.js';
import type { Dstc6Task } from './sim-dialog.js';

/**
 * A DSTC6 set: the training set or one of the four test sets (KB and slots in `SET_SPECS`).
 *
 * @example
 * ```ts
 * import { SET_SPECS, type Dstc6Set } from 'dialogym/dstc6';
 * const set: Dstc6Set = 'tst2';
 * SET_SPECS[set].kb; // 2 (out-of-vocabulary)
 * ```
 */
export type Dstc6Set = 'trn' | 'tst1' | 'tst2' | 'tst3' | 'tst4';
/**
 * Every DSTC6 set, in order: trn, tst1, tst2, tst3, tst4.
 *
 * @example
 * ```ts
 * import { DSTC6_SETS, dstc6FileName } from 'dialogym/dstc6';
 * for (const set of DSTC6_SETS) console.log(dstc6FileName(1, set));
 * ```
 */
export const DSTC6_SETS: readonly Dstc6Set[] = ['trn', 'tst1', 'tst2', 'tst3', 'tst4'];

/**
 * What defines a set: its KB, whether api_calls carry the restrictions slot, and the default
 * number of entries.
 *
 * @example
 * ```ts
 * import type { SetSpec } from 'dialogym/dstc6';
 * const tst4: SetSpec = { kb: 2, restrictions: true, examples: 1000 };
 * ```
 */
export interface SetSpec {
  /** The extended KB the set's dialogs use. */
  readonly kb: KbId;
  /** Whether api_calls carry the restrictions slot. */
  readonly restrictions: boolean;
  /** Default number of entries. */
  readonly examples: number;
}

/**
 * The spec of each set: trn and tst1 use KB 1, tst2 KB 2, tst3 KB 1 with restrictions, tst4
 * KB 2 with restrictions; 10,000 training entries, 1,000 per test set.
 *
 * @example
 * ```ts
 * import { SET_SPECS } from 'dialogym/dstc6';
 * SET_SPECS.tst3; // { kb: 1, restrictions: true, examples: 1000 }
 * ```
 */
export const SET_SPECS: Readonly<Record<Dstc6Set, SetSpec>> = {
  trn: { kb: 1, restrictions: false, examples: 10_000 },
  tst1: { kb: 1, restrictions: false, examples: 1000 },
  tst2: { kb: 2, restrictions: false, examples: 1000 },
  tst3: { kb: 1, restrictions: true, examples: 1000 },
  tst4: { kb: 2, restrictions: true, examples: 1000 },
};


/**
 * The four DSTC6 test sets, as folder names of the test release; each has online environments.
 *
 * @example
 * ```ts
 * import { TEST_SETS } from 'dialogym/dstc6';
 * TEST_SETS.join(' '); // 'tst1 tst2 tst3 tst4'
 * ```
 */
export const TEST_SETS = ['tst1', 'tst2', 'tst3', 'tst4'] as const;
/**
 * One of `TEST_SETS`.
 *
 * @example
 * ```ts
 * import { findTestFile, type TestSet } from 'dialogym/dstc6';
 * const set: TestSet = 'tst2';
 * findTestFile('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0', set, 1);
 * ```
 */
export type TestSet = (typeof TEST_SETS)[number];

/**
 * The id of a DSTC6 online environment: `dstc6-task<task>-<set>-v<version>` (version 1 by default).
 *
 * @example
 * ```ts
 * import { dstc6EnvId } from 'dialogym/dstc6';
 * dstc6EnvId(5, 'tst4'); // 'dstc6-task5-tst4-v1'
 * dstc6EnvId(5, 'tst4', 2); // 'dstc6-task5-tst4-v2'
 * ```
 */
export function dstc6EnvId(task: Dstc6Task, set: TestSet, version: 1 | 2 = 1): string {
  return `dstc6-task${task}-${set}-v${version}`;
}

