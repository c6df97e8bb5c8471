/**
 * One KB-InfoBot episode of an agent against the user simulator, and the Table 2 summary of many
 * (average turns T, success rate S, average reward R and its standard error). Agents are built by
 * name in `evaluate.ts`; trainers run episodes through here.
 */
import { createRng } from '../../core/rng.js';
import type { InfoBotAction } from './acts.js';
import type { AgentContext, InfoBotAgent } from './agents/agent.js';
import type { InfoBotEnv } from './env.js';

export interface EpisodeResult {
  readonly reward: number;
  readonly turns: number;
  readonly success: boolean;
  readonly rank: number;
}

export interface EvalReport {
  agent: string;
  split: string;
  episodes: number;
  turns: number;
  success: number;
  reward: number;
  rewardStdErr: number;
}

export function agentContext(env: InfoBotEnv, policyDir?: string): AgentContext {
  return { kb: env.kb, full: env.full, index: env.index, split: env.split, successMaxRank: env.sim.opts.successMaxRank, ...(policyDir !== undefined ? { policyDir } : {}) };
}

/** One episode of `agent` in `env`, reset with `seed`. */
export function runInfoBotEpisode(env: InfoBotEnv, agent: InfoBotAgent, privileged: boolean, seed: number, onTurn?: (utterance: string, action: InfoBotAction) => void): EpisodeResult {
  let { obs } = env.reset({ seed });
  agent.begin(createRng(seed).fork('agent'));
  let reward = 0;
  for (;;) {
    const action = agent.act(obs.utterance, privileged ? { goal: env.goal, act: env.userAct } : undefined);
    onTurn?.(obs.utterance, action);
    const r = env.step(action);
    reward += r.reward;
    obs = r.obs;
    if (r.terminated || r.truncated) return { reward, turns: obs.turn, success: r.info.success === true, rank: (r.info.rank as number | undefined) ?? -1 };
  }
}

/** Summary statistics over episode results. */
export function summarize(agent: string, split: string, results: readonly EpisodeResult[]): EvalReport {
  const n = results.length;
  let r = 0;
  let s = 0;
  let t = 0;
  for (const e of results) {
    r += e.reward;
    s += e.success ? 1 : 0;
    t += e.turns;
  }
  const mean = n > 0 ? r / n : 0;
  let v = 0;
  for (const e of results) v += (e.reward - mean) ** 2;
  return { agent, split, episodes: n, turns: n > 0 ? t / n : 0, success: n > 0 ? s / n : 0, reward: mean, rewardStdErr: n > 0 ? Math.sqrt(v / n) / Math.sqrt(n) : 0 };
}

