/**
 * The restaurant-booking testbed (bAbI dialog tasks 1–6, Bordes, Boureau & Weston 2017): the KB
 * (memory and SQLite stores), the user/bot simulator that regenerates tasks 1–5, the rule-based
 * bots, the Hybrid Code Network and the Table 2 benchmark. Its environments, agents and models
 * are registered through its descriptor (testbed.ts) when `dialogym` is imported.
 *
 * @example
 * ```ts
 * import { generateRestaurantDataset } from 'dialogym/restaurant';
 * const files = generateRestaurantDataset({ seed: 1, tasks: [1, 5], dialogs: 100 });
 * ```
 * @module
 */
export * from './kb.js';
export * from './kb-dialects.js';
export * from './kb-sqlite.js';
export { TASKS, SPLITS, TASK_FILE_STEMS, generateSplit, splitVocab, type TaskId, type Split, type SplitOptions } from './simulator.js';
export * from './dataset.js';
export { compareWithOriginal, formatComparison, delexicalise, type Comparison, type CompareOptions, type EntityType } from './delex.js';
export { createRulesBot, type RulesBot, type RulesOptions } from './rules/rules.js';
export { createDstc2RulesBot, type Dstc2RulesBot, type Dstc2RulesOptions } from './rules/dstc2.js';
export { canonicalRestaurantText } from './synonyms.js';
export { createDstc2HeardBot, type Dstc2HeardBot, type Dstc2HeardOptions } from './rules/dstc2-heard.js';
export { Hcn, HCN_DEFAULTS, type HcnConfig } from './hcn/hcn.js';
export { trainHcn, HCN_TRAIN_DEFAULTS, type HcnTrainOptions, type HcnTrainData, type HcnTrainResult } from './hcn/train.js';
export { runBenchmark, parseModels, parseTasks, seedsOf, profileNamed, QUICK_PROFILE, FULL_PROFILE, PAPER_PROFILE, type BenchmarkOptions, type BenchmarkResult, type BenchmarkRow, type BenchmarkSummaryRow, type BenchmarkProfile } from './benchmark/benchmark.js';
export { benchmarkJson, benchmarkLatex, benchmarkMarkdown, benchmarkSvg, paperVerdicts, type PaperVerdict, type ReportInfo } from './benchmark/report.js';
export type { BenchmarkSource, SplitLimits } from './benchmark/data.js';
export { PAPER_MODELS, TABLE10_MODELS, VARIANT_MODELS, BENCHMARK_MODELS, BENCHMARK_TESTS, paperCell, table10Cell, type PaperModel, type BenchmarkModel, type BenchmarkTest } from './benchmark/paper.js';
export { RestaurantEnv, apiCallTool, type RestaurantObservation, type RestaurantAction, type RestaurantEnvOptions, type UserStyle } from './online/env.js';
export { UtteranceReader, readLabel, type Reading } from './online/utterance-reader.js';
export { babiEnvId } from './online/babi.js';
export { chatReads, checkAllowCheckpoint, checkContextOptions, modelArg, type ContextOption, type ModelArg } from './model-context.js';
export { AGREEMENT_MIN_SHARE, agreementIssue, agreementIssueText, candidateCoverage, checkAgreements, checkKbAgreement, kbCoverage, storedRestaurants, type AgreementCheck, type Coverage } from './agreement.js';
export { babiDataset, playedTurns, collectedDialogFile, COLLECTED_CANDIDATES_FILE } from './export.js';
