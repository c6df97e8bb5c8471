/**
 * Speed of the -v2 restaurant and DSTC6 envs (the user that reads meaning) against -v1 for the
 * same agent: steps per second of `env.reset` + `env.step` alone (the agent's own time is not
 * counted), same seeds, after a warm-up run of each, v1 and v2 runs interleaved in rounds of
 * alternating order so the machine's load and the JIT favour neither; the ratio v2/v1 should stay
 * ≥ 0.8. Agents: the rule bot (the datasets' wording: same
 * episodes on both), a random agent (`sampleAction`), and a trivial one that always says "hello"
 * (episodes run to the turn limit). The own-words test agent's steps/s on -v2 is printed too.
 *
 *   node dist/bench/v2-envs.bench.js     # V2_BENCH_EPISODES=300 per env, agent and round, V2_BENCH_ROUNDS=3
 */
import { loadavg } from 'node:os';
import '../src/testbeds/restaurant/online/babi.js';
import '../src/testbeds/dstc6/online.js';
import { createRng } from '../src/core/rng.js';
import { make, type Env, type ToolSpec } from '../src/testbeds/env.js';
import type { RestaurantAction, RestaurantObservation } from '../src/testbeds/restaurant/online/env.js';
import { rulesAgent, type TestAgent } from '../src/testbeds/restaurant/testing/online.js';
import { ownWordsAgent } from '../src/testbeds/restaurant/testing/own-words.js';

const EPISODES = Number(process.env.V2_BENCH_EPISODES ?? 300);
const ROUNDS = Number(process.env.V2_BENCH_ROUNDS ?? 3);
const FAMILIES = ['restaurant-task1', 'restaurant-task5', 'dstc6-task5-tst4'];
const AGENTS: ReadonlyArray<readonly [string, () => TestAgent]> = [
  ['rules', rulesAgent],
  ['random', () => (env, _tools, rng) => env.sampleAction(rng)],
  ['hello', () => () => 'hello'],
];

type RestaurantEnvT = Env<RestaurantObservation, RestaurantAction>;

/** Seconds spent in the env and steps taken over `EPISODES` episodes, a new agent from `newAgent` for each. */
function run(env: RestaurantEnvT, newAgent: () => TestAgent): { seconds: number; steps: number } {
  let ns = 0n;
  let steps = 0;
  for (let seed = 0; seed < EPISODES; seed++) {
    const agent = newAgent();
    let t = process.hrtime.bigint();
    const reset = env.reset({ seed });
    ns += process.hrtime.bigint() - t;
    const rng = createRng(seed).fork('agent');
    const tools = reset.info['tools'] as ToolSpec[];
    let obs = reset.obs;
    for (;;) {
      const action = agent(env, tools, rng, obs);
      t = process.hrtime.bigint();
      const r = env.step(action);
      ns += process.hrtime.bigint() - t;
      steps++;
      if (r.terminated || r.truncated) break;
      obs = r.obs;
    }
  }
  return { seconds: Number(ns) / 1e9, steps };
}

process.stdout.write(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${EPISODES} episodes per env, agent and round; ${ROUNDS} rounds\n`);
let worst = Infinity;
for (const family of FAMILIES) {
  const v1 = make(`${family}-v1`) as RestaurantEnvT;
  const v2 = make(`${family}-v2`) as RestaurantEnvT;
  for (const [name, agent] of AGENTS) {
    const total = { v1: { seconds: 0, steps: 0 }, v2: { seconds: 0, steps: 0 } };
    // A warm-up round of each (not counted), then rounds in alternating order.
    run(v1, agent);
    run(v2, agent);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ([['v1', v1], ['v2', v2]] as const) : ([['v2', v2], ['v1', v1]] as const);
      for (const [key, env] of order) {
        const r = run(env, agent);
        total[key].seconds += r.seconds;
        total[key].steps += r.steps;
      }
    }
    const s1 = total.v1.steps / total.v1.seconds;
    const s2 = total.v2.steps / total.v2.seconds;
    worst = Math.min(worst, s2 / s1);
    const same = total.v1.steps === total.v2.steps ? 'same steps' : `steps ${total.v1.steps} vs ${total.v2.steps}`;
    process.stdout.write(`${family.padEnd(18)} ${name.padEnd(7)} v1 ${Math.round(s1).toString().padStart(7)} steps/s  v2 ${Math.round(s2).toString().padStart(7)} steps/s  v2/v1 ${(s2 / s1).toFixed(3)}  (${same})\n`);
  }
  const own = run(v2, ownWords);
  process.stdout.write(`${family.padEnd(18)} own words (v2 only) ${Math.round(own.steps / own.seconds)} steps/s\n`);
}
process.stdout.write(`lowest v2/v1 ${worst.toFixed(3)} (${worst >= 0.8 ? 'meets' : 'BELOW'} the 0.8 floor); load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);

/** The own-words agent as a `TestAgent` of one episode. */
function ownWords(): TestAgent {
  let agent: ReturnType<typeof ownWordsAgent> | undefined;
  return (_env, tools, rng, obs) => (agent ??= ownWordsAgent(tools, rng)).act(obs);
}
