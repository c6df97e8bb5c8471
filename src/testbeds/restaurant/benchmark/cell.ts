/**
 * One cell of the benchmark grid (a model on a task): its options from the profile, its data, and
 * training + evaluation. Runs in the main thread or on a worker (`workers.ts`).
 */
import type { Dialog } from '../../../core/dialog.js';
import { accuracy } from '../../../metrics/ranking.js';
import { evaluateDialogs } from '../../../rankers/evaluate-responses.js';
import { trainModel, type TrainOptions } from '../../../rankers/registry.js';
import type { EpochReport } from '../../../train/loop.js';
import { generateTaskData, loadTaskData, originalRestaurants, restaurantsOf, type BenchmarkSource, type SplitLimits, type TaskData } from './data.js';
import { isLearnedModel, type BenchmarkModel, type BenchmarkTest } from './paper.js';

/** Options of the learned models, per model kind. */
export interface LearnedOptions {
  readonly embeddings: TrainOptions;
  readonly memn2n: TrainOptions;
  readonly hcn: TrainOptions;
}

/**
 * A benchmark profile: data sizes and the trainers' options (per model, per task, and overrides).
 * `QUICK_PROFILE` and `FULL_PROFILE` are the two built in.
 *
 * @example
 * ```ts
 * import { QUICK_PROFILE, type BenchmarkProfile } from 'dialogym/restaurant';
 * const longer: BenchmarkProfile = { ...QUICK_PROFILE, name: 'quick-long', override: { memn2n: { epochs: 20 } } };
 * ```
 */
export interface BenchmarkProfile extends LearnedOptions {
  /** Name shown in reports. */
  readonly name: string;
  /** Dialogs per split when the data is generated. */
  readonly dialogs: number;
  /** Caps on the original files (first dialogs of each split); empty = whole files. */
  readonly limits: SplitLimits;
  /** Per-task settings merged over the profile's (e.g. the paper's Table 8 per task). */
  readonly perTask?: Readonly<Partial<Record<number, Partial<LearnedOptions>>>>;
  /** Last word on options, over per-task settings (e.g. `--epochs`). */
  readonly override?: Partial<LearnedOptions>;
  /** Per-task options of one embeddings variant (`embeddings+bigrams`, …) over the embeddings ones (before the override). */
  readonly embeddingsVariantPerTask?: Readonly<Partial<Record<'embeddings' | 'embeddings+match' | 'embeddings+bigrams', Readonly<Partial<Record<number, TrainOptions>>>>>>;
}

/** Where the training and dev dialogs come from when the test sets are original files. */
export type TrainFrom = 'files' | 'generate';

/** One run of one cell of Table 2 (accuracies as fractions in [0, 1]).
 *
 * @example
 * ```ts
 * import type { BenchmarkRow } from 'dialogym/restaurant';
 * const row: BenchmarkRow = { model: 'memn2n', test: 'T1-OOV', perResponse: 0.72, perDialog: 0.01, trainSeconds: 40, seed: 1 };
 * ```
 */
export interface BenchmarkRow {
  readonly model: BenchmarkModel;
  readonly test: BenchmarkTest;
  /** Per-response accuracy. */
  readonly perResponse: number;
  /** Per-dialog accuracy. */
  readonly perDialog: number;
  /** Training time of the model for this task (the same for T<n> and T<n>-OOV). */
  readonly trainSeconds: number;
  /** The training seed of this run (a learned model's; the count-based baselines have none). */
  readonly seed?: number;
}

/** A cell of the grid: a model on a task, one of its `--seeds` runs. */
export interface BenchmarkCell {
  readonly model: BenchmarkModel;
  readonly task: number;
  /** 0-based run of the cell (`--seeds k`: 0 … k−1; the count-based baselines run once). */
  readonly run: number;
  /** The training seed of the run. */
  readonly seed: number;
  /** 0-based position in the grid and grid size. */
  readonly index: number;
  readonly total: number;
}

export interface BenchmarkHooks {
  /** Called once, before any cell starts, with the cells this run computes in the order they start. */
  onPlan?(cells: readonly BenchmarkCell[]): void;
  onCellStart?(cell: BenchmarkCell): void;
  onCellDone?(cell: BenchmarkCell, rows: readonly BenchmarkRow[], evalSeconds: number): void;
  onEpoch?(cell: BenchmarkCell, r: EpochReport): void;
  /** Something the reader should know (e.g. a skipped task). */
  onNote?(note: string): void;
}

/** A model's options in a profile for a task: profile, then per-task settings, then the override. */
export function learnedOptions(profile: BenchmarkProfile, kind: keyof LearnedOptions, task: number): TrainOptions {
  return { ...profile[kind], ...profile.perTask?.[task]?.[kind], ...profile.override?.[kind] };
}

/** An embeddings variant's options: the embeddings ones, its own per-task ones, then the override. */
function embeddingsOptions(profile: BenchmarkProfile, model: 'embeddings' | 'embeddings+match' | 'embeddings+bigrams', task: number): TrainOptions {
  return { ...learnedOptions(profile, 'embeddings', task), ...profile.embeddingsVariantPerTask?.[model]?.[task], ...profile.override?.embeddings };
}

/**
 * The registered model a benchmark model trains (its own name: `trainModel(model, …)`) and its
 * options in a profile for a task and training seed.
 */
export function trainerOf(model: BenchmarkModel, profile: BenchmarkProfile, seed: number, task: number): { kind: string; opts: TrainOptions } {
  switch (model) {
    case 'embeddings':
    case 'embeddings+match':
    case 'embeddings+bigrams':
      return { kind: model, opts: { ...embeddingsOptions(profile, model, task), seed } };
    case 'memn2n':
    case 'memn2n+match':
      return { kind: model, opts: { ...learnedOptions(profile, 'memn2n', task), seed } };
    case 'hcn':
      return { kind: model, opts: { ...learnedOptions(profile, 'hcn', task), seed } };
    default:
      return { kind: model, opts: {} };
  }
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** What a worker needs to run cells (plain data: it crosses thread boundaries). */
export interface CellContext {
  readonly profile: BenchmarkProfile;
  readonly source: BenchmarkSource;
  readonly trainFrom: TrainFrom;
  /** The run's seed: generated data (`trainFrom: generate`); each cell has its own training seed. */
  readonly seed: number;
}

export interface CellResult {
  readonly rows: BenchmarkRow[];
  readonly evalSeconds: number;
  readonly trainSeconds: number;
  /** Training bot turns whose response is not among the candidates (skipped by the trainer). */
  readonly missing: number;
}

/** Loads the data of a task for a context (training/dev replaced by generated data with `trainFrom: generate`). */
export function cellData(ctx: CellContext, task: number): TaskData {
  const tested = loadTaskData(ctx.source, task, ctx.source.kind === 'files' ? ctx.profile.limits : {});
  if (ctx.trainFrom !== 'generate' || ctx.source.kind === 'generate') return tested;
  // Generated on the original KB: the test sets name its restaurants (a generated KB would rate them differently).
  const n = ctx.profile.dialogs;
  const restaurants = originalRestaurants(ctx.source.dir);
  const testR = restaurantsOf(tested.tests.flatMap((t) => t.dialogs));
  const trainR = restaurantsOf(tested.train);
  if (testR.size > 0 && ![...testR].some((r) => trainR.has(r))) {
    // The original training file names none of the test sets' restaurants (tasks 3 and 4): neither
    // may the generated one, or the model would have seen the test restaurants' ratings. Generated
    // dialogs naming one are dropped (from three times as many).
    const gen = generateTaskData(ctx.seed, task, 3 * n, {}, restaurants);
    const keep = (ds: readonly Dialog[]): Dialog[] => ds.filter((d) => ![...restaurantsOf([d])].some((r) => testR.has(r))).slice(0, n);
    return { ...tested, train: keep(gen.train), dev: gen.dev.slice(0, n) };
  }
  const gen = generateTaskData(ctx.seed, task, n, {}, restaurants);
  return { ...tested, train: gen.train, dev: gen.dev };
}

/** Trains one model on one task and evaluates it on the task's test sets. */
export function runCell(ctx: CellContext, data: TaskData, cell: BenchmarkCell, onEpoch?: (r: EpochReport) => void): CellResult {
  const { kind, opts } = trainerOf(cell.model, ctx.profile, cell.seed, cell.task);
  const learned = isLearnedModel(cell.model);
  const trained = trainModel(kind, { train: data.train, dev: data.dev, candidates: data.candidates, kb: data.kb }, opts, { onEpoch });
  const te = performance.now();
  const rows = data.tests.map((ts): BenchmarkRow => {
    const s = evaluateDialogs(trained.model, ts.dialogs, { candidates: data.candidates });
    return { model: cell.model, test: ts.test, perResponse: round(accuracy.perResponse(s), 6), perDialog: round(accuracy.perDialog(s), 6), trainSeconds: round(trained.seconds, 2), ...(learned ? { seed: cell.seed } : {}) };
  });
  return { rows, evalSeconds: (performance.now() - te) / 1000, trainSeconds: trained.seconds, missing: trained.missing };
}
