/**
 * A Gym-like environment interface shared by the dialog testbeds (AirDialogue self-play,
 * KB-InfoBot), and the `envs` registry mapping ids such as `airdialogue-v1` to factories. Episodes
 * are played by the one episode loop, `env/episode.ts` (`playEpisode`).
 *
 * `reset` starts an episode (seeded: the same seed gives the same episode); `step` applies the
 * policy's action and returns the next observation, the reward, and whether the episode ended by
 * itself (`terminated`) or was cut off (`truncated`, e.g. a turn limit).
 */
import { Registry } from '../core/registry.js';
import { ConfigError, DialogymError, StateError } from '../core/errors.js';
import { createRng, type Rng } from '../core/rng.js';
import { checkSchema, type SchemaName } from '../formats/schema.js';
import type { PersonView } from './person.js';

/**
 * Diagnostic data an environment returns with `reset` and `step` (Gymnasium's `info` dict): not
 * part of the observation; the keys depend on the environment (KB-InfoBot: `target`, `userAct`,
 * `turn`, and `success`/`rank` at the end; AirDialogue: `score`, `action`, `expected` at the end).
 *
 * @example
 * ```ts
 * import { make, type Info } from 'dialogym';
 * const { info }: { info: Info } = make('infobot-small-v1').reset({ seed: 3 });
 * console.log(info['target']); // index of the movie the simulated user looks for
 * ```
 */
export type Info = Record<string, unknown>;

/**
 * Options of `Env.reset`. With a `seed` the episode depends only on that seed; without, the
 * environment draws the next episode of its own stream (seeded by the factory's `seed` option).
 *
 * @example
 * ```ts
 * import { make, type ResetOptions } from 'dialogym';
 * const opts: ResetOptions = { seed: 12 };
 * make('airdialogue-v1').reset(opts);
 * ```
 */
export interface ResetOptions {
  /** Seed of this episode (a safe integer). */
  seed?: number;
  /**
   * Trial of a repeated episode (pass^k): the same seed gives the same task (user goal) and a
   * different `variant` other draws of the simulated user's behaviour. Default 0; environments
   * without such a split ignore it.
   */
  variant?: number;
}

/**
 * What `Env.reset` returns: the first observation of the episode and its `info`.
 *
 * @example
 * ```ts
 * import { make, type ResetResult } from 'dialogym';
 * const first: ResetResult<{ utterance: string }> = make('infobot-small-v1').reset({ seed: 1 });
 * console.log(first.obs.utterance);
 * ```
 */
export interface ResetResult<Obs> {
  /** The first observation (e.g. the user's opening utterance). */
  obs: Obs;
  info: Info;
}

/**
 * What `Env.step` returns (Gymnasium's 5-tuple as an object). After `terminated` or `truncated`,
 * call `reset` before stepping again.
 *
 * @example
 * ```ts
 * import { make, createRng, type StepResult } from 'dialogym';
 * const env = make('infobot-small-v1');
 * env.reset({ seed: 1 });
 * const r: StepResult<unknown> = env.step(env.sampleAction(createRng(1)));
 * if (r.terminated || r.truncated) env.reset();
 * ```
 */
export interface StepResult<Obs> {
  /** The next observation. */
  obs: Obs;
  /** Reward of this step (a finite number). */
  reward: number;
  /** The episode ended by itself (goal reached or failed, e.g. the agent informed). */
  terminated: boolean;
  /** The episode was cut off (e.g. a turn limit). */
  truncated: boolean;
  info: Info;
}

/**
 * A Gymnasium-style dialog environment: the learner plays one side, the environment simulates
 * the other. Build one with `make(id)`. `step` before `reset`, or after the episode ended,
 * throws a StateError (not exported from `dialogym`; catch DialogymError); an action the
 * environment cannot take throws an InvalidActionError.
 *
 * @example
 * ```ts
 * import { make, createRng, type Env } from 'dialogym';
 * const env: Env<unknown, unknown> = make('infobot-medium-v1');
 * const rng = createRng(0);
 * env.reset({ seed: 5 });
 * let done = false;
 * while (!done) {
 *   const r = env.step(env.sampleAction(rng));
 *   done = r.terminated || r.truncated;
 * }
 * ```
 */
export interface Env<Obs, Act> {
  /** The registry id of this environment (e.g. `airdialogue-v1`). */
  readonly id: string;
  /** Starts an episode; see {@link ResetOptions}. */
  reset(opts?: ResetOptions): ResetResult<Obs>;
  /** Applies the learner's action; see {@link StepResult}. */
  step(action: Act): StepResult<Obs>;
  /** A random valid action for the current state (Gym's `action_space.sample()`). */
  sampleAction(rng: Rng): Act;
}

/**
 * Options a factory may receive (each environment reads what it needs, with defaults; `make`
 * refuses a key it does not read and checks types and bounds against the family's schema, see
 * `envSchema`). The accepted keys are the environment's own options type, e.g.
 * `InfoBotEnvOptions` in `dialogym/infobot` — any object type, so a typed options object is
 * passed as it is.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import type { InfoBotEnvOptions } from 'dialogym/infobot';
 * const options: InfoBotEnvOptions = { kbSeed: 7, temperature: 2 };
 * const env = make('infobot-small-v1', options);
 * ```
 */
export type EnvOptions = Readonly<object>;

/**
 * A function that builds an environment from options: what `envs` maps ids to. Register your own
 * with `envs.register(id, description, factory)` (a ConfigError if the id is taken).
 *
 * @example
 * ```ts
 * import { envs, make, type EnvFactory } from 'dialogym';
 * const factory: EnvFactory = (options) => make('infobot-small-v1', { ...options, missing: 0 });
 * envs.register('infobot-small-full-kb-v0', 'KB-InfoBot small, agent KB complete', factory);
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EnvFactory = (options?: EnvOptions) => Env<any, any>;

/**
 * Throws a ConfigError naming the environment when `options` has a key it does not read: a
 * misspelt option (`maxturns`, or `{"maxTurns": 40}` sent as the env server's body instead of
 * inside `options`) would otherwise be ignored without a word. Internal: `registerEnv` calls it
 * with the options' names.
 */
export function checkOptionKeys(envId: string, options: EnvOptions | undefined, known: readonly string[]): void {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options)) throw new ConfigError(`${envId}: options must be an object, got ${Array.isArray(options) ? 'an array' : typeof options}`);
  const unknown = Object.keys(options).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new ConfigError(`${envId}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k.slice(0, 64)}"`).join(', ')} (its options: ${known.join(', ')})`);
}

/**
 * The published schema of an environment family (`schemas/<name>.schema.json`): `#/$defs/options`
 * gives the types and bounds of its options (`maxTurns` at most 1000, a KB of at most 100,000
 * restaurants, …), `#/$defs/action` the shape of its actions.
 *
 * @example
 * ```ts
 * import { envSchema, type EnvSchemaName } from 'dialogym';
 * const name: EnvSchemaName | undefined = envSchema('airdialogue-v1'); // 'env-airdialogue'
 * ```
 */
export type EnvSchemaName = Extract<SchemaName, `env-${string}`>;

/**
 * One played episode as a testbed's dataset exporter reads it: the fields of an `evaluate
 * --transcripts` line it needs (evaluate's `EpisodeRecord` is one).
 *
 * @example
 * ```ts
 * import type { RecordedEpisode } from 'dialogym';
 * const e: RecordedEpisode = { env: 'restaurant-task1-v2', episode: 0, trial: 0, seed: 1, success: true, reward: 1, actions: [], observation: { history: [] } };
 * ```
 */
export interface RecordedEpisode {
  readonly env: string;
  /** Index of the task (0-based). */
  readonly episode: number;
  readonly trial: number;
  readonly seed: number;
  readonly success: boolean;
  readonly reward: number;
  readonly actions: readonly unknown[];
  /** The last observation (restaurant, DSTC6 and AirDialogue envs: the whole dialog). */
  readonly observation: unknown;
  /** The user's goal (`info.goal` of reset, else of the last step). */
  readonly goal?: unknown;
  /**
   * The user's turns in the voice's words (a person, an LLM user), in order, for an environment
   * whose observation holds only the user's last utterance (KB-InfoBot): its dataset exporter
   * replays the episode and takes the words from here. Absent without a voice, and for environments
   * whose observation holds the whole dialog (the words are in its `history`).
   */
  readonly userWords?: readonly string[];
  /**
   * The environment options the episode was played with, as a fingerprint (`optionsKey`: 16 hex
   * digits of the sha256 of their canonical JSON); absent when none were given. A resumed run
   * (`done`) refuses the records of other options.
   */
  readonly options?: string;
}

/**
 * A testbed's dataset writer (the `dataset` hook of its family): played episodes of one of its
 * environments → its dataset's files in folder `out`. Each episode comes with `where`, the place it
 * was read from (`t.jsonl:3`), which an error about it names.
 *
 * @example
 * ```ts
 * import { envDataset } from 'dialogym';
 * envDataset('restaurant-task5-v2')?.format; // 'bAbI dialog text'
 * ```
 */
export interface DatasetExport {
  /** The dataset format, in words (`bAbI dialog text`, `DSTC6 JSON`, …). */
  readonly format: string;
  /** Writes the episodes' dataset into folder `out` (each file atomically); returns the files written and what was left out. */
  write(episodes: readonly { readonly where: string; readonly episode: RecordedEpisode }[], out: string): DatasetWritten;
}

/**
 * What a `DatasetExport` wrote: the files (paths), the dialogs written, and the episodes left out
 * with the reason (`t.jsonl:4: no final action (truncated)`).
 *
 * @example
 * ```ts
 * import type { DatasetWritten } from 'dialogym';
 * const w: DatasetWritten = { files: ['out/dialogs.txt'], dialogs: 20, skipped: [] };
 * ```
 */
export interface DatasetWritten {
  readonly files: readonly string[];
  readonly dialogs: number;
  readonly skipped: readonly string[];
}

/** What an environment family declares when it registers an id (internal): its options' names, its schema, and optionally its dataset format. */
export interface EnvFamily {
  /** Every option the factory reads (make refuses any other key). */
  readonly options: readonly string[];
  /** The family's published schema (`schemas/<name>.schema.json`: types and bounds of the options, the shape of an action); absent: `make` checks the option names only. */
  readonly schema?: EnvSchemaName;
  /** How played episodes of the family become its testbed's dataset (`exportDataset`); absent: none. */
  readonly dataset?: DatasetExport;
  /** What a person sees of its episodes (`person.ts`: goal card, hint, agent view, outcome); absent: none. */
  readonly person?: PersonView;
  /**
   * Which user turns carry no words: a dataset's placeholder for "the user says nothing" (the
   * agent speaks twice in a row). Such a turn is never voiced (`evaluate`'s `userVoice`), never
   * asked of a person, never shown as said. Absent: every user turn carries words.
   */
  readonly wordless?: (userText: string) => boolean;
}

/** Whether `v` holds only JSON data (no function, class instance or typed array at any depth). */
function isJsonData(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'symbol' && typeof v !== 'bigint';
  if (Array.isArray(v)) return v.every(isJsonData);
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && Object.values(v as object).every(isJsonData);
}

/**
 * Checks options against an environment family (internal; `registerEnv`'s factories call it):
 * unknown keys, then the types and bounds of the family's schema, each a ConfigError naming the
 * environment and the field (`restaurant-task1-v1: options.maxTurns: must be <= 1000, got 1000000000`).
 * An option holding what JSON cannot carry (a customer policy function, the MovieKb objects of
 * KB-InfoBot's `kbs`) is the library's own: the environment checks it, not the schema.
 */
export function checkEnvOptions(envId: string, options: EnvOptions | undefined, family: EnvFamily): void {
  checkOptionKeys(envId, options, family.options);
  if (options === undefined || options === null) return;
  const data = Object.entries(options).filter(([, v]) => isJsonData(v));
  if (data.length === 0 || family.schema === undefined) return; // nothing to check: ajv is not even loaded
  const issue = checkSchema(family.schema, Object.fromEntries(data), '#/$defs/options', 'options');
  if (issue) throw new ConfigError(`${envId}: ${issue.reason}`);
}

const familySchemas = new Map<string, EnvSchemaName>();
const familyDatasets = new Map<string, DatasetExport>();
const familyPersonViews = new Map<string, PersonView>();
const familyOptions = new Map<string, readonly string[]>();
const familyWordless = new Map<string, (userText: string) => boolean>();

/**
 * One environment as its testbed's entry point defines it (internal): its family (options, schema,
 * dataset export, person view) and the builder `make` calls once the options are checked.
 */
export interface EnvDefinition<O extends object = object> {
  readonly family: EnvFamily;
  /** Builds the environment from checked options (a method: a definition of any options type is an `EnvDefinition`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  build(options: O): Env<any, any>;
}

/**
 * An environment id a testbed declares (its descriptor, `testbeds/<t>/testbed.ts`): listed in
 * `envs` at once, its code imported only when it is loaded (`loadEnv`). `args` are what the
 * testbed's entry point needs to define it (a task number, a KB split).
 */
export interface EnvDeclaration<A = unknown> {
  readonly id: string;
  readonly description: string;
  readonly args: A;
}

/** The factories of loaded environments, by id (declared ones are in `envs` before they are here). */
const built = new Map<string, EnvFactory>();
/** Declared ids → the loader of their testbed's entry point. */
const loaders = new Map<string, () => Promise<void>>();

/** The factory of an environment definition: options checked (`checkEnvOptions`), then built; a refusal from deeper down names the environment. */
function factoryOf(id: string, def: EnvDefinition): EnvFactory {
  return (options) => {
    checkEnvOptions(id, options, def.family);
    try {
      return def.build((options ?? {}) as object);
    } catch (e) {
      // A refusal from deeper down (`candidateAirports must be in [2, 24]`) names the environment too.
      if (e instanceof ConfigError && !e.message.startsWith(`${id}: `)) throw new ConfigError([`${id}: `, ...e.text], { cause: e }); // its option names stay marked (the CLI says their flags)
      throw e;
    }
  };
}

function define(id: string, def: EnvDefinition): void {
  built.set(id, factoryOf(id, def));
  if (def.family.schema !== undefined) familySchemas.set(id, def.family.schema);
  familyOptions.set(id, def.family.options);
  if (def.family.dataset) familyDatasets.set(id, def.family.dataset);
  if (def.family.person) familyPersonViews.set(id, def.family.person);
  if (def.family.wordless) familyWordless.set(id, def.family.wordless);
}

/**
 * Registers a loaded environment (internal): `make(id, options)` checks the options
 * (`checkEnvOptions`) before `build` runs, and `envSchema(id)` names the family's schema (the env
 * server checks actions against it).
 */
export function registerEnv<O extends object>(id: string, description: string, def: EnvDefinition<O>): void {
  envs.register(id, description, (options) => (built.get(id) as EnvFactory)(options));
  define(id, def as EnvDefinition);
}

/**
 * Declares a testbed's environments (internal: `testbeds/index.ts` does it for each testbed of its
 * list): each id is in `envs` at once; `load` (the testbed's lazy entry point) is imported by the
 * first `loadEnv` of any of them and gives each declaration its definition. `make` of an id whose
 * testbed is not loaded yet is a ConfigError saying to load it. Declaring an id twice is a ConfigError.
 */
export function declareEnvs<A>(decls: readonly EnvDeclaration<A>[], load: () => Promise<(decl: EnvDeclaration<A>) => EnvDefinition>): void {
  let loading: Promise<void> | undefined;
  const loadAll = (): Promise<void> =>
    (loading ??= load().then(
      (definition) => {
        for (const d of decls) define(d.id, definition(d));
      },
      (e: unknown) => {
        loading = undefined; // a failed import may be retried
        throw e;
      },
    ));
  for (const d of decls) {
    envs.register(d.id, d.description, (options) => {
      const f = built.get(d.id);
      if (!f) throw new ConfigError(`${d.id}: its testbed is not loaded: \`await loadEnv('${d.id}')\` first (\`import 'dialogym'\` loads every testbed)`);
      return f(options);
    });
    loaders.set(d.id, loadAll);
  }
}

/**
 * Loads the code of a registered environment (its testbed's entry point), so that `make(id)`
 * builds it; nothing to do for an environment already loaded (all of them after `import
 * 'dialogym'`) or registered with its factory. An unknown id is a ConfigError listing the known ones.
 *
 * @example
 * ```ts
 * import { loadEnv, make } from 'dialogym';
 * await loadEnv('restaurant-task5-v2');
 * make('restaurant-task5-v2').reset({ seed: 1 });
 * ```
 */
export async function loadEnv(envId: string): Promise<void> {
  envs.get(envId); // unknown ids: the registry's error
  await loaders.get(envId)?.();
}

/**
 * The names of the options a registered environment reads (its family's; `make` refuses any
 * other key), or undefined for one registered without a family (your own) or not loaded yet.
 *
 * @example
 * ```ts
 * import { envOptionNames } from 'dialogym';
 * envOptionNames('airdialogue-v1'); // ['customer', 'ood', 'context', 'maxTurns', 'seed']
 * ```
 */
export function envOptionNames(envId: string): readonly string[] | undefined {
  return familyOptions.get(envId);
}

/**
 * The person view of a registered environment's family (`person.ts`), or undefined when its
 * testbed declares none.
 *
 * @example
 * ```ts
 * import { envPersonView } from 'dialogym';
 * envPersonView('my-env-v0'); // undefined: an environment registered without one
 * ```
 */
export function envPersonView(envId: string): PersonView | undefined {
  return familyPersonViews.get(envId);
}

/**
 * Whether `userText`, a user turn of environment `envId`, carries no words (its family's
 * `wordless`: a dataset's placeholder for "the user says nothing"); false for every turn of an
 * environment whose family declares none, or not loaded yet.
 *
 * @example
 * ```ts
 * import { isWordlessTurn } from 'dialogym';
 * isWordlessTurn('infobot-small-v1', 'i want a movie'); // false
 * ```
 */
export function isWordlessTurn(envId: string, userText: string): boolean {
  return familyWordless.get(envId)?.(userText) ?? false;
}

/**
 * The dataset exporter of a registered environment's family (bAbI dialog text for `restaurant-*`,
 * DSTC6 JSON for `dstc6-*`, AirDialogue JSON lines for `airdialogue-*`, KB-InfoBot dialog records for `infobot-*`), or undefined when its
 * testbed declares none.
 *
 * @example
 * ```ts
 * import { envDataset } from 'dialogym';
 * envDataset('airdialogue-v2')?.format; // 'AirDialogue JSON lines'
 * ```
 */
export function envDataset(envId: string): DatasetExport | undefined {
  return familyDatasets.get(envId);
}

/**
 * The published schema of a registered environment's family (`env-restaurant`, `env-infobot`,
 * `env-airdialogue`), or undefined for an environment registered without one (your own).
 *
 * @example
 * ```ts
 * import { envSchema } from 'dialogym';
 * envSchema('restaurant-task1-v1'); // 'env-restaurant': schemas/env-restaurant.schema.json
 * ```
 */
export function envSchema(envId: string): EnvSchemaName | undefined {
  return familySchemas.get(envId);
}

/**
 * The random stream of a new episode (internal; each environment's `reset` calls it): `opts.seed`
 * alone decides it when given, else the environment's own stream (seeded by its `seed` option) gives
 * its next one. A seed or variant that is not a non-negative safe integer is a ConfigError naming
 * the environment.
 */
export function episodeRng(envId: string, opts: ResetOptions, stream: Rng, resets: number): Rng {
  for (const k of ['seed', 'variant'] as const) {
    const v = opts[k];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0)) throw new ConfigError(`${envId}: reset ${k} must be a non-negative integer, got ${String(v)}`);
  }
  return opts.seed !== undefined ? createRng(opts.seed) : stream.fork(`episode:${resets}`);
}

/**
 * The StateError of a `step` outside an episode (internal): before the first `reset`, or after the
 * episode ended — each says which, and to call `reset`.
 */
export function stepOutsideEpisode(started: boolean): StateError {
  return new StateError(started ? 'step() called on a finished episode: call reset() to start another' : 'step() called before reset(): call reset() first');
}

/**
 * The environment registry: id → factory. Importing a testbed's index registers its ids
 * (`import 'dialogym'` registers all of them: `airdialogue-v1`, `infobot-{small,medium,large,xlarge}-v1`,
 * `restaurant-task{1..5}[-oov]-v1`, `dstc6-task{1..5}-tst{1..4}-v1`).
 * Iterating yields the ids, sorted; `envs.get(id)` throws a ConfigError for an unknown id.
 *
 * @example
 * ```ts
 * import { envs } from 'dialogym';
 * console.log([...envs]);                  // ['airdialogue-v1', 'infobot-large-v1', …]
 * for (const e of envs.list()) console.log(e.name, e.description);
 * ```
 */
export const envs = new Registry<EnvFactory>('environment');

/**
 * The types of the built-in environments by id: their options, observations and actions. Each
 * testbed adds its ids (declaration merging), so `make('infobot-medium-v1')` is typed
 * `Env<InfoBotObservation, InfoBotAction>` and its options are checked; ids registered at run
 * time (your own environments) fall back to untyped `Env<any, any>`.
 *
 * @example
 * ```ts
 * import type { EnvTypes } from 'dialogym';
 * type InfoBotOptions = EnvTypes['infobot-medium-v1']['options']; // InfoBotEnvOptions
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EnvTypes {}

/** What an entry of `EnvTypes` gives: options, observation and action types. */
interface EnvTypeEntry {
  readonly options: object;
  readonly obs: unknown;
  readonly action: unknown;
}

/**
 * Builds a registered environment by id (Gymnasium's `make`). The testbeds register their ids
 * when imported; importing `dialogym` registers all of them. A built-in id gives a typed
 * environment (see `EnvTypes`); an unknown id throws a ConfigError listing the known ones.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * const env = make('infobot-medium-v1', { temperature: 2 });
 * const { obs } = env.reset({ seed: 1 });
 * env.step({ act: 'request', slot: 'actor' }); // typed InfoBotAction
 * ```
 */
export function make<K extends keyof EnvTypes>(envId: K, options?: EnvTypes[K] extends EnvTypeEntry ? EnvTypes[K]['options'] : never): EnvTypes[K] extends EnvTypeEntry ? Env<EnvTypes[K]['obs'], EnvTypes[K]['action']> : never;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function make<S extends string>(envId: S extends keyof EnvTypes ? never : S, options?: EnvOptions): Env<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function make(envId: string, options?: EnvOptions): Env<any, any> {
  return envs.get(envId)(options);
}

/**
 * What `checkEnv` found wrong with an environment: the message reads `<env id>: <rule>`.
 *
 * @example
 * ```ts
 * import { checkEnv, make, EnvCheckError } from 'dialogym';
 * try {
 *   checkEnv(make('airdialogue-v1'), { episodes: 2 });
 * } catch (e) {
 *   if (e instanceof EnvCheckError) console.error(e.message);
 *   else throw e;
 * }
 * ```
 */
export class EnvCheckError extends DialogymError {}

/**
 * Options of `checkEnv`.
 *
 * @example
 * ```ts
 * import { checkEnv, make, type CheckEnvOptions } from 'dialogym';
 * const quick: CheckEnvOptions = { episodes: 2, maxSteps: 200, seed: 9 };
 * checkEnv(make('infobot-small-v1'), quick);
 * ```
 */
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

/**
 * A tool (function) an environment offers its agent, in the OpenAI tool-call shape: a name, a
 * description and a JSON Schema (draft 2020-12 subset) of its arguments. Environments list theirs
 * in `info.tools` of `reset`; an agent may then act with a {@link ToolCall} instead of text.
 *
 * @example
 * ```ts
 * import type { ToolSpec } from 'dialogym';
 * const tool: ToolSpec = {
 *   type: 'function',
 *   function: { name: 'inform', description: 'end the dialog', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false } },
 * };
 * ```
 */
export interface ToolSpec {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    /** JSON Schema of the arguments object. */
    readonly parameters: Readonly<Record<string, unknown>>;
  };
}

/**
 * An agent's action as a tool call: the tool's name and its arguments (an object).
 *
 * @example
 * ```ts
 * import type { ToolCall } from 'dialogym';
 * const call: ToolCall = { tool: 'api_call', arguments: { cuisine: 'italian', location: 'rome', number: 'six', price: 'cheap' } };
 * ```
 */
export interface ToolCall {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * Whether an action is a {@link ToolCall} (`{ tool: string, arguments: object }`); a type guard.
 *
 * @example
 * ```ts
 * import { isToolCall } from 'dialogym';
 * isToolCall({ tool: 'api_call', arguments: {} }); // true
 * isToolCall('hello'); // false
 * ```
 */
export function isToolCall(x: unknown): x is ToolCall {
  if (x === null || typeof x !== 'object') return false;
  const o = x as { tool?: unknown; arguments?: unknown };
  return typeof o.tool === 'string' && o.arguments !== null && typeof o.arguments === 'object' && !Array.isArray(o.arguments);
}
