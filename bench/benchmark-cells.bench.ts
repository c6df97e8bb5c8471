/**
 * Per-cell profile of the full benchmark: trains and evaluates the chosen cells (model × task) one
 * after the other in this thread and prints, per cell, the CPU seconds of training and of the
 * evaluation, the epochs run, the best dev score and the test scores with the paper's value, then
 * the packing estimate of the whole set on 2 workers: sum of CPU / 2, the greedy makespan with the
 * measured cells longest first, and with the cells in the order the benchmark starts them (its
 * CELL_SECONDS estimates), with the idle time of each (2 × makespan − sum). The CPU time, not the wall time, is what to compare on a loaded machine.
 *
 *   node dist/bench/benchmark-cells.bench.js [models] [tasks]     (defaults: all 1-6)
 *
 * Environment: DIALOGYM_DATA=<dir holding dialog-bAbI-tasks/>; CELLS_GENERATE=1 trains on
 * generated data (the `npm start` profile) instead of the original files; CELLS_PROFILE=paper
 * (or quick) profiles another built-in profile than full; CELLS_SEED=n trains with seed n.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { cellCost, cellData, parseModels, parseTasks, profileNamed, runCell, type BenchmarkCell, type CellContext } from '../src/testbeds/restaurant/benchmark/benchmark.js';
import { paperCellOf } from '../src/testbeds/restaurant/benchmark/paper.js';
import { babiDir } from '../test/shared-data.js';

const models = parseModels(process.argv[2] ?? 'all');
const tasks = parseTasks(process.argv[3] ?? 'all');
const generate = process.env.CELLS_GENERATE === '1';
if (!generate && !existsSync(babiDir)) {
  process.stdout.write(`benchmark-cells bench: skipped, ${babiDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}
const profile = profileNamed(process.env.CELLS_PROFILE ?? 'full');
const seed = Number(process.env.CELLS_SEED ?? 1);
const ctx: CellContext = { profile, source: generate ? { kind: 'generate', seed: 1, dialogs: profile.dialogs } : { kind: 'files', dir: babiDir }, trainFrom: 'files', seed: 1 };
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

process.stdout.write(`cells of the ${profile.name} profile (seed ${seed}) on ${generate ? 'generated data' : babiDir} (load average ${load()})\n`);
const costs: { label: string; cpu: number; cell: BenchmarkCell; index: number }[] = [];
for (const task of tasks) {
  if (generate && task === 6) continue;
  const data = cellData(ctx, task);
  for (const model of models) {
    const cell: BenchmarkCell = { model, task, run: 0, seed, index: 0, total: 1 };
    let epochs = 0;
    let bestDev = NaN;
    const c0 = cpuNow();
    const r = runCell(ctx, data, cell, (e) => {
      epochs = e.epoch;
      bestDev = e.bestDev;
    });
    const cpu = cpuNow() - c0;
    const tests = r.rows.map((row) => `${row.test} ${(100 * row.perResponse).toFixed(1)} (paper ${paperCellOf(row.test, model)?.perResponse ?? '–'})`).join(', ');
    process.stdout.write(
      `T${task} ${model.padEnd(18)} cpu ${cpu.toFixed(1).padStart(6)} s (wall: train ${r.trainSeconds.toFixed(1)}, eval ${r.evalSeconds.toFixed(1)}), ${epochs} epochs, dev ${(100 * bestDev).toFixed(1)}: ${tests}; load ${load()}\n`,
    );
    costs.push({ label: `T${task} ${model}`, cpu, cell, index: (task - 1) * models.length + models.indexOf(model) });
  }
}
const sum = costs.reduce((s, c) => s + c.cpu, 0);
/** Two workers, each taking the next cell of `queue` when free: the longer worker's time. */
const makespan = (queue: readonly { cpu: number }[]): number => {
  const workers = [0, 0];
  for (const c of queue) {
    const w = workers[0]! <= workers[1]! ? 0 : 1;
    workers[w]! += c.cpu;
  }
  return Math.max(...workers);
};
const ideal = makespan([...costs].sort((a, b) => b.cpu - a.cpu));
// What runBenchmark does: cells in decreasing order of their CELL_SECONDS estimate (ties: grid order).
const scheduled = makespan([...costs].sort((a, b) => cellCost(b.cell, profile.name) - cellCost(a.cell, profile.name) || a.index - b.index));
process.stdout.write(
  `total cpu ${sum.toFixed(1)} s; on 2 workers: sum/2 ${(sum / 2).toFixed(1)} s, longest-first makespan ${ideal.toFixed(1)} s (idle ${(2 * ideal - sum).toFixed(1)} s), ` +
    `in the scheduler's order (CELL_SECONDS) ${scheduled.toFixed(1)} s (idle ${(2 * scheduled - sum).toFixed(1)} s); load ${load()}\n`,
);
