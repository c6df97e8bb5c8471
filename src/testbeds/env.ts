/**
 * A Gym-like environment interface shared by the dialog testbeds (AirDialogue self-play,
 * KB-InfoBot), and the `envs` registry mapping ids such as `airdialogue-v1` to factories.
 *
 * `reset` starts an episode (seeded: the same seed gives the same episode); `step` applies the
 * policy's action and returns the next observation, the reward, and whether the episode ended by
 * itself (`terminated`) or was cut off (`truncated`, e.g. a turn limit).
 */
import { Registry } from '../core/registry.js';
import { DialogymError } from '../core/errors.js';
import { createRng, type Rng } from '../core/rng.js';

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

/**
 * Builds a registered environment by id (Gymnasium's `make`). The testbeds register their ids
 * when imported; importing `dialogym` registers all of them.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * const env = make('infobot-medium-v1');
 * let { obs } = env.reset({ seed: 1 });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function make(envId: string, options?: EnvOptions): Env<any, any> {
  return envs.get(envId)(options);
}

/** What `checkEnv` found wrong with an environment (the message names the environment and the rule). */
export class EnvCheckError extends DialogymError {}

export interface CheckEnvOptions {
  /** Episodes played with random actions (`sampleAction`), each twice to check determinism; default 5. */
  readonly episodes?: number;
  /** An episode must end (terminated or truncated) within this many steps; default 1000. */
  readonly maxSteps?: number;
  /** Seed of the episodes and of the random actions; default 0. */
  readonly seed?: number;
}

function isPlainJson(x: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (x === null || typeof x === 'string' || typeof x === 'boolean') return true;
  if (typeof x === 'number') return Number.isFinite(x);
  if (Array.isArray(x)) return x.every((v) => isPlainJson(v, depth + 1));
  if (typeof x === 'object') return Object.values(x as object).every((v) => v === undefined || isPlainJson(v, depth + 1));
  return false;
}

/**
 * Checks that an environment follows the `Env` contract, like Gymnasium's `check_env`: `reset`
 * returns `{obs, info}` and is reproducible for a seed; `step` returns a finite reward, boolean
 * `terminated`/`truncated` and an `info` object; observations are plain JSON data; every episode of
 * random actions ends within `maxSteps`; the same seed and actions give the same episode, and
 * different seeds do not always give the same first observation. Throws `EnvCheckError` on the first
 * violation; returns the number of steps played.
 *
 * @example
 * ```ts
 * import { checkEnv, envs, make } from 'dialogym';
 * for (const id of envs) checkEnv(make(id));
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function checkEnv(env: Env<any, any>, opts: CheckEnvOptions = {}): number {
  const episodes = opts.episodes ?? 5;
  const maxSteps = opts.maxSteps ?? 1000;
  const seed = opts.seed ?? 0;
  const id = typeof env.id === 'string' && env.id !== '' ? env.id : '<env without id>';
  const fail = (rule: string): never => {
    throw new EnvCheckError(`${id}: ${rule}`);
  };
  for (const m of ['reset', 'step', 'sampleAction'] as const) if (typeof env[m] !== 'function') fail(`${m} is not a function`);
  let steps = 0;
  const play = (episodeSeed: number, actionSeed: number): string[] => {
    const r0 = env.reset({ seed: episodeSeed });
    if (r0 === null || typeof r0 !== 'object' || !('obs' in r0)) fail('reset() must return { obs, info }');
    if (r0.info === null || typeof r0.info !== 'object') fail('reset() info must be an object');
    if (!isPlainJson(r0.obs)) fail('reset() observation is not plain JSON data (finite numbers, strings, arrays, objects)');
    const trace = [JSON.stringify(r0.obs)];
    const rng = createRng(actionSeed);
    for (let k = 1; k <= maxSteps; k++) {
      const r = env.step(env.sampleAction(rng));
      steps++;
      if (typeof r.reward !== 'number' || !Number.isFinite(r.reward)) fail(`step ${k}: reward ${String(r.reward)} is not a finite number`);
      if (typeof r.terminated !== 'boolean' || typeof r.truncated !== 'boolean') fail(`step ${k}: terminated and truncated must be booleans`);
      if (r.info === null || typeof r.info !== 'object') fail(`step ${k}: info must be an object`);
      if (!isPlainJson(r.obs)) fail(`step ${k}: observation is not plain JSON data`);
      trace.push(JSON.stringify([r.obs, r.reward, r.terminated, r.truncated]));
      if (r.terminated || r.truncated) return trace;
    }
    return fail(`an episode of random actions did not end within ${maxSteps} steps (seed ${episodeSeed})`);
  };
  let differs = false;
  for (let i = 0; i < episodes; i++) {
    const a = play(seed + i, seed + 100 + i);
    const b = play(seed + i, seed + 100 + i);
    if (a.length !== b.length || a.some((x, j) => x !== b[j])) fail(`the same seed and actions gave different episodes (seed ${seed + i})`);
    const other = play(seed + i + 1000, seed + 100 + i);
    if (other[0] !== a[0]) differs = true;
  }
  if (episodes > 1 && !differs) fail('different seeds always give the same first observation (is reset ignoring its seed?)');
  return steps;
}
