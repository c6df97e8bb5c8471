/**
 * Gym-like KB-InfoBot environments `infobot-{small,medium,large,xlarge}-v1`: the learner is the agent,
 * the rule-based user simulator is the environment. Observation: the user's utterance; action: an
 * InfoBotAction (request a slot, or inform ranked KB rows of the agent's incomplete KB). Episodes
 * terminate on inform and are truncated at the turn limit (10 agent actions).
 */
import { createRng, hashString, type Rng } from '../../core/rng.js';
import { episodeRng, isToolCall, stepOutsideEpisode, type Env, type EnvDefinition, type EnvFamily, type ToolCall, type Info, type ResetOptions, type ResetResult, type StepResult } from '../../env/env.js';
import type { InfoBotAction, UserAct } from './acts.js';
import { splitKbs, type SplitKbs } from './generate.js';
import { MovieKb } from './movie-kb.js';
import { M, SLOTS, envId, splitSpec, type SplitName } from './slots.js';
import { ValueIndex } from './tracker.js';
import { UserSimulator, type UserGoal, type UserOptions, type UserSession, type UserTurn } from './user.js';
import { ConfigError, InvalidActionError, StateError } from '../../core/errors.js';
import { INFOBOT_TOOLS, infoBotActionOfTool } from './tools.js';
import { infoBotDataset } from './export.js';
import { infoBotPersonView } from './person.js';

/**
 * What the agent observes in a KB-InfoBot environment: the user's utterance and the number of
 * agent actions so far.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import type { InfoBotObservation } from 'dialogym/infobot';
 * const { obs } = make('infobot-small-v1').reset({ seed: 1 }) as { obs: InfoBotObservation };
 * console.log(obs.utterance, obs.turn); // '…', 0
 * ```
 */
export interface InfoBotObservation {
  /** The user's utterance. */
  readonly utterance: string;
  /** Agent actions so far. */
  readonly turn: number;
}

/**
 * Options of `InfoBotEnv` (and of `make('infobot-<split>-v1', options)`, where `split` comes from
 * the id).
 *
 * @example
 * ```ts
 * import { InfoBotEnv, type InfoBotEnvOptions } from 'dialogym/infobot';
 * const opts: InfoBotEnvOptions = { split: 'large', kbSeed: 2, missing: 0.3, temperature: 0.5, seed: 9 };
 * const env = new InfoBotEnv(opts);
 * ```
 */
export interface InfoBotEnvOptions {
  /** KB split (default `medium`); a ConfigError for an unknown one. */
  split?: SplitName | string;
  /** Seed of the generated KB (default 1). */
  kbSeed?: number;
  /** Use these KBs instead of generating them. */
  kbs?: SplitKbs;
  /** Fraction of values hidden in the agent's KB (default 0.2). */
  missing?: number;
  /** Options of the simulated user. */
  user?: UserOptions;
  /** NLG temperature (shortcut for user.nlg.temperature). */
  temperature?: number;
  /** Seed of the episode stream when reset() gets no seed (default 0). */
  seed?: number;
}

export { envId } from './slots.js';

/** The n-th discrete action: 0..M−1 request slot n, M inform (`results` from the caller); an
 * InvalidActionError for n outside [0, M].
 *
 * @example
 * ```ts
 * import { discreteAction, M } from 'dialogym/infobot';
 * discreteAction(0);               // { act: 'request', slot: 'actor' }
 * discreteAction(M, [4, 8, 15]);   // { act: 'inform', results: [4, 8, 15] }
 * ```
 */
export function discreteAction(n: number, results: readonly number[] = []): InfoBotAction {
  if (n < M) return { act: 'request', slot: SLOTS[n] as (typeof SLOTS)[number] };
  if (n === M) return { act: 'inform', results };
  throw new InvalidActionError(`action index ${n} out of range [0, ${M}]`);
}

/** Number of discrete actions: M requests + inform.
 *
 * @example
 * ```ts
 * import { ACTION_COUNT } from 'dialogym/infobot';
 * ACTION_COUNT; // 7
 * ```
 */
export const ACTION_COUNT = M + 1;

/**
 * Failure reasons of the KB-InfoBot environments (`info.failure` of a failed episode's last step,
 * with `detail.why` in words and `failureTurn`), by precedence: reason → when.
 *
 * @example
 * ```ts
 * import { INFOBOT_FAILURES } from 'dialogym/infobot';
 * Object.keys(INFOBOT_FAILURES); // ['max turns', 'target not in results', 'target ranked too low']
 * ```
 */
export const INFOBOT_FAILURES = {
  'max turns': 'the turn limit was reached (by default the last agent action fails whatever it is)',
  'target not in results': "an `inform` whose results do not hold the user's movie",
  'target ranked too low': "an `inform` that holds the user's movie at a rank ≥ R (0-based; R = successMaxRank, 5)",
} as const;

/**
 * What the user wants, for logs and transcripts (`info.goal` at reset): the target's row and
 * title, and the values the user knows (of the full KB, before the noise of its words), by slot.
 */
function goalInfo(full: MovieKb, goal: UserGoal): Info {
  const known: Record<string, string> = {};
  for (let j = 0; j < M; j++) {
    const v = goal.known.get(j);
    if (v !== undefined) known[SLOTS[j] as string] = (full.vocab[j] as readonly string[])[v] as string;
  }
  return { target: goal.target, title: full.titles[goal.target], known };
}

/**
 * Candidate values of some of the slots the user knows (`info.candidates` at reset), for a person
 * playing the user (the paper's human evaluation, §6.5: "several candidate values for some slots",
 * to mimic users unsure of a value): each known slot with probability 1/2 gets one or two other
 * values of its vocabulary besides the true one, in a random order. Drawn on its own stream, so
 * the episode is the same with or without it.
 */
function candidateValues(full: MovieKb, goal: UserGoal, rng: Rng): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [j, v] of [...goal.known].sort((a, b) => a[0] - b[0])) {
    if (!rng.chance(0.5)) continue;
    const vocab = full.vocab[j] as readonly string[];
    if (vocab.length < 2) continue;
    const want = Math.min(vocab.length - 1, rng.range(1, 2));
    const picked = new Set<number>([v]);
    while (picked.size < want + 1) picked.add(rng.int(vocab.length)); // O(1) draws, not a shuffle of the vocabulary
    out[SLOTS[j] as string] = rng.shuffle([...picked].map((k) => vocab[k] as string));
  }
  return out;
}

/** `failure`, `detail` (with `why`, in words) and `failureTurn` of a failed episode's last step. */
function failureInfo(full: MovieKb, target: number, action: InfoBotAction, { truncated, rank }: UserTurn, maxRank: number, turn: number): Info {
  const title = full.titles[target];
  const failureTurn = turn - 1;
  if (truncated) return { failure: 'max turns', detail: { why: `no inform of movie ${target} (${title}) within the turn limit (${turn} agent actions)`, target }, failureTurn };
  const results = action.act === 'inform' ? action.results.slice(0, 10) : [];
  if (rank < 0) return { failure: 'target not in results', detail: { why: `the results do not hold movie ${target} (${title})`, target, results }, failureTurn };
  return { failure: 'target ranked too low', detail: { why: `movie ${target} (${title}) is at rank ${rank} (0-based); it must be below ${maxRank}`, target, rank, results }, failureTurn };
}

/**
 * The KB-InfoBot environment (`infobot-{small,medium,large,xlarge}-v1`; module description above):
 * the agent requests slots or informs ranked rows of its incomplete KB `kb`; the user simulator
 * `sim` answers from the full KB `full`. `info` carries `target`, `goal` and `candidates` (reset), `userAct`,
 * `userSaid` (the act with the values as said: reset and every step), and at the end
 * `success` and `rank`; a failed episode's last step `failure` (`INFOBOT_FAILURES`), `detail` and `failureTurn`. `step` outside an episode throws a StateError, a bad action an
 * InvalidActionError; `goal` and `userAct` are for privileged agents and logging.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { InfoBotEnv } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * env.reset({ seed: 1 });
 * const r = env.step({ act: 'inform', results: [env.goal.target] }); // cheating with the goal: reward 2
 * console.log(r.reward, r.info['success']);
 * ```
 */
export class InfoBotEnv implements Env<InfoBotObservation, InfoBotAction> {
  readonly id: string;
  readonly split: SplitName;
  readonly full: MovieKb;
  readonly kb: MovieKb;
  readonly index: ValueIndex;
  readonly sim: UserSimulator;
  private readonly stream: Rng;
  private resets = 0;
  private session: UserSession | null = null;
  private lastAct: UserAct | null = null;

  constructor(options: InfoBotEnvOptions = {}) {
    const spec = splitSpec(options.split ?? 'medium');
    this.id = envId(spec.name);
    this.split = spec.name;
    const kbs = options.kbs ?? splitKbs(spec.name, options.kbSeed ?? 1, options.missing);
    this.full = kbs.full;
    this.kb = kbs.incomplete;
    this.index = new ValueIndex(this.kb.vocab);
    const user = { ...options.user };
    if (options.temperature !== undefined) user.nlg = { ...user.nlg, temperature: options.temperature };
    this.sim = new UserSimulator(this.full, user);
    this.stream = createRng(options.seed ?? 0);
  }

  /** The current user goal (for privileged agents and logging, not for learners). */
  get goal(): UserGoal {
    if (!this.session) throw new StateError('reset() has not been called');
    return this.session.goal;
  }

  /** The user's last dialog act (before NLG). */
  get userAct(): UserAct {
    if (!this.lastAct) throw new StateError('reset() has not been called');
    return this.lastAct;
  }

  reset(opts: ResetOptions = {}): ResetResult<InfoBotObservation> {
    const rng = episodeRng(this.id, opts, this.stream, this.resets);
    this.resets++;
    this.session = this.sim.session(rng.fork('user'));
    this.lastAct = this.session.opening.act;
    const goal = this.session.goal;
    const info: Info = { target: goal.target, tools: INFOBOT_TOOLS, goal: goalInfo(this.full, goal), candidates: candidateValues(this.full, goal, rng.fork('candidates')), userSaid: this.lastAct };
    return { obs: { utterance: this.session.opening.utterance, turn: 0 }, info };
  }

  step(action: InfoBotAction | ToolCall): StepResult<InfoBotObservation> {
    if (isToolCall(action)) action = infoBotActionOfTool(action);
    const s = this.session;
    if (!s || s.done) throw stepOutsideEpisode(s !== null);
    const r = s.respond(action);
    this.lastAct = r.act;
    const info: Info = { userAct: r.act.act, userSaid: r.act, turn: s.turn };
    if (r.done) Object.assign(info, { success: r.success, rank: r.rank, target: s.goal.target });
    if (r.done && !r.success) Object.assign(info, failureInfo(this.full, s.goal.target, action, r, this.sim.opts.successMaxRank, s.turn));
    return { obs: { utterance: r.utterance, turn: s.turn }, reward: r.reward, terminated: r.done && !r.truncated, truncated: r.truncated, info };
  }

  sampleAction(rng: Rng): InfoBotAction {
    const n = rng.int(ACTION_COUNT);
    return discreteAction(n, n === M ? rng.sample(Array.from({ length: this.kb.n }, (_, i) => i), Math.min(this.sim.opts.successMaxRank, this.kb.n)) : []);
  }
}

/** A per-run seed for episode `i` of a run seeded `seed`.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, episodeSeed } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * for (let i = 0; i < 3; i++) env.reset({ seed: episodeSeed(1, i) }); // episodes 0-2 of evaluateAgent({ seed: 1, … })
 * ```
 */
export function episodeSeed(seed: number, i: number): number {
  return hashString(`infobot:${seed}:${i}`);
}

/** The options `make('infobot-<split>-v1', options)` reads: `InfoBotEnvOptions` but `split`, which comes from the id (the record's type keeps the list complete). */
const MAKE_OPTIONS = Object.keys({ kbSeed: true, kbs: true, missing: true, user: true, temperature: true, seed: true } satisfies Record<Exclude<keyof InfoBotEnvOptions, 'split'>, true>);

/** The family of the `infobot-<split>-v1` environments: their options, schema and dataset export. */
const INFOBOT_FAMILY: EnvFamily = { options: MAKE_OPTIONS, schema: 'env-infobot', dataset: infoBotDataset };

/**
 * The definition of `infobot-<split>-v1` (what the testbed's entry point, testbed.ts, gives each
 * declared id): its family and its builder, which `make` calls with checked options.
 *
 * @example
 * ```ts
 * import { infoBotEnv } from 'dialogym/infobot';
 * const env = infoBotEnv('small').build({ kbSeed: 3 }); // as make('infobot-small-v1', { kbSeed: 3 }), unchecked
 * ```
 */
export function infoBotEnv(split: SplitName): EnvDefinition<Omit<InfoBotEnvOptions, 'split'>> {
  return {
    family: { ...INFOBOT_FAMILY, person: infoBotPersonView(split) },
    build: (options) => {
      // `kbs` holds the library's MovieKb objects (the schema refuses it as JSON).
      if (options.kbs !== undefined && !(options.kbs.full instanceof MovieKb && options.kbs.incomplete instanceof MovieKb)) throw new ConfigError(`${envId(split)}: options.kbs: must be {full, incomplete}, two MovieKb objects (splitKbs)`);
      return new InfoBotEnv({ ...options, split });
    },
  };
}

