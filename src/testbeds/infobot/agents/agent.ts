/**
 * The agent interface of the movie testbed and the `infobotAgents` registry. An agent reads user
 * utterances and answers with an action; privileged agents (the Max upper bound) also see the user's
 * goal and dialog acts. Agents with trained parts (rl-*, e2e-soft) plug in here later.
 */
import { players } from '../../../agents/registry.js';
import type { Rng } from '../../../core/rng.js';
import type { InfoBotAction, UserAct } from '../acts.js';
import type { MovieKb } from '../movie-kb.js';
import type { SplitName } from '../slots.js';
import type { ValueIndex } from '../tracker.js';
import type { UserGoal } from '../user.js';

/** What only a privileged agent is told.
 *
 * @example
 * ```ts
 * import type { Oracle } from 'dialogym/infobot';
 * declare const oracle: Oracle;
 * console.log(oracle.goal.target, oracle.act.act);
 * ```
 */
export interface Oracle {
  readonly goal: UserGoal;
  /** The user's last dialog act (before corruption and NLG). */
  readonly act: UserAct;
}

/**
 * A KB-InfoBot agent: `begin(rng)` starts a dialog, `act(utterance)` answers each user utterance
 * with an action. Build registered ones with `createInfoBotAgent`, or implement your own.
 *
 * @example
 * ```ts
 * import type { InfoBotAgent } from 'dialogym/infobot';
 * const alwaysInform: InfoBotAgent = {
 *   name: 'first-five',
 *   begin: () => {},
 *   act: () => ({ act: 'inform', results: [0, 1, 2, 3, 4] }),
 * };
 * ```
 */
export interface InfoBotAgent {
  readonly name: string;
  /** Starts a dialog (the agent's own randomness comes from `rng`). */
  begin(rng: Rng): void;
  /** The next action after a user utterance; `oracle` is given to privileged agents only. */
  act(utterance: string, oracle?: Oracle): InfoBotAction;
}

/** What an agent is built from.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, agentContext, infobotAgents, type AgentContext } from 'dialogym/infobot';
 * const ctx: AgentContext = agentContext(new InfoBotEnv({ split: 'small' }));
 * const agent = infobotAgents.get('rule-soft').create(ctx);
 * ```
 */
export interface AgentContext {
  /** The agent's (incomplete) KB. */
  readonly kb: MovieKb;
  /** The user's full KB: only privileged agents may read it. */
  readonly full: MovieKb;
  /** Token index of the KB vocabulary. */
  readonly index: ValueIndex;
  /** The KB split (agents tuned per split read their settings from it). */
  readonly split: SplitName;
  /** R: results the user looks at. */
  readonly successMaxRank: number;
  /** Folder of the default trained policies (`<agent>-<split>.dgm`), for agents with trained parts. */
  readonly policyDir?: string;
}

/**
 * A registered agent: how to build it from an `AgentContext`, and whether it sees the oracle.
 *
 * @example
 * ```ts
 * import { infobotAgents, type AgentEntry } from 'dialogym/infobot';
 * const firstFive: AgentEntry = { privileged: false, create: () => ({ name: 'first-five', begin: () => {}, act: () => ({ act: 'inform', results: [0, 1, 2, 3, 4] }) }) };
 * infobotAgents.register('first-five', 'informs rows 0-4 at once', firstFive);
 * ```
 */
export interface AgentEntry {
  /** Sees the oracle (upper bounds only). */
  readonly privileged: boolean;
  create(ctx: AgentContext): InfoBotAgent;
}

/** Named agents (`rule-soft`, `max`, …): the `infobot` table of `players`; `get` throws a ConfigError for an unknown name. The
 * rl-* and e2e-soft agents need trained policy files (see `AgentContext.policyDir`).
 *
 * @example
 * ```ts
 * import { infobotAgents } from 'dialogym/infobot';
 * [...infobotAgents]; // ['e2e-soft', 'max', 'rl-hard', 'rl-nokb', 'rl-soft', 'rule-hard', 'rule-nokb', 'rule-soft']
 * ```
 */
export const infobotAgents = players.table<AgentEntry>('infobot', 'infobot agent');
