/**
 * HCN training before/after the batched kernels (issue 39): the same `trainHcn` run on bAbI task 6
 * (DSTC2, first 500 training dialogs; HCN_KERNELS_TASK=task5: task 5's 1,000, which stop after one
 * epoch at 100% on dev)
 * with each dialog's loss computed one step at a time (`HcnNet.lossAndGradSteps`, `Gru.step`: the
 * path before the kernels) and the batch's dialogs through matrix products together
 * (`HcnNet.lossAndGradBatch`: the packed GRU and `matMul`), and that with Adam's update on the
 * WebAssembly kernel (nn/adam-wasm.ts, bit-identical; `steps` and `batched` take the JS loop,
 * `setAdamJs`), in paired, interleaved rounds; CPU seconds of each run (median over the rounds), the
 * ratio, and each path's last epoch loss and tst per-response accuracy (same seed: equal up to
 * float summation order).
 *
 *   node dist/bench/hcn-kernels.bench.js   # HCN_KERNELS_ROUNDS=5, HCN_KERNELS_EPOCHS=2, HCN_KERNELS_TASK=task6; run it in the foreground
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { trainHcn } from '../src/testbeds/restaurant/hcn/train.js';
import { HcnNet, type HcnDialog } from '../src/testbeds/restaurant/hcn/net.js';
import { setAdamJs } from '../src/nn/params.js';
import { evaluateDialogs } from '../src/rankers/evaluate-responses.js';
import { accuracy } from '../src/metrics/ranking.js';
import { babiDir } from '../test/shared-data.js';

const rounds = Number(process.env.HCN_KERNELS_ROUNDS ?? 5);
const epochs = Number(process.env.HCN_KERNELS_EPOCHS ?? 2);
if (!existsSync(babiDir)) {
  process.stdout.write(`hcn-kernels bench: skipped, ${babiDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}
// task 6 (DSTC2): the task HCN does not solve, accuracy moves with any change; task 5: hcn.bench's
const task6 = (process.env.HCN_KERNELS_TASK ?? 'task6') === 'task6';
const file = (s: string): string => join(babiDir, `dialog-babi-${task6 ? 'task6-dstc2' : 'task5-full-dialogs'}-${s}.txt`);
const facts = readBabiKb(task6 ? file('kb') : join(babiDir, 'dialog-babi-kb-all.txt')).facts;
const candidates = readBabiCandidates(task6 ? file('candidates') : join(babiDir, 'dialog-babi-candidates.txt')).candidates;
const train = readBabiDialogs(file('trn')).dialogs.slice(0, task6 ? 500 : undefined);
const dev = readBabiDialogs(file('dev')).dialogs.slice(0, 20);
const tst = readBabiDialogs(file('tst')).dialogs.slice(0, 200);

const batched = HcnNet.prototype.lossAndGradBatch;
const paths = {
  steps(this: HcnNet, dialogs: readonly HcnDialog[]): number[] {
    return dialogs.map((d) => (d.xs.length > 0 ? this.lossAndGradSteps(d.xs, d.targets, d.masks) : 0));
  },
  batched,
  wasmAdam: batched,
} as const;
type Path = keyof typeof paths;

function run(path: Path): { cpu: number; loss: number; acc: number } {
  HcnNet.prototype.lossAndGradBatch = paths[path];
  const was = setAdamJs(path !== 'wasmAdam');
  try {
    const c0 = process.cpuUsage();
    const r = trainHcn({ train, dev, facts }, { epochs, patience: 0 });
    const c = process.cpuUsage(c0);
    const acc = accuracy.perResponse(evaluateDialogs(r.model, tst, { candidates }));
    return { cpu: (c.user + c.system) / 1e6, loss: r.fit.history.at(-1)?.loss ?? NaN, acc };
  } finally {
    HcnNet.prototype.lossAndGradBatch = batched;
    setAdamJs(was);
  }
}

process.stdout.write(`hcn training on ${task6 ? 'task 6' : 'task 5'} (${train.length} dialogs, ${epochs} epochs, dev ${dev.length}, GRU 64, batch 4), ${rounds} interleaved rounds, CPU s of trainHcn\n`);
const cpu: Record<Path, number[]> = { steps: [], batched: [], wasmAdam: [] };
const last: Partial<Record<Path, { loss: number; acc: number }>> = {};
for (let i = 0; i < rounds; i++) {
  for (const p of (i % 2 === 0 ? ['steps', 'batched', 'wasmAdam'] : ['wasmAdam', 'batched', 'steps']) as Path[]) {
    const r = run(p);
    cpu[p].push(r.cpu);
    last[p] = r;
    process.stdout.write(`  round ${i + 1} ${p.padEnd(8)} ${r.cpu.toFixed(2)} s CPU  loss ${r.loss.toPrecision(7)}  tst[0:200] per-response ${(100 * r.acc).toFixed(2)}%\n`);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const [a, b] = [median(cpu.steps), median(cpu.batched)];
const dl = Math.abs((last.steps?.loss ?? NaN) - (last.batched?.loss ?? NaN));
const w = median(cpu.wasmAdam);
process.stdout.write(`median CPU: steps ${a.toFixed(2)} s, batched ${b.toFixed(2)} s → ${(a / b).toFixed(2)}× faster (batched ÷ steps = ${(b / a).toFixed(2)})\n`);
process.stdout.write(`median CPU: batched + WebAssembly Adam ${w.toFixed(2)} s → ${(a / w).toFixed(2)}× steps, ${(b / w).toFixed(2)}× batched; loss and accuracy equal to batched: ${last.wasmAdam?.loss === last.batched?.loss && last.wasmAdam?.acc === last.batched?.acc}\n`);
process.stdout.write(`last epoch loss |Δ| ${dl.toExponential(2)} (relative ${(dl / (last.steps?.loss ?? 1)).toExponential(2)}); accuracy equal: ${last.steps?.acc === last.batched?.acc}\n`);
process.stdout.write(`(machine load average at the end: ${loadavg()[0]?.toFixed(2)})\n`);
