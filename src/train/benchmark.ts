/**
 * The Table 2 benchmark: for each task, train every model on trn (selected on dev) and evaluate it
 * on tst (and tst-OOV for tasks 1-5, with the same trained model).
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import { accuracy } from '../metrics/ranking.js';
import { evaluateDialogs } from '../models/evaluate.js';
import type { EpochReport } from './loop.js';
import { trainModel, type TrainOptions } from './index.js';
import { BENCHMARK_MODELS, BENCHMARK_TESTS, type BenchmarkModel, type BenchmarkTest } from './benchmark-paper.js';
import { hasTaskFiles, loadTaskData, type BenchmarkSource, type SplitLimits } from './benchmark-data.js';

export interface BenchmarkProfile {
  readonly name: string;
  /** Dialogs per split when the data is generated. */
  readonly dialogs: number;
  /** Caps on the original files (first dialogs of each split); empty = whole files. */
  readonly limits: SplitLimits;
  readonly embeddings: TrainOptions;
  readonly memn2n: TrainOptions;
}

/** Quick: small data, small models, few epochs (the whole grid in a few minutes on 2 cores). */
export const QUICK_PROFILE: BenchmarkProfile = {
  name: 'quick',
  dialogs: 200,
  limits: { train: 200, dev: 100, test: 200 },
  embeddings: { dim: 32, epochs: 6, patience: 0, negatives: 50, optimizer: 'adam', lr: 0.003 },
  memn2n: { dim: 32, epochs: 6, patience: 0 },
};

/** Full: the paper's data sizes (1,000 dialogs per split), the trainers' default settings. */
export const FULL_PROFILE: BenchmarkProfile = {
  name: 'full',
  dialogs: 1000,
  limits: {},
  embeddings: {},
  memn2n: {},
};

export interface BenchmarkOptions {
  readonly profile: BenchmarkProfile;
  readonly source: BenchmarkSource;
  readonly models: readonly BenchmarkModel[];
  /** Tasks 1-6. */
  readonly tasks: readonly number[];
  readonly seed: number;
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
}

/** The trainer and its options for a Table 2 model. */
export function trainerOf(model: BenchmarkModel, profile: BenchmarkProfile, seed: number): { kind: string; opts: TrainOptions } {
  switch (model) {
    case 'tfidf':
      return { kind: 'tfidf', opts: { matchType: false } };
    case 'tfidf+type':
      return { kind: 'tfidf', opts: { matchType: true } };
    case 'nn':
      return { kind: 'nn', opts: {} };
    case 'embeddings':
      return { kind: 'embeddings', opts: { ...profile.embeddings, matchType: false, seed } };
    case 'memn2n':
      return { kind: 'memn2n', opts: { ...profile.memn2n, matchType: false, seed } };
    case 'memn2n+match':
      return { kind: 'memn2n', opts: { ...profile.memn2n, matchType: true, seed } };
  }
}

/** Parses `a,b` model names (`all` = every model). */
export function parseModels(v: string): BenchmarkModel[] {
  if (v.trim() === 'all') return [...BENCHMARK_MODELS];
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

export function runBenchmark(o: BenchmarkOptions, hooks: BenchmarkHooks = {}): BenchmarkResult {
  const t0 = performance.now();
  const notes: string[] = [];
  const note = (s: string): void => {
    notes.push(s);
    hooks.onNote?.(s);
  };
  if (o.source.kind === 'files' && !existsSync(o.source.dir)) throw new ConfigError(`--data: folder ${o.source.dir} not found`);
  const tasks = o.tasks.filter((t) => {
    if (t === 6 && o.source.kind === 'generate') {
      note('task 6 (DSTC2) skipped: the simulator generates tasks 1-5 only; give --data <folder of original files> to run it');
      return false;
    }
    if (o.source.kind === 'files' && !hasTaskFiles(o.source.dir, t)) {
      note(`task ${t} skipped: its files are not in ${o.source.dir}`);
      return false;
    }
    return true;
  });
  if (tasks.length === 0) throw new ConfigError(`nothing to run: ${notes.join('; ')}`);
  const total = tasks.length * o.models.length;
  const rows: BenchmarkRow[] = [];
  const modelSeconds: Partial<Record<BenchmarkModel, number>> = {};
  let index = 0;
  for (const task of tasks) {
    const data = loadTaskData(o.source, task, o.source.kind === 'files' ? o.profile.limits : {});
    for (const model of o.models) {
      const cell: BenchmarkCell = { model, task, index: index++, total };
      hooks.onCellStart?.(cell);
      const { kind, opts } = trainerOf(model, o.profile, o.seed);
      const trained = trainModel(kind, { train: data.train, dev: data.dev, candidates: data.candidates, kb: data.kb }, opts, {
        onEpoch: (r) => hooks.onEpoch?.(cell, r),
      });
      const te = performance.now();
      const cellRows = data.tests.map((ts): BenchmarkRow => {
        const s = evaluateDialogs(trained.model, ts.dialogs, { candidates: data.candidates });
        return { model, test: ts.test, perResponse: round(accuracy.perResponse(s), 6), perDialog: round(accuracy.perDialog(s), 6), trainSeconds: round(trained.seconds, 2) };
      });
      const evalSeconds = (performance.now() - te) / 1000;
      modelSeconds[model] = (modelSeconds[model] ?? 0) + trained.seconds + evalSeconds;
      rows.push(...cellRows);
      hooks.onCellDone?.(cell, cellRows, evalSeconds);
    }
  }
  rows.sort((a, b) => BENCHMARK_TESTS.indexOf(a.test) - BENCHMARK_TESTS.indexOf(b.test) || BENCHMARK_MODELS.indexOf(a.model) - BENCHMARK_MODELS.indexOf(b.model));
  return { rows, notes, seconds: (performance.now() - t0) / 1000, modelSeconds };
}
