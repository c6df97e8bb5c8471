/**
 * Supervised-embeddings benchmark on an original bAbI task (default task 5, the full profile's
 * settings: dim 64, negatives shared per mini-batch), per model of the benchmark (embeddings,
 * + match type, + bigrams):
 * - training: examples/s and CPU seconds per epoch;
 * - ranking: dev turns scored per CPU second (each against all 4,212 candidates: what the dev
 *   evaluation after every epoch and the test evaluation cost);
 * - the candidate-scoring kernel (4,212 × dim): GFLOP/s of the JS `matVec`, of the float64-lane
 *   WebAssembly product (bit-identical to `matVec`) and of the float32-lane one the ranker uses.
 *
 *   node dist/bench/embeddings.bench.js
 *
 * With EMB_BENCH_BASE=<folder of a previous build> (a checkout with its `dist/` compiled, e.g.
 * `git worktree add /tmp/base 1fe5c21 && cd /tmp/base && ln -s $PWD/../…/node_modules . && npx tsc -p .`),
 * the same figures are measured on that build's trainer and ranker in the same run, with the ratio.
 * Environment (optional): EMB_BENCH_TASK=task5-full-dialogs, EMB_BENCH_EPOCHS=1, EMB_BENCH_DIM=64,
 * EMB_BENCH_DEV=300 (dev dialogs ranked), DIALOGYM_DATA=<dir holding dialog-bAbI-tasks/>.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { matVec } from '../src/nn/kernels.js';
import { WasmMatVec } from '../src/nn/wasm.js';
import { babiDir, repoRoot } from '../test/shared-data.js';
import type { Dialog } from '../src/core/dialog.js';
import type { Ranker } from '../src/rankers/ranker.js';

const task = process.env.EMB_BENCH_TASK ?? 'task5-full-dialogs';
const epochs = Number(process.env.EMB_BENCH_EPOCHS ?? 1);
const dim = Number(process.env.EMB_BENCH_DIM ?? 64);
const devDialogs = Number(process.env.EMB_BENCH_DEV ?? 300);
const base = process.env.EMB_BENCH_BASE;
if (!existsSync(babiDir)) {
  process.stdout.write(`embeddings bench: skipped, ${babiDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}
const file = (s: string): string => join(babiDir, `dialog-babi-${task}-${s}.txt`);
const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
const train = readBabiDialogs(file('trn')).dialogs;
const dev = readBabiDialogs(file('dev')).dialogs.slice(0, devDialogs);
const facts = readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The trainer, KB types and evaluation of one build (this one, or the one in EMB_BENCH_BASE). */
interface Build {
  readonly label: string;
  trainEmbeddings(data: unknown, opts: object, hooks: object): { model: Ranker; missing: number };
  kb: unknown;
  devAccuracy(r: Ranker, dialogs: readonly Dialog[], candidates: readonly string[]): number;
}

async function build(root: string, label: string): Promise<Build> {
  const load = (p: string): Promise<Record<string, unknown>> => import(pathToFileURL(join(root, 'dist', 'src', p)).href) as Promise<Record<string, unknown>>;
  const train = (await load('rankers/embeddings-train.js')).trainEmbeddings as Build['trainEmbeddings'];
  const KbTypes = (await load('rankers/match-type.js')).KbTypes as { fromFacts(f: unknown): unknown };
  const devAccuracy = (await load('rankers/train-data.js')).devAccuracy as Build['devAccuracy'];
  return { label, trainEmbeddings: train, kb: KbTypes.fromFacts(facts), devAccuracy };
}

interface Figures {
  readonly trainSeconds: number;
  readonly examplesPerSecond: number;
  readonly turnsPerSecond: number;
  readonly dev: number;
}

function measure(b: Build, variant: object): Figures {
  const c0 = cpu();
  const r = b.trainEmbeddings({ train, dev: dev.slice(0, 1), candidates, kb: b.kb }, { dim, epochs, patience: 0, sharedNegatives: true, ...variant }, {});
  const trainCpu = cpu() - c0;
  const examples = train.reduce((n, d) => n + d.turns.filter((t) => t.speaker === 'bot').length, 0) - r.missing;
  const turns = dev.reduce((n, d) => n + d.turns.filter((t) => t.speaker === 'bot').length, 0);
  const c1 = cpu();
  const acc = b.devAccuracy(r.model, dev, candidates);
  const evalCpu = cpu() - c1;
  return { trainSeconds: trainCpu / epochs, examplesPerSecond: (examples * epochs) / trainCpu, turnsPerSecond: turns / evalCpu, dev: acc };
}

const here = await build(repoRoot, 'this build');
const old = base ? await build(resolve(base), `base ${base}`) : undefined;
process.stdout.write(`embeddings on ${task}: dim ${dim}, ${epochs} epoch(s) with shared negatives (CPU, including setup), then ${dev.length} dev dialogs ranked (load average ${load()})\n`);
for (const [label, variant] of [['embeddings', {}], ['embeddings+match', { matchType: true }], ['embeddings+bigrams', { bigrams: true }]] as const) {
  const cur = measure(here, variant);
  let line = `${label.padEnd(19)} train ${cur.trainSeconds.toFixed(2)} s/epoch (${Math.round(cur.examplesPerSecond)} examples/s), rank ${Math.round(cur.turnsPerSecond)} turns/s (dev ${(100 * cur.dev).toFixed(1)})`;
  if (old) {
    const o = measure(old, variant);
    line += `; base: train ${o.trainSeconds.toFixed(2)} s/epoch (${Math.round(o.examplesPerSecond)} examples/s), rank ${Math.round(o.turnsPerSecond)} turns/s (dev ${(100 * o.dev).toFixed(1)}): training ×${(cur.examplesPerSecond / o.examplesPerSecond).toFixed(2)}, ranking ×${(cur.turnsPerSecond / o.turnsPerSecond).toFixed(2)}`;
  }
  process.stdout.write(`${line}; load ${load()}\n`);
}

// The scoring kernel: 4,212 candidates × dim, one input vector, CPU time of many calls.
const rows = candidates.length;
const x = Float32Array.from({ length: dim }, (_, i) => Math.cos(i));
const out = new Float32Array(rows);
const gflops = (f: () => void): number => {
  for (let i = 0; i < 200; i++) f();
  const n = 3000;
  const c0 = cpu();
  for (let i = 0; i < n; i++) f();
  return (2 * rows * dim * n) / (cpu() - c0) / 1e9;
};
const m = Float32Array.from({ length: rows * dim }, (_, i) => Math.sin(i) * 0.3);
const js = gflops(() => matVec(m, rows, dim, x, out));
const kernels = [false, true].map((f32) => {
  const w = WasmMatVec.create(rows, dim, f32);
  if (!w) return undefined;
  w.data.set(m);
  return gflops(() => w.matVec(x, out));
});
const show = (g: number | undefined): string => (g === undefined ? 'n/a (no WebAssembly SIMD or dim not 32/64)' : `${g.toFixed(1)} GFLOP/s (×${(g / js).toFixed(2)} the JS kernel)`);
process.stdout.write(`scoring ${rows}×${dim}: JS matVec ${js.toFixed(1)} GFLOP/s; WebAssembly float64 lanes ${show(kernels[0])}; float32 lanes ${show(kernels[1])}; load ${load()}\n`);
