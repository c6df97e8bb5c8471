/**
 * A Gym-like environment interface shared by the dialog testbeds (AirDialogue self-play,
 * KB-InfoBot), and the `envs` registry mapping ids such as `airdialogue-v1` to factories.
 *
 * `reset` starts an episode (seeded: the same seed gives the same episode); `step` applies the
 * policy's action and returns the next observation, the reward, and whether the episode ended by
 * itself (`terminated`) or was cut off (`truncated`, e.g. a turn limit).
 */
import { Registry } from '../core/registry.js';
import type { Rng } from '../core/rng.js';

export type Info = Record<string, unknown>;

export interface ResetOptions {
  seed?: number;
}

export interface ResetResult<Obs> {
  obs: Obs;
  info: Info;
}

export interface StepResult<Obs> {
  obs: Obs;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: Info;
}

export interface Env<Obs, Act> {
  /** The registry id of this environment (e.g. `airdialogue-v1`). */
  readonly id: string;
  reset(opts?: ResetOptions): ResetResult<Obs>;
  step(action: Act): StepResult<Obs>;
  /** A random valid action for the current state (Gym's `action_space.sample()`). */
  sampleAction(rng: Rng): Act;
}

/** Options a factory may receive (each environment reads what it needs, with defaults). */
export type EnvOptions = Readonly<Record<string, unknown>>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EnvFactory = (options?: EnvOptions) => Env<any, any>;

/** Named environments; importing a domain's index registers its environments. */
export const envs = new Registry<EnvFactory>('environment');

/** Runs one episode with `policy` until it terminates or is truncated; returns the total reward. */
export function runEpisode<Obs, Act>(env: Env<Obs, Act>, policy: (obs: Obs) => Act, opts: ResetOptions = {}, maxSteps = 1000): { reward: number; steps: number; terminated: boolean; info: Info } {
  let { obs } = env.reset(opts);
  let reward = 0;
  for (let steps = 1; steps <= maxSteps; steps++) {
    const r = env.step(policy(obs));
    reward += r.reward;
    obs = r.obs;
    if (r.terminated || r.truncated) return { reward, steps, terminated: r.terminated, info: r.info };
  }
  return { reward, steps: maxSteps, terminated: false, info: {} };
}
