/**
 * MemN2N training benchmark on the original bAbI task 5: training throughput (examples/s),
 * seconds per epoch (training pass and dev evaluation separately), and the time until dev
 * per-response accuracy first reaches a target (default: the paper's Table 2 cell for the chosen
 * variant, 96.1% plain / 93.4% with match types — on dev, as a proxy for the test cell).
 *
 *   node dist/bench/memn2n.bench.js            # MEMN2N_BENCH_EPOCHS (default 3), MEMN2N_BENCH_MATCH=1,
 *                                              # MEMN2N_BENCH_TARGET=0.9, MEMN2N_BENCH_TASK=task5-full-dialogs
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { KbTypes } from '../src/models/match-type.js';
import { trainMemN2N } from '../src/train/memn2n.js';
import { responseExamples } from '../src/models/examples.js';
import { babiDir } from '../test/shared-data.js';

const task = process.env.MEMN2N_BENCH_TASK ?? 'task5-full-dialogs';
const match = process.env.MEMN2N_BENCH_MATCH === '1';
const epochs = Number(process.env.MEMN2N_BENCH_EPOCHS ?? 3);
const target = Number(process.env.MEMN2N_BENCH_TARGET ?? (match ? 0.934 : 0.961));

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

process.stdout.write(`memn2n${match ? '+match' : ''} on ${task}: ${nExamples} training examples, ${candidates.length} candidates, ${epochs} epochs (defaults: dim 32, hops 3, batch 32, SGD)\n`);
let trainTotal = 0;
let reached: { epoch: number; seconds: number } | undefined;
let elapsed = 0;
const t0 = performance.now();
const r = trainMemN2N({ train, dev, candidates, kb }, { matchType: match, epochs, patience: 0 }, {
  onEpoch(e) {
    trainTotal += e.trainSeconds;
    elapsed += e.seconds;
    if (!reached && e.dev >= target) reached = { epoch: e.epoch, seconds: elapsed };
    process.stdout.write(
      `  epoch ${e.epoch}: loss ${e.loss.toFixed(4)}  dev ${(100 * e.dev).toFixed(2)}%  train ${e.trainSeconds.toFixed(1)} s (${Math.round(nExamples / e.trainSeconds)} examples/s)  dev eval ${(e.seconds - e.trainSeconds).toFixed(1)} s\n`,
    );
  },
});
const wall = (performance.now() - t0) / 1000;
const perEpoch = trainTotal / r.fit.epochsRun;
process.stdout.write(`throughput: ${Math.round((nExamples * r.fit.epochsRun) / trainTotal)} examples/s, ${perEpoch.toFixed(1)} s per training epoch, ${(wall / r.fit.epochsRun).toFixed(1)} s per epoch with dev eval\n`);
process.stdout.write(
  reached
    ? `dev ≥ ${(100 * target).toFixed(1)}% after epoch ${reached.epoch}: ${reached.seconds.toFixed(1)} s\n`
    : `dev did not reach ${(100 * target).toFixed(1)}% in ${epochs} epochs (best ${(100 * r.fit.bestDev).toFixed(2)}% @${r.fit.bestEpoch}); ${wall.toFixed(1)} s\n`,
);
process.stdout.write(`(machine load average at the end: ${(await import('node:os')).loadavg()[0]?.toFixed(2)})\n`);
