/**
 * Online restaurant environments: the agent plays the bot of a bAbI (tasks 1–5) or DSTC6 Track 1
 * dialog against the simulated user of `user.ts`. An action is the bot's utterance (text), or the
 * tool call `{ tool: 'api_call', arguments: {…} }`; an `api_call …` runs on the KB and the results
 * come back as the dataset's KB lines (`obs.kb`, also in `obs.history` as `kb` turns). The episode
 * ends when the user's goal is settled (task 1: the api_call; 2: after the final call's thanks;
 * 3: the acceptance; 4: the last information; 5: the goodbye), or is truncated after `maxTurns`
 * agent turns. Reward 1 when the dialog succeeded, else 0; the last `info` says what failed.
 *
 * Version 1 (`-v1` ids) is the datasets' user: it understands the datasets' bot wording only.
 * Version 2 (`-v2`) reads each agent utterance into an act whatever its wording (`reader.ts`,
 * `lexicon.ts`), says when it does not understand, and tells more in `info`: the user goal at
 * reset (`goal`), how each agent turn was read (`read`), the count of turns it could not read
 * (`notUnderstood`), what the user does in each of its turns (`userAct`, `user-act.ts`: for a
 * voice that words the user's turns, `evaluate --user-llm`) and the agent turn (0-based) where a
 * failed episode went wrong (`failureTurn`); its
 * `userStyle: 'varied'` makes the user speak in wider paraphrases. Same actions in the datasets'
 * wording, same seeds → the same episodes on both (docs/restaurant-contract.md).
 */
import type { Turn } from '../../../core/dialog.js';
import { createRng, type Rng } from '../../../core/rng.js';
import { ConfigError, InvalidActionError } from '../../../core/errors.js';
import { episodeRng, isToolCall, stepOutsideEpisode, type Env, type EnvFamily, type Info, type ResetOptions, type ResetResult, type StepResult, type ToolCall, type ToolSpec } from '../../../env/env.js';
import type { ApiCall, KbStore, Restaurant } from '../kb.js';
import { NO_RESULT, parseApiCall, resultLines, type KbDialect } from '../kb-dialects.js';
import type { TaskId } from '../simulator.js';
import { goalJson, type CallSlot, type Goal } from './goal.js';
import { hearReading, hearV1, INFO_PREFIX, PROPOSE_PREFIX, SimulatedUser, type Heard, type UserLanguage } from './user.js';
import { UtteranceReader } from './utterance-reader.js';
import { variedLanguage } from './varied.js';
import { UserActRecorder } from './user-act.js';
import { restaurantPersonView } from '../person.js';

/**
 * What the agent of an online restaurant environment sees: the user's latest utterance, the KB
 * lines that arrived since its last action, and the whole dialog so far (user, bot and kb turns,
 * as in the dataset files).
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * const { obs } = make('restaurant-task3-v1').reset({ seed: 1 });
 * console.log(obs.kb.length, obs.utterance, obs.history.length);
 * ```
 */
export interface RestaurantObservation {
  readonly utterance: string;
  readonly kb: readonly string[];
  readonly history: readonly Turn[];
}

/**
 * An action of the online restaurant environments: the bot's utterance, or an api_call as a tool
 * call (its arguments are the call's slots).
 *
 * @example
 * ```ts
 * import type { RestaurantAction } from 'dialogym/restaurant';
 * const a: RestaurantAction = 'any preference on a type of cuisine';
 * const b: RestaurantAction = { tool: 'api_call', arguments: { cuisine: 'italian', location: 'rome', number: 'six', price: 'cheap' } };
 * ```
 */
export type RestaurantAction = string | ToolCall;

/** Agent turns after which a restaurant episode is truncated when `RestaurantEnvOptions.maxTurns` is not given (`evaluate --help` shows it). */
export const RESTAURANT_MAX_TURNS = 80;

/**
 * Options of the online restaurant environments (`make('restaurant-task5-v1', options)`, and the
 * `dstc6-*` ones alike).
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import { readKb, type RestaurantEnvOptions } from 'dialogym/restaurant';
 * const options: RestaurantEnvOptions = { maxTurns: 40, seed: 3 };
 * const env = make('restaurant-task5-v1', options);
 * ```
 */
export interface RestaurantEnvOptions {
  /** Agent turns after which the episode is truncated (reward 0); default `RESTAURANT_MAX_TURNS` (80). */
  readonly maxTurns?: number;
  /** Seed of the episode stream used when `reset` gets no seed; default 0. */
  readonly seed?: number;
  /** The KB's restaurants (e.g. `readKb(file).restaurants`); default: the KB generated from `kbSeed`. */
  readonly restaurants?: readonly Restaurant[];
  /** Seed of the generated KB when `restaurants` is not given (as `generate … --seed`); default 1. */
  readonly kbSeed?: number;
  /**
   * How the user speaks (-v2 envs only): `dataset` (default) with the datasets' patterns, so models
   * trained on the datasets still work; `varied` with wider paraphrases of each of its acts.
   */
  readonly userStyle?: UserStyle;
}

/**
 * How the simulated user of a -v2 restaurant or DSTC6 env speaks (`RestaurantEnvOptions.userStyle`):
 * `dataset` (the datasets' patterns) or `varied` (wider paraphrases).
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import type { UserStyle } from 'dialogym/restaurant';
 * const userStyle: UserStyle = 'varied';
 * const env = make('restaurant-task5-v2', { userStyle });
 * ```
 */
export type UserStyle = 'dataset' | 'varied';
/** The user styles, in documentation order. */
export const USER_STYLES: readonly UserStyle[] = ['dataset', 'varied'];

/** The names of `RestaurantEnvOptions` (internal): `make` refuses any other key. The record's type makes the compiler check the list is complete. */
export const RESTAURANT_ENV_OPTIONS: readonly string[] = Object.keys({ maxTurns: true, seed: true, restaurants: true, kbSeed: true, userStyle: true } satisfies Record<keyof RestaurantEnvOptions, true>);

/** The restaurant dialogs' user turn that carries no words (the bot speaks twice in a row): bAbI's `<SILENCE>`, DSTC6's `<silence>`. */
const SILENT_USER = /^<silence>$/i;

/**
 * The restaurant environments' family (internal): their options, the schema bounding them
 * (`schemas/env-restaurant.schema.json`), what a person sees of them (`person.ts`) and their user
 * turns that carry no words (`<SILENCE>`: never voiced, never asked of a person).
 */
export const RESTAURANT_FAMILY: EnvFamily = { options: RESTAURANT_ENV_OPTIONS, schema: 'env-restaurant', person: restaurantPersonView, wordless: (userText) => SILENT_USER.test(userText) };

/** Everything that differs between the online environments (internal). */
export interface OnlineSetting {
  readonly id: string;
  /** 1: the datasets' user (`-v1`); 2: the user that reads meaning (`-v2`). */
  readonly version: 1 | 2;
  readonly task: TaskId;
  readonly dialect: KbDialect;
  /** The api_call's slots, in argument order. */
  readonly slots: readonly CallSlot[];
  readonly language: UserLanguage;
  readonly store: KbStore;
  /** The KB's restaurants (the -v2 user recognises their names, phone numbers and addresses). */
  readonly restaurants: readonly Restaurant[];
  /** The values a slot may take (the tool's enum). */
  values(slot: CallSlot): readonly string[];
  sampleGoal(rng: Rng): Goal;
  /** The results of a call as the dataset shows them (order, subset). */
  show(rng: Rng, results: readonly Restaurant[]): Restaurant[];
  /** Bot utterances for `sampleAction`. */
  readonly botPhrases: readonly string[];
}

const SLOT_DESCRIPTIONS: Readonly<Record<CallSlot, string>> = {
  cuisine: 'type of food',
  location: 'city',
  number: 'party size, in words',
  price: 'price range',
  atmosphere: 'atmosphere of the place',
  restrictions: 'dietary restrictions',
};

/**
 * The api_call tool of a restaurant environment: one required string argument per slot, its
 * values as an enum.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * const { info } = make('restaurant-task1-v1').reset({ seed: 1 });
 * console.log(JSON.stringify(info['tools']));
 * ```
 */
export function apiCallTool(slots: readonly CallSlot[], values: (slot: CallSlot) => readonly string[]): ToolSpec {
  const properties: Record<string, unknown> = {};
  for (const s of slots) properties[s] = { type: 'string', description: SLOT_DESCRIPTIONS[s], enum: [...values(s)] };
  return {
    type: 'function',
    function: {
      name: 'api_call',
      description: `Look restaurants up in the KB (the bot's "api_call ${slots.join(' ')}"); the matching restaurants come back as KB lines.`,
      parameters: { type: 'object', properties, required: [...slots], additionalProperties: false },
    },
  };
}

/** The `api_call …` text of a tool call, or an InvalidActionError naming what is wrong. */
function toolCallText(call: ToolCall, tool: ToolSpec, slots: readonly CallSlot[], values: (slot: CallSlot) => readonly string[]): string {
  if (call.tool !== tool.function.name) throw new InvalidActionError(`unknown tool '${call.tool}' (this environment has: ${tool.function.name})`);
  const args = call.arguments;
  for (const k of Object.keys(args)) if (!slots.includes(k as CallSlot)) throw new InvalidActionError(`api_call: unknown argument '${k}' (arguments: ${slots.join(', ')})`);
  const words: string[] = [];
  for (const s of slots) {
    const v = args[s];
    if (typeof v !== 'string') throw new InvalidActionError(`api_call: argument '${s}' must be a string, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`);
    if (!values(s).includes(v)) throw new InvalidActionError(`api_call: ${s} '${v}' is not one of ${values(s).join(', ')}`);
    words.push(v);
  }
  return ['api_call', ...words].join(' ');
}

/** What the user takes from an api_call (the call itself goes to the user as the call's outcome). */
const API_CALL_HEARD: Heard = { read: 'api_call', understood: true, propose: undefined, booking: undefined, inform: undefined, close: false, askUpdates: false, ask: undefined, statement: false };
const INVALID_CALL_HEARD: Heard = { ...API_CALL_HEARD, read: 'api_call(invalid)' };

function sameCall(a: ApiCall, b: ApiCall): boolean {
  return a.cuisine === b.cuisine && a.location === b.location && a.number === b.number && a.price === b.price && a.atmosphere === b.atmosphere && a.restrictions === b.restrictions;
}

/**
 * An online restaurant environment (module description above); build one with `make(id)`.
 * Throws a ConfigError for a bad `maxTurns`, a StateError for `step` outside an episode, an
 * InvalidActionError for an action that is neither text nor a valid api_call tool call.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import { createRulesBot } from 'dialogym/restaurant';
 * const env = make('restaurant-task5-v1');
 * const bot = createRulesBot();
 * let { obs } = env.reset({ seed: 1 });
 * for (;;) {
 *   const r = env.step(bot.respond(obs.history));
 *   if (r.terminated || r.truncated) { console.log(r.reward, r.info['failure']); break; }
 *   obs = r.obs;
 * }
 * ```
 */
export class RestaurantEnv implements Env<RestaurantObservation, RestaurantAction> {
  readonly id: string;
  /** The tools the agent may call (the api_call). */
  readonly tools: readonly ToolSpec[];
  private readonly maxTurns: number;
  private readonly language: UserLanguage;
  /** -v2: what the user does each turn (`info.userAct`). */
  private readonly acts: UserActRecorder | undefined;
  private readonly hear: (text: string) => Heard;
  private readonly stream: Rng;
  private resets = 0;
  private user: SimulatedUser | null = null;
  private goal: Goal | null = null;
  private turns: Turn[] = [];
  private agentTurns = 0;
  private done = true;

  constructor(
    private readonly setting: OnlineSetting,
    options: RestaurantEnvOptions = {},
  ) {
    this.id = setting.id;
    this.maxTurns = options.maxTurns ?? RESTAURANT_MAX_TURNS;
    if (!Number.isInteger(this.maxTurns) || this.maxTurns < 1) throw new ConfigError(`${setting.id}: maxTurns must be a positive integer, got ${String(options.maxTurns)}`);
    this.stream = createRng(options.seed ?? 0);
    this.tools = [apiCallTool(setting.slots, (s) => setting.values(s))];
    const style = options.userStyle ?? 'dataset';
    if (!USER_STYLES.includes(style)) throw new ConfigError(`${setting.id}: userStyle must be one of ${USER_STYLES.join(', ')}, got ${JSON.stringify(options.userStyle)}`);
    if (setting.version === 1 && style !== 'dataset') throw new ConfigError(`${setting.id}: userStyle '${style}' needs a -v2 environment (the -v1 user speaks the datasets' style only)`);
    const language = style === 'varied' ? variedLanguage(setting.language) : setting.language;
    this.acts = setting.version === 2 ? new UserActRecorder() : undefined;
    this.language = this.acts ? this.acts.wrap(language) : language;
    if (setting.version === 1) this.hear = (text) => hearV1(text, setting.slots);
    else {
      const reader = new UtteranceReader(setting.restaurants);
      this.hear = (text) => hearReading(reader.read(text));
    }
  }

  reset(opts: ResetOptions = {}): ResetResult<RestaurantObservation> {
    const rng = episodeRng(this.id, opts, this.stream, this.resets);
    this.resets++;
    const s = this.setting;
    const goal = s.sampleGoal(rng.fork('goal'));
    const kbRng = rng.fork('kb');
    this.goal = goal;
    const run = (call: ApiCall): { shown: Restaurant[]; lines: string[] } => {
      const shown = s.show(kbRng, s.store.query(call));
      return { shown, lines: shown.length === 0 ? [NO_RESULT] : shown.flatMap((r) => resultLines(r, s.dialect)) };
    };
    this.user = new SimulatedUser(goal, this.language, rng.fork(opts.variant ? `user:${opts.variant}` : 'user'), s.slots, sameCall, run);
    const kb = goal.task === 3 ? goal.shown.flatMap((r) => resultLines(r, s.dialect)) : goal.task === 4 && goal.restaurant ? resultLines(goal.restaurant, s.dialect) : [];
    this.turns = kb.map((text) => ({ speaker: 'kb', text }));
    this.acts?.clear();
    const opening = this.user.open();
    this.turns.push({ speaker: 'user', text: opening });
    this.agentTurns = 0;
    this.done = false;
    const info: Info = { tools: this.tools, maxTurns: this.maxTurns, task: goal.task };
    if (s.version === 2) info['goal'] = goalJson(goal);
    if (this.acts) info['userAct'] = this.acts.actOf(opening, this.language.silence);
    return { obs: { utterance: opening, kb, history: this.turns.slice() }, info };
  }

  step(action: RestaurantAction): StepResult<RestaurantObservation> {
    if (this.done || !this.user || !this.goal) throw stepOutsideEpisode(this.user !== null);
    const s = this.setting;
    let text: string;
    if (typeof action === 'string') text = action.trim();
    else if (isToolCall(action)) text = toolCallText(action, this.tools[0] as ToolSpec, s.slots, (x) => s.values(x));
    else throw new InvalidActionError(`an action is a string or a tool call { tool, arguments }, got ${JSON.stringify(action)}`);
    this.turns.push({ speaker: 'bot', text });
    this.agentTurns++;
    let outcome;
    if (text === 'api_call' || text.startsWith('api_call ')) {
      const p = parseApiCall(text, s.dialect);
      outcome = p.ok ? { call: p.call } : { invalid: p.reason };
    }
    const heard: Heard = outcome === undefined ? this.hear(text) : outcome.call ? API_CALL_HEARD : INVALID_CALL_HEARD;
    const r = this.user.react(heard, outcome);
    for (const line of r.kb) this.turns.push({ speaker: 'kb', text: line });
    if (!r.done) this.turns.push({ speaker: 'user', text: r.utterance });
    const obs: RestaurantObservation = { utterance: r.utterance, kb: r.kb, history: this.turns.slice() };
    const info: Info = { turn: this.agentTurns, maxTurns: this.maxTurns };
    if (s.version === 2) {
      info['read'] = heard.read;
      info['notUnderstood'] = this.user.notUnderstood;
    }
    if (this.acts && !r.done) info['userAct'] = this.acts.actOf(r.utterance, this.language.silence);
    if (r.done) return this.finish(obs, info, false);
    if (this.agentTurns >= this.maxTurns) return this.finish(obs, info, true);
    return { obs, reward: 0, terminated: false, truncated: false, info };
  }

  private finish(obs: RestaurantObservation, info: Info, truncated: boolean): StepResult<RestaurantObservation> {
    this.done = true;
    const user = this.user as SimulatedUser;
    const goal = this.goal as Goal;
    if (truncated) user.finish(true);
    let { failure, detail, turn } = user.outcome();
    if (truncated && failure === undefined) {
      failure = 'max turns';
      detail = {};
      turn = this.agentTurns - 1;
    }
    const success = failure === undefined ? 1 : 0;
    const out: Info = { ...info, success, failure: failure ?? null, ...(failure !== undefined ? { detail } : {}), goal: goal.final, booked: user.booked?.name ?? null };
    if (this.setting.version === 2 && failure !== undefined) out['failureTurn'] = turn;
    return { obs, reward: success, terminated: !truncated, truncated, info: out };
  }

  sampleAction(rng: Rng): RestaurantAction {
    const s = this.setting;
    const u = rng.next();
    if (u < 0.1) {
      const args: Record<string, string> = {};
      for (const slot of s.slots) args[slot] = rng.pick(s.values(slot));
      return { tool: 'api_call', arguments: args };
    }
    if (u < 0.2) return ['api_call', ...s.slots.map((slot) => rng.pick(s.values(slot)))].join(' ');
    const options = this.goal?.shown.length ? this.goal.shown : this.goal?.restaurant ? [this.goal.restaurant] : [];
    if (u < 0.35 && options.length > 0) return PROPOSE_PREFIX + rng.pick(options).name;
    if (u < 0.45 && options.length > 0) {
      const r = rng.pick(options);
      return INFO_PREFIX + (rng.chance(0.5) ? r.phone : r.address);
    }
    return rng.pick(s.botPhrases);
  }
}
