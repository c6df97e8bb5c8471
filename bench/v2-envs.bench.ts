/**
 * Speed of the -v2 restaurant and DSTC6 envs (the user that reads meaning) against -v1 for the
 * same agent. Agents: the rule bot (the datasets' wording: the same episodes on both), a random
 * agent (`sampleAction`) and a trivial one that always says "hello" (episodes run to the turn
 * limit). For each, two figures:
 * - env: the agent's actions are recorded once (its episodes are the same on both versions), then
 *   replayed on -v1 and -v2 (repeated to about 0.2 CPU s a run) in rounds of alternating order
 *   after a warm-up, each side's fastest round kept; steps per CPU second of `reset` + `step`
 *   alone, nothing else running in between (the agent's garbage and cache traffic land on
 *   neither side; CPU time, so the machine's other processes do not count);
 * - live: the whole loop with the agent playing, steps per CPU second of this process, fastest
 *   round of each side (what a run costs).
 * The ratio v2/v1 should stay ≥ 0.8. The own-words test agent's live steps/s on -v2 is printed too.
 *
 *   node dist/bench/v2-envs.bench.js     # V2_BENCH_EPISODES=1000 per env, agent and round, V2_BENCH_ROUNDS=5
 */
import { loadavg } from 'node:os';
import '../src/index.js'; // every testbed, loaded
import { createRng } from '../src/core/rng.js';
import { make, type Env, type ToolSpec } from '../src/env/env.js';
import type { RestaurantAction, RestaurantObservation } from '../src/testbeds/restaurant/online/env.js';
import { rulesAgent, type TestAgent } from '../src/testbeds/restaurant/testing/online.js';
import { ownWordsAgent } from '../src/testbeds/restaurant/testing/own-words.js';

const EPISODES = Number(process.env.V2_BENCH_EPISODES ?? 1000);
const ROUNDS = Number(process.env.V2_BENCH_ROUNDS ?? 5);
const FAMILIES = ['restaurant-task1', 'restaurant-task5', 'dstc6-task5-tst4'];
const AGENTS: ReadonlyArray<readonly [string, () => TestAgent]> = [
  ['rules', rulesAgent],
  ['random', () => (env, _tools, rng) => env.sampleAction(rng)],
  ['hello', () => () => 'hello'],
];

type RestaurantEnvT = Env<RestaurantObservation, RestaurantAction>;

/** Plays `EPISODES` episodes live (a new agent from `newAgent` for each), `times` times: the actions of each episode, the steps of one time, CPU seconds of all. */
function live(env: RestaurantEnvT, newAgent: () => TestAgent, times = 1): { actions: RestaurantAction[][]; steps: number; cpu: number } {
  let actions: RestaurantAction[][] = [];
  let steps = 0;
  const cpu0 = process.cpuUsage();
  for (let k = 0; k < times; k++) {
    actions = [];
    steps = 0;
    playAll();
  }
  const cpu = process.cpuUsage(cpu0);
  return { actions, steps, cpu: (cpu.user + cpu.system) / 1e6 };

  function playAll(): void {
  for (let seed = 0; seed < EPISODES; seed++) {
    const agent = newAgent();
    const reset = env.reset({ seed });
    const rng = createRng(seed).fork('agent');
    const tools = reset.info['tools'] as ToolSpec[];
    const acts: RestaurantAction[] = [];
    let obs = reset.obs;
    for (;;) {
      const a = agent(env, tools, rng, obs);
      acts.push(a);
      const r = env.step(a);
      steps++;
      if (r.terminated || r.truncated) break;
      obs = r.obs;
    }
    actions.push(acts);
  }
  }
}

/** CPU seconds of `reset` + `step` replaying recorded actions (same seeds) `times` times. */
function replay(env: RestaurantEnvT, actions: readonly (readonly RestaurantAction[])[], times: number): number {
  const cpu0 = process.cpuUsage();
  for (let k = 0; k < times; k++) {
    actions.forEach((acts, seed) => {
      env.reset({ seed });
      for (const a of acts) env.step(a);
    });
  }
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1e6;
}

/** The own-words agent as a `TestAgent` of one episode. */
function ownWords(): TestAgent {
  let agent: ReturnType<typeof ownWordsAgent> | undefined;
  return (_env, tools, rng, obs) => (agent ??= ownWordsAgent(tools, rng)).act(obs);
}

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
process.stdout.write(`load average ${load()}; ${EPISODES} episodes per env, agent and round; ${ROUNDS} rounds\n`);
let worst = Infinity;
let worstLive = Infinity;
for (const family of FAMILIES) {
  const v1 = make(`${family}-v1`) as RestaurantEnvT;
  const v2 = make(`${family}-v2`) as RestaurantEnvT;
  for (const [name, agent] of AGENTS) {
    const played = { v1: live(v1, agent), v2: live(v2, agent) };
    // Enough repeats for a live run of about 0.2 CPU s.
    const liveTimes = Math.max(1, Math.ceil(0.2 / Math.max(played.v1.cpu, 1e-3)));
    const cpu = { v1: Infinity, v2: Infinity };
    for (let round = 0; round < ROUNDS; round++) {
      for (const key of round % 2 === 0 ? (['v1', 'v2'] as const) : (['v2', 'v1'] as const)) cpu[key] = Math.min(cpu[key], live(key === 'v1' ? v1 : v2, agent, liveTimes).cpu / liveTimes);
    }
    const same = JSON.stringify(played.v1.actions) === JSON.stringify(played.v2.actions);
    const { actions } = played.v1;
    const steps = played.v1.steps;
    // Enough repeats for a measured run of about 0.2 CPU s.
    const times = Math.max(1, Math.ceil(0.2 / Math.max(replay(v1, actions, 1), 1e-3)));
    replay(v2, actions, times);
    const best = { v1: Infinity, v2: Infinity };
    for (let round = 0; round < ROUNDS; round++) {
      for (const key of round % 2 === 0 ? (['v1', 'v2'] as const) : (['v2', 'v1'] as const)) best[key] = Math.min(best[key], replay(key === 'v1' ? v1 : v2, actions, times));
    }
    const s1 = (steps * times) / best.v1;
    const s2 = (steps * times) / best.v2;
    worst = Math.min(worst, s2 / s1);
    worstLive = Math.min(worstLive, cpu.v1 / cpu.v2);
    process.stdout.write(
      `${family.padEnd(18)} ${name.padEnd(7)} env: v1 ${Math.round(s1).toString().padStart(8)} v2 ${Math.round(s2).toString().padStart(8)} steps/s, v2/v1 ${(s2 / s1).toFixed(3)}` +
        `   live: v1 ${Math.round(steps / cpu.v1).toString().padStart(7)} v2 ${Math.round(steps / cpu.v2).toString().padStart(7)} steps/CPU s, v2/v1 ${(cpu.v1 / cpu.v2).toFixed(3)}${same ? '' : '  (the episodes differ!)'}\n`,
    );
  }
  const own = live(v2, ownWords);
  process.stdout.write(`${family.padEnd(18)} own words (v2 only) live ${Math.round(own.steps / own.cpu)} steps/CPU s\n`);
}
process.stdout.write(`lowest v2/v1: env ${worst.toFixed(3)}, live ${worstLive.toFixed(3)} (${Math.min(worst, worstLive) >= 0.8 ? 'meet' : 'BELOW'} the 0.8 floor); load average ${load()}\n`);
