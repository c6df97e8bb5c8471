/**
 * Runs an agent against the user simulator for many episodes and reports the figures of Table 2:
 * average turns T, success rate S, average reward R and its standard error.
 */
import { createRng } from '../../core/rng.js';
import type { InfoBotAction } from './acts.js';
import { infobotAgents, type AgentContext, type InfoBotAgent } from './agent.js';
import { InfoBotEnv, episodeSeed, type InfoBotEnvOptions } from './env.js';
import { isPolicyFile, policyAgent } from './trained-agents.js';

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

export interface CreatedAgent {
  readonly agent: InfoBotAgent;
  readonly privileged: boolean;
  /** The agent's name (for a policy file, the trained agent's, e.g. `rl-soft`). */
  readonly name: string;
}

/** Builds a registered agent, or an RL agent from a policy file (`*.dgm`), for an environment. */
export function createAgent(name: string, env: InfoBotEnv, policyDir?: string): CreatedAgent {
  const ctx = agentContext(env, policyDir);
  if (isPolicyFile(name)) {
    const agent = policyAgent(name, ctx);
    return { agent, privileged: false, name: agent.name };
  }
  const entry = infobotAgents.get(name);
  return { agent: entry.create(ctx), privileged: entry.privileged, name };
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

export interface EvalOptions extends InfoBotEnvOptions {
  agent: string;
  episodes: number;
  /** Seed of the episodes (default 1). */
  seed?: number;
  onEpisode?: (done: number) => void;
  /** Reuse an environment (its KB and simulator) instead of building one. */
  env?: InfoBotEnv;
  /** Folder of the default trained policies. */
  policyDir?: string;
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

/** Episodes `start` … `end − 1` of the stream `seed` (episode i is reset with `episodeSeed(seed, i)`). */
export function runEpisodes(env: InfoBotEnv, created: CreatedAgent, seed: number, start: number, end: number, onEpisode?: (done: number) => void): EpisodeResult[] {
  const results: EpisodeResult[] = [];
  for (let i = start; i < end; i++) {
    results.push(runInfoBotEpisode(env, created.agent, created.privileged, episodeSeed(seed, i)));
    onEpisode?.(i - start + 1);
  }
  return results;
}

export function evaluateAgent(opts: EvalOptions): EvalReport {
  if (!Number.isInteger(opts.episodes) || opts.episodes < 1) throw new RangeError('episodes must be a positive integer');
  const env = opts.env ?? new InfoBotEnv(opts);
  const created = createAgent(opts.agent, env, opts.policyDir);
  return summarize(created.name, env.split, runEpisodes(env, created, opts.seed ?? 1, 0, opts.episodes, opts.onEpisode));
}
