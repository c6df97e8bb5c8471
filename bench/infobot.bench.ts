/**
 * KB-InfoBot evaluation speed: 5,000 simulated dialogs per agent on each KB split (episodes/s), and
 * the ratio of the time to the 10 s budget of the issue (ratio < 1: within budget).
 */
import { InfoBotEnv, evaluateAgent, SPLITS } from '../src/domains/movies/index.js';

const EPISODES = 5000;
const BUDGET_S = 10;
for (const split of SPLITS) {
  const t0 = performance.now();
  const env = new InfoBotEnv({ split });
  const setup = (performance.now() - t0) / 1000;
  for (const agent of ['rule-nokb', 'rule-hard', 'rule-soft', 'max']) {
    const t = performance.now();
    const r = evaluateAgent({ agent, episodes: EPISODES, seed: 1, env });
    const s = (performance.now() - t) / 1000;
    process.stdout.write(
      `${split.padEnd(7)} ${agent.padEnd(10)} ${EPISODES} episodes in ${s.toFixed(2)} s = ${Math.round(EPISODES / s)} episodes/s (ratio to ${BUDGET_S} s budget ${(s / BUDGET_S).toFixed(2)}; KB setup ${setup.toFixed(2)} s)  T ${r.turns.toFixed(2)} S ${r.success.toFixed(3)} R ${r.reward.toFixed(3)}\n`,
    );
  }
}
