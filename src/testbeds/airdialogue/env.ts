/**
 * AirDialogue self-play environment (`airdialogue-v1`): the learner plays the agent, a customer
 * policy plays the customer. Each side sees only its own context — the agent observes its flight
 * database, the reservation flag and the conversation; the customer's intent stays inside the env.
 * The episode ends when the agent acts; the reward is the scorer's scaled total.
 */
import type { Turn } from '../../core/dialog.js';
import { createRng, type Rng } from '../../core/rng.js';
import type { Action, DataLine, KbLine } from '../../formats/airdialogue.js';
import { STATUSES } from '../../formats/airdialogue.js';
import { envs, type Env, type Info, type ResetOptions, type ResetResult, type StepResult } from '../env.js';
import { ContextGenerator, type AirContext, type ContextOptions } from './context.js';
import { AGENT_ASK_DATES, AGENT_ASK_NAME, AGENT_ASK_PREFS, AGENT_ASK_ROUTE } from './language.js';
import { agentPolicies, customerPolicies, type AgentMove, type AgentPolicyFactory, type CustomerPolicyFactory, type CustomerSession } from './policies.js';
import { addScore, emptyScoreSum, scoreAction, scoreReport, type Score, type ScoreReport, type ScoreSum } from './scorer.js';
import { ConfigError, InvalidActionError, StateError } from '../../core/errors.js';

export const AIR_ENV_ID = 'airdialogue-v1';

/** What the agent sees. */
export interface AirObservation {
  /** The agent's private context: flight database and reservation. */
  readonly context: KbLine;
  /** The conversation so far (`user` = customer, `bot` = agent). */
  readonly history: readonly Turn[];
  /** The customer's latest utterance. */
  readonly utterance: string;
}

export interface AirEnvOptions {
  /** Customer policy: a registered name (default `rules`) or a factory. */
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

export class AirDialogueEnv implements Env<AirObservation, AgentMove> {
  readonly id = AIR_ENV_ID;
  private readonly generator: ContextGenerator;
  private readonly customerFactory: CustomerPolicyFactory;
  private readonly maxTurns: number;
  private readonly stream: Rng;
  private resets = 0;
  private ctx: AirContext | null = null;
  private customer: CustomerSession | null = null;
  private turns: Turn[] = [];
  private done = true;

  constructor(options: AirEnvOptions = {}) {
    const c = options.customer ?? 'rules';
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
    const rng = opts.seed !== undefined ? createRng(opts.seed) : this.stream.fork(`episode:${this.resets}`);
    this.resets++;
    this.ctx = this.generator.generate(rng.fork('context'));
    this.customer = this.customerFactory(this.ctx.intent, rng.fork('customer'));
    const opening = this.customer.open();
    this.turns = [{ speaker: 'user', text: opening }];
    this.done = false;
    return { obs: this.observe(opening), info: {} };
  }

  private observe(utterance: string): AirObservation {
    return { context: (this.ctx as AirContext).kb, history: this.turns.slice(), utterance };
  }

  step(move: AgentMove): StepResult<AirObservation> {
    if (this.done || !this.ctx || !this.customer) throw new StateError('step() called on a finished episode; call reset() first');
    if (typeof move?.utterance !== 'string') throw new InvalidActionError('an agent move needs an utterance (string)');
    this.turns.push({ speaker: 'bot', text: move.utterance });
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

envs.register(AIR_ENV_ID, 'AirDialogue self-play: play the agent against a customer policy; reward = scaled score', (options) => new AirDialogueEnv((options ?? {}) as AirEnvOptions));

// ---------------------------------------------------------------------------------------------
// self-play runs

export interface Episode {
  context: AirContext;
  dialogue: Turn[];
  /** The agent's final action (null when truncated). */
  action: Action | null;
  score: Score;
  truncated: boolean;
}

/** The seed of episode `i` of a run seeded `seed`. */
export function episodeSeed(seed: number, i: number): number {
  return createRng(seed).fork(`episode:${i}`).int(0x7fffffff);
}

/** Plays one episode of `env` with an agent policy. */
export function playEpisode(env: AirDialogueEnv, agentFactory: AgentPolicyFactory, seed: number): Episode {
  const { obs } = env.reset({ seed });
  const agent = agentFactory(obs.context, createRng(seed).fork('agent'));
  let utterance = obs.utterance;
  for (;;) {
    const r = env.step(agent.respond(utterance));
    if (r.terminated || r.truncated) {
      return {
        context: env.episodeContext,
        dialogue: env.history.slice(),
        action: (r.info.action as Action | null) ?? null,
        score: r.info.score as Score,
        truncated: r.truncated,
      };
    }
    utterance = r.obs.utterance;
  }
}

export interface SelfPlayOptions {
  agent?: string;
  customer?: string;
  n: number;
  seed?: number;
  ood?: boolean;
  maxTurns?: number;
  /** Called after each episode (for progress display). */
  onEpisode?: (done: number, total: number) => void;
  /** Called with each finished episode. */
  onResult?: (e: Episode, i: number) => void;
}

/** Plays `n` self-play episodes and averages the scores. */
export function selfPlay(o: SelfPlayOptions): ScoreReport {
  const agentFactory = agentPolicies.get(o.agent ?? 'rules');
  const env = new AirDialogueEnv({ customer: o.customer ?? 'rules', ood: o.ood ?? false, ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}) });
  let sum: ScoreSum = emptyScoreSum();
  for (let i = 0; i < o.n; i++) {
    const e = playEpisode(env, agentFactory, episodeSeed(o.seed ?? 0, i));
    sum = addScore(sum, e.score);
    o.onResult?.(e, i);
    o.onEpisode?.(i + 1, o.n);
  }
  return scoreReport(sum);
}

/** Base time of generated dialogs' timestamps (seconds). */
const TIME_BASE = 1520000000;

/** An episode as an AirDialogue data line (the synthesized-dataset format) and its KB line. */
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
  const correct = action.status === expected.status && action.name.trim().toLowerCase() === expected.name.trim().toLowerCase() && e.score.exact.flight === 1;
  return {
    data: { intent: e.context.intent, action, expected_action: expected, dialogue, timestamps, correct_sample: correct },
    kb: e.context.kb,
  };
}

export interface SimulateOptions {
  n: number;
  seed?: number;
  ood?: boolean;
  onEpisode?: (done: number, total: number) => void;
}

/** The templated dialog simulator: rule customer vs rule agent, as data + KB lines. */
export function simulateDialogs(o: SimulateOptions): { data: DataLine[]; kb: KbLine[]; report: ScoreReport } {
  const data: DataLine[] = [];
  const kb: KbLine[] = [];
  const seed = o.seed ?? 0;
  const report = selfPlay({
    n: o.n,
    seed,
    ood: o.ood ?? false,
    ...(o.onEpisode ? { onEpisode: o.onEpisode } : {}),
    onResult: (e, i) => {
      const lines = episodeToLines(e, createRng(seed).fork(`timestamps:${i}`));
      data.push(lines.data);
      kb.push(lines.kb);
    },
  });
  return { data, kb, report };
}
