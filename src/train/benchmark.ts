/**
 * The Table 2 benchmark: for each task, train every model on trn (selected on dev) and evaluate it
 * on tst (and tst-OOV for tasks 1-5, with the same trained model).
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import { accuracy } from '../metrics/ranking.js';
import { evaluateDialogs } from '../models/evaluate.js';
import type { Dialog } from '../core/dialog.js';
import type { EpochReport } from './loop.js';
import { trainModel, type TrainOptions } from './index.js';
import { BENCHMARK_MODELS, BENCHMARK_TESTS, PAPER_MODELS, type BenchmarkModel, type BenchmarkTest } from './benchmark-paper.js';
import { generateTaskData, hasTaskFiles, loadTaskData, originalRestaurants, restaurantsOf, type BenchmarkSource, type SplitLimits, type TaskData } from './benchmark-data.js';
import { runOnWorkers } from './benchmark-workers.js';

/** Options of the learned models, per model kind. */
export interface LearnedOptions {
  readonly embeddings: TrainOptions;
  readonly memn2n: TrainOptions;
  readonly hcn: TrainOptions;
}

export interface BenchmarkProfile extends LearnedOptions {
  readonly name: string;
  /** Dialogs per split when the data is generated. */
  readonly dialogs: number;
  /** Caps on the original files (first dialogs of each split); empty = whole files. */
  readonly limits: SplitLimits;
  /** Per-task settings merged over the profile's (e.g. the paper's Table 8 per task). */
  readonly perTask?: Readonly<Partial<Record<number, Partial<LearnedOptions>>>>;
  /** Last word on options, over per-task settings (e.g. `--epochs`). */
  readonly override?: Partial<LearnedOptions>;
}

/** Quick: small data, small models, few epochs (the whole grid in a few minutes on 2 cores). */
export const QUICK_PROFILE: BenchmarkProfile = {
  name: 'quick',
  dialogs: 200,
  limits: { train: 200, dev: 100, test: 200 },
  embeddings: { dim: 32, epochs: 6, patience: 0, negatives: 50, optimizer: 'adam', lr: 0.003 },
  memn2n: { dim: 32, epochs: 6, patience: 0 },
  hcn: { epochs: 4, patience: 0 },
};

/**
 * Full: the paper's data sizes (1,000 dialogs per split), the trainers' default settings, and per
 * task where the defaults miss the paper: task 3 embeddings read the last user utterance, not the
 * history (as the paper's Table 8 has it; original files: T3 63.4% with it, 51.2% with the history);
 * task 5 embeddings are wider and train longer (original files: T5 74.9% at dim 64 / 30 epochs,
 * 68.1% at the defaults, dim 32 / 15 epochs).
 */
export const FULL_PROFILE: BenchmarkProfile = {
  name: 'full',
  dialogs: 1000,
  limits: {},
  embeddings: {},
  memn2n: {},
  hcn: {},
  perTask: { 3: { embeddings: { input: 'last' } }, 5: { embeddings: { dim: 64, epochs: 30, patience: 8 } } },
};

/** Where the training and dev dialogs come from when the test sets are original files. */
export type TrainFrom = 'files' | 'generate';

export interface BenchmarkOptions {
  readonly profile: BenchmarkProfile;
  readonly source: BenchmarkSource;
  readonly models: readonly BenchmarkModel[];
  /** Tasks 1-6. */
  readonly tasks: readonly number[];
  readonly seed: number;
  /**
   * `generate`: train and select on simulator data (seed `seed`, `profile.dialogs` per split) and
   * test on the original files of `source` (the simulator's fidelity). Default `files`.
   */
  readonly trainFrom?: TrainFrom;
  /** Cells trained at once on worker threads (1 = in this thread). Rows do not depend on it. */
  readonly workers?: number;
}

/** One cell of Table 2 (accuracies as fractions in [0, 1]). */
export interface BenchmarkRow {
  readonly model: BenchmarkModel;
  readonly test: BenchmarkTest;
  readonly perResponse: number;
  readonly perDialog: number;
  readonly trainSeconds: number;
}

export interface BenchmarkCell {
  readonly model: BenchmarkModel;
  readonly task: number;
  /** 0-based position in the grid and grid size. */
  readonly index: number;
  readonly total: number;
}

export interface BenchmarkHooks {
  onCellStart?(cell: BenchmarkCell): void;
  onCellDone?(cell: BenchmarkCell, rows: readonly BenchmarkRow[], evalSeconds: number): void;
  onEpoch?(cell: BenchmarkCell, r: EpochReport): void;
  /** Something the reader should know (e.g. a skipped task). */
  onNote?(note: string): void;
}

export interface BenchmarkResult {
  /** In Table 2 order: test sets, then models. */
  readonly rows: BenchmarkRow[];
  readonly notes: string[];
  /** Wall time of the whole run, and per model (training + evaluation). */
  readonly seconds: number;
  readonly modelSeconds: Partial<Record<BenchmarkModel, number>>;
  /** CPU seconds of the whole run (the process: this thread and the workers). */
  readonly cpuSeconds: number;
  readonly workers: number;
}

/** A model's options in a profile for a task: profile, then per-task settings, then the override. */
export function learnedOptions(profile: BenchmarkProfile, kind: keyof LearnedOptions, task: number): TrainOptions {
  return { ...profile[kind], ...profile.perTask?.[task]?.[kind], ...profile.override?.[kind] };
}

/** The trainer and its options for a Table 2 model. */
export function trainerOf(model: BenchmarkModel, profile: BenchmarkProfile, seed: number, task: number): { kind: string; opts: TrainOptions } {
  switch (model) {
    case 'tfidf':
      return { kind: 'tfidf', opts: { matchType: false } };
    case 'tfidf+type':
      return { kind: 'tfidf', opts: { matchType: true } };
    case 'nn':
      return { kind: 'nn', opts: {} };
    case 'embeddings':
      return { kind: 'embeddings', opts: { ...learnedOptions(profile, 'embeddings', task), matchType: false, seed } };
    case 'memn2n':
      return { kind: 'memn2n', opts: { ...learnedOptions(profile, 'memn2n', task), matchType: false, seed } };
    case 'memn2n+match':
      return { kind: 'memn2n', opts: { ...learnedOptions(profile, 'memn2n', task), matchType: true, seed } };
    case 'hcn':
      return { kind: 'hcn', opts: { ...learnedOptions(profile, 'hcn', task), seed } };
  }
}

/** Parses `a,b` model names (`all` = every model, `paper` = the six models of Table 2). */
export function parseModels(v: string): BenchmarkModel[] {
  if (v.trim() === 'all') return [...BENCHMARK_MODELS];
  if (v.trim() === 'paper') return [...PAPER_MODELS];
  const names = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (names.length === 0) throw new ConfigError('--models: no model given');
  for (const n of names) if (!(BENCHMARK_MODELS as readonly string[]).includes(n)) throw new ConfigError(`--models: unknown model '${n}' (expected ${BENCHMARK_MODELS.join(', ')})`);
  return BENCHMARK_MODELS.filter((m) => names.includes(m));
}

/** Parses `1,5` / `1-5` / `all` into sorted task numbers 1-6. */
export function parseTasks(v: string): number[] {
  if (v.trim() === 'all') return [1, 2, 3, 4, 5, 6];
  const out = new Set<number>();
  for (const part of v.split(',').map((s) => s.trim())) {
    const m = /^([1-6])(?:-([1-6]))?$/.exec(part);
    if (!m) throw new ConfigError(`--tasks: expected task numbers 1-6 like 1,5 or 1-5, got '${v}'`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new ConfigError(`--tasks: empty range '${part}'`);
    for (let t = a; t <= b; t++) out.add(t);
  }
  return [...out].sort((x, y) => x - y);
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** What a worker needs to run cells (plain data: it crosses thread boundaries). */
export interface CellContext {
  readonly profile: BenchmarkProfile;
  readonly source: BenchmarkSource;
  readonly trainFrom: TrainFrom;
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
  const { kind, opts } = trainerOf(cell.model, ctx.profile, ctx.seed, cell.task);
  const trained = trainModel(kind, { train: data.train, dev: data.dev, candidates: data.candidates, kb: data.kb }, opts, { onEpoch });
  const te = performance.now();
  const rows = data.tests.map((ts): BenchmarkRow => {
    const s = evaluateDialogs(trained.model, ts.dialogs, { candidates: data.candidates });
    return { model: cell.model, test: ts.test, perResponse: round(accuracy.perResponse(s), 6), perDialog: round(accuracy.perDialog(s), 6), trainSeconds: round(trained.seconds, 2) };
  });
  return { rows, evalSeconds: (performance.now() - te) / 1000, trainSeconds: trained.seconds, missing: trained.missing };
}

/** Rough relative cost of a cell, to start the long ones first on workers. */
function cellCost(c: BenchmarkCell): number {
  const model: Record<BenchmarkModel, number> = { tfidf: 1, 'tfidf+type': 2, nn: 1, embeddings: 6, memn2n: 20, 'memn2n+match': 24, hcn: 10 };
  const task: Record<number, number> = { 1: 1, 2: 1.2, 3: 2, 4: 0.8, 5: 4, 6: 4 };
  return model[c.model] * (task[c.task] ?? 1);
}

/** Runs the grid; cells go to `workers` worker threads when more than one. */
export async function runBenchmark(o: BenchmarkOptions, hooks: BenchmarkHooks = {}): Promise<BenchmarkResult> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const notes: string[] = [];
  const note = (s: string): void => {
    notes.push(s);
    hooks.onNote?.(s);
  };
  const trainFrom = o.trainFrom ?? 'files';
  if (o.source.kind === 'files' && !existsSync(o.source.dir)) throw new ConfigError(`--data: folder ${o.source.dir} not found`);
  if (trainFrom === 'generate' && o.source.kind !== 'files') throw new ConfigError('--train-from generate needs --data <folder of original files> (the test sets)');
  const tasks = o.tasks.filter((t) => {
    if (t === 6 && o.source.kind === 'generate') {
      note('task 6 (DSTC2) skipped: the simulator generates tasks 1-5 only; give --data <folder of original files> to run it');
      return false;
    }
    if (t === 6 && trainFrom === 'generate') {
      note('task 6 (DSTC2) skipped: the simulator generates tasks 1-5 only, so there is no generated training data for it');
      return false;
    }
    if (o.source.kind === 'files' && !hasTaskFiles(o.source.dir, t)) {
      note(`task ${t} skipped: its files are not in ${o.source.dir}`);
      return false;
    }
    return true;
  });
  if (tasks.length === 0) throw new ConfigError(`nothing to run: ${notes.join('; ')}`);
  if (trainFrom === 'generate') note(`trained and selected on simulator data (seed ${o.seed}, ${o.profile.dialogs} dialogs per split), tested on the original files`);
  const ctx: CellContext = { profile: o.profile, source: o.source, trainFrom, seed: o.seed };
  const total = tasks.length * o.models.length;
  const cells: BenchmarkCell[] = [];
  for (const task of tasks) for (const model of o.models) cells.push({ model, task, index: cells.length, total });
  const rows: BenchmarkRow[] = [];
  const modelSeconds: Partial<Record<BenchmarkModel, number>> = {};
  const done = (cell: BenchmarkCell, r: CellResult): void => {
    modelSeconds[cell.model] = (modelSeconds[cell.model] ?? 0) + r.trainSeconds + r.evalSeconds;
    if (r.missing > 0) note(`task ${cell.task} ${cell.model}: ${r.missing} training responses are not among the candidates (skipped)`);
    rows.push(...r.rows);
    hooks.onCellDone?.(cell, r.rows, r.evalSeconds);
  };
  const workers = Math.max(1, Math.min(o.workers ?? 1, cells.length));
  if (workers === 1) {
    let cached: { task: number; data: TaskData } | undefined;
    for (const cell of cells) {
      hooks.onCellStart?.(cell);
      if (cached?.task !== cell.task) cached = { task: cell.task, data: cellData(ctx, cell.task) };
      done(cell, runCell(ctx, cached.data, cell, (r) => hooks.onEpoch?.(cell, r)));
    }
  } else {
    const queue = [...cells].sort((a, b) => cellCost(b) - cellCost(a) || a.index - b.index);
    await runOnWorkers(ctx, queue, workers, { ...hooks, onCellDone: undefined }, done);
  }
  rows.sort((a, b) => BENCHMARK_TESTS.indexOf(a.test) - BENCHMARK_TESTS.indexOf(b.test) || BENCHMARK_MODELS.indexOf(a.model) - BENCHMARK_MODELS.indexOf(b.model));
  const cpu = process.cpuUsage(cpu0);
  return { rows, notes, seconds: (performance.now() - t0) / 1000, modelSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, workers };
}
