/**
 * Budgets of the learned AirDialogue agents on this machine, in CPU seconds (process.cpuUsage,
 * so a loaded shared machine inflates wall time but not these figures; the load average is
 * printed beside them):
 *
 * - supervised training: CPU time of one update pass (customer + agent + state model, forward
 *   and backward) per training dialogue and per dev dialogue (loss only), measured on a small
 *   setting (AIR_BENCH_TRAIN dialogues, default 200) and extrapolated to a run of
 *   AIR_BENCH_SPLIT training dialogues (default 2000) × AIR_BENCH_EPOCHS epochs (default 8) with
 *   a 200-dialogue dev split — the budget is 20 minutes;
 * - self-play: CPU time of AIR_BENCH_SELFPLAY (default 1000) learned-agent vs learned-customer
 *   episodes — the budget is 60 s. With AIR_BENCH_MODEL=<file.dgm> the trained model plays (a
 *   trained agent ends its dialogues; an untrained one runs to its turn limit, the slow case).
 *
 * Run: `npx tsc -p . && node dist/bench/airdialogue-learned.bench.js`
 */
import { loadavg } from 'node:os';
import { synthesizeSplits, toLearned } from '../src/testbeds/airdialogue/learned/data.js';
import { prepare } from '../src/testbeds/airdialogue/learned/model.js';
import { learnedAgent, learnedCustomer, learnedSelfPlay } from '../src/testbeds/airdialogue/learned/policy.js';
import { loadAirModels, trainAirModels } from '../src/testbeds/airdialogue/learned/train.js';

const N_TRAIN = Number(process.env.AIR_BENCH_TRAIN ?? 200);
const SPLIT = Number(process.env.AIR_BENCH_SPLIT ?? 2000);
const EPOCHS = Number(process.env.AIR_BENCH_EPOCHS ?? 8);
const N_PLAY = Number(process.env.AIR_BENCH_SELFPLAY ?? 1000);

function cpu<T>(fn: () => T): { value: T; seconds: number } {
  const c0 = process.cpuUsage();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, seconds: (c.user + c.system) / 1e6 };
}

const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const s = synthesizeSplits({ train: N_TRAIN, dev: 50, test: 0, seed: 1 });
const tr = cpu(() => trainAirModels(s.train, s.dev, { epochs: 1, seed: 1 }));
const models = tr.value.models;
const dev = s.dev.map((e) => prepare(toLearned(e), models.vocab));
const ev = cpu(() => dev.forEach((p) => (models.customer.loss(p), models.agent.loss(p))));
const perDev = ev.seconds / dev.length;
const perTrain = (tr.seconds - ev.seconds) / N_TRAIN;
const projected = EPOCHS * (SPLIT * perTrain + 200 * perDev);
process.stdout.write(`load average ${load()}\n`);
process.stdout.write(`training: ${(1000 * perTrain).toFixed(1)} ms CPU per training dialogue, ${(1000 * perDev).toFixed(1)} ms per dev dialogue (dim 24, hidden 48, vocabulary ${models.vocab.size}, ${N_TRAIN} dialogues measured)\n`);
process.stdout.write(`projected: ${SPLIT} train + 200 dev dialogues × ${EPOCHS} epochs = ${projected.toFixed(0)} s CPU = ${(projected / 60).toFixed(1)} min (budget 20 min)\n`);

const play = process.env.AIR_BENCH_MODEL ? loadAirModels(process.env.AIR_BENCH_MODEL) : models;
const sp = cpu(() => learnedSelfPlay({ agent: learnedAgent(play), customer: learnedCustomer(play), n: N_PLAY, seed: 1 }));
process.stdout.write(`self-play: ${N_PLAY} learned-vs-learned dialogues in ${sp.seconds.toFixed(1)} s CPU (budget 60 s), scaled total ${sp.value.total.toFixed(3)}, exact ${sp.value.exact.total.toFixed(3)} (${process.env.AIR_BENCH_MODEL ?? 'the 1-epoch model above'})\n`);
process.stdout.write(`load average ${load()}\n`);
