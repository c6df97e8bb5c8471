/**
 * KB-InfoBot evaluation speed: 5,000 simulated dialogs per agent on each KB split (episodes/s, CPU
 * seconds) and the ratio of the wall time to the 10 s budget of the issue (ratio < 1: within budget),
 * on the main thread and (on a machine with 2+ cores) on 2 worker threads (`infobot eval --workers`,
 * the default there), with the speed-up over the main thread measured in the same run.
 * The rl-* and e2e-soft agents are measured when their default policies exist (`dialogym infobot train`). With
 * `INFOBOT_BENCH_TRAIN=1`, also trains rl-soft on Medium with the default settings against the
 * 10-minute budget. The machine load (1-minute average) is printed: timings under load are inflated.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { InfoBotEnv, defaultPolicyFile, evaluateAgent, evaluateAgentOnWorkers, SPLITS, trainRlPolicy } from '../src/testbeds/infobot/index.js';

const EPISODES = 5000;
const BUDGET_S = 10;
const TRAIN_BUDGET_S = 600;
const policyDir = process.env.DIALOGYM_POLICIES ?? fileURLToPath(new URL('../../policies/infobot/', import.meta.url));
process.stdout.write(`load average ${loadavg()[0]?.toFixed(2)} on this machine; policies from ${policyDir}\n`);
for (const split of SPLITS) {
  const t0 = performance.now();
  const env = new InfoBotEnv({ split });
  const setup = (performance.now() - t0) / 1000;
  const agents = ['rule-nokb', 'rule-hard', 'rule-soft', 'max', ...['rl-nokb', 'rl-hard', 'rl-soft', 'e2e-soft'].filter((a) => existsSync(defaultPolicyFile(policyDir, a, split)))];
  for (const agent of agents) {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = evaluateAgent({ agent, episodes: EPISODES, seed: 1, env, policyDir });
    const cu = process.cpuUsage(c);
    const s = (performance.now() - t) / 1000;
    process.stdout.write(
      `${split.padEnd(7)} ${agent.padEnd(10)} ${EPISODES} episodes in ${s.toFixed(2)} s (cpu ${((cu.user + cu.system) / 1e6).toFixed(2)} s) = ${Math.round(EPISODES / s)} episodes/s (ratio to ${BUDGET_S} s budget ${(s / BUDGET_S).toFixed(2)}; KB setup ${setup.toFixed(2)} s)  T ${r.turns.toFixed(2)} S ${r.success.toFixed(3)} R ${r.reward.toFixed(3)}\n`,
    );
    if (availableParallelism() >= 2) {
      const t2 = performance.now();
      const r2 = await evaluateAgentOnWorkers({ agent, split, kb: { kind: 'generate', kbSeed: 1, missing: 0.2 }, episodes: EPISODES, seed: 1, policyDir, workers: 2 });
      const s2 = (performance.now() - t2) / 1000;
      const same = JSON.stringify(r2) === JSON.stringify(r);
      process.stdout.write(`${split.padEnd(7)} ${agent.padEnd(10)} 2 workers: ${s2.toFixed(2)} s (incl. worker start-up) = ${Math.round(EPISODES / s2)} episodes/s, x${(s / s2).toFixed(2)} vs main thread, ratio to budget ${(s2 / BUDGET_S).toFixed(2)}; report ${same ? 'identical' : 'DIFFERENT'}\n`);
    }
  }
}
if (process.env.INFOBOT_BENCH_TRAIN === '1') {
  const t = performance.now();
  const r = trainRlPolicy({ agent: 'rl-soft', split: 'medium' });
  const s = (performance.now() - t) / 1000;
  process.stdout.write(`train rl-soft medium (defaults: ${r.options.imitation} imitation + ${r.options.episodes} REINFORCE dialogs) in ${s.toFixed(1)} s (ratio to ${TRAIN_BUDGET_S} s budget ${(s / TRAIN_BUDGET_S).toFixed(2)}); best validation reward ${r.bestValidReward.toFixed(3)}\n`);
}
