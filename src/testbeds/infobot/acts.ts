/** Dialog acts exchanged in the movie domain: what the simulated user says, what the agent does. */
import type { Slot } from './slots.js';

/**
 * A slot and a value as the user says it (possibly corrupted).
 *
 * @example
 * ```ts
 * import type { SlotValue } from 'dialogym/infobot';
 * const sv: SlotValue = { slot: 'genre', value: 'comedy' };
 * ```
 */
export interface SlotValue {
  readonly slot: Slot;
  readonly value: string;
}

/** A user dialog act (the NLG turns it into an utterance).
 *
 * @example
 * ```ts
 * import type { UserAct } from 'dialogym/infobot';
 * const act: UserAct = { act: 'inform', slot: 'release_year', value: '1994' };
 * ```
 */
export type UserAct =
  /** First turn: asks for a movie, giving some of the slots it knows. */
  | { readonly act: 'open'; readonly informs: readonly SlotValue[] }
  /** Answer to a request. */
  | { readonly act: 'inform'; readonly slot: Slot; readonly value: string }
  | { readonly act: 'dont-know'; readonly slot: Slot }
  /** End of the dialog: the target was among the results … */
  | { readonly act: 'thanks' }
  /** … or it was not (or the dialog ran out of turns). */
  | { readonly act: 'deny' };

/**
 * An agent action: request the value of a slot, or inform a ranked list of KB rows (best first; the
 * user looks for the target among the first R = 5).
 *
 * @example
 * ```ts
 * import type { InfoBotAction } from 'dialogym/infobot';
 * const ask: InfoBotAction = { act: 'request', slot: 'actor' };
 * const answer: InfoBotAction = { act: 'inform', results: [12, 40, 3] };
 * ```
 */
export type InfoBotAction = { readonly act: 'request'; readonly slot: Slot } | { readonly act: 'inform'; readonly results: readonly number[] };
