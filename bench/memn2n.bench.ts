/**
 * MemN2N training benchmark on an original bAbI task (default task 5 with match types), in one run:
 *   - the old path: softmax over all 4,212 candidates with SGD (`negatives: 0`: the trainer before
 *     sampling; 32-column kernels, dev on a worker thread), one epoch, for its examples/s;
 *   - the new path: the trainer's default recipe, which the full profile uses
 *     (`MEMN2N_TRAIN_DEFAULTS` + `FULL_PROFILE.memn2n`: 100 sampled negatives per batch + context
 *     negatives + 10 hard negatives, candidate embeddings once per batch, one float32-lane
 *     WebAssembly pass over all candidates per example for the scores and the hard negatives,
 *     sparse Adam; `src/rankers/memn2n-sampled.ts`), trained until dev stops improving (early
 *     stopping), then its selected model scored once on tst: per-response accuracy against the
 *     paper's cell (96.1% plain, 93.4% with match types).
 * Times are the main thread's CPU seconds (read from /proc; the dev evaluation runs on a worker
 * thread beside it): on a quiet 2-core machine they are the wall time, on a loaded one the wall
 * time is inflated and the CPU time is the figure to compare. Wall time and load average are
 * printed beside them. examples/s compare the training loops (CPU between an epoch's first and
 * last batch).
 * Last, a roofline line: GFLOP/s of the candidate kernels of the new path (the float32-lane
 * WebAssembly product over all candidates with its top-10 search, the JS backward over a batch's
 * gathered rows at d = 32) and of the float64-lane WebAssembly product that ranks dev and tst,
 * against a plain-JS dot product.
 *
 *   node dist/bench/memn2n.bench.js
 *
 * Environment variables (all optional):
 *   MEMN2N_BENCH_TASK=task5-full-dialogs   bAbI task file stem (e.g. task1-API-calls)
 *   MEMN2N_BENCH_MATCH=1                   match-type features (default 1; 0 = plain memn2n)
 *   MEMN2N_BENCH_EPOCHS=30                 most epochs of the new path (early stopping on dev)
 *   MEMN2N_BENCH_PATIENCE=<profile's>      early-stopping patience of the new path
 *   MEMN2N_BENCH_TARGET=0.934              paper accuracy for the tst check and "dev first reached"
 *   MEMN2N_BENCH_BASELINE_EPOCHS=1         epochs of the old path (0 = skip it)
 *   DIALOGYM_DATA=<dir>                    folder holding dialog-bAbI-tasks/ (default ../shared/data)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { KbTypes } from '../src/rankers/match-type.js';
import { MEMN2N_TRAIN_DEFAULTS, trainMemN2N, type MemN2NTrainOptions } from '../src/rankers/memn2n-train.js';
import { responseExamples } from '../src/rankers/examples.js';
import { evaluateDialogs } from '../src/rankers/evaluate-responses.js';
import { accuracy } from '../src/metrics/ranking.js';
import { matVecRowsBackward } from '../src/nn/kernels.js';
import { Wasm32Matrix } from '../src/nn/wasm.js';
import { FULL_PROFILE } from '../src/testbeds/restaurant/benchmark/benchmark.js';
import { babiDir } from '../test/shared-data.js';

const task = process.env.MEMN2N_BENCH_TASK ?? 'task5-full-dialogs';
const match = (process.env.MEMN2N_BENCH_MATCH ?? '1') === '1';
const epochs = Number(process.env.MEMN2N_BENCH_EPOCHS ?? 30);
const recipe: Partial<MemN2NTrainOptions> = { ...FULL_PROFILE.memn2n, ...(process.env.MEMN2N_BENCH_PATIENCE ? { patience: Number(process.env.MEMN2N_BENCH_PATIENCE) } : {}) };
const shown = (({ optimizer, lr, patience, negatives, contextDf, hardNegatives }) => ({ optimizer, lr, patience, negatives, contextDf, hardNegatives }))({ ...MEMN2N_TRAIN_DEFAULTS, ...recipe });
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
/** CPU seconds of the main thread (utime + stime of /proc/self/task/<pid>/stat); the process's when /proc is missing. */
const ticks = 100;
const mainCpu = (): number => {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / ticks;
  } catch {
    return cpuSeconds();
  }
};

interface Run {
  /** Training examples per main-thread CPU second, between the first and last batch of each epoch. */
  examplesPerSecond: number;
  /** Main-thread CPU per training epoch. */
  trainPerEpoch: number;
  /** Main-thread CPU (setup, training, waiting for dev excluded) and process CPU (+ dev worker), wall. */
  mainCpu: number;
  cpu: number;
  wall: number;
  reached?: { epoch: number; cpu: number };
  bestDev: number;
  bestEpoch: number;
  epochs: number;
  tst?: number;
  /** Main-thread CPU of training + the tst evaluation. */
  total?: number;
}

function run(label: string, opts: Partial<MemN2NTrainOptions>, test: boolean): Run {
  process.stdout.write(`${label} (load average ${load()})\n`);
  let reached: Run['reached'];
  const m0 = mainCpu();
  const c0 = cpuSeconds();
  const t0 = performance.now();
  let first = 0;
  let loopCpu = 0;
  let loopExamples = 0;
  const trainedAt: number[] = [];
  let batchSize = 0;
  const r = trainMemN2N({ train, dev, candidates, kb }, { matchType: match, ...opts }, {
    onBatch(done, total) {
      if (done === 1) first = mainCpu();
      if (done === total) {
        const now = mainCpu();
        loopCpu += now - first;
        batchSize ||= Math.ceil(nExamples / total);
        loopExamples += nExamples - batchSize;
        trainedAt.push(now - m0);
      }
    },
    onEpoch(e) {
      const at = trainedAt[e.epoch - 1] ?? mainCpu() - m0;
      if (!reached && e.dev >= target) reached = { epoch: e.epoch, cpu: at };
      process.stdout.write(`  epoch ${e.epoch}: loss ${e.loss.toFixed(4)}  dev ${(100 * e.dev).toFixed(2)}%  trained by ${at.toFixed(1)} s main-thread CPU (wall ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
    },
  });
  const main = mainCpu() - m0;
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds() - c0;
  const n = r.fit.history.length;
  const out: Run = { examplesPerSecond: loopExamples / loopCpu, trainPerEpoch: loopCpu / trainedAt.length, mainCpu: main, cpu, wall, bestDev: r.fit.bestDev, bestEpoch: r.fit.bestEpoch, epochs: n, ...(reached ? { reached } : {}) };
  process.stdout.write(
    `  → ${Math.round(out.examplesPerSecond)} examples/s (main-thread CPU), ${out.trainPerEpoch.toFixed(2)} s CPU per training epoch; ${n} epochs (${trainedAt.length} trained), best dev ${(100 * r.fit.bestDev).toFixed(2)}% @${r.fit.bestEpoch}: ${main.toFixed(1)} s main-thread CPU, ${cpu.toFixed(1)} s process CPU (with the dev worker), ${wall.toFixed(1)} s wall; load average ${load()}\n`,
  );
  if (test) {
    out.tst = accuracy.perResponse(evaluateDialogs(r.model, tst, { candidates }));
    out.total = mainCpu() - m0;
    process.stdout.write(
      `  tst per-response ${(100 * out.tst).toFixed(2)}% (paper ${(100 * target).toFixed(1)}%): ${out.tst >= target ? 'reached' : 'NOT reached'}; training (stopped on dev) + tst: ${out.total.toFixed(1)} s main-thread CPU, ${((performance.now() - t0) / 1000).toFixed(1)} s wall; load average ${load()}\n`,
    );
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
  const all = candidates.length;
  const rows = 132; // a batch's shared rows: 32 responses + 100 negatives, gathered from the all-candidates matrix
  const M = Float32Array.from({ length: all * d }, (_, i) => Math.sin(i));
  const u = Float32Array.from({ length: d }, (_, i) => Math.cos(i));
  const picked = Int32Array.from({ length: rows }, (_, i) => (i * 31) % all);
  const gy = Float32Array.from({ length: rows }, (_, i) => 0.01 * Math.sin(i));
  const gx = new Float32Array(d);
  const gM = new Float32Array(all * d);
  const bwd = gflops(4 * rows * d, () => matVecRowsBackward(M, d, picked, rows, u, gy, gx, gM));
  const kernel = Wasm32Matrix.create(all);
  let top = NaN;
  let f64 = NaN;
  if (kernel) {
    kernel.data.set(M);
    const scores = new Float32Array(all);
    top = gflops(2 * all * d, () => kernel.matVecFastTop(u, 10, 0));
    f64 = gflops(2 * all * d, () => kernel.matVec(u, scores));
  }
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
    `roofline: scores + top-10 of all ${all} candidates (WebAssembly SIMD, float32 lanes) ${top.toFixed(2)} GFLOP/s, backward over ${rows} gathered rows×${d} (JS) ${bwd.toFixed(2)} GFLOP/s, dev/tst ranking product (WebAssembly SIMD, float64 lanes) ${f64.toFixed(2)} GFLOP/s; plain-JS dot product (2^20 floats) ${js.toFixed(2)} GFLOP/s (kernel / plain JS: ×${(top / js).toFixed(2)}, ×${(bwd / js).toFixed(2)}, ×${(f64 / js).toFixed(2)}); checksum ${sink.toExponential(2)}; load average ${load()}\n`,
  );
}

process.stdout.write(`memn2n${match ? '+match' : ''} on ${task}: ${nExamples} training examples, ${candidates.length} candidates; new recipe ${JSON.stringify(shown)}\n`);
const old = baselineEpochs > 0 ? run(`old path: SGD, softmax over all candidates, ${baselineEpochs} epoch(s)`, { epochs: baselineEpochs, patience: 0, negatives: 0, optimizer: 'sgd', lr: 0.01, hardNegatives: 0 }, false) : undefined;
const cur = run(`new path: the full profile's recipe, up to ${epochs} epochs, stops when dev stops improving`, { ...recipe, epochs }, true);
if (old) {
  process.stdout.write(
    `speed-up new/old (same run): ×${(cur.examplesPerSecond / old.examplesPerSecond).toFixed(2)} training examples/s (${Math.round(old.examplesPerSecond)} → ${Math.round(cur.examplesPerSecond)}, main-thread CPU), ×${(old.trainPerEpoch / cur.trainPerEpoch).toFixed(2)} CPU per training epoch (${old.trainPerEpoch.toFixed(2)} → ${cur.trainPerEpoch.toFixed(2)} s)\n`,
  );
}
process.stdout.write(
  cur.reached
    ? `dev ≥ ${(100 * target).toFixed(1)}% after epoch ${cur.reached.epoch}: trained by ${cur.reached.cpu.toFixed(1)} s main-thread CPU\n`
    : `dev did not reach ${(100 * target).toFixed(1)}% in ${cur.epochs} epochs (best ${(100 * cur.bestDev).toFixed(2)}% @${cur.bestEpoch})\n`,
);
roofline();
