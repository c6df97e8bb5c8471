/**
 * HCN benchmark on the original bAbI task 5 (1,000 training dialogs): training time (the issue's
 * budget is 2 minutes on 2 cores), seconds per epoch (training pass and dev evaluation
 * separately), steps/s, then per-response and per-dialog accuracy on tst and tst-OOV, ranking all
 * 4,212 candidates.
 *
 *   node dist/bench/hcn.bench.js        # HCN_BENCH_TASK=task5-full-dialogs, HCN_BENCH_EPOCHS=12
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { trainHcn } from '../src/testbeds/restaurant/hcn/train.js';
import { evaluateDialogs } from '../src/rankers/evaluate-responses.js';
import { accuracy } from '../src/metrics/ranking.js';
import { babiDir } from '../test/shared-data.js';

const task = process.env.HCN_BENCH_TASK ?? 'task5-full-dialogs';
const epochs = Number(process.env.HCN_BENCH_EPOCHS ?? 12);
const BUDGET_S = 120;

if (!existsSync(babiDir)) {
  process.stdout.write(`hcn bench: skipped, ${babiDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}
const file = (s: string): string => join(babiDir, `dialog-babi-${task}-${s}.txt`);
const facts = readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts;
const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
const train = readBabiDialogs(file('trn')).dialogs;
const dev = readBabiDialogs(file('dev')).dialogs;

process.stdout.write(`hcn on ${task}: ${train.length} training dialogs, up to ${epochs} epochs (defaults: GRU 64, Adam 0.01, 4 dialogs per update)\n`);
const t0 = performance.now();
const r = trainHcn({ train, dev, facts }, { epochs }, {
  onEpoch(e) {
    process.stdout.write(`  epoch ${e.epoch}: loss ${e.loss.toFixed(4)}  dev ${(100 * e.dev).toFixed(2)}%  train ${e.trainSeconds.toFixed(1)} s  dev eval ${(e.seconds - e.trainSeconds).toFixed(1)} s\n`);
  },
});
const wall = (performance.now() - t0) / 1000;
const trainPass = r.fit.history.reduce((a, e) => a + e.trainSeconds, 0);
process.stdout.write(
  `training: ${wall.toFixed(1)} s wall (${(wall / BUDGET_S).toFixed(2)}× the ${BUDGET_S} s budget), ${r.fit.epochsRun} epochs, ${Math.round((r.steps * r.fit.epochsRun) / trainPass)} steps/s, ${r.model.templates.size} templates, ${r.model.featurizer.size} features\n`,
);
for (const split of ['tst', 'tst-OOV']) {
  const d = readBabiDialogs(file(split)).dialogs;
  const te = performance.now();
  const s = evaluateDialogs(r.model, d, { candidates });
  const secs = (performance.now() - te) / 1000;
  process.stdout.write(
    `${split}: per-response ${(100 * accuracy.perResponse(s)).toFixed(2)}% per-dialog ${(100 * accuracy.perDialog(s)).toFixed(2)}% (${s.turns} turns ranked over ${candidates.length} candidates in ${secs.toFixed(1)} s, ${Math.round(s.turns / secs)} turns/s)\n`,
  );
}
process.stdout.write(`(machine load average at the end: ${loadavg()[0]?.toFixed(2)})\n`);
