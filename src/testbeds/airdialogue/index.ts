/**
 * AirDialogue domain (`airdialogue-v1`, `airdialogue-v2` are registered through its descriptor, testbed.ts, when
 * `dialogym` is imported); the
 * learned agents (supervised seq2seq models and pointer state model) live in `learned/`.
 */
export * from './facts.js';
export * from './logic.js';
export * from './scorer.js';
export * from './context.js';
export * from './language.js';
export * from './policies.js';
export * from './answers.js';
export * from './lexicon.js';
export * from './utterance-reader.js';
export * from './customer.js';
export * from './env.js';
export * from './prior-stats.js';
export { AIR_TOOLS } from './tools.js';
export { synthesizeSplits, LearnedStore, learnedSetOf, type LearnedSet, type SplitOptions, type OodSetting } from './learned/data.js';
export { trainAirModels, saveAirModels, loadAirModels, evaluateAirModels, type AirModels, type AirTrainOptions, type EpochPoint, type BatchPoint, type AirEvalReport, type AirEvalOptions } from './learned/train.js';
export { corpusBleu, emptyBleuStats, addBleuSegment, mergeBleuStats, bleuOf, type BleuResult, type BleuStats } from './learned/bleu.js';
export { airDataset, correctSample, COLLECTED_AIR_FILES } from './export.js';
