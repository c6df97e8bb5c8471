/**
 * What a person sees of an environment (the testbed's person view, the `person` hook of its
 * family): the goal card of a person who plays the user, the words for what the simulated user
 * would do now (a hint, where the environment decides it), the agent-side view of an observation
 * for a person who plays the agent, and an ended episode's outcome in words. The page renders it as
 * text (it escapes every string); the tools the person may call come from the environment's tools.
 */
/** An environment's `info` (as `env.ts`'s Info; kept here so that the two files do not import each other). */
type Info = Readonly<Record<string, unknown>>;

/**
 * A goal card: a title and lines of plain text (what to ask for, what to change, what to ask once
 * booked; the target movie with candidate values; the customer's travel context).
 *
 * @example
 * ```ts
 * import type { GoalCard } from 'dialogym';
 * const card: GoalCard = { title: 'Book a table', lines: ['cuisine: italian', 'location: rome'] };
 * ```
 */
export interface GoalCard {
  readonly title: string;
  readonly lines: readonly string[];
}

/**
 * One section of what a person playing the agent sees: lines of text, or a table (the KB lines of
 * an `api_call`, AirDialogue's flights and reservation, KB-InfoBot's movies).
 *
 * @example
 * ```ts
 * import type { ViewSection } from 'dialogym';
 * const s: ViewSection = { kind: 'table', title: 'Flights', columns: ['flight', 'price'], rows: [['1000', '200']] };
 * ```
 */
export type ViewSection =
  | { readonly kind: 'text'; readonly title: string; readonly lines: readonly string[] }
  | { readonly kind: 'table'; readonly title: string; readonly columns: readonly string[]; readonly rows: readonly (readonly string[])[] };

/**
 * An ended episode as the person view describes it: success, the failure reason (null on success),
 * the failure's detail as the environment gave it, and the last step's `info`.
 *
 * @example
 * ```ts
 * import type { EndedEpisode } from 'dialogym';
 * const e: EndedEpisode = { success: false, failure: 'api_call', detail: { expected: { price: 'cheap' }, got: { price: 'expensive' } }, info: {} };
 * ```
 */
export interface EndedEpisode {
  readonly success: boolean;
  readonly failure: string | null;
  readonly detail?: unknown;
  readonly info: Info;
  /** The side the person played (the outcome's wording fits it: "the agent found your movie" to a user, "you found the user's movie" to an agent); a user when absent. */
  readonly role?: 'user' | 'agent';
}

/**
 * A testbed's person view (module description).
 *
 * @example
 * ```ts
 * import { envPersonView } from 'dialogym';
 * const view = envPersonView('restaurant-task5-v2');
 * ```
 */
export interface PersonView {
  /** The goal card of an episode, from its reset's `info` (its `goal`). */
  goalCard(resetInfo: Info): GoalCard;
  /** What the simulated user does now, in words, from the `info` of the reset or step that brought the user's turn (its `userAct`); undefined where the environment does not tell. */
  userHint?(info: Info): string | undefined;
  /** What a person playing the agent sees of an observation (besides the dialog itself, which the page shows), with the reset's `info`. */
  agentView(observation: unknown, resetInfo: Info): readonly ViewSection[];
  /**
   * What a person reads for an agent's action (a tool call, or the environment's action object),
   * with the reset's `info`: KB-InfoBot's question or its movie titles, AirDialogue's action in
   * words; undefined where the dialog's own words serve (the page then shows the action as a call).
   */
  agentSaid?(action: unknown, resetInfo: Info): string | undefined;
  /** An ended episode in words (worded for `ended.role`): the first line says success or failure, the next ones why. */
  outcome(ended: EndedEpisode): readonly string[];
}
