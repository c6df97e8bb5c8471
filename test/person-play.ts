/**
 * Scripted people through the library (helpers of test/person-*.test.ts): a user-side participant
 * (card, hint, the agent's words → text) as a `UserVoice` that sees only what the page shows of
 * the environment's person view, and an agent-side participant (the agent view's sections, the
 * dialog, the tools → text or a tool call) as an `Agent`.
 */
import { createRng, type Rng } from '../src/core/rng.js';
import { envPersonView, type ToolSpec } from '../src/env/env.js';
import type { GoalCard, PersonView, ViewSection } from '../src/env/person.js';
import type { Agent } from '../src/agents/agent.js';
import type { UserVoice } from '../src/agents/user-voice.js';

/** The person view of `envId`, or an error naming the environment. */
export function viewOf(envId: string): PersonView {
  const v = envPersonView(envId);
  if (v === undefined) throw new Error(`${envId}: no person view`);
  return v;
}

/** An agent action as the page shows it: its text, or a tool call as `tool(arg=value, …)`. */
export function actionText(a: unknown): string {
  if (typeof a === 'string') return a;
  if (a === null || typeof a !== 'object') return '';
  const o = a as { tool?: unknown; arguments?: Record<string, unknown>; utterance?: unknown };
  if (typeof o.tool === 'string') return `${o.tool}(${Object.entries(o.arguments ?? {}).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(' ') : String(v)}`).join(', ')})`;
  return typeof o.utterance === 'string' ? o.utterance : '';
}

/** A user-side participant: the page's goal card, the hint and the agent's last words → what the person types. */
export type UserParticipant = (card: GoalCard, hint: string | undefined, agentSaid: string) => string;

/** What the page showed a user-side person at each of their turns (for the tests' checks). */
export interface ShownToUser {
  readonly card: GoalCard;
  readonly hint: string | undefined;
  readonly agentSaid: string;
  readonly typed: string;
}

/**
 * A user-side participant as a `UserVoice`: per episode, the goal card from the reset's `info`, the
 * hint of each turn's `info`, the agent's last action as text; `make(rng)` gives the participant of
 * an episode (its rng from the episode's seed and trial). `shown`, when given, collects each turn.
 */
export function participantVoice(envId: string, make: (rng: Rng) => UserParticipant, shown?: ShownToUser[]): UserVoice {
  const view = viewOf(envId);
  return {
    name: 'scripted person',
    connect: () => {
      let card: GoalCard | undefined;
      let person: UserParticipant | undefined;
      return {
        say: async (turn) => {
          if (turn.turn === 0 || card === undefined || person === undefined) {
            card = view.goalCard(turn.info);
            person = make(createRng(turn.seed).fork(`person:${turn.trial}`));
          }
          const hint = view.userHint?.(turn.info);
          const agentSaid = actionText(turn.agentAction);
          const typed = person(card, hint, agentSaid);
          shown?.push({ card, hint, agentSaid, typed });
          return { text: typed };
        },
      };
    },
  };
}

/** The dialog as the page shows it: user and agent turns (`kb` lines are in the agent view). */
export interface DialogLine {
  readonly speaker: 'user' | 'agent';
  readonly text: string;
}

/** An agent-side participant: the agent view, the dialog and the tools → what the person sends. */
export type AgentParticipant = (view: readonly ViewSection[], dialog: readonly DialogLine[], tools: readonly ToolSpec[]) => string | { tool: string; arguments: Record<string, unknown> };

/**
 * An agent-side participant as an `Agent`: each request's observation through the person view; the
 * dialog is the observation's history, or — for an environment whose observation holds only the
 * user's last utterance (KB-InfoBot) — the utterances and the agent's actions as the page words them
 * (`agentSaid`), gathered turn by turn.
 */
export function participantAgent(envId: string, person: () => AgentParticipant): Agent {
  const view = viewOf(envId);
  let current: AgentParticipant | undefined;
  let lines: DialogLine[] = [];
  return {
    name: 'scripted person (agent)',
    act(req) {
      if (req.turn === 0 || current === undefined) {
        current = person();
        lines = [];
      }
      const obs = req.observation as { history?: unknown; utterance?: unknown } | null;
      const history = obs?.history as Array<{ speaker: string; text: string }> | undefined;
      if (history === undefined && typeof obs?.utterance === 'string') lines.push({ speaker: 'user', text: obs.utterance });
      const dialog: DialogLine[] = history ? history.filter((t) => t.speaker === 'user' || t.speaker === 'bot').map((t) => ({ speaker: t.speaker === 'user' ? 'user' : 'agent', text: t.text })) : lines;
      const action = current(view.agentView(req.observation, {}), dialog, req.tools);
      if (history === undefined) lines.push({ speaker: 'agent', text: view.agentSaid?.(action, {}) ?? actionText(action) });
      return action as Readonly<Record<string, unknown>>;
    },
  };
}
