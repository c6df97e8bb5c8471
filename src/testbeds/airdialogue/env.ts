/**
 * AirDialogue self-play environment (`airdialogue-v1`): the learner plays the agent, a customer
 * policy plays the customer. Each side sees only its own context — the agent observes its flight
 * database, the reservation flag and the conversation; the customer's intent stays inside the env.
 * The episode ends when the agent acts; the reward is the scorer's scaled total.
 * `airdialogue-v2` (`AirDialogueV2Env`) is the same task with a customer that reads any wording
 * (`customer.ts`) and an `info` that says how each turn was read and why an episode failed; v1
 * stays as it was (same seeds, same transcripts).
 */
import type { Turn } from '../../core/dialog.js';
import { createRng, type Rng } from '../../core/rng.js';
import type { Action, DataLine, KbLine } from '../../formats/airdialogue.js';
import { STATUSES } from '../../formats/airdialogue.js';
import { airDataset, correctSample } from './export.js';
import { episodeRng, stepOutsideEpisode, type Env, type EnvDefinition, type EnvFamily, type ToolCall, type Info, type ResetOptions, type ResetResult, type StepResult } from '../../env/env.js';
import { ContextGenerator, type AirContext, type ContextOptions } from './context.js';
import { AGENT_ASK_DATES, AGENT_ASK_NAME, AGENT_ASK_PREFS, AGENT_ASK_ROUTE } from './language.js';
import { agentPolicies, customerPolicies, type AgentMove, type AgentPolicyFactory, type AgentSession, type CustomerPolicyFactory, type CustomerSession } from './policies.js';
import { playEpisode, type EpisodeTurn } from '../../env/episode.js';
import { addScore, emptyScoreSum, scoreAction, scoreReport, type Score, type ScoreReport, type ScoreSum } from './scorer.js';
import { ConfigError, InvalidActionError, StateError } from '../../core/errors.js';
import { AIR_TOOLS, airMoveOf } from './tools.js';
import { isReadingCustomer, type ReadingCustomerSession } from './customer.js';
import { readAgentTurn } from './utterance-reader.js';
import { violations } from './logic.js';
import { airPersonView } from './person.js';

/**
 * The registry id of the AirDialogue self-play environment.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import { AIR_ENV_ID } from 'dialogym/airdialogue';
 * const env = make(AIR_ENV_ID, { ood: true });
 * ```
 */
export const AIR_ENV_ID = 'airdialogue-v1';

/**
 * What the agent sees at each step: its own context (flights and reservation), the conversation
 * so far and the customer's latest utterance (empty once the episode ended).
 *
 * @example
 * ```ts
 * import { AirDialogueEnv, type AirObservation } from 'dialogym/airdialogue';
 * const { obs }: { obs: AirObservation } = new AirDialogueEnv().reset({ seed: 1 });
 * console.log(obs.utterance, obs.context.kb.length, obs.context.reservation);
 * ```
 */
export interface AirObservation {
  /** The agent's private context: flight database and reservation. */
  readonly context: KbLine;
  /** The conversation so far (`user` = customer, `bot` = agent). */
  readonly history: readonly Turn[];
  /** The customer's latest utterance. */
  readonly utterance: string;
}

/**
 * Options of `AirDialogueEnv` (also accepted by `make('airdialogue-v1', options)`).
 *
 * @example
 * ```ts
 * import { AirDialogueEnv, type AirEnvOptions } from 'dialogym/airdialogue';
 * const options: AirEnvOptions = { customer: 'rules', ood: false, maxTurns: 30, seed: 7 };
 * const env = new AirDialogueEnv(options); // or make('airdialogue-v1', { ...options })
 * ```
 */
export interface AirEnvOptions {
  /** Customer policy: a registered name (default `rules`; `lexicon` on `airdialogue-v2`) or a factory. */
  customer?: string | CustomerPolicyFactory;
  /** Out-of-domain contexts. */
  ood?: boolean;
  /** Further context-generator options. */
  context?: ContextOptions;
  /** Utterances (both sides) after which the episode is truncated; default 40. */
  maxTurns?: number;
  /** Seed of the episode stream used when `reset` gets no seed; default 0. */
  seed?: number;
}

const ZERO: Score = { name: 0, flight: 0, action: 0, total: 0, exact: { name: 0, flight: 0, action: 0, total: 0 } };

/**
 * The AirDialogue self-play environment (`airdialogue-v1`, module description above): the
 * learner's action is an {@link AgentMove}; a move with an `action` ends the episode with reward
 * = the scorer's scaled total (`info.score`, `info.expected`); after `maxTurns` utterances the
 * episode is truncated with reward 0. Throws a ConfigError for an unknown customer policy or a bad
 * `maxTurns`, a StateError for `step` outside an episode, an InvalidActionError for a move without
 * an utterance.
 *
 * @example
 * ```ts
 * import { AirDialogueEnv, agentPolicies } from 'dialogym/airdialogue';
 * import { createRng } from 'dialogym';
 * const env = new AirDialogueEnv({ ood: false });
 * let { obs } = env.reset({ seed: 3 });
 * const agent = agentPolicies.get('rules')(obs.context, createRng(3));
 * for (;;) {
 *   const r = env.step(agent.respond(obs.utterance));
 *   if (r.terminated || r.truncated) { console.log(r.reward, r.info['score']); break; }
 *   obs = r.obs;
 * }
 * ```
 */
export class AirDialogueEnv implements Env<AirObservation, AgentMove> {
  readonly id: string = AIR_ENV_ID;
  private readonly generator: ContextGenerator;
  private readonly customerFactory: CustomerPolicyFactory;
  protected readonly maxTurns: number;
  private readonly stream: Rng;
  private resets = 0;
  protected ctx: AirContext | null = null;
  protected customer: CustomerSession | null = null;
  protected turns: Turn[] = [];
  protected done = true;

  constructor(options: AirEnvOptions = {}, defaultCustomer = 'rules') {
    const c = options.customer ?? defaultCustomer;
    this.customerFactory = typeof c === 'string' ? customerPolicies.get(c) : c;
    this.generator = new ContextGenerator({ ...options.context, ood: options.ood ?? options.context?.ood ?? false });
    this.maxTurns = options.maxTurns ?? 40;
    if (!Number.isInteger(this.maxTurns) || this.maxTurns < 2) throw new ConfigError('maxTurns must be an integer >= 2');
    this.stream = createRng(options.seed ?? 0);
  }

  /** The current episode's full context (both private sides and the expected action): for logging and scoring, not for the agent. */
  get episodeContext(): AirContext {
    if (!this.ctx) throw new StateError('reset() has not been called');
    return this.ctx;
  }

  /** The conversation of the current episode. */
  get history(): readonly Turn[] {
    return this.turns;
  }

  reset(opts: ResetOptions = {}): ResetResult<AirObservation> {
    const opening = this.begin(opts, 'customer');
    return { obs: this.observe(opening), info: { tools: AIR_TOOLS } };
  }

  /** Starts an episode (its context, and its customer on the stream `customerStream`) and returns the customer's opening. */
  protected begin(opts: ResetOptions, customerStream: string): string {
    const rng = episodeRng(this.id, opts, this.stream, this.resets);
    this.resets++;
    this.ctx = this.generator.generate(rng.fork('context'));
    this.customer = this.customerFactory(this.ctx.intent, rng.fork(customerStream));
    const opening = this.customer.open();
    this.turns = [{ speaker: 'user', text: opening }];
    this.done = false;
    return opening;
  }

  protected observe(utterance: string): AirObservation {
    return { context: (this.ctx as AirContext).kb, history: this.turns.slice(), utterance };
  }

  /** The agent's move of a step (checked), its utterance added to the conversation. */
  protected agentMove(action: AgentMove | ToolCall | string): AgentMove {
    const move = typeof action === 'string' || (typeof action === 'object' && action !== null) ? airMoveOf(action) : action;
    if (this.done || !this.ctx || !this.customer) throw stepOutsideEpisode(this.ctx !== null);
    if (typeof move?.utterance !== 'string') throw new InvalidActionError('an agent move needs an utterance (string)');
    this.turns.push({ speaker: 'bot', text: move.utterance });
    return move;
  }

  step(action: AgentMove | ToolCall | string): StepResult<AirObservation> {
    const move = this.agentMove(action);
    if (!this.ctx || !this.customer) throw stepOutsideEpisode(this.ctx !== null);
    if (move.action) {
      this.done = true;
      const score = scoreAction(move.action, this.ctx.expected, this.ctx.kb);
      const info: Info = { score, action: move.action, expected: this.ctx.expected };
      return { obs: this.observe(''), reward: score.total, terminated: true, truncated: false, info };
    }
    if (this.turns.length >= this.maxTurns) {
      this.done = true;
      return { obs: this.observe(''), reward: 0, terminated: false, truncated: true, info: { score: ZERO, action: null, expected: this.ctx.expected } };
    }
    const reply = this.customer.respond(move.utterance);
    this.turns.push({ speaker: 'user', text: reply });
    return { obs: this.observe(reply), reward: 0, terminated: false, truncated: false, info: {} };
  }

  sampleAction(rng: Rng): AgentMove {
    if (rng.chance(0.2)) {
      const status = rng.pick(STATUSES);
      const kb = this.ctx?.kb.kb ?? [];
      const flight = (status === 'book' || status === 'change') && kb.length > 0 ? [rng.pick(kb).flight_number] : [];
      return { utterance: 'Thank you.', action: { status, name: '', flight } };
    }
    return { utterance: rng.pick([...AGENT_ASK_NAME, ...AGENT_ASK_ROUTE, ...AGENT_ASK_DATES, ...AGENT_ASK_PREFS]) };
  }
}

/** The names of `AirEnvOptions`: `make` refuses any other key (the record's type keeps the list complete). */
const MAKE_OPTIONS = Object.keys({ customer: true, ood: true, context: true, maxTurns: true, seed: true } satisfies Record<keyof AirEnvOptions, true>);
/** The family of the AirDialogue environments: their options, schema, dataset export and person view. */
const AIR_FAMILY: EnvFamily = { options: MAKE_OPTIONS, schema: 'env-airdialogue', dataset: airDataset, person: airPersonView };

// ---------------------------------------------------------------------------------------------
// airdialogue-v2

/**
 * The registry id of the AirDialogue environment whose customer reads any wording
 * (`AirDialogueV2Env`).
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import { AIR_ENV_V2_ID } from 'dialogym/airdialogue';
 * const env = make(AIR_ENV_V2_ID);
 * env.reset({ seed: 1 }).info['goal']; // the customer's requirements
 * ```
 */
export const AIR_ENV_V2_ID = 'airdialogue-v2';

/**
 * The failure reasons of `airdialogue-v2` (`info.failure` of the last step), in precedence order:
 * an action is judged on its status first, then its flight, then the name; an episode without an
 * action ends in `max turns`.
 *
 * @example
 * ```ts
 * import { AIR_FAILURES } from 'dialogym/airdialogue';
 * AIR_FAILURES.map((f) => f.reason); // ['wrong status', 'wrong flight', 'wrong name', 'max turns']
 * ```
 */
export const AIR_FAILURES: ReadonlyArray<{ readonly reason: string; readonly when: string }> = [
  { reason: 'wrong status', when: "the action's status (book, change, cancel, no_flight, no_reservation) is not the expected one" },
  { reason: 'wrong flight', when: 'the status is right but the flight is not one of the expected ones (or a flight was given where none was expected, none where one was, several)' },
  { reason: 'wrong name', when: "status and flight are right but the name is not the customer's (character F1 below 1 after lower-casing and removing punctuation)" },
  { reason: 'max turns', when: 'the conversation reached `maxTurns` utterances without an action (the episode is truncated)' },
];

/** Why a status is the expected one (for failure details). */
function statusReason(ctx: AirContext): string {
  const goal = ctx.intent.goal;
  switch (ctx.expected.status) {
    case 'no_reservation':
      return `the customer wants to ${goal} but has no reservation`;
    case 'no_flight':
      return "no flight of the table meets the customer's requirements";
    default:
      return `the customer wants to ${goal}`;
  }
}

/** Why the action's flight is wrong (for failure details). */
function flightReason(action: Action, ctx: AirContext): string {
  const want = ctx.expected.flight;
  if (want.length === 0) return `no flight was expected, got ${action.flight.join(', ')}`;
  if (action.flight.length === 0) return `no flight given, expected ${want.join(' or ')}`;
  if (action.flight.length > 1) return `${action.flight.length} flights given, expected one of ${want.join(', ')}`;
  const n = action.flight[0] as number;
  const f = ctx.kb.kb.find((x) => x.flight_number === n);
  if (!f) return `flight ${n} is not in the flight table`;
  const broken = violations(ctx.intent, f);
  if (broken.length > 0) return `flight ${n} breaks the customer's ${broken.join(', ')}`;
  return `flight ${n} meets the requirements but ${want.join(' or ')} is cheaper`;
}

/**
 * The failure of an action (`null` when it is right), by precedence: `wrong status`, then
 * `wrong flight`, then `wrong name`; `detail` names every wrong part and why.
 */
function actionFailure(action: Action, score: Score, ctx: AirContext): { failure: string; detail: Info } | null {
  const wrong: string[] = [];
  const why: string[] = [];
  if (score.action < 1) {
    wrong.push('status');
    why.push(`status '${action.status}' but '${ctx.expected.status}' was expected: ${statusReason(ctx)}`);
  }
  if (score.flight < 1) {
    wrong.push('flight');
    why.push(flightReason(action, ctx));
  }
  if (score.name < 1) {
    wrong.push('name');
    why.push(`name '${action.name}' is not '${ctx.expected.name}'`);
  }
  if (wrong.length === 0) return null;
  return { failure: `wrong ${wrong[0]}`, detail: { wrong, why: why.join('; '), expected: ctx.expected, action } };
}

/**
 * The AirDialogue environment whose customer understands meaning (`airdialogue-v2`): the
 * customer (policy `lexicon` by default, see `LexiconCustomer`) reads each agent turn whatever
 * its wording and answers every question about its requirements; the agent still decides with
 * its action (or tools), scored as in `airdialogue-v1`. Options as `AirDialogueEnv`'s.
 *
 * Besides v1's `info`: reset gives `goal` (the customer's intent) and `maxTurns`; each step gives
 * `turn` (agent turns so far), `read` (how the customer read the turn: `ask(budget)`,
 * `propose(1012)`, `not understood`, `act(book)` for an action, …) and `notUnderstood` (turns not
 * understood so far); the last step gives `success`, `failure` (`null`, `wrong status`,
 * `wrong flight`, `wrong name` or `max turns`), and for a failure `detail` and `failureTurn` (the
 * 0-based index of the agent turn where it went wrong — the protocol's `turn` —: the action's, or
 * the first turn not understood of an episode that ran out of turns). `variant` (a trial of the same task) draws the customer's wording from
 * another stream. Agents that ask in the simulator's wording get the same conversation as on v1.
 *
 * @example
 * ```ts
 * import { AirDialogueV2Env } from 'dialogym/airdialogue';
 * const env = new AirDialogueV2Env();
 * const { info } = env.reset({ seed: 3 });
 * const r = env.step('Ok, and what is your BUDGET?');
 * console.log(r.info['read'], r.obs.utterance); // ask(budget) …
 * ```
 */
export class AirDialogueV2Env extends AirDialogueEnv {
  override readonly id: string = AIR_ENV_V2_ID;
  private reading: ReadingCustomerSession | null = null;
  private agentTurns = 0;
  private notUnderstood = 0;
  private firstNotUnderstood: number | null = null;

  constructor(options: AirEnvOptions = {}) {
    super(options, 'lexicon');
  }

  override reset(opts: ResetOptions = {}): ResetResult<AirObservation> {
    const opening = this.begin(opts, opts.variant ? `customer:${opts.variant}` : 'customer');
    const customer = this.customer as CustomerSession;
    this.reading = isReadingCustomer(customer) ? customer : null;
    this.agentTurns = 0;
    this.notUnderstood = 0;
    this.firstNotUnderstood = null;
    return { obs: this.observe(opening), info: { tools: AIR_TOOLS, goal: { ...(this.ctx as AirContext).intent }, maxTurns: this.maxTurns } };
  }

  override step(action: AgentMove | ToolCall | string): StepResult<AirObservation> {
    const move = this.agentMove(action);
    const ctx = this.ctx as AirContext;
    const turn = ++this.agentTurns;
    if (move.action) {
      this.done = true;
      const score = scoreAction(move.action, ctx.expected, ctx.kb);
      const failed = actionFailure(move.action, score, ctx);
      const info: Info = {
        turn,
        read: `act(${move.action.status})`,
        notUnderstood: this.notUnderstood,
        score,
        action: move.action,
        expected: ctx.expected,
        success: failed === null,
        failure: failed?.failure ?? null,
        ...(failed ? { detail: failed.detail, failureTurn: turn - 1 } : {}),
      };
      return { obs: this.observe(''), reward: score.total, terminated: true, truncated: false, info };
    }
    const read = this.reading ? this.reading.read(move.utterance) : readAgentTurn(move.utterance);
    if (read.acts.length === 0) {
      this.notUnderstood++;
      this.firstNotUnderstood ??= turn - 1;
    }
    const info: Info = { turn, read: read.label, notUnderstood: this.notUnderstood };
    if (this.turns.length >= this.maxTurns) {
      this.done = true;
      const detail = { why: `no action within ${this.maxTurns} utterances`, notUnderstood: this.notUnderstood };
      const end: Info = { ...info, score: ZERO, action: null, expected: ctx.expected, success: false, failure: 'max turns', detail };
      if (this.firstNotUnderstood !== null) end['failureTurn'] = this.firstNotUnderstood;
      return { obs: this.observe(''), reward: 0, terminated: false, truncated: true, info: end };
    }
    const reply = this.reading ? this.reading.answer(read) : (this.customer as CustomerSession).respond(move.utterance);
    this.turns.push({ speaker: 'user', text: reply });
    return { obs: this.observe(reply), reward: 0, terminated: false, truncated: false, info };
  }
}

/**
 * The definition of `airdialogue-v<version>` (what the testbed's entry point, testbed.ts, gives each
 * declared id): its family and its builder, which `make` calls with checked options.
 *
 * @example
 * ```ts
 * import { airEnv } from 'dialogym/airdialogue';
 * const env = airEnv({ version: 2 }).build({ ood: true }); // as make('airdialogue-v2', { ood: true }), unchecked
 * ```
 */
export function airEnv(a: { readonly version: 1 | 2 }): EnvDefinition<AirEnvOptions> {
  return { family: AIR_FAMILY, build: (options) => (a.version === 1 ? new AirDialogueEnv(options) : new AirDialogueV2Env(options)) };
}

// ---------------------------------------------------------------------------------------------
// self-play runs

/**
 * One played episode: its generated context, the conversation, the agent's final action, its
 * score and whether it was truncated.
 *
 * @example
 * ```ts
 * import { AirDialogueEnv, agentPolicies, selfPlayEpisode, type Episode } from 'dialogym/airdialogue';
 * const e: Episode = selfPlayEpisode(new AirDialogueEnv(), agentPolicies.get('rules'), 1);
 * console.log(e.dialogue.length, e.action?.status, e.context.expected.status, e.score.total);
 * ```
 */
export interface Episode {
  /** The episode's customer and agent contexts and the expected action. */
  context: AirContext;
  /** The conversation (`user` = customer, `bot` = agent). */
  dialogue: Turn[];
  /** The agent's final action (null when truncated). */
  action: Action | null;
  /** Score of the action (all zero when truncated). */
  score: Score;
  truncated: boolean;
}

/**
 * The seed of episode `i` of a run seeded `seed` (a non-negative 31-bit integer), so an episode
 * can be replayed alone.
 *
 * @example
 * ```ts
 * import { AirDialogueEnv, agentPolicies, selfPlayEpisode, episodeSeed } from 'dialogym/airdialogue';
 * const again = selfPlayEpisode(new AirDialogueEnv(), agentPolicies.get('rules'), episodeSeed(0, 41)); // episode 41 of selfPlay({ seed: 0, … })
 * ```
 */
export function episodeSeed(seed: number, i: number): number {
  return createRng(seed).fork(`episode:${i}`).int(0x7fffffff);
}

/**
 * Plays one self-play episode of `env` with an agent policy through the episode loop
 * (`playEpisode`), the episode and the agent seeded by `seed`, until the agent acts or the turn
 * limit; the episode's context, conversation, action and score are the testbed's metrics. Errors
 * of the policy or the environment pass through.
 *
 * @example
 * ```ts
 * import { AirDialogueEnv, agentPolicies, selfPlayEpisode } from 'dialogym/airdialogue';
 * const e = selfPlayEpisode(new AirDialogueEnv(), agentPolicies.get('rules'), 12);
 * e.score.exact.total; // 1 when the rule agent got everything right
 * ```
 */
export function selfPlayEpisode(env: AirDialogueEnv, agentFactory: AgentPolicyFactory, seed: number): Episode {
  const rng = createRng(seed).fork('agent');
  let agent: AgentSession | undefined;
  const policy = (t: EpisodeTurn<AirObservation>): AgentMove => (agent = t.turn === 0 ? agentFactory(t.obs.context, rng) : (agent as AgentSession)).respond(t.obs.utterance);
  return playEpisode(env, policy, {
    reset: { seed },
    metrics: (e): Episode => ({
      context: env.episodeContext,
      dialogue: env.history.slice(),
      action: (e.info['action'] as Action | null | undefined) ?? null,
      score: (e.info['score'] as Score | undefined) ?? ZERO,
      truncated: e.truncated,
    }),
  }).metrics;
}

/**
 * Self-play episodes `i < n` (those `include` passes) of `env` with an agent policy, episode i
 * seeded by `episodeSeed(seed, i)`, their scores added in episode order: what `selfPlay` and
 * `learnedSelfPlay` run. `onResult` gets each episode, then `onEpisode` the progress.
 *
 * @example
 * ```ts
 * import { AirDialogueEnv, agentPolicies, selfPlayEpisodes } from 'dialogym/airdialogue';
 * const report = selfPlayEpisodes(new AirDialogueEnv({ ood: true }), agentPolicies.get('rules'), { n: 20, seed: 1 });
 * console.log(report.total, report.dialogs);
 * ```
 */
export function selfPlayEpisodes(env: AirDialogueEnv, agentFactory: AgentPolicyFactory, o: Pick<SelfPlayOptions, 'n' | 'seed' | 'include' | 'onEpisode' | 'onResult'>): ScoreReport {
  let sum: ScoreSum = emptyScoreSum();
  for (let i = 0; i < o.n; i++) {
    if (o.include && !o.include(i)) continue;
    const e = selfPlayEpisode(env, agentFactory, episodeSeed(o.seed ?? 0, i));
    sum = addScore(sum, e.score);
    o.onResult?.(e, i);
    o.onEpisode?.(i + 1, o.n);
  }
  return scoreReport(sum);
}

/**
 * Options of `selfPlay`.
 *
 * @example
 * ```ts
 * import { selfPlay, type SelfPlayOptions } from 'dialogym/airdialogue';
 * const opts: SelfPlayOptions = { n: 100, seed: 1, agent: 'rules', customer: 'rules', ood: true };
 * selfPlay(opts);
 * ```
 */
export interface SelfPlayOptions {
  /** Registered agent policy (default `rules`). */
  agent?: string;
  /** Registered customer policy (default `rules`). */
  customer?: string;
  /** Number of episodes. */
  n: number;
  /** Run seed (default 0); episode i uses `episodeSeed(seed, i)`. */
  seed?: number;
  /** Out-of-domain contexts. */
  ood?: boolean;
  /** Turn limit per episode (default 40). */
  maxTurns?: number;
  /** Called after each episode (for progress display). */
  onEpisode?: (done: number, total: number) => void;
  /** Called with each finished episode. */
  onResult?: (e: Episode, i: number) => void;
  /** Only the episodes whose index passes (a sharded run's part; episode i is seeded by `episodeSeed(seed, i)` alone). */
  include?: (i: number) => boolean;
}

/**
 * Plays `n` self-play episodes (agent policy vs customer policy) and returns the mean scores.
 * Throws a ConfigError for an unknown policy name.
 *
 * @example
 * ```ts
 * import { selfPlay } from 'dialogym/airdialogue';
 * const report = selfPlay({ n: 50, seed: 1 });
 * console.log(report.total.toFixed(3), report.exact.total.toFixed(3), report.dialogs);
 * ```
 */
export function selfPlay(o: SelfPlayOptions): ScoreReport {
  const agentFactory = agentPolicies.get(o.agent ?? 'rules');
  const env = new AirDialogueEnv({ customer: o.customer ?? 'rules', ood: o.ood ?? false, ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}) });
  return selfPlayEpisodes(env, agentFactory, o);
}

/** Base time of generated dialogs' timestamps (seconds). */
const TIME_BASE = 1520000000;

/**
 * An episode as an AirDialogue data line (the synthesized-dataset format: `customer: …` /
 * `agent: …` utterances with increasing timestamps drawn from `rng`) and its KB line. A truncated
 * episode gets an empty action.
 *
 * @example
 * ```ts
 * import { formatAirLines, createRng } from 'dialogym';
 * import { AirDialogueEnv, agentPolicies, selfPlayEpisode, episodeToLines } from 'dialogym/airdialogue';
 * const { data, kb } = episodeToLines(selfPlayEpisode(new AirDialogueEnv(), agentPolicies.get('rules'), 1), createRng(1));
 * const line = formatAirLines([data]);
 * ```
 */
export function episodeToLines(e: Episode, rng: Rng): { data: DataLine; kb: KbLine } {
  let t = TIME_BASE + rng.int(60 * 86400);
  const timestamps: number[] = [];
  const dialogue = e.dialogue.map((turn) => {
    t += rng.range(3, 40);
    timestamps.push(t);
    return `${turn.speaker === 'user' ? 'customer' : 'agent'}: ${turn.text}`;
  });
  const action: Action = e.action ?? { status: '', name: '', flight: [] };
  const expected = e.context.expected;
  const correct = correctSample(action, expected, e.score.exact.flight);
  return {
    data: { intent: e.context.intent, action, expected_action: expected, dialogue, timestamps, correct_sample: correct },
    kb: e.context.kb,
  };
}

/**
 * Options of `simulateDialogs`.
 *
 * @example
 * ```ts
 * import type { SimulateOptions } from 'dialogym/airdialogue';
 * const opts: SimulateOptions = { n: 1000, seed: 3, ood: false };
 * ```
 */
export interface SimulateOptions {
  /** Number of dialogs. */
  n: number;
  /** Run seed (default 0). */
  seed?: number;
  /** Out-of-domain contexts. */
  ood?: boolean;
  /** Called after each dialog. */
  onEpisode?: (done: number, total: number) => void;
  /** Only the dialogs whose index passes (a sharded run's part; each dialog has its own seed). */
  include?: (i: number) => boolean;
}

/**
 * The templated dialog simulator: rule customer vs rule agent (`selfPlay`), every episode as a
 * data line and a KB line, ready for `formatAirLines`, plus the self-play report and each
 * episode's score (in the order of the lines).
 *
 * @example
 * ```ts
 * import { formatAirLines, writeFileAtomic } from 'dialogym';
 * import { simulateDialogs } from 'dialogym/airdialogue';
 * const { data, kb, report } = simulateDialogs({ n: 100, seed: 1 });
 * writeFileAtomic('out/sim_data.json', formatAirLines(data));
 * writeFileAtomic('out/sim_kb.json', formatAirLines(kb));
 * ```
 */
export function simulateDialogs(o: SimulateOptions): { data: DataLine[]; kb: KbLine[]; report: ScoreReport; scores: Score[] } {
  const data: DataLine[] = [];
  const kb: KbLine[] = [];
  const scores: Score[] = [];
  const seed = o.seed ?? 0;
  const report = selfPlay({
    n: o.n,
    seed,
    ood: o.ood ?? false,
    ...(o.onEpisode ? { onEpisode: o.onEpisode } : {}),
    ...(o.include ? { include: o.include } : {}),
    onResult: (e, i) => {
      const lines = episodeToLines(e, createRng(seed).fork(`timestamps:${i}`));
      data.push(lines.data);
      kb.push(lines.kb);
      scores.push(e.score);
    },
  });
  return { data, kb, report, scores };
}
