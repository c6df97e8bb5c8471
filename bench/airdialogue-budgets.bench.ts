/**
 * The three budgets of the learned AirDialogue agents, measured at full size (not extrapolated):
 *
 * 1. supervised training on the synthesized train split of the README recipe (AIR_BENCH_SPLIT
 *    dialogues, default 2000, with 200 dev; AIR_BENCH_EPOCHS epochs, default 8; dim 24,
 *    hidden 48; seed 1) — budget 20 min;
 * 2. AIR_BENCH_SELFPLAY (default 1000) self-play dialogues of the trained agent against the
 *    trained customer — budget 60 s;
 * 3. an RL self-play run of AIR_BENCH_RL episodes (default 4000; REINFORCE, 3 supervised updates
 *    per RL update) from the trained models — budget 30 min.
 *
 * Each stage prints its CPU time (process.cpuUsage: what the budget costs on a quiet machine)
 * and its wall time with the load average before and after (a loaded shared machine inflates
 * wall time, not CPU time). With AIR_BENCH_OUT=<dir> the trained and the RL models are written
 * there (`syn.dgm`, `rl.dgm`), the same files as the README's `airdialogue train` / `rl` commands
 * on the splits of `airdialogue splits --seed 1`.
 *
 * Run: `npx tsc -p . && nice -n 5 node dist/bench/airdialogue-budgets.bench.js` (about 15 min of
 * CPU; AIR_BENCH_SPLIT=200 AIR_BENCH_EPOCHS=1 AIR_BENCH_RL=100 for a quick look).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { synthesizeSplits } from '../src/testbeds/airdialogue/learned/data.js';
import { learnedAgent, learnedCustomer, learnedSelfPlay } from '../src/testbeds/airdialogue/learned/policy.js';
import { rlTrain } from '../src/testbeds/airdialogue/learned/rl.js';
import { saveAirModels, trainAirModels } from '../src/testbeds/airdialogue/learned/train.js';

const SPLIT = Number(process.env.AIR_BENCH_SPLIT ?? 2000);
const EPOCHS = Number(process.env.AIR_BENCH_EPOCHS ?? 8);
const N_PLAY = Number(process.env.AIR_BENCH_SELFPLAY ?? 1000);
const N_RL = Number(process.env.AIR_BENCH_RL ?? 4000);
const OUT = process.env.AIR_BENCH_OUT;

const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** Runs `fn`, printing its CPU and wall seconds against a budget in seconds. */
function stage<T>(name: string, budget: number, fn: () => T): T {
  const before = load();
  const c0 = process.cpuUsage();
  const t0 = Date.now();
  const value = fn();
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  const wall = (Date.now() - t0) / 1000;
  const verdict = (x: number) => (x < budget ? 'within' : 'OVER');
  process.stdout.write(`${name}: ${cpu.toFixed(1)} s CPU (${verdict(cpu)} the ${budget} s budget), ${wall.toFixed(1)} s wall (${verdict(wall)}); load average ${before} → ${load()}\n`);
  return value;
}

const s = synthesizeSplits({ train: SPLIT, dev: 200, test: 0, seed: 1 });
const { models, bestEpoch } = stage(`supervised training, ${SPLIT} train + 200 dev dialogues × ${EPOCHS} epochs`, 20 * 60, () => trainAirModels(s.train, s.dev, { epochs: EPOCHS, seed: 1 }));
process.stdout.write(`  best dev epoch ${bestEpoch}, vocabulary ${models.vocab.size}\n`);
if (OUT) saveAirModels(join(OUT, 'syn.dgm'), models);
const sp = stage(`self-play, ${N_PLAY} dialogues`, 60, () => learnedSelfPlay({ agent: learnedAgent(models), customer: learnedCustomer(models), n: N_PLAY, seed: 1 }));
process.stdout.write(`  scaled total ${sp.total.toFixed(3)}, exact ${sp.exact.total.toFixed(3)} (in-domain, seed 1)\n`);
const rl = stage(`RL self-play, ${N_RL} episodes`, 30 * 60, () => rlTrain(models, { episodes: N_RL, supervised: s.train, seed: 0 }));
const tenth = Math.max(1, Math.floor(rl.curve.length / 10));
const mean = (xs: readonly { reward: number }[]) => xs.reduce((a, p) => a + p.reward, 0) / Math.max(1, xs.length);
process.stdout.write(`  mean episode reward: first ${tenth} updates ${mean(rl.curve.slice(0, tenth)).toFixed(3)}, last ${tenth} ${mean(rl.curve.slice(-tenth)).toFixed(3)}\n`);
if (OUT) saveAirModels(join(OUT, 'rl.dgm'), models);
