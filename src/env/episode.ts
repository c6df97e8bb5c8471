/**
 * The episode loop: every episode in dialogym — online evaluation (`evaluate`), KB-InfoBot's paper
 * runs, AirDialogue self-play, the RL trainers' rollouts — is played by `episodeSteps`, one
 * generator that resets the environment, yields each turn the agent must answer (observation,
 * info, a privileged view when a hook gives one) and receives the action, steps the environment
 * and adds up reward, turns and actions until the episode ends. Its drivers are thin: `playEpisode`
 * answers each turn with a synchronous policy (the fast path of the trainers and the paper runs);
 * `evaluate` answers it with an agent behind a transport (stdio, HTTP, an LLM), awaiting each reply.
 *
 * What a caller adds goes through hooks: `onTurn` (each turn and its action), `onStep` (each step's
 * result), `privileged` (an oracle's view, e.g. KB-InfoBot's `max` reads the user's goal) and
 * `metrics` (a testbed's own end-of-episode figures: KB-InfoBot's rank, AirDialogue's score).
 */
import { ConfigError } from '../core/errors.js';
import type { Env, Info, ResetOptions, StepResult } from './env.js';

/**
 * A turn the agent answers: its index (0-based: the number of actions taken before it), the
 * observation, the `info` of the step that led to it (the reset's for turn 0), the privileged view
 * (undefined without a `privileged` hook), the reward so far and the actions so far.
 *
 * @example
 * ```ts
 * import { make, playEpisode, createRng, type EpisodeTurn } from 'dialogym';
 * const env = make('infobot-small-v1');
 * const rng = createRng(1);
 * playEpisode(env, (t: EpisodeTurn<unknown>) => (t.turn < 3 ? env.sampleAction(rng) : { act: 'inform', results: [0, 1, 2, 3, 4] }), { reset: { seed: 1 } });
 * ```
 */
export interface EpisodeTurn<Obs, Priv = undefined, Act = unknown> {
  readonly turn: number;
  readonly obs: Obs;
  readonly info: Info;
  readonly privileged: Priv;
  /** Total reward of the steps so far. */
  readonly reward: number;
  /** The actions taken so far (the loop's own list: read it, do not change it). */
  readonly actions: readonly Act[];
}

/**
 * A played episode: total reward, actions taken (`turns`), how it ended, the last observation and
 * `info` (the reset's when no step was taken), the reset's `info`, the actions, and what the
 * `metrics` hook computed. `ended` is false when `maxSteps` ran out first (then `terminated` and
 * `truncated` are both false).
 *
 * @example
 * ```ts
 * import { make, playEpisode, createRng, type PlayedEpisode } from 'dialogym';
 * const env = make('airdialogue-v1');
 * const rng = createRng(2);
 * const e: PlayedEpisode<unknown, unknown> = playEpisode(env, () => env.sampleAction(rng), { reset: { seed: 2 } });
 * console.log(e.reward, e.turns, e.terminated, e.info['score']);
 * ```
 */
export interface PlayedEpisode<Obs, Act, M = undefined> {
  readonly reward: number;
  readonly turns: number;
  readonly ended: boolean;
  readonly terminated: boolean;
  readonly truncated: boolean;
  readonly obs: Obs;
  readonly info: Info;
  readonly resetInfo: Info;
  readonly actions: readonly Act[];
  readonly metrics: M;
}

/**
 * What a caller adds to the loop: how the episode is reset, a step limit, and hooks.
 *
 * @example
 * ```ts
 * import { make, playEpisode, createRng, type EpisodeHooks } from 'dialogym';
 * const env = make('infobot-small-v1');
 * const rng = createRng(3);
 * const hooks: EpisodeHooks<unknown, unknown, undefined, boolean> = { reset: { seed: 3 }, maxSteps: 50, metrics: (e) => e.info['success'] === true };
 * const won = playEpisode(env, () => env.sampleAction(rng), hooks).metrics;
 * ```
 */
export interface EpisodeHooks<Obs, Act, Priv = undefined, M = undefined> {
  /** Options of `env.reset` (the episode's seed and variant). */
  readonly reset?: ResetOptions;
  /** Actions after which the loop stops if the episode has not ended (`ended` false); default 10,000. */
  readonly maxSteps?: number;
  /** The privileged view of each turn (an oracle agent's), read from the environment before the turn is yielded. */
  readonly privileged?: () => Priv;
  /** Each turn and the action chosen for it, before the environment steps. */
  readonly onTurn?: (turn: EpisodeTurn<Obs, Priv, Act>, action: Act) => void;
  /** Each step's result, as the environment returned it. */
  readonly onStep?: (result: StepResult<Obs>, turn: EpisodeTurn<Obs, Priv, Act>) => void;
  /** The testbed's figures of the ended episode (called once, before the loop returns). */
  readonly metrics?: (episode: PlayedEpisode<Obs, Act, undefined>) => M;
}

/** Default step limit of the loop: far above any built-in environment's turn limit. */
export const MAX_EPISODE_STEPS = 10_000;

/**
 * The episode loop (module description): resets `env`, then yields each turn and receives the
 * action to take (`generator.next(action)`), until the episode terminates, is truncated or
 * `maxSteps` actions were taken; returns the {@link PlayedEpisode}. A `maxSteps` that is not a
 * non-negative integer is a ConfigError (at the first `next()`). Errors of the environment
 * (a refused action: InvalidActionError) and of the hooks pass through to the driver. Drive it with
 * `playEpisode`, or by hand when the actions come asynchronously.
 *
 * @example
 * ```ts
 * import { make, episodeSteps, createRng } from 'dialogym';
 * const env = make('airdialogue-v1');
 * const rng = createRng(4);
 * const steps = episodeSteps(env, { reset: { seed: 4 } });
 * let it = steps.next();
 * while (!it.done) it = steps.next(env.sampleAction(rng)); // or: await an agent's reply
 * console.log(it.value.reward, it.value.turns);
 * ```
 */
export function* episodeSteps<Obs, Act, Priv = undefined, M = undefined>(env: Env<Obs, Act>, hooks: EpisodeHooks<Obs, Act, Priv, M> = {}): Generator<EpisodeTurn<Obs, Priv, Act>, PlayedEpisode<Obs, Act, M>, Act> {
  const maxSteps = hooks.maxSteps ?? MAX_EPISODE_STEPS;
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 0) throw new ConfigError(`maxSteps must be a non-negative integer, got ${String(maxSteps)}`);
  const start = env.reset(hooks.reset ?? {});
  const { privileged, onTurn, onStep } = hooks;
  const actions: Act[] = [];
  let obs = start.obs;
  let info = start.info;
  let reward = 0;
  let ended = false;
  let terminated = false;
  let truncated = false;
  for (let turn = 0; turn < maxSteps; turn++) {
    const t: EpisodeTurn<Obs, Priv, Act> = { turn, obs, info, privileged: (privileged ? privileged() : undefined) as Priv, reward, actions };
    const action = yield t;
    onTurn?.(t, action);
    actions.push(action);
    const r = env.step(action);
    onStep?.(r, t);
    reward += r.reward;
    obs = r.obs;
    info = r.info;
    if (r.terminated || r.truncated) {
      ended = true;
      terminated = r.terminated;
      truncated = r.truncated;
      break;
    }
  }
  const played: PlayedEpisode<Obs, Act, undefined> = { reward, turns: actions.length, ended, terminated, truncated, obs, info, resetInfo: start.info, actions, metrics: undefined };
  return hooks.metrics ? { ...played, metrics: hooks.metrics(played) } : (played as PlayedEpisode<Obs, Act, M>);
}

/**
 * Plays one episode of `env` with a synchronous `policy` (each turn → its action) through the
 * episode loop (`episodeSteps`, hooks as there) and returns it. Errors of the environment or the
 * policy pass through.
 *
 * @example
 * ```ts
 * import { make, playEpisode, createRng } from 'dialogym';
 * const env = make('infobot-small-v1');
 * const rng = createRng(1);
 * const { reward, turns, terminated } = playEpisode(env, () => env.sampleAction(rng), { reset: { seed: 1 } });
 * ```
 */
export function playEpisode<Obs, Act, Priv = undefined, M = undefined>(env: Env<Obs, Act>, policy: (turn: EpisodeTurn<Obs, Priv, Act>) => Act, hooks: EpisodeHooks<Obs, Act, Priv, M> = {}): PlayedEpisode<Obs, Act, M> {
  const steps = episodeSteps(env, hooks);
  let it = steps.next();
  while (!it.done) it = steps.next(policy(it.value));
  return it.value;
}

/**
 * Resets `env` with `opts` and steps it with `policy(obs)` until the episode ends or `maxSteps`
 * steps were played: `playEpisode` with a policy of observations, as `{ reward, steps, terminated,
 * info }` (the last step's `info`, also when `maxSteps` ran out).
 *
 * @deprecated Use {@link playEpisode}; this stays for code written against dialogym 0.1.
 * @example
 * ```ts
 * import { make, runEpisode, createRng } from 'dialogym';
 * const env = make('infobot-small-v1');
 * const rng = createRng(1);
 * const { reward, steps } = runEpisode(env, () => env.sampleAction(rng), { seed: 1 });
 * ```
 */
export function runEpisode<Obs, Act>(env: Env<Obs, Act>, policy: (obs: Obs) => Act, opts: ResetOptions = {}, maxSteps = 1000): { reward: number; steps: number; terminated: boolean; info: Info } {
  const e = playEpisode(env, (t) => policy(t.obs), { reset: opts, maxSteps });
  return { reward: e.reward, steps: e.turns, terminated: e.terminated, info: e.info };
}
