/**
 * The goal of the simulated user of the online restaurant environments: the slots of an
 * api_call, the information it asks for, the goal of one episode, and the goal as JSON (`-v2`'s
 * reset `info.goal`).
 */
import type { ApiCall, Restaurant } from '../kb.js';
import type { TaskId } from '../simulator.js';

/** A slot of an api_call (bAbI: the first four; DSTC6 adds atmosphere and restrictions). */
export type CallSlot = 'cuisine' | 'location' | 'number' | 'price' | 'atmosphere' | 'restrictions';
/** What the user asks about the booked restaurant. */
export type InfoKind = 'phone' | 'address';

/**
 * The user's goal for one episode: the call of the request phase, the call after its updates, the
 * slots named in the opening request, the fields it updates (in order), the options shown before
 * the dialog (task 3) or the restaurant to book (task 4), and the information it will ask for.
 */
export interface Goal {
  readonly task: TaskId;
  readonly first: ApiCall;
  readonly final: ApiCall;
  readonly request: readonly CallSlot[];
  readonly updates: readonly CallSlot[];
  /** Task 3: the KB results in the history before the dialog starts (in the shown order). */
  readonly shown: readonly Restaurant[];
  /** Task 4: the restaurant the user books. */
  readonly restaurant?: Restaurant;
  readonly info: readonly InfoKind[];
}

/**
 * The user's goal as JSON (the reset's `info.goal` of the -v2 envs): the task, the slots of the
 * opening request, the first and final api_calls, the updated slots in order, the options shown
 * before the dialog (task 3), the restaurant to book (task 4) and the information it will ask for.
 */
export function goalJson(g: Goal): Record<string, unknown> {
  return { task: g.task, request: g.request, first: g.first, updates: g.updates, final: g.final, shown: g.shown.map((r) => r.name), restaurant: g.restaurant?.name ?? null, info: g.info };
}
