/**
 * airdialogue-v2 against airdialogue-v1: steps per second of the same agents on both (the rule
 * agent, which asks in the simulator's wording, and random moves from `sampleAction`), measured
 * in the same run, alternating rounds, best round of each, per second of this process's CPU time
 * (the machine is shared: CPU time varies less with the load than wall time); and the ratio
 * v2 / v1 (the issue asks for >= 0.8). Also the own-words test agent's steps/s on v2 (v1 does not
 * understand it) and both readers alone on turns they have not seen.
 */
import { createRng } from '../src/core/rng.js';
import { AirDialogueEnv, AirDialogueV2Env, agentPolicies, readAgentTurn, readAgentUtterance } from '../src/testbeds/airdialogue/index.js';
import { OWN_WORDS, OwnWordsAgent } from '../src/testbeds/airdialogue/testing/own-words.js';
import type { AgentMove } from '../src/testbeds/airdialogue/policies.js';
import type { ToolCall } from '../src/env/env.js';

const EPISODES = Number(process.env.AIR_V2_BENCH_EPISODES ?? 2000);
const ROUNDS = Number(process.env.AIR_V2_BENCH_ROUNDS ?? 5);

type Agent = 'rules' | 'random' | 'own-words';

/** Plays `EPISODES` episodes; returns the steps taken and the seconds. */
function run(env: AirDialogueEnv, agent: Agent): { steps: number; seconds: number; success: number } {
  const random = createRng(9);
  let steps = 0;
  let success = 0;
  const t0 = process.cpuUsage();
  for (let seed = 0; seed < EPISODES; seed++) {
    let { obs } = env.reset({ seed });
    const rules = agent === 'rules' ? agentPolicies.get('rules')(obs.context, createRng(seed).fork('agent')) : null;
    const own = agent === 'own-words' ? new OwnWordsAgent(obs.context, createRng(seed).fork('own-words')) : null;
    for (;;) {
      const move: AgentMove | ToolCall | string = rules ? rules.respond(obs.utterance) : own ? own.act(obs.utterance) : env.sampleAction(random);
      const r = env.step(move);
      steps++;
      if (r.terminated || r.truncated) {
        if (r.reward >= 1) success++;
        break;
      }
      obs = r.obs;
    }
  }
  const cpu = process.cpuUsage(t0);
  return { steps, seconds: (cpu.user + cpu.system) / 1e6, success: success / EPISODES };
}

process.stdout.write(`${EPISODES} episodes per round, ${ROUNDS} rounds (best round shown; steps per CPU second)\n`);
for (const agent of ['rules', 'random'] as const) {
  let best1 = 0;
  let best2 = 0;
  let s1 = 0;
  let s2 = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const a = run(new AirDialogueEnv(), agent);
    const b = run(new AirDialogueV2Env(), agent);
    best1 = Math.max(best1, a.steps / a.seconds);
    best2 = Math.max(best2, b.steps / b.seconds);
    s1 = a.success;
    s2 = b.success;
  }
  process.stdout.write(
    `${agent.padEnd(9)} v1 ${Math.round(best1)} steps/s (success ${s1.toFixed(3)})   v2 ${Math.round(best2)} steps/s (success ${s2.toFixed(3)})   v2/v1 ${(best2 / best1).toFixed(2)}\n`,
  );
}
let bestOwn = 0;
let own = 0;
for (let round = 0; round < ROUNDS; round++) {
  const o = run(new AirDialogueV2Env(), 'own-words');
  bestOwn = Math.max(bestOwn, o.steps / o.seconds);
  own = o.success;
}
process.stdout.write(`own-words v2 ${Math.round(bestOwn)} steps/s (success ${own.toFixed(3)})\n`);

// the readers alone, on turns never seen before (a unique word defeats the reader's memory of recent turns)
const turns = Object.values(OWN_WORDS).flat();
const READS = 200_000;
function reads(read: (t: string) => unknown): number {
  const t0 = process.cpuUsage();
  for (let i = 0; i < READS; i++) read(`${turns[i % turns.length] as string} zq${i}`);
  const cpu = process.cpuUsage(t0);
  return READS / ((cpu.user + cpu.system) / 1e6);
}
let v1Reads = 0;
let v2Reads = 0;
for (let round = 0; round < ROUNDS; round++) {
  v1Reads = Math.max(v1Reads, reads(readAgentUtterance));
  v2Reads = Math.max(v2Reads, reads(readAgentTurn));
}
process.stdout.write(`readers on new turns: v1 keywords ${Math.round(v1Reads)} reads/s, v2 lexicon ${Math.round(v2Reads)} reads/s (${(1e6 / v2Reads).toFixed(1)} µs a read)\n`);
