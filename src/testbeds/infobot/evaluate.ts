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

/**
 * An agent built by `createInfoBotAgent`, with whether it is privileged and its name.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, createInfoBotAgent, type CreatedAgent } from 'dialogym/infobot';
 * const created: CreatedAgent = createInfoBotAgent('max', new InfoBotEnv({ split: 'small' }));
 * created.privileged; // true
 * ```
 */
export interface CreatedAgent {
  readonly agent: InfoBotAgent;
  readonly privileged: boolean;
  /** The agent's name (for a policy file, the trained agent's, e.g. `rl-soft`). */
  readonly name: string;
}

/** Builds a registered KB-InfoBot agent, or an RL agent from a policy file (`*.dgm`), for an
 * environment, as the paper's runs use it (an `InfoBotAgent` acting on the environment's objects;
 * `createAgent` of `dialogym` builds dialogym's agents for any environment behind the agent protocol,
 * these among them). An unknown name throws a ConfigError; a bad policy file a ModelFileError.
 * (Named `createAgent` in dialogym 0.1.)
 *
 * @example
 * ```ts
 * import { InfoBotEnv, createInfoBotAgent } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'medium' });
 * const { agent } = createInfoBotAgent('rule-soft', env);
 * const trained = createInfoBotAgent('out/rl-soft-medium.dgm', env); // a policy file written by infobot train
 * ```
 */
export function createInfoBotAgent(name: string, env: InfoBotEnv, policyDir?: string): CreatedAgent {
  const ctx = agentContext(env, policyDir);
  if (isPolicyFile(name)) {
    const agent = policyAgent(name, ctx);
    return { agent, privileged: false, name: agent.name };
  }
  const entry = infobotAgents.get(name);
  return { agent: entry.create(ctx), privileged: entry.privileged, name };
}

/**
 * Options of `evaluateAgent`: the agent, the number of episodes, and environment options (or an
 * environment to reuse).
 *
 * @example
 * ```ts
 * import type { EvalOptions } from 'dialogym/infobot';
 * const opts: EvalOptions = { agent: 'rule-hard', split: 'large', episodes: 500, seed: 1 };
 * ```
 */
export interface EvalOptions extends InfoBotEnvOptions {
  /** A registered agent or a policy file. */
  agent: string;
  /** Number of episodes (a positive integer). */
  episodes: number;
  /** Seed of the episodes (default 1). */
  seed?: number;
  onEpisode?: (done: number) => void;
  /** Reuse an environment (its KB and simulator) instead of building one. */
  env?: InfoBotEnv;
  /** Folder of the default trained policies. */
  policyDir?: string;
}

/** Episodes `start`, `start + step`, … below `end` of the stream `seed` (episode i is reset with `episodeSeed(seed, i)`; `step` 1: every episode of the range).
 *
 * @example
 * ```ts
 * import { InfoBotEnv, createInfoBotAgent, runEpisodes, summarize } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * const created = createInfoBotAgent('rule-soft', env);
 * const results = runEpisodes(env, created, 1, 0, 100);
 * summarize(created.name, env.split, results).success;
 * ```
 */
export function runEpisodes(env: InfoBotEnv, created: CreatedAgent, seed: number, start: number, end: number, onEpisode?: (done: number) => void, step = 1): EpisodeResult[] {
  const results: EpisodeResult[] = [];
  for (let i = start; i < end; i += step) {
    results.push(runInfoBotEpisode(env, created.agent, created.privileged, episodeSeed(seed, i)));
    onEpisode?.(results.length);
  }
  return results;
}

/**
 * Evaluates an agent against the user simulator over `episodes` episodes (episode i seeded with
 * `episodeSeed(seed, i)`) and reports Table 2's figures: turns T, success S, reward R ± standard
 * error. Throws a ConfigError for a bad episode count or an unknown agent.
 *
 * @example
 * ```ts
 * import { evaluateAgent } from 'dialogym/infobot';
 * const r = evaluateAgent({ agent: 'rule-soft', split: 'medium', episodes: 200 });
 * console.log(r.turns.toFixed(2), r.success.toFixed(2), `${r.reward.toFixed(2)} ± ${r.rewardStdErr.toFixed(2)}`);
 * ```
 */
export function evaluateAgent(opts: EvalOptions): EvalReport {
  if (!Number.isInteger(opts.episodes) || opts.episodes < 1) throw new ConfigError('episodes must be a positive integer');
  const env = opts.env ?? new InfoBotEnv(opts);
  const created = createInfoBotAgent(opts.agent, env, opts.policyDir);
  return summarize(created.name, env.split, runEpisodes(env, created, opts.seed ?? 1, 0, opts.episodes, opts.onEpisode));
}
