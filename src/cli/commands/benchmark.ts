/** `dialogym benchmark [--profile quick|full|paper] [--seeds k] [--data dir] [--models a,b] [--tasks 1,5] [--out dir]`: Tables 2 and 10 of Bordes et al. (2017) (the library's `benchmarkRun`, src/testbeds/restaurant/runs/benchmark.ts). */
import { Option, type Command } from 'commander';
import { availableParallelism } from 'node:os';
import { ConfigError } from '../../core/errors.js';
import { cellCost, parseTasks, profileNamed, type BenchmarkCell } from '../../testbeds/restaurant/benchmark/benchmark.js';
import { isLearnedModel } from '../../testbeds/restaurant/benchmark/paper.js';
import { benchmarkRun, type BenchmarkRunHooks, type BenchmarkRunOptions, type BenchmarkRunResult } from '../../testbeds/restaurant/runs/benchmark.js';
import { wholeParts } from '../../runs/run.js';
import { shardOf, shardOptions, writeRunShard, type ShardFlags, type VerbRun } from '../shard.js';
import { action, inputFlag, intFlag, out, outFolderFlag } from '../run.js';
import { formatDuration, progress, secondsLeft, type Progress } from '../progress.js';
import { SUMMARY } from './summaries.js';

interface Flags {
  quick?: boolean;
  profile?: string;
  seeds: number;
  data?: string;
  models: string;
  tasks: string;
  seed: number;
  out: string;
  dialogs?: number;
  epochs?: number;
  workers?: number;
  trainFrom: string;
}

export function registerBenchmark(program: Command): void {
  const cmd = program
    .command('benchmark')
    .description(SUMMARY.benchmark)
    .option('--profile <name>', "quick (small data and models, few epochs), full (the paper's data sizes, each trainer's recipe chosen on dev) or paper (the appendix's Tables 8 and 9 hyper-parameters per task)", 'full')
    .option('--quick', 'the same as --profile quick')
    .option('--seeds <k>', 'train each learned model (embeddings, memn2n, hcn) k times with different seeds and report mean ± standard deviation', intFlag('--seeds', 1, 100), 1)
    .option('--data <dir>', 'folder of original bAbI dialog files, or babi for the fetched ones (`dialogym data fetch babi`) (default: generate fresh data with the simulator; task 6 is then skipped)', inputFlag('--data'))
    .option('--models <list>', "models, comma-separated: tfidf, tfidf+type, nn, embeddings, memn2n, memn2n+match (Table 2), embeddings+match, embeddings+bigrams (Table 10), tfidf+type-word, nn+prev, hcn (dialogym's variants); or paper (the six of Table 2), table10 (the two embeddings variants), variants or all", 'all')
    .option('--tasks <list>', 'tasks, e.g. 1,5 or 1-5, or all', 'all')
    .option('--seed <n>', 'random seed (data generation and training)', intFlag('--seed', 0), 1)
    .option('--out <dir>', 'output folder', outFolderFlag('--out'), 'results')
    .option('--workers <n>', 'cells trained at once on worker threads (default: 2, or 1 on a 1-core machine; 1 = no worker)', intFlag('--workers', 1, 64))
    .option('--train-from <files|generate>', 'generate: train on simulator data (seed --seed) and test on the original files of --data (simulator fidelity)', 'files')
    .addOption(new Option('--dialogs <n>', 'dialogs per split (generated), or first dialogs of each split (--data)').argParser(intFlag('--dialogs', 1, 1_000_000)).hideHelp())
    .addOption(new Option('--epochs <n>', 'epochs of the learned models').argParser(intFlag('--epochs', 1, 10_000)).hideHelp());
  shardOptions(cmd).action(action((f: Flags & ShardFlags) => run(f)));
}

/** The flags as the run's options (a shard file of dialogym-shard/1 recorded these flags): `--quick` is `--profile quick`. */
function fromFlags(r: Record<string, unknown>): { options: BenchmarkRunOptions } {
  const f = r as unknown as Flags;
  const given = profileNamed(f.profile ?? 'full');
  if (f.quick && given.name !== 'full' && given.name !== 'quick') throw new ConfigError(`--quick is --profile quick; it cannot go with --profile ${given.name}`);
  const options: BenchmarkRunOptions = {
    profile: f.quick ? 'quick' : given.name,
    seeds: f.seeds,
    ...(f.data !== undefined ? { data: f.data } : {}),
    models: f.models.split(','),
    tasks: parseTasks(f.tasks),
    seed: f.seed,
    out: f.out,
    ...(f.dialogs !== undefined ? { dialogs: f.dialogs } : {}),
    ...(f.epochs !== undefined ? { epochs: f.epochs } : {}),
    workers: f.workers ?? Math.min(2, availableParallelism()),
    trainFrom: f.trainFrom as BenchmarkRunOptions['trainFrom'],
  };
  return { options };
}

/** Progress on stderr: the plan, a line (or the bar's note, on a terminal) per cell and epoch, with an ETA weighed by each cell's cost. */
function progressHooks(): { hooks: BenchmarkRunHooks; stop(): void } {
  const tty = process.stderr.isTTY === true;
  let bar: Progress | undefined;
  let finished = 0;
  let seeds = 1;
  const label = (c: BenchmarkCell): string => `[${c.index + 1}/${c.total}] task ${c.task} ${c.model}${seeds > 1 && isLearnedModel(c.model) ? ` (seed ${c.seed})` : ''}`;
  // The ETA weighs each cell by its estimated cost (cellCost): a task-3 embeddings cell of the paper
  // profile takes a thousand times a TF-IDF cell, so a count of cells says little.
  const costs = new Map<number, number>();
  let profile = 'full';
  let planned = 0;
  let totalCost = 0;
  let doneCost = 0;
  const t0 = performance.now();
  const fraction = (): number => (totalCost > 0 ? doneCost / totalCost : 0);
  const hooks: BenchmarkRunHooks = {
    onStart(p) {
      profile = p.profile.name;
      seeds = p.seeds;
      process.stderr.write(`benchmark (${p.profile.name}${p.seeds > 1 ? `, ${p.seeds} seeds per learned model` : ''}): ${p.models.join(', ')} on task${p.tasks.length > 1 ? 's' : ''} ${p.tasks.join(', ')}; data: ${p.info.data}; ${p.workers} worker${p.workers > 1 ? 's' : ''}\n`);
    },
    onNote: (n) => process.stderr.write(`note: ${n}\n`),
    onPlan(cells) {
      for (const c of cells) costs.set(c.index, cellCost(c, profile));
      planned = cells.length;
      totalCost = [...costs.values()].reduce((a, x) => a + x, 0);
    },
    onCellStart(c) {
      if (tty) {
        bar ??= progress('benchmark', planned || c.total);
        bar.update(finished, `${label(c)}: training`, fraction());
      } else process.stderr.write(`${label(c)}: training\n`);
    },
    onEpoch(c, r) {
      const msg = `${label(c)}: epoch ${r.epoch}/${r.epochs} loss ${r.loss.toFixed(4)} dev ${(100 * r.dev).toFixed(1)}% (${r.seconds.toFixed(1)}s)`;
      if (tty) bar?.update(finished, msg, fraction());
      else process.stderr.write(`  ${msg}\n`);
    },
    onCellDone(c, rows, evalSeconds) {
      const accs = rows.map((r) => `${r.test} ${(100 * r.perResponse).toFixed(1)}% (${(100 * r.perDialog).toFixed(1)}%)`).join(', ');
      finished++;
      doneCost += costs.get(c.index) ?? 0;
      const share = fraction();
      const elapsed = (performance.now() - t0) / 1000;
      const left = finished === planned ? '' : `, about ${formatDuration(secondsLeft(elapsed, share))} left`;
      const msg = `${label(c)}: ${accs}; train ${rows[0]?.trainSeconds.toFixed(1) ?? '0'}s, eval ${evalSeconds.toFixed(1)}s`;
      if (tty) bar?.update(finished, msg, share);
      else process.stderr.write(`${msg} — ${finished} of ${planned} cells done in ${formatDuration(elapsed)}${left}\n`);
    },
  };
  return { hooks, stop: () => bar?.stop() };
}

async function run(f: Flags & ShardFlags): Promise<void> {
  const shard = shardOf(f);
  const options = benchmarkRun.checkOptions(fromFlags(f as unknown as Record<string, unknown>).options);
  const { hooks, stop } = progressHooks();
  let part;
  try {
    part = await benchmarkRun.part(options, shard, hooks);
  } finally {
    stop();
  }
  const t = part.info as { seconds: number; cpuSeconds: number; workers: number };
  process.stderr.write(`benchmark: ${t.seconds.toFixed(1)} s wall, ${t.cpuSeconds.toFixed(1)} s CPU, ${t.workers} worker${t.workers > 1 ? 's' : ''}\n`);
  if (shard) writeRunShard(f, benchmarkRun, part);
  else printBenchmark(await benchmarkRun.finish(wholeParts(part)));
}

/** Prints the table and the files written. */
function printBenchmark(r: BenchmarkRunResult): void {
  out(r.markdown.trimEnd());
  out('');
  out(`wrote ${r.files.join(', ')}`);
}

/** The verb's flags and printer, for `merge` (its own action prints the plan and the timings besides). */
export const benchmarkVerb: VerbRun<BenchmarkRunOptions, BenchmarkRunResult> = { run: benchmarkRun, fromFlags, print: printBenchmark };
