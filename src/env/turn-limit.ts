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
