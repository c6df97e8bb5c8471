/**
 * MemN2N training benchmark on an original bAbI task (default task 5): training throughput
 * (examples/s), seconds per training epoch and per epoch with the dev evaluation, for
 *   - the old path: softmax over all 4,212 candidates (`negatives: 0`, today's trainer before
 *     sampling: 32-column kernels, dev on a worker thread), and
 *   - the new path: the paper's sampled negatives (100 per batch + the context negatives,
 *     candidate embeddings once per batch, sparse SGD; `src/rankers/memn2n-sampled.ts`),
 * measured in the same run, with their ratio; the new path trains to the end (early stopping on
 * dev), then its selected model is scored on tst: the per-response accuracy against the paper's
 * cell (96.1% plain, 93.4% with match types) and the wall time until dev first reached it.
 * Last, a roofline line: GFLOP/s of the candidate-scoring kernel (matVec over a batch's
 * candidate set, d = 32, and its backward) against a plain-JS dot product over long arrays.
 *
 *   node dist/bench/memn2n.bench.js
 *
 * Environment variables (all optional):
 *   MEMN2N_BENCH_TASK=task5-full-dialogs   bAbI task file stem (e.g. task1-API-calls)
 *   MEMN2N_BENCH_MATCH=1                   match-type features (default 1; 0 = plain memn2n)
 *   MEMN2N_BENCH_EPOCHS=30                 epochs of the new path (early stopping on dev)
 *   MEMN2N_BENCH_PATIENCE=3                early-stopping patience of the new path
 *   MEMN2N_BENCH_NEGATIVES=100             negatives per batch of the new path
 *   MEMN2N_BENCH_TARGET=0.934              accuracy for "time to accuracy" (dev) and the tst check
 *   MEMN2N_BENCH_BASELINE_EPOCHS=1         epochs of the old path (0 = skip it)
 *   DIALOGYM_DATA=<dir>                    folder holding dialog-bAbI-tasks/ (default ../shared/data)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { KbTypes } from '../src/rankers/match-type.js';
import { trainMemN2N, type MemN2NTrainOptions } from '../src/rankers/memn2n-train.js';
import { responseExamples } from '../src/rankers/examples.js';
import { evaluateDialogs } from '../src/rankers/evaluate-responses.js';
import { accuracy } from '../src/metrics/ranking.js';
import { matVec, matVecBackward } from '../src/nn/kernels.js';
import { babiDir } from '../test/shared-data.js';

const task = process.env.MEMN2N_BENCH_TASK ?? 'task5-full-dialogs';
const match = (process.env.MEMN2N_BENCH_MATCH ?? '1') === '1';
const epochs = Number(process.env.MEMN2N_BENCH_EPOCHS ?? 30);
const patience = Number(process.env.MEMN2N_BENCH_PATIENCE ?? 3);
const negatives = Number(process.env.MEMN2N_BENCH_NEGATIVES ?? 100);
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
const tst = readBabiDialogs(file('tst')).dialogs;
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
  tst?: number;
}

function run(label: string, opts: Partial<MemN2NTrainOptions>, test: boolean): Run {
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
        `  epoch ${e.epoch}: loss ${e.loss.toFixed(4)}  dev ${(100 * e.dev).toFixed(2)}%  train ${e.trainSeconds.toFixed(2)} s (${Math.round(nExamples / e.trainSeconds)} examples/s)  known at ${at.toFixed(1)} s\n`,
      );
    },
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds() - c0;
  const n = r.fit.history.length;
  const out: Run = { examplesPerSecond: (nExamples * n) / trainTotal, trainPerEpoch: trainTotal / n, wallPerEpoch: wall / n, cpu, wall, bestDev: r.fit.bestDev, bestEpoch: r.fit.bestEpoch, epochs: n, ...(reached ? { reached } : {}) };
  process.stdout.write(
    `  → ${Math.round(out.examplesPerSecond)} examples/s, ${out.trainPerEpoch.toFixed(2)} s per training epoch, ${out.wallPerEpoch.toFixed(2)} s wall per epoch with dev eval; ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU (main + eval worker) for ${n} epochs; best dev ${(100 * r.fit.bestDev).toFixed(2)}% @${r.fit.bestEpoch}; load average ${load()}\n`,
  );
  if (test) {
    out.tst = accuracy.perResponse(evaluateDialogs(r.model, tst, { candidates }));
    process.stdout.write(`  tst per-response ${(100 * out.tst).toFixed(2)}% (paper ${(100 * target).toFixed(1)}%): ${out.tst >= target ? 'reached' : 'NOT reached'}; training + tst ${((performance.now() - t0) / 1000).toFixed(1)} s wall\n`);
  }
  return out;
}

/** GFLOP/s of `f`, which does `flops` floating-point operations per call (best of 5 timed rounds). */
function gflops(flops: number, f: () => void): number {
  let reps = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) f();
    if (performance.now() - t > 50) break;
    reps *= 2;
  }
  let best = Infinity;
  for (let k = 0; k < 5; k++) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) f();
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return (flops * reps) / best / 1e9;
}

function roofline(): void {
  const d = 32;
  const rows = 132; // a batch's set: 32 responses + 100 negatives
  const C = Float32Array.from({ length: rows * d }, (_, i) => Math.sin(i));
  const u = Float32Array.from({ length: d }, (_, i) => Math.cos(i));
  const out = new Float32Array(rows);
  const gx = new Float32Array(d);
  const gC = new Float32Array(rows * d);
  const fwd = gflops(2 * rows * d, () => matVec(C, rows, d, u, out));
  const bwd = gflops(4 * rows * d, () => matVecBackward(C, rows, d, u, out, gx, gC));
  const n = 1 << 20;
  const a = Float32Array.from({ length: n }, (_, i) => Math.sin(i));
  const b = Float32Array.from({ length: n }, (_, i) => Math.cos(i));
  let sink = 0;
  const js = gflops(2 * n, () => {
    let s = 0;
    for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
    sink += s;
  });
  process.stdout.write(
    `roofline: candidate scoring matVec ${rows}×${d} ${fwd.toFixed(2)} GFLOP/s, its backward ${bwd.toFixed(2)} GFLOP/s; plain-JS dot product (2^20 floats) ${js.toFixed(2)} GFLOP/s (kernel / plain JS: ×${(fwd / js).toFixed(2)} forward, ×${(bwd / js).toFixed(2)} backward); checksum ${sink.toExponential(2)}; load average ${load()}\n`,
  );
}

process.stdout.write(`memn2n${match ? '+match' : ''} on ${task}: ${nExamples} training examples, ${candidates.length} candidates (dim 32, hops 3, batch 32, SGD)\n`);
const old = baselineEpochs > 0 ? run(`old path: softmax over all candidates, ${baselineEpochs} epoch(s)`, { epochs: baselineEpochs, patience: 0, negatives: 0 }, false) : undefined;
const cur = run(`new path: ${negatives} sampled negatives per batch + context negatives, sparse SGD, up to ${epochs} epochs (patience ${patience})`, { epochs, patience, negatives }, true);
if (old) {
  process.stdout.write(
    `speed-up new/old (same run): ×${(cur.examplesPerSecond / old.examplesPerSecond).toFixed(2)} training examples/s (${Math.round(old.examplesPerSecond)} → ${Math.round(cur.examplesPerSecond)}), ×${(old.trainPerEpoch / cur.trainPerEpoch).toFixed(2)} per training epoch (${old.trainPerEpoch.toFixed(2)} → ${cur.trainPerEpoch.toFixed(2)} s), ×${(old.cpu / old.epochs / (cur.cpu / cur.epochs)).toFixed(2)} CPU per epoch incl. dev eval (${(old.cpu / old.epochs).toFixed(1)} → ${(cur.cpu / cur.epochs).toFixed(1)} s, all threads)\n`,
  );
}
process.stdout.write(
  cur.reached
    ? `dev ≥ ${(100 * target).toFixed(1)}% after epoch ${cur.reached.epoch}: known at ${cur.reached.seconds.toFixed(1)} s wall\n`
    : `dev did not reach ${(100 * target).toFixed(1)}% in ${cur.epochs} epochs (best ${(100 * cur.bestDev).toFixed(2)}% @${cur.bestEpoch}); ${cur.wall.toFixed(1)} s\n`,
);
roofline();
