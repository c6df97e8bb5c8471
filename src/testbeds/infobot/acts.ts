/** Dialog acts exchanged in the movie domain: what the simulated user says, what the agent does. */
import type { Slot } from './slots.js';

export interface SlotValue {
  readonly slot: Slot;
  readonly value: string;
}

/** A user dialog act (the NLG turns it into an utterance). */
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
 */
export type InfoBotAction = { readonly act: 'request'; readonly slot: Slot } | { readonly act: 'inform'; readonly results: readonly number[] };
