/**
 * A voice for the simulated user (`evaluate --user-llm`): something else — a language model —
 * says the user's turns in its own words. The environment's simulated user still decides what the
 * user does (which slot it answers, when it changes its mind, accepts an option, asks for the
 * phone…; the environment tells that act in the step's `info.userAct` where it has one) and the
 * environment alone judges the episode from its end state; the voice only replaces the words the
 * agent reads. The runner asks the voice for each new user turn of an observation (not for the
 * user turns that carry no words, the environment's `isWordlessTurn`, unless the voice declares
 * `speaksOnWordless`: a person may speak where the simulated user stays silent) and shows the agent the
 * observation with every user turn so replaced (`utterance` and the `user` turns of `history`); of
 * an environment whose observation shows only the user's latest `utterance` (KB-InfoBot), each
 * observation's utterance is a user turn.
 */
import type { Turn } from '../core/dialog.js';
import type { TokenUsage } from '../llm/client/usage.js';

/**
 * What the voice is asked for one user turn.
 *
 * @example
 * ```ts
 * import type { UserTurn } from 'dialogym';
 * const words = (t: UserTurn): string => (t.turn === 0 ? 'Hello!' : t.template.toUpperCase());
 * ```
 */
export interface UserTurn {
  readonly env: string;
  readonly episode: number;
  readonly trial: number;
  readonly seed: number;
  /** The user turn of the episode (0: the opening). */
  readonly turn: number;
  /** The user's goal (`info.goal` of the reset; undefined when the environment gives none). */
  readonly goal: unknown;
  /** The agent's action this turn answers (undefined for the opening): text, or a tool call. */
  readonly agentAction: unknown;
  /** What the environment's user says (its template wording). */
  readonly template: string;
  /**
   * The environment's user says nothing new this turn (the environment's `isWordlessTurn`: the
   * template is its wordless text). Asked only of a voice that declares `speaksOnWordless`; its
   * answer '' lets the turn pass as the environment's wordless turn, words replace it.
   */
  readonly wordless?: boolean;
  /** The `info` of the reset or step that brought the turn (`userAct`: what the user does). */
  readonly info: Readonly<Record<string, unknown>>;
  /** The dialog before this turn, user turns in the voice's words. */
  readonly history: readonly Turn[];
}

/**
 * One lane's voice: it keeps an episode's conversation from turn 0 on.
 *
 * @example
 * ```ts
 * import type { UserVoiceSession } from 'dialogym';
 * const loud: UserVoiceSession = { say: async (t) => ({ text: t.template.toUpperCase() }) };
 * ```
 */
export interface UserVoiceSession {
  /** The user's words for `turn` (and the tokens they cost). Rejects with an `LlmError` when the voice fails. */
  say(turn: UserTurn): Promise<{ text: string; usage?: TokenUsage }>;
}

/**
 * The voice of the simulated user (module description): `connect(lane)` opens one session per
 * lane of a run.
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, type UserVoice } from 'dialogym';
 * const loud: UserVoice = { name: 'loud', connect: () => ({ say: async (t) => ({ text: t.template.toUpperCase() }) }) };
 * const { records } = await evaluate('restaurant-task1-v1', createAgent('rules'), { episodes: 2, userVoice: loud });
 * ```
 */
export interface UserVoice {
  readonly name: string;
  /**
   * Whether the voice is asked for the user turns that carry no words too (`UserTurn.wordless`;
   * a person, who may want to speak where the simulated user stays silent); default: it is not,
   * and those turns stay the environment's.
   */
  readonly speaksOnWordless?: boolean;
  connect(lane: number): UserVoiceSession;
}

/** `obs` with its `user` turns (and its `utterance`, when it is the last of them) in the words of `said`, in order. */
export function withUserWords(obs: unknown, said: readonly string[]): unknown {
  const o = obs as { utterance?: unknown; history?: unknown } | null;
  if (o === null || typeof o !== 'object' || !Array.isArray(o.history)) return obs;
  let k = 0;
  let last: { from: string; to: string } | undefined;
  const history = (o.history as Turn[]).map((t) => {
    if (t.speaker !== 'user') return t;
    const to = said[k++];
    if (to === undefined) return t;
    last = { from: t.text, to };
    return { ...t, text: to };
  });
  const utterance = last !== undefined && o.utterance === last.from ? last.to : o.utterance;
  return { ...o, utterance, history };
}
