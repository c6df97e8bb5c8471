/**
 * The generic turn limit, as a wrapper (Gymnasium's `TimeLimit`): an environment whose episodes
 * are cut off after `maxTurns` agent turns. The step that reaches the limit, if it did not end the
 * episode, comes back `truncated: true` with `info.truncatedBy: 'turnLimit'` and `info.maxTurns`;
 * `evaluate` records it as `max turns`. An environment family whose own limit counts in other units
 * or reports more (the restaurant's failure detail, AirDialogue's utterances of both sides,
 * KB-InfoBot's user simulator) declares how the limit reaches it instead: its descriptor's
 * `turnLimit`; the wrapper serves every other environment (your own included).
 */
import { ConfigError } from '../core/errors.js';
import type { Rng } from '../core/rng.js';
import type { Env, ResetOptions, ResetResult, StepResult } from './env.js';

/**
 * An environment with a turn limit (see the module description). `reset` starts the count anew.
 *
 * @example
 * ```ts
 * import { make, TurnLimit } from 'dialogym';
 * const env = new TurnLimit(make('infobot-small-v1'), 2);
 * env.reset({ seed: 1 });
 * env.step({ act: 'request', slot: 'actor' });
 * env.step({ act: 'request', slot: 'genre' }).truncated; // true
 * ```
 */
export class TurnLimit<Obs, Act> implements Env<Obs, Act> {
  private turns = 0;

  constructor(
    readonly inner: Env<Obs, Act>,
    readonly maxTurns: number,
  ) {
    if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new ConfigError(`${inner.id}: maxTurns must be a positive integer, got ${String(maxTurns)}`);
  }

  get id(): string {
    return this.inner.id;
  }

  reset(opts?: ResetOptions): ResetResult<Obs> {
    this.turns = 0;
    return this.inner.reset(opts);
  }

  step(action: Act): StepResult<Obs> {
    const r = this.inner.step(action);
    this.turns++;
    if (r.terminated || r.truncated || this.turns < this.maxTurns) return r;
    return { ...r, truncated: true, info: { ...r.info, truncatedBy: 'turnLimit', maxTurns: this.maxTurns } };
  }

  sampleAction(rng: Rng): Act {
    return this.inner.sampleAction(rng);
  }
}

/**
 * `env` with the turn limit `maxTurns` (`env` itself when undefined).
 *
 * @example
 * ```ts
 * import { make, withTurnLimit } from 'dialogym';
 * const env = withTurnLimit(make('infobot-small-v1'), 5);
 * ```
 */
export function withTurnLimit<Obs, Act>(env: Env<Obs, Act>, maxTurns: number | undefined): Env<Obs, Act> {
  return maxTurns === undefined ? env : new TurnLimit(env, maxTurns);
}

/** The environments whose testbed declares how a turn limit reaches them (its descriptor's `turnLimit`): id → the options that set it. */
const ownLimits = new Map<string, (maxTurns: number) => Readonly<Record<string, unknown>>>();

/**
 * Declares how a turn limit reaches environments `envIds`: the options that set their own limit
 * (the list of testbeds declares each testbed's `turnLimit`; an environment not declared gets the
 * wrapper).
 *
 * @example
 * ```ts
 * import { declareTurnLimit } from 'dialogym';
 * declareTurnLimit(['my-env-v0'], (maxTurns) => ({ maxTurns }));
 * ```
 */
export function declareTurnLimit(envIds: readonly string[], options: (maxTurns: number) => Readonly<Record<string, unknown>>): void {
  for (const id of envIds) ownLimits.set(id, options);
}

/**
 * How the turn limit `maxTurns` reaches environment `envId`, as `evaluate`, `env-server` and
 * `serve --env` apply it: the options its testbed declares for its own limit (`options`, to merge
 * into the environment's), else the wrapper (`wrapper`: `withTurnLimit(env, wrapper)`). Undefined
 * `maxTurns`: neither (the environment's own default).
 *
 * @example
 * ```ts
 * import { turnLimitOf } from 'dialogym';
 * turnLimitOf('restaurant-task5-v2', 10); // { options: { maxTurns: 10 } }
 * turnLimitOf('my-env-v0', 10); // { wrapper: 10 } (no declared limit)
 * ```
 */
export function turnLimitOf(envId: string, maxTurns: number | undefined): { readonly options?: Readonly<Record<string, unknown>>; readonly wrapper?: number } {
  if (maxTurns === undefined) return {};
  const own = ownLimits.get(envId);
  return own ? { options: own(maxTurns) } : { wrapper: maxTurns };
}

/**
 * A server's turn limit on a session of environment `envId` (`env-server`'s and `serve --env`'s
 * `maxTurns`): the options its testbed declares for its own limit, under the session's options
 * (an option the session sets itself wins), else the wrapper's limit (`withTurnLimit(env, wrapper)`).
 *
 * @example
 * ```ts
 * import { sessionTurnLimit } from 'dialogym';
 * sessionTurnLimit('restaurant-task5-v2', { maxTurns: 40 }, 20); // { envOptions: { maxTurns: 40 } }: the session's own
 * sessionTurnLimit('my-env-v0', {}, 20); // { envOptions: {}, wrapper: 20 }
 * ```
 */
export function sessionTurnLimit(envId: string, envOptions: Readonly<Record<string, unknown>>, maxTurns: number | undefined): { readonly envOptions: Readonly<Record<string, unknown>>; readonly wrapper?: number } {
  const limit = turnLimitOf(envId, maxTurns);
  return { envOptions: limit.options ? { ...limit.options, ...envOptions } : envOptions, ...(limit.wrapper !== undefined ? { wrapper: limit.wrapper } : {}) };
}
