/**
 * DSTC6 Track 1 (Perez, Boureau & Bordes 2017): the extended restaurant KBs, the simulator that
 * writes the training and test sets (JSON with candidates), the official tools — scorer
 * (Precision@1/2/5), validity check, walker, random and TF-IDF baselines — and ranking with any
 * model of the registry. Builds on the restaurant testbed.
 *
 * @example
 * ```ts
 * import { readDstc6Data } from 'dialogym';
 * import { tfidfBaseline, scoreDstc6 } from 'dialogym/dstc6';
 * ```
 * @module
 */
export * from './extended-kb.js';
export * from './sim-dataset.js';
export { generateDialog, makeSimContext, goalPools, DSTC6_TASKS, type Dstc6Task, type SimContext, type GoalPools } from './sim-dialog.js';
export * from './score.js';
export * from './rank.js';
export * from './check.js';
export * from './random-baseline.js';
export * from './tfidf-baseline.js';
export * from './walk.js';
export * from './sim-compare-dirs.js';
export { makeEntry, entryAt, drawDistractorMap, uuid4, type DistractorMap, type CutOptions } from './entries.js';
export { dstc6EnvId } from './online.js';
export { dstc6Dataset, collectedDstc6File } from './export.js';
