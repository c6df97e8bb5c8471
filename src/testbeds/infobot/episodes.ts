/**
 * One KB-InfoBot episode of an agent against the user simulator, and the Table 2 summary of many
 * (average turns T, success rate S, average reward R and its standard error). Agents are built by
 * name in `evaluate.ts`; trainers run episodes through here.
 */
import { createRng } from '../../core/rng.js';
import type { InfoBotAction } from './acts.js';
import type { AgentContext, InfoBotAgent } from './agents/agent.js';
import type { InfoBotEnv } from './env.js';

/**
 * The outcome of one episode: total reward, agent actions, success and the target's 0-based rank
 * in the informed results (−1 when absent or not informed).
 *
 * @example
 * ```ts
 * import { InfoBotEnv, createAgent, runInfoBotEpisode, type EpisodeResult } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * const { agent, privileged } = createAgent('rule-hard', env);
 * const r: EpisodeResult = runInfoBotEpisode(env, agent, privileged, 42);
 * ```
 */
export interface EpisodeResult {
  readonly reward: number;
  readonly turns: number;
  readonly success: boolean;
  readonly rank: number;
}

/**
 * Table 2's figures for one agent on one split: episodes, mean turns T, success rate S, mean
 * reward R and its standard error.
 *
 * @example
 * ```ts
 * import { evaluateAgent, type EvalReport } from 'dialogym/infobot';
 * const r: EvalReport = evaluateAgent({ agent: 'max', split: 'small', episodes: 100 });
 * ```
 */
export interface EvalReport {
  agent: string;
  split: string;
  episodes: number;
  /** Mean agent actions per episode. */
  turns: number;
  /** Fraction of successful episodes. */
  success: number;
  /** Mean total reward. */
  reward: number;
  /** Standard error of the mean reward. */
  rewardStdErr: number;
}

/**
 * The `AgentContext` of an environment: its KBs, value index, split and R, plus the folder of
 * trained policies when given.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, agentContext, infobotAgents } from 'dialogym/infobot';
 * const ctx = agentContext(new InfoBotEnv({ split: 'small' }), 'policies/infobot');
 * const agent = infobotAgents.get('rule-nokb').create(ctx);
 * ```
 */
export function agentContext(env: InfoBotEnv, policyDir?: string): AgentContext {
  return { kb: env.kb, full: env.full, index: env.index, split: env.split, successMaxRank: env.sim.opts.successMaxRank, ...(policyDir !== undefined ? { policyDir } : {}) };
}

/** One episode of `agent` in `env`, reset with `seed` (the agent's stream is forked from it);
 * `privileged` agents get the oracle; `onTurn` sees each utterance and action.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, createAgent, runInfoBotEpisode } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * const { agent, privileged } = createAgent('rule-soft', env);
 * runInfoBotEpisode(env, agent, privileged, 7, (u, a) => console.log(`user: ${u}`, a));
 * ```
 */
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

/** Summary statistics over episode results.
 *
 * @example
 * ```ts
 * import { summarize } from 'dialogym/infobot';
 * summarize('demo', 'small', [{ reward: 2, turns: 3, success: true, rank: 0 }, { reward: -1.2, turns: 3, success: false, rank: -1 }]);
 * // { agent: 'demo', split: 'small', episodes: 2, turns: 3, success: 0.5, reward: 0.4, rewardStdErr: 1.13… }
 * ```
 */
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

