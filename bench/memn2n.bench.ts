/**
 * MemN2N training benchmark on the original bAbI task 5: training throughput (examples/s),
 * seconds per epoch (training pass; wall per epoch with the dev evaluation), the time until dev
 * per-response accuracy first reaches a target (default: the paper's Table 2 cell for the chosen
 * variant, 96.1% plain / 93.4% with match types — on dev, as a proxy for the test cell), and the
 * ratio against the old path measured in the same run (generic kernels, dev evaluated in line;
 * it trains byte-identical weights, so only the time differs).
 *
 *   node dist/bench/memn2n.bench.js
 *
 * Environment variables (all optional):
 *   MEMN2N_BENCH_TASK=task5-full-dialogs   bAbI task file stem (e.g. task1-API-calls)
 *   MEMN2N_BENCH_MATCH=1                   match-type features
 *   MEMN2N_BENCH_EPOCHS=3                  epochs of the new path (30 = the `train` default)
 *   MEMN2N_BENCH_PATIENCE=0                early-stopping patience (8 = the `train` default; 0 = off)
 *   MEMN2N_BENCH_TARGET=0.961              dev accuracy for "time to accuracy"
 *   MEMN2N_BENCH_BASELINE_EPOCHS=1         epochs of the old path (0 = skip the baseline)
 *   DIALOGYM_DATA=<dir>                    folder holding dialog-bAbI-tasks/ (default ../shared/data)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { KbTypes } from '../src/rankers/match-type.js';
import { trainMemN2N, type MemN2NTrainOptions } from '../src/rankers/memn2n-train.js';
import { responseExamples } from '../src/rankers/examples.js';
import { babiDir } from '../test/shared-data.js';

const task = process.env.MEMN2N_BENCH_TASK ?? 'task5-full-dialogs';
const match = process.env.MEMN2N_BENCH_MATCH === '1';
const epochs = Number(process.env.MEMN2N_BENCH_EPOCHS ?? 3);
const patience = Number(process.env.MEMN2N_BENCH_PATIENCE ?? 0);
const target = Number(process.env.MEMN2N_BENCH_TARGET ?? (match ? 0.934 : 0.961));
const baselineEpochs = Number(process.env.MEMN2N_BENCH_BASELINE_EPOCHS ?? 1);

if (!existsSync(babiDir)) {
  process.stdout.write(`memn2n bench: skipped, ${babiDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}
const file = (s: string): string => join(babiDir, `dialog-babi-${task}-${s}.txt`);
const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
const train = readBabiDialogs(file('trn')).dialogs;
const dev = readBabiDialogs(file('dev')).dialogs;
const kb = KbTypes.fromFacts(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts);
const position = new Map(candidates.map((c, i) => [c, i] as const));
const nExamples = responseExamples(train, (t) => position.get(t) ?? -1).examples.length;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

interface Run {
  examplesPerSecond: number;
  trainPerEpoch: number;
  wallPerEpoch: number;
  cpu: number;
  wall: number;
  reached?: { epoch: number; seconds: number };
  bestDev: number;
  bestEpoch: number;
  epochs: number;
}

function run(label: string, opts: Partial<MemN2NTrainOptions>): Run {
  process.stdout.write(`${label} (load average ${load()})\n`);
  let trainTotal = 0;
  let reached: Run['reached'];
  const c0 = cpuSeconds();
  const t0 = performance.now();
  const r = trainMemN2N({ train, dev, candidates, kb }, { matchType: match, ...opts }, {
    onEpoch(e) {
      trainTotal += e.trainSeconds;
      const at = (performance.now() - t0) / 1000;
      if (!reached && e.dev >= target) reached = { epoch: e.epoch, seconds: at };
      process.stdout.write(
        `  epoch ${e.epoch}: loss ${e.loss.toFixed(4)}  dev ${(100 * e.dev).toFixed(2)}%  train ${e.trainSeconds.toFixed(1)} s (${Math.round(nExamples / e.trainSeconds)} examples/s)  known at ${at.toFixed(1)} s\n`,
      );
    },
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds() - c0;
  const n = r.fit.history.length;
  const out: Run = { examplesPerSecond: (nExamples * n) / trainTotal, trainPerEpoch: trainTotal / n, wallPerEpoch: wall / n, cpu, wall, bestDev: r.fit.bestDev, bestEpoch: r.fit.bestEpoch, epochs: n, ...(reached ? { reached } : {}) };
  process.stdout.write(
    `  → ${Math.round(out.examplesPerSecond)} examples/s, ${out.trainPerEpoch.toFixed(1)} s per training epoch, ${out.wallPerEpoch.toFixed(1)} s wall per epoch with dev eval; ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU (main + eval worker) for ${n} epochs; best dev ${(100 * r.fit.bestDev).toFixed(2)}% @${r.fit.bestEpoch}; load average ${load()}\n`,
  );
  return out;
}

process.stdout.write(`memn2n${match ? '+match' : ''} on ${task}: ${nExamples} training examples, ${candidates.length} candidates (defaults: dim 32, hops 3, batch 32, SGD)\n`);
const old = baselineEpochs > 0 ? run(`old path: generic kernels, dev evaluated in line, ${baselineEpochs} epoch(s)`, { epochs: baselineEpochs, patience: 0, referenceKernels: true, evalWorker: false }) : undefined;
const cur = run(`new path: 32-column kernels, dev evaluated on a worker thread, ${epochs} epoch(s)`, { epochs, patience });
if (old) {
  process.stdout.write(
    `speed-up vs old path: ×${(cur.examplesPerSecond / old.examplesPerSecond).toFixed(2)} training examples/s, ×${(old.wallPerEpoch / cur.wallPerEpoch).toFixed(2)} wall per epoch with dev eval, ×${(old.cpu / old.epochs / (cur.cpu / cur.epochs)).toFixed(2)} CPU per epoch (${(old.cpu / old.epochs).toFixed(1)} → ${(cur.cpu / cur.epochs).toFixed(1)} s, all threads)\n`,
  );
}
process.stdout.write(
  cur.reached
    ? `dev ≥ ${(100 * target).toFixed(1)}% after epoch ${cur.reached.epoch}: known at ${cur.reached.seconds.toFixed(1)} s\n`
    : `dev did not reach ${(100 * target).toFixed(1)}% in ${epochs} epochs (best ${(100 * cur.bestDev).toFixed(2)}% @${cur.bestEpoch}); ${cur.wall.toFixed(1)} s\n`,
);
