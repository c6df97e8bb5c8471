/**
 * One KB-InfoBot episode of an agent against the user simulator, and the Table 2 summary of many
 * (average turns T, success rate S, average reward R and its standard error). Agents are built by
 * name in `evaluate.ts`; trainers run episodes through here.
 */
import { createRng } from '../../core/rng.js';
import { playEpisode, type EpisodeTurn } from '../../env/episode.js';
import { summarizeOutcomes } from '../../metrics/episodes.js';
import type { InfoBotAction } from './acts.js';
import type { AgentContext, InfoBotAgent, Oracle } from './agents/agent.js';
import type { InfoBotEnv, InfoBotObservation } from './env.js';

/**
 * The outcome of one episode: total reward, agent actions, success and the target's 0-based rank
 * in the informed results (−1 when absent or not informed).
 *
 * @example
 * ```ts
 * import { InfoBotEnv, createInfoBotAgent, runInfoBotEpisode, type EpisodeResult } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * const { agent, privileged } = createInfoBotAgent('rule-hard', env);
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

/** One episode of `agent` in `env`, reset with `seed` (the agent's stream is forked from it), played
 * by the episode loop (`playEpisode`); `privileged` agents get the oracle (the loop's privileged
 * view); `onTurn` sees each utterance and action. The rank of the target is the testbed's metric.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, createInfoBotAgent, runInfoBotEpisode } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * const { agent, privileged } = createInfoBotAgent('rule-soft', env);
 * runInfoBotEpisode(env, agent, privileged, 7, (u, a) => console.log(`user: ${u}`, a));
 * ```
 */
export function runInfoBotEpisode(env: InfoBotEnv, agent: InfoBotAgent, privileged: boolean, seed: number, onTurn?: (utterance: string, action: InfoBotAction) => void): EpisodeResult {
  const rng = createRng(seed).fork('agent');
  type Turn = EpisodeTurn<InfoBotObservation, Oracle | undefined, InfoBotAction>;
  const policy = (t: Turn): InfoBotAction => {
    if (t.turn === 0) agent.begin(rng);
    return agent.act(t.obs.utterance, t.privileged);
  };
  return playEpisode<InfoBotObservation, InfoBotAction, Oracle | undefined, EpisodeResult>(env, policy, {
    reset: { seed },
    ...(privileged ? { privileged: (): Oracle => ({ goal: env.goal, act: env.userAct }) } : {}),
    ...(onTurn ? { onTurn: (t: Turn, a: InfoBotAction) => onTurn(t.obs.utterance, a) } : {}),
    metrics: (e): EpisodeResult => ({ reward: e.reward, turns: e.obs.turn, success: e.info['success'] === true, rank: (e.info['rank'] as number | undefined) ?? -1 }),
  }).metrics;
}

/** Table 2's figures of episode results (`summarizeOutcomes` of the episode metrics).
 *
 * @example
 * ```ts
 * import { summarize } from 'dialogym/infobot';
 * summarize('demo', 'small', [{ reward: 2, turns: 3, success: true, rank: 0 }, { reward: -1.2, turns: 3, success: false, rank: -1 }]);
 * // { agent: 'demo', split: 'small', episodes: 2, turns: 3, success: 0.5, reward: 0.4, rewardStdErr: 1.13… }
 * ```
 */
export function summarize(agent: string, split: string, results: readonly EpisodeResult[]): EvalReport {
  const s = summarizeOutcomes(results);
  return { agent, split, episodes: s.episodes, turns: s.avgTurns, success: s.success, reward: s.avgReward, rewardStdErr: s.rewardStdErr };
}
