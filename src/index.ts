/**
 * dialogym: goal-oriented dialog testbeds — bAbI dialog tasks (restaurant), DSTC6 Track 1,
 * KB-InfoBot and AirDialogue — as a library.
 *
 * The root module gives what every testbed shares: environments by id (`make`, `envs`,
 * `checkEnv`), readers and writers of every file format, the seeded `Rng`, the error classes, the
 * model registry (`createModel`, `trainModel`, `loadModel`), the metrics, and the evaluation
 * harness: `evaluate(envId, agent, options)` plays episodes with an agent — an object with `act`,
 * dialogym's own (`createAgent`), or one reached over stdio or HTTP (`stdioTransport`,
 * `httpTransport`) — and gives the summary (success, pass^k) and every episode's record.
 * Importing it loads every testbed of the list (`src/testbeds/index.ts`): their environments, models
 * and agents are registered before your code runs. Each testbed has its own subpath with the rest:
 * `dialogym/restaurant`, `dialogym/dstc6`, `dialogym/infobot`, `dialogym/airdialogue`, plus
 * `dialogym/rankers` and `dialogym/nn`.
 *
 * @example
 * ```ts
 * import { make, envs, checkEnv } from 'dialogym';
 * for (const id of envs) checkEnv(make(id));
 * const env = make('infobot-medium-v1');
 * const { obs } = env.reset({ seed: 1 });
 * ```
 * @module
 */
import './testbeds/index.js'; // (kept in the declarations: the testbeds' typed env ids)
import { loadTestbeds } from './testbeds/index.js';

// Every testbed of the list, loaded before a user's first `make` (make is synchronous).
await loadTestbeds();

// Core: dialogs, randomness, errors, registries.
export type { Speaker, Turn, Dialog } from './core/dialog.js';
export { botTurnIndices } from './core/dialog.js';
export { createRng, hashString, type Rng } from './core/rng.js';
export { DialogymError, FormatError, ConfigError, ModelFileError, StateError, InvalidActionError, InternalError, describeError, errorText, optionName, renderErrorText } from './core/errors.js';
export type { ErrorText, OptionName, RunAdvice } from './core/errors.js';
export { Registry, type RegistryEntry } from './core/registry.js';
export { writeFileAtomic, writeFolder, StagedFolder, removeLeftovers, checkComplete, readTextFile, readLines, countLines, lineOffset, userDataDir, type TextLine, type LineReadOptions } from './core/files.js';
export { openSqlite, sqliteDriver, sqliteDrivers, sqliteInstallAdvice, sqliteMissingMessage, type SqliteInstallPlace, type SqliteDb, type SqliteStatement, type SqliteOpenOptions, type SqliteDriverName } from './core/sqlite.js';
export { beforeProcessExit, processDone } from './core/exit.js';

// Environments (Gymnasium-style).
export { make, envs, loadEnv, checkEnv, EnvCheckError, isToolCall, envSchema, envDataset, envPersonView, envOptionNames, isWordlessTurn } from './env/env.js';
export { TurnLimit, withTurnLimit, declareTurnLimit, turnLimitOf, sessionTurnLimit } from './env/turn-limit.js';
export { playEpisode, episodeSteps, runEpisode, type EpisodeTurn, type EpisodeHooks, type PlayedEpisode } from './env/episode.js';
export type { Env, EnvOptions, EnvFactory, EnvTypes, Info, ResetOptions, ResetResult, StepResult, CheckEnvOptions, ToolSpec, ToolCall, EnvSchemaName, RecordedEpisode, DatasetExport, DatasetWritten } from './env/env.js';
export type { GoalCard, ViewSection, EndedEpisode, PersonView } from './env/person.js';

// File formats.
export {
  parseBabiDialogs, formatBabiDialogs, readBabiDialogs, SILENCE,
  parseBabiCandidates, formatBabiCandidates, readBabiCandidates,
  parseBabiKb, formatBabiKb, readBabiKb,
  type BabiDialog, type BabiDialogFile, type BabiCandidates, type KbFact, type BabiKbFile,
} from './formats/babi.js';
export { babiStats, type BabiStats } from './formats/babi-stats.js';
export {
  parseDstc6Data, readDstc6Data, formatDstc6Data, writeDstc6Data,
  parseDstc6Results, readDstc6Results, formatDstc6Results, writeDstc6Results,
  dstc6History, rankingResult,
  type Dstc6Entry, type Dstc6Candidate, type Dstc6Result, type Dstc6Rank,
} from './formats/dstc6.js';
export {
  parseAirData, readAirData, parseAirKb, readAirKb, readAirDialogue, formatAirLines, parseAirPredictions, readAirPredictions,
  airDataLines, airKbLines, airExamples, airPredictionLines, airPredictedExamples, writeAirLines, type AirReadOptions, type AirArrayOptions,
  type AirExample, type DataLine, type KbLine, type Flight, type Intent, type Action,
} from './formats/airdialogue.js';
export { parseKbTsv as parseMovieKbTsv, formatKbTsv as formatMovieKbTsv, readKbTsv as readMovieKbTsv, writeKbTsv as writeMovieKbTsv } from './testbeds/infobot/movie-kb-tsv.js';
export { readModelFile, writeModelFile, encodeModelFile, decodeModelFile, type ModelFileContent, type ModelTensor } from './formats/model-file.js';
export { kbValueIssue, kbFactIssue, quoteKbValue, type KbValueRules } from './formats/kb-values.js';

// Models: one registry for the CLI, the server and the benchmark.
export {
  models, registerModel, createModel, trainModel, loadModel, saveModel, resolveModel, creatableModels, trainableModels, loadModels,
  type ModelEntry, type TrainOptions, type TrainResult,
} from './rankers/registry.js';
export { isResponder, responderAsRanker, argmax, type Ranker, type Responder, type ResponseModel, type ModelContext, type SavableRanker } from './rankers/ranker.js';
export type { TrainData, TrainHooks } from './rankers/train-data.js';
export type { FitHooks, EpochReport } from './train/loop.js';
export { KbTypes } from './rankers/match-type.js';
export { evaluateDialogs, type Prediction, type EvaluateOptions } from './rankers/evaluate-responses.js';

// Runs: what the CLI's verbs compute, as library functions (src/runs/; docs/library.md).
export { checkRunOptions, defineRun, wholeParts, type RunDefinition, type RunPart, type RunParts, type RunSpec } from './runs/run.js';
export { loadRun, runIds, declareRuns, type AnyRun, type RunEntries } from './runs/index.js';
export { declareKb, kbOf, kbTestbeds, type KbFile } from './runs/kb.js';
export { evaluateRun, type EvaluateRunOptions, type EvaluateRunHooks, type EvaluateRunResult, type EvaluateRunSummary } from './runs/evaluate.js';
export { openRunAgent, openLlmUserVoice, llmClientOptionsOf, promptFileText, type LlmConnection, type RunAgentOptions } from './runs/agent-options.js';
// The testbeds' runs (each in its folder: src/testbeds/<t>/runs/, declared in its descriptor).
export { evalRun, type EvalOptions, type EvalHooks, type EvalResult } from './testbeds/restaurant/runs/eval.js';
export { infobotEvalRun, type InfobotEvalOptions, type InfobotEvalHooks } from './testbeds/infobot/runs/eval.js';
export { airGenerateRun, type AirRunHooks, type AirGenerateOptions, type AirGenerateResult } from './testbeds/airdialogue/runs/generate.js';
export { airSelfplayRun, type AirSelfplayOptions, type AirSelfplayResult } from './testbeds/airdialogue/runs/selfplay.js';
export { generateRestaurantRun, type GenerateHooks, type GenerateResult, type GenerateRestaurantOptions } from './testbeds/restaurant/runs/generate.js';
export { generateDstc6Run, type GenerateDstc6Options } from './testbeds/dstc6/runs/generate.js';
export { benchmarkRun, type BenchmarkRunOptions, type BenchmarkRunHooks, type BenchmarkPlan, type BenchmarkRunResult } from './testbeds/restaurant/runs/benchmark.js';

// Metrics.
export { accuracy, precisionAtK, meanReciprocalRank, orderByScore, rankOfIndex, type AccuracyState, type PrecisionAtKState, type MrrState } from './metrics/ranking.js';
export { episodeStats, passHatK, summarizeOutcomes, type EpisodeState, type EpisodeOutcome, type EpisodeSummary } from './metrics/episodes.js';

// Agents and the evaluation harness (docs/agent-protocol.md).
export { AGENT_PROTOCOL, AgentError, DEFAULT_MAX_REPLY_BYTES, type AgentRequest, type AgentFailure } from './agents/protocol.js';
export { localTransport, type Agent, type AgentAction, type AgentConnection, type AgentTransport } from './agents/agent.js';
export { stdioTransport, type StdioTransportOptions } from './agents/stdio.js';
export { httpTransport, type HttpTransportOptions } from './agents/http.js';
export { agents, agentNames, createAgent, loadAgent, players, Players, type AgentFamily, type AgentOptions } from './agents/registry.js';
export { openAgent, loadBuiltinAgent, builtinAgentProblem, type AgentWay, type OpenAgentOptions } from './evaluation/open.js';
export { evaluate, EVALUATE_DEFAULTS, optionsKey, summarizeEpisodes, type EvaluateAgentOptions, type EpisodeRecord, type EvaluationSummary, type EvaluationResult } from './evaluation/evaluate.js';
export { permutationTest, wilsonInterval, type PermutationOptions, type PermutationResult } from './metrics/permutation.js';
export { studyConfig, studyConfigJson, readStudyConfig, type AgentSpec, type StudyConfig, type StudyQuestion } from './study/config.js';
export { createStudy, StudyStore, type CreatedStudy } from './study/store.js';
export { openStudyAgent, studyAgentProblem } from './study/agents.js';
export { simulateStudy, type SimulateOptions, type SimulateResult } from './study/simulate.js';
export { studyReport, writeStudyReport, type StudyReport, type AgentFigures, type PairFigures } from './study/report.js';
export { turnsChartSvg } from './study/chart.js';

// LLMs as agents and as simulated users (docs/llm.md).
export { LlmClient, LlmError, type LlmClientOptions, type LlmStats, type ChatRequest, type ChatReply } from './llm/client/client.js';
export { ResponseCache } from './llm/client/cache.js';
export type { TokenUsage } from './llm/client/usage.js';
export { llmTransport, type LlmTransportOptions } from './llm/agent.js';
export { llmSystemMessage, llmUserSystemMessage, llmUserPrompt, declareLlmSection, llmSectionOf, loadLlmSections, type LlmSection, type LlmView } from './llm/prompts.js';
export { exportDataset, readPlayedEpisodes, MixedEnvsError, type ExportDatasetOptions, type ExportDatasetResult, type PlacedEpisode } from './evaluation/export-dataset.js';
export { llmUserVoice, type LlmUserOptions } from './llm/user.js';
export type { UserVoice, UserVoiceSession, UserTurn } from './agents/user-voice.js';
