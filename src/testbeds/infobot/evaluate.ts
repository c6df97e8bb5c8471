/**
 * Runs an agent against the user simulator for many episodes and reports the figures of Table 2:
 * average turns T, success rate S, average reward R and its standard error.
 */
import { infobotAgents, type InfoBotAgent } from './agents/agent.js';
import { InfoBotEnv, episodeSeed, type InfoBotEnvOptions } from './env.js';
import { isPolicyFile, policyAgent } from './agents/trained-agents.js';
import { agentContext, runInfoBotEpisode, summarize, type EpisodeResult, type EvalReport } from './episodes.js';
import { ConfigError } from '../../core/errors.js';

export * from './episodes.js';

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
  if (!Number.isInteger(opts.episodes) || opts.episodes < 1) throw new ConfigError('episodes must be a positive integer');
  const env = opts.env ?? new InfoBotEnv(opts);
  const created = createAgent(opts.agent, env, opts.policyDir);
  return summarize(created.name, env.split, runEpisodes(env, created, opts.seed ?? 1, 0, opts.episodes, opts.onEpisode));
}
