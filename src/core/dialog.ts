/** Dialog types shared by every testbed. */

/**
 * Who says a turn: the user, the bot, or the knowledge base (`kb`: API-call results, shown to
 * the bot as turns of their own).
 *
 * @example
 * ```ts
 * import type { Speaker } from 'dialogym';
 * const who: Speaker = 'bot';
 * ```
 */
export type Speaker = 'user' | 'bot' | 'kb';

/**
 * One utterance of a dialog: its speaker and its text, as written in the data (tokenised,
 * lower-case in the bAbI files).
 *
 * @example
 * ```ts
 * import type { Turn } from 'dialogym';
 * const turn: Turn = { speaker: 'user', text: 'i would like a table for two' };
 * ```
 */
export interface Turn {
  /** Who says it. */
  readonly speaker: Speaker;
  /** The utterance. */
  readonly text: string;
}

/**
 * A dialog: an id and its turns in order. Every testbed's readers return dialogs of this shape
 * (possibly with more fields).
 *
 * @example
 * ```ts
 * import type { Dialog } from 'dialogym';
 * const d: Dialog = {
 *   id: 'demo-1',
 *   turns: [
 *     { speaker: 'user', text: 'hello' },
 *     { speaker: 'bot', text: 'hello what can i help you with today' },
 *   ],
 * };
 * ```
 */
export interface Dialog {
  /** Identifier, unique within its file or data set. */
  readonly id: string;
  /** The turns, in the order they were spoken. */
  readonly turns: readonly Turn[];
}

/**
 * Indices (into `d.turns`) of the bot turns of a dialog, in order: the turns a response model is
 * asked to predict.
 *
 * @example
 * ```ts
 * import { botTurnIndices } from 'dialogym';
 * botTurnIndices({ id: 'x', turns: [
 *   { speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'hello' },
 *   { speaker: 'user', text: 'thanks' }, { speaker: 'bot', text: 'you are welcome' },
 * ] }); // [1, 3]
 * ```
 */
export function botTurnIndices(d: Dialog): number[] {
  const out: number[] = [];
  d.turns.forEach((t, i) => {
    if (t.speaker === 'bot') out.push(i);
  });
  return out;
}
