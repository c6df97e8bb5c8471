/**
 * Rule-based user simulator (paper Appendix E, §6.2; defaults of the official `sim.py`).
 *
 * A goal is a target movie of the full KB and the slots the user knows about it: a fraction
 * `knowProb` of the target's known slots (at least one). Goals whose known values match more than
 * `successMaxRank` movies of the full KB are resampled (the target must be identifiable). The user
 * opens with 1..maxFirstTurn of its slots, answers a request with the value or "I don't know", and
 * ends the dialog when the agent informs results. Every value said passes the error model: with
 * probability `subProb` it is substituted by another value of the slot, then with probability
 * `errProb` corrupted (a multi-word value loses a word; numbers get Gaussian noise, sd 0.5).
 *
 * Reward: per request −0.1; inform with the target at rank r (0-based) < R = 5: 2(1 − r/R); target
 * not in the first R: −1; no inform within `maxTurns` agent actions: −1.
 */
import type { Rng } from '../../core/rng.js';
import type { InfoBotAction, SlotValue, UserAct } from './acts.js';
import { MISSING, type MovieKb } from './movie-kb.js';
import { TemplateNlg, type NlgOptions } from './nlg.js';
import { M, REWARDS, SLOTS, slotIndex } from './slots.js';
import { wordTokens } from './text.js';
import { ConfigError, DialogymError, InvalidActionError, StateError } from '../../core/errors.js';

/**
 * Options of the simulated user (`InfoBotEnvOptions.user`); defaults of the official `sim.py`.
 * Probabilities outside [0, 1] or a bad `maxTurns` throw a ConfigError.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import type { UserOptions } from 'dialogym/infobot';
 * const user: UserOptions = { errProb: 0, subProb: 0, knowProb: 1 }; // a perfectly reliable user
 * const env = make('infobot-small-v1', { user });
 * ```
 */
export interface UserOptions {
  /** Fraction of the target's known slots the user knows (official dk_prob = 1 − 0.5; default 0.5). */
  knowProb?: number;
  /** Probability of corrupting a value (default 0.5). */
  errProb?: number;
  /** Probability of substituting a value by another of the slot (default 0.05). */
  subProb?: number;
  /** Most slots given in the first turn (default 5). */
  maxFirstTurn?: number;
  /** Agent actions before the dialog fails (default 10, official `dialog_config.MAX_TURN`). */
  maxTurns?: number;
  /**
   * Whether an inform as the `maxTurns`-th agent action still counts (default false: as in the official
   * simulator, MiuLab/KB-InfoBot `deep_dialog/usersims/usersim_rule.py` `next`, lines 127 and 135–138, the
   * turn limit is checked before the action, so the `maxTurns`-th action fails whatever it is).
   */
  informOnLastTurn?: boolean;
  /** R: the target must be among the first R results (default 5). */
  successMaxRank?: number;
  nlg?: NlgOptions;
}

/**
 * What the simulated user wants: the target movie and the slot values it knows about it.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { UserSimulator, splitKbs, type UserGoal } from 'dialogym/infobot';
 * const goal: UserGoal = new UserSimulator(splitKbs('small', 1).full).sampleGoal(createRng(1));
 * console.log(goal.target, [...goal.known.keys()]);
 * ```
 */
export interface UserGoal {
  /** Target row (same index in the full and the agent's KB). */
  readonly target: number;
  /** Slot index → the true value index the user knows. */
  readonly known: ReadonlyMap<number, number>;
}

/**
 * One user turn: the act, its utterance, the reward of the agent action it answers, and how the
 * dialog stands.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { UserSimulator, splitKbs, type UserTurn } from 'dialogym/infobot';
 * const session = new UserSimulator(splitKbs('small', 1).full).session(createRng(1));
 * const t: UserTurn = session.respond({ act: 'request', slot: 'actor' });
 * console.log(t.utterance, t.reward); // …, -0.1
 * ```
 */
export interface UserTurn {
  readonly act: UserAct;
  /** The act as said by the NLG. */
  readonly utterance: string;
  /** Reward of the agent action this turn answers. */
  readonly reward: number;
  /** The dialog is over (inform, or out of turns). */
  readonly done: boolean;
  /** Over because of the turn limit. */
  readonly truncated: boolean;
  /** The target was informed within the first R results. */
  readonly success: boolean;
  /** 0-based rank of the target in the informed results (−1 if absent or not informed). */
  readonly rank: number;
}

/** Corrupts a value the way the official simulator does: drop one word of a multi-word value, jitter numbers.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { corruptValue } from 'dialogym/infobot';
 * corruptValue('tom hanks', createRng(1)); // 'tom' or 'hanks'
 * corruptValue('7.2', createRng(1));       // e.g. '7.5'
 * ```
 */
export function corruptValue(value: string, rng: Rng): string {
  const tokens = value.split(' ');
  if (tokens.length > 1) tokens.splice(rng.int(tokens.length), 1);
  return tokens
    .map((t) => {
      if (/^-?\d+$/.test(t)) return String(Math.trunc(rng.normal(Number(t), 0.5)));
      if (/^-?\d+\.\d+$/.test(t)) return rng.normal(Number(t), 0.5).toFixed(1);
      return t;
    })
    .join(' ');
}

/**
 * The rule-based user simulator (module description above) over the full KB: `session(rng)` starts
 * a dialog with a sampled goal. The constructor throws a ConfigError for bad options;
 * `sampleGoal` a DialogymError when the KB has no identifiable goal.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { UserSimulator, splitKbs } from 'dialogym/infobot';
 * const sim = new UserSimulator(splitKbs('small', 1).full, { errProb: 0.2 });
 * const session = sim.session(createRng(4));
 * session.opening.utterance; // e.g. 'i am looking for a movie directed by …'
 * ```
 */
export class UserSimulator {
  readonly opts: Required<Omit<UserOptions, 'nlg'>>;
  // Goal sampling follows `usersim_rule.py` `_sample_goal` (lines 79–106): a uniform target, int(knowProb ·
  // its known slots) of them (at least one); the first turn `_sample_action` (lines 52–58): 1..maxFirstTurn
  // of them; `corrupt` (lines 172–187): substitution, then corruption, drawn independently. The
  // identifiability resampling is the official dialog manager's (`dialog_manager.py`
  // `initialize_episode` and `_check_user_goal`: ≤ SUCCESS_MAX_RANK exact matches in the full KB).
  readonly nlg: TemplateNlg;

  constructor(
    readonly kb: MovieKb,
    options: UserOptions = {},
  ) {
    this.opts = {
      knowProb: options.knowProb ?? 0.5,
      errProb: options.errProb ?? 0.5,
      subProb: options.subProb ?? 0.05,
      maxFirstTurn: options.maxFirstTurn ?? 5,
      maxTurns: options.maxTurns ?? REWARDS.maxTurns,
      informOnLastTurn: options.informOnLastTurn ?? false,
      successMaxRank: options.successMaxRank ?? REWARDS.successMaxRank,
    };
    for (const k of ['knowProb', 'errProb', 'subProb'] as const) {
      const v = this.opts[k];
      if (!(v >= 0 && v <= 1)) throw new ConfigError(`${k} must be in [0, 1], got ${v}`);
    }
    if (!Number.isInteger(this.opts.maxTurns) || this.opts.maxTurns < 1) throw new ConfigError('maxTurns must be a positive integer');
    const tokens = new Set<string>();
    for (const v of kb.vocab) for (const x of v) for (const t of wordTokens(x)) tokens.add(t);
    this.nlg = new TemplateNlg([...tokens].sort(), options.nlg);
  }

  /** Rows of the full KB whose values equal all of the goal's known values. */
  goalMatches(known: ReadonlyMap<number, number>): number {
    return this.kb.rowsMatching(known).length;
  }

  /** Samples an identifiable goal. */
  sampleGoal(rng: Rng): UserGoal {
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const target = rng.int(this.kb.n);
      const knownSlots: number[] = [];
      for (let j = 0; j < M; j++) if (this.kb.cell(target, j) !== MISSING) knownSlots.push(j);
      if (knownSlots.length === 0) continue;
      let care = rng.sample(knownSlots, Math.floor(this.opts.knowProb * knownSlots.length));
      if (care.length === 0) care = [rng.pick(knownSlots)];
      care.sort((a, b) => a - b);
      const known = new Map(care.map((j) => [j, this.kb.cell(target, j)]));
      if (this.goalMatches(known) <= this.opts.successMaxRank) return { target, known };
    }
    throw new DialogymError('cannot sample an identifiable user goal from this KB');
  }

  /** Starts a dialog: a goal and the opening turn. */
  session(rng: Rng, goal?: UserGoal): UserSession {
    return new UserSession(this, goal ?? this.sampleGoal(rng.fork('goal')), rng);
  }

  /** The value as the user says it, after substitution and corruption. */
  noisyValue(slot: number, value: number, rng: Rng): string {
    const vocab = this.kb.vocab[slot] as readonly string[];
    let s = vocab[value] as string;
    if (rng.chance(this.opts.subProb)) s = rng.pick(vocab);
    if (rng.chance(this.opts.errProb)) s = corruptValue(s, rng);
    return s;
  }
}

/**
 * One dialog of the simulated user: `opening` is its first turn, `respond(action)` its answer to
 * each agent action (a StateError once the dialog is over, an InvalidActionError for an unknown
 * slot). The error model's substitution may draw the same value again.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { UserSimulator, splitKbs } from 'dialogym/infobot';
 * const s = new UserSimulator(splitKbs('small', 1).full).session(createRng(2));
 * s.respond({ act: 'request', slot: 'genre' });
 * const end = s.respond({ act: 'inform', results: [s.goal.target] }); // success, reward 2
 * ```
 */
export class UserSession {
  /** Agent actions so far. */
  turn = 0;
  done = false;
  readonly opening: UserTurn;

  constructor(
    readonly sim: UserSimulator,
    readonly goal: UserGoal,
    private readonly rng: Rng,
  ) {
    const slots = [...goal.known.keys()];
    const k = rng.range(1, Math.min(sim.opts.maxFirstTurn, slots.length));
    const informs: SlotValue[] = rng
      .sample(slots, k)
      .sort((a, b) => a - b)
      .map((j) => ({ slot: SLOTS[j] as (typeof SLOTS)[number], value: sim.noisyValue(j, goal.known.get(j) as number, rng) }));
    this.opening = this.say({ act: 'open', informs }, 0, false, false, false, -1);
  }

  private say(act: UserAct, reward: number, done: boolean, truncated: boolean, success: boolean, rank: number): UserTurn {
    return { act, utterance: this.sim.nlg.generate(act, this.rng), reward, done, truncated, success, rank };
  }

  /** The user's reply to an agent action. */
  respond(action: InfoBotAction): UserTurn {
    if (this.done) throw new StateError('the dialog is over');
    this.turn++;
    const o = this.sim.opts;
    if (action.act !== 'inform' && slotIndex(action.slot) < 0) throw new InvalidActionError(`unknown slot '${String(action.slot)}'`);
    if (!o.informOnLastTurn && this.turn >= o.maxTurns) {
      this.done = true;
      return this.say({ act: 'deny' }, REWARDS.failure, true, true, false, -1);
    }
    if (action.act === 'inform') {
      this.done = true;
      const rank = action.results.indexOf(this.goal.target);
      if (rank >= 0 && rank < o.successMaxRank) return this.say({ act: 'thanks' }, REWARDS.success * (1 - rank / o.successMaxRank), true, false, true, rank);
      return this.say({ act: 'deny' }, REWARDS.failure, true, false, false, rank);
    }
    const j = slotIndex(action.slot);
    if (o.informOnLastTurn && this.turn >= o.maxTurns) {
      this.done = true;
      return this.say({ act: 'deny' }, REWARDS.failure, true, true, false, -1);
    }
    const v = this.goal.known.get(j);
    const act: UserAct = v === undefined ? { act: 'dont-know', slot: action.slot } : { act: 'inform', slot: action.slot, value: this.sim.noisyValue(j, v, this.rng) };
    return this.say(act, REWARDS.perTurn, false, false, false, -1);
  }
}
