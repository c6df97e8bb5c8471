/**
 * The simulated user of the online restaurant environments (bAbI tasks 1–5 and DSTC6 Track 1).
 * It holds a goal sampled as the dataset generators sample theirs (`Goal`) and reacts to what the
 * agent says, with the datasets' utterance patterns (a `UserLanguage`): it answers the slot the
 * agent asks for, gives its updates after the first api_call (tasks 2 and 5), accepts or rejects
 * proposed options (25 % accept, the last one always), asks for the phone number and/or address
 * (tasks 4 and 5), thanks and says goodbye. What it takes from an agent utterance is a `Heard`:
 * the -v1 user tests the datasets' wording (`hearV1`: prefixes and patterns) and repeats what it
 * said last when none fits (the datasets have no other "not understood" turn); the -v2 user reads
 * the utterance into an act (`reader.ts`, `hearReading`) and says it did not understand when it
 * cannot read it (`NOT_UNDERSTOOD`, counted). An act that is understood but out of place gets the
 * last utterance again in both.
 *
 * It also scores the dialog as it goes: the first failure (wrong final api_call, an option
 * proposed out of the highest-rated-first order, wrong information) is kept for `info.failure`,
 * with the agent turn where it happened.
 */
import type { Rng } from '../../../core/rng.js';
import type { ApiCall, Restaurant } from '../kb.js';
import type { CallSlot, Goal, InfoKind } from './goal.js';
import { NOT_UNDERSTOOD } from './lexicon.js';
import { readLabel, type Reading } from './utterance-reader.js';

/**
 * How the user speaks (the dataset's patterns) and how KB results are shown. A distractor is an
 * utterance said before the real one (DSTC6's hesitations and questions to a friend): the agent's
 * next turn, whatever it is, is answered with the real one.
 */
export interface UserLanguage {
  readonly silence: string;
  greeting(rng: Rng): string;
  request(rng: Rng, goal: ApiCall, slots: readonly CallSlot[]): string;
  bookAt(rng: Rng, name: string): string;
  answer(rng: Rng, slot: CallSlot, value: string): { distractor?: string; text: string };
  update(rng: Rng, slot: CallSlot, value: string, index: number): { distractor?: string; text: string };
  noMoreUpdates(rng: Rng): string;
  accept(rng: Rng): string;
  /** A rejection, maybe after an out-of-scope question. */
  reject(rng: Rng): { distractor?: string; text: string };
  askInfo(rng: Rng, kind: InfoKind): { distractor?: string; text: string };
  thanks(rng: Rng): string;
  noThanks(rng: Rng): string;
}

/** Bot utterance prefixes both datasets use. */
export const PROPOSE_PREFIX = 'what do you think of this option: ';
export const INFO_PREFIX = 'here it is ';

const SLOT_CUES: ReadonlyArray<[CallSlot, RegExp]> = [
  ['atmosphere', /\batmosphere\b/],
  ['restrictions', /\bdietary\b|\brestrictions?\b/],
  ['cuisine', /\bcuisine\b|\bfood\b/],
  ['number', /\bhow many\b|\bparty\b|\bpeople\b/],
  ['price', /\bprice\b/],
  ['location', /\bwhere\b|\blocation\b|\barea\b/],
];

/** The slot a bot utterance asks about, if it is a question about one of `slots` (-v1). */
export function askedSlot(text: string, slots: readonly CallSlot[]): CallSlot | undefined {
  for (const [slot, re] of SLOT_CUES) if (slots.includes(slot) && re.test(text)) return slot;
  return undefined;
}

/**
 * What the user took from an agent utterance: the features its reaction depends on. The -v2
 * reading sets at most one of them; the -v1 tests may set several (the user looks at them in a
 * fixed order: proposal, information, its phase's expectation, slot question, statement).
 */
export interface Heard {
  /** How `info.read` names the reading (-v2). */
  readonly read: string;
  /** False: the user cannot read the utterance (-v2 only). */
  readonly understood: boolean;
  /** A proposal: the restaurant name (or the unknown words after the dataset's opening). */
  readonly propose?: string | undefined;
  /** The proposal is worded as a booking (-v2): with the accepted restaurant, it is the booking. */
  readonly booking?: boolean | undefined;
  /** Information: the values given. */
  readonly inform?: readonly string[] | undefined;
  readonly close?: boolean | undefined;
  readonly askUpdates?: boolean | undefined;
  readonly ask?: CallSlot | undefined;
  /** A statement that needs no answer: the user stays silent. */
  readonly statement?: boolean | undefined;
}

/** -v1: the datasets' wording, tested on the raw text (each test run only when the user looks at it). */
export function hearV1(text: string, slots: readonly CallSlot[]): Heard {
  return new HeardV1(text, slots);
}

/** The -v1 features: prototype getters (no closures per turn), so the -v1 user stays as fast as it was. */
class HeardV1 implements Heard {
  readonly read = '';
  readonly understood = true;
  readonly booking = undefined;

  constructor(
    private readonly text: string,
    private readonly slots: readonly CallSlot[],
  ) {}

  get propose(): string | undefined {
    return this.text.startsWith(PROPOSE_PREFIX) ? this.text.slice(PROPOSE_PREFIX.length).trim() : undefined;
  }

  get inform(): string[] | undefined {
    return this.text.startsWith(INFO_PREFIX) ? [this.text.slice(INFO_PREFIX.length).trim()] : undefined;
  }

  get close(): boolean {
    return /\byou'?re welcome\b|\bgoodbye\b|\bbye\b/.test(this.text);
  }

  get askUpdates(): boolean {
    return /anything else to update/.test(this.text);
  }

  get ask(): CallSlot | undefined {
    return askedSlot(this.text, this.slots);
  }

  get statement(): boolean {
    return isStatement(this.text);
  }
}

const heardOf = new WeakMap<Reading, Heard>();

/** -v2: the features of a reading (`UtteranceReader.read`; kept per reading, as the reader keeps its readings). */
export function hearReading(r: Reading): Heard {
  let h = heardOf.get(r);
  if (h === undefined) heardOf.set(r, (h = features(r)));
  return h;
}

function features(r: Reading): Heard {
  const act = r.act;
  const understood = act !== 'not understood';
  // One object shape for every reading (the user's reaction reads the same properties each turn).
  return {
    read: readLabel(r),
    understood,
    propose: act === 'propose' ? (r.name ?? r.said) : undefined,
    booking: act === 'propose' ? r.booking : undefined,
    inform: act === 'inform' ? (r.values !== undefined && r.values.length > 0 ? r.values : [r.said ?? '']) : undefined,
    close: act === 'close',
    askUpdates: act === 'ask-updates',
    ask: act === 'ask' ? r.slot : undefined,
    statement: understood && act !== 'propose' && act !== 'inform' && act !== 'close' && act !== 'ask-updates' && act !== 'ask' && act !== 'greet' && act !== 'offer-help',
  };
}

type Phase = 'greet' | 'request' | 'updates' | 'await-call' | 'proposals' | 'accepted' | 'info' | 'thanked' | 'closing' | 'task2-thanked';

/** A reaction: the user's next utterance, KB lines shown before it, and whether the dialog ended. */
export interface Reaction {
  readonly kb: readonly string[];
  readonly utterance: string;
  readonly done: boolean;
}

/** What the environment tells the user about an api_call the agent made: the parsed call, or why the text is not one. */
export interface CallOutcome {
  readonly call?: ApiCall;
  readonly invalid?: string;
}

/** The user of one episode. */
export class SimulatedUser {
  private phase: Phase = 'greet';
  private last = '';
  private pending: string | undefined;
  private nextUpdate = 0;
  private callsMade = 0;
  private lastCall: ApiCall | undefined;
  private options: readonly Restaurant[];
  private readonly proposed = new Set<string>();
  private accepted: Restaurant | undefined;
  private infoAsked = 0;
  private failure: string | undefined;
  private detail: Record<string, unknown> = {};
  private failureTurn = 0;
  /** The stream of its "not understood" replies (made at the first one: a fork does not depend on the parent's draws). */
  private sorryRng: Rng | undefined;
  /** Agent turns heard so far (the current one's 0-based index is `turn - 1`). */
  private turn = 0;
  private lastCallTurn = 0;
  private misread = 0;

  constructor(
    private readonly goal: Goal,
    private readonly lang: UserLanguage,
    private readonly rng: Rng,
    private readonly slots: readonly CallSlot[],
    private readonly callEquals: (a: ApiCall, b: ApiCall) => boolean,
    private readonly runCall: (call: ApiCall) => { shown: Restaurant[]; lines: string[] },
  ) {
    this.options = goal.shown;
  }

  /** The opening utterance. */
  open(): string {
    return this.say(this.lang.greeting(this.rng));
  }

  private say(text: string): string {
    if (text !== this.lang.silence) this.last = text;
    return text;
  }

  private sayWith(x: { distractor?: string; text: string }): string {
    if (x.distractor !== undefined) {
      this.pending = x.text;
      return this.say(x.distractor);
    }
    return this.say(x.text);
  }

  private fail(reason: string, detail: Record<string, unknown>, turn = this.turn - 1): void {
    if (this.failure !== undefined) return;
    this.failure = reason;
    this.detail = detail;
    this.failureTurn = turn;
  }

  /** The first failure so far (undefined when none), its details and the agent turn (0-based) where it happened. */
  outcome(): { failure: string | undefined; detail: Record<string, unknown>; turn: number } {
    return { failure: this.failure, detail: this.detail, turn: this.failureTurn };
  }

  /** Agent turns the user could not read (-v2). */
  get notUnderstood(): number {
    return this.misread;
  }

  /**
   * The checks made once the dialog is over: a wrong or missing final api_call (tasks 1, 2, 5) is
   * the root cause of whatever failed after it. A truncated dialog without any call stays `max turns`.
   */
  finish(truncated = false): void {
    const g = this.goal;
    if (truncated && this.lastCall === undefined) return;
    if (g.task === 1 || g.task === 2 || g.task === 5) {
      const wrong = this.lastCall === undefined ? 'no api_call' : !this.callEquals(this.lastCall, g.final) ? 'api_call' : undefined;
      if (wrong !== undefined) {
        this.failure = undefined;
        this.fail(wrong, { expected: g.final, got: this.lastCall ?? null }, this.lastCall === undefined ? this.turn - 1 : this.lastCallTurn);
      }
    }
  }

  private reply(utterance: string, kb: readonly string[] = []): Reaction {
    return { kb, utterance, done: false };
  }

  private end(kb: readonly string[] = []): Reaction {
    this.finish();
    return { kb, utterance: '', done: true };
  }

  /** The user's reaction to the agent's turn: an api_call (`outcome`), else what it heard in the utterance. */
  react(heard: Heard, outcome: CallOutcome | undefined): Reaction {
    const g = this.goal;
    this.turn++;
    if (heard.understood === false) this.misread++;
    if (this.pending !== undefined) {
      const p = this.pending;
      this.pending = undefined;
      return this.reply(this.say(p));
    }
    if (outcome !== undefined) return this.onCall(outcome);
    if (!heard.understood) return this.reply(this.pickSorry());
    const name = heard.propose;
    if (name !== undefined && !(heard.booking === true && this.phase === 'accepted' && name === this.accepted?.name)) return this.onProposal(name);
    if (this.phase === 'info') {
      const values = heard.inform;
      if (values !== undefined) return this.onInfo(values);
    }
    switch (this.phase) {
      case 'greet':
        if (g.task === 4) {
          this.phase = 'accepted';
          this.accepted = g.restaurant;
          return this.reply(this.say(this.lang.bookAt(this.rng, (g.restaurant as Restaurant).name)));
        }
        this.phase = 'request';
        return this.reply(this.say(this.lang.request(this.rng, g.first, g.request)));
      case 'accepted':
        // The agent's reply to the acceptance (the reservation): task 3 ends, 4 and 5 ask for information.
        if (g.task === 3) return this.end();
        this.phase = 'info';
        return this.reply(this.sayWith(this.lang.askInfo(this.rng, g.info[0] as InfoKind)));
      case 'task2-thanked':
        return this.end();
      case 'thanked':
        if (heard.close === true) return this.end();
        this.phase = 'closing';
        return this.reply(this.say(this.lang.noThanks(this.rng)));
      case 'closing':
        return this.end();
      case 'updates':
        if (heard.askUpdates === true) return this.nextUpdateOrNo();
        break;
      default:
        break;
    }
    const slot = heard.ask;
    if (slot !== undefined && this.slots.includes(slot)) {
      const value = (this.phase === 'request' ? g.first : g.final)[slot];
      if (value !== undefined) return this.reply(this.sayWith(this.lang.answer(this.rng, slot, value)));
    }
    if (heard.statement === true) return this.reply(this.lang.silence);
    return this.reply(this.say(this.last));
  }

  /** A "not understood" reply (-v2): not what it said last, so the agent's next try is answered as before. */
  private pickSorry(): string {
    this.sorryRng ??= this.rng.fork('not understood');
    return this.sorryRng.pick(NOT_UNDERSTOOD);
  }

  private nextUpdateOrNo(): Reaction {
    const g = this.goal;
    if (this.nextUpdate < g.updates.length) {
      const slot = g.updates[this.nextUpdate] as CallSlot;
      const i = this.nextUpdate++;
      return this.reply(this.sayWith(this.lang.update(this.rng, slot, g.final[slot] as string, i)));
    }
    this.phase = 'await-call';
    return this.reply(this.say(this.lang.noMoreUpdates(this.rng)));
  }

  private onCall(o: CallOutcome): Reaction {
    const g = this.goal;
    if (o.call === undefined) {
      this.fail('invalid api_call', { reason: o.invalid });
      return this.reply(this.say(this.last));
    }
    this.callsMade++;
    this.lastCall = o.call;
    this.lastCallTurn = this.turn - 1;
    const isFinal = g.updates.length === 0 || this.phase === 'await-call';
    if (g.task === 1) return this.end(this.runCall(o.call).lines);
    if (!isFinal && this.phase !== 'updates') {
      // Tasks 2 and 5: the user interrupts the first call with its updates (no KB lines, as in the datasets).
      this.phase = 'updates';
      return this.nextUpdateOrNo();
    }
    if (g.task === 2) {
      this.phase = 'task2-thanked';
      return this.reply(this.say(this.lang.thanks(this.rng)));
    }
    const { shown, lines } = this.runCall(o.call);
    this.options = shown;
    this.proposed.clear();
    if (this.phase !== 'info' && this.phase !== 'thanked' && this.phase !== 'closing') this.phase = 'proposals';
    return this.reply(this.lang.silence, lines);
  }

  private onProposal(name: string): Reaction {
    const g = this.goal;
    if (g.task === 4 || this.phase === 'info' || this.phase === 'thanked' || this.phase === 'closing' || this.phase === 'accepted') return this.reply(this.say(this.last));
    const left = this.options.filter((r) => !this.proposed.has(r.name));
    const best = left.slice().sort((a, b) => b.rating - a.rating || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))[0];
    const r = this.options.find((x) => x.name === name);
    if (r === undefined) {
      this.fail('unknown option', { got: name, options: this.options.map((x) => x.name) });
      return this.reply(this.sayWith(this.lang.reject(this.rng)));
    }
    if (this.slots.some((slot) => r[slot] !== g.final[slot])) this.fail('option not matching the goal', { expected: g.final, got: name });
    if (best !== undefined && best.name !== name && best.rating !== r.rating) this.fail('option order', { expected: best.name, got: name });
    this.proposed.add(name);
    const last = this.options.every((x) => this.proposed.has(x.name));
    if (last || this.rng.chance(0.25)) {
      this.accepted = r;
      this.phase = 'accepted';
      return this.reply(this.say(this.lang.accept(this.rng)));
    }
    return this.reply(this.sayWith(this.lang.reject(this.rng)));
  }

  private onInfo(values: readonly string[]): Reaction {
    const g = this.goal;
    const kind = g.info[this.infoAsked] as InfoKind;
    const r = this.accepted as Restaurant;
    const want = kind === 'phone' ? r.phone : r.address;
    if (!values.includes(want)) this.fail('information', { expected: want, got: values[0] });
    this.infoAsked++;
    if (this.infoAsked < g.info.length) return this.reply(this.sayWith(this.lang.askInfo(this.rng, g.info[this.infoAsked] as InfoKind)));
    if (g.task === 4) return this.end();
    this.phase = 'thanked';
    return this.reply(this.say(this.lang.thanks(this.rng)));
  }

  /** The restaurant the user accepted (or booked in task 4). */
  get booked(): Restaurant | undefined {
    return this.accepted;
  }

  /** Number of api_calls the agent made. */
  get calls(): number {
    return this.callsMade;
  }
}

/** Bot statements that need no answer: the user stays silent (as after "i'm on it" in the datasets). */
const STATEMENTS: readonly RegExp[] = [
  /^i'?m on it$/,
  /^ok let me look into some options for you$/,
  /^whenever you'?re ready$/,
  /^sure let me find an ?other option for you$/,
  /^great let me do the reservation$/,
  /^i am sorry, i don'?t have an answer to that question$/,
  /^the option was /,
];

function isStatement(text: string): boolean {
  return STATEMENTS.some((re) => re.test(text));
}
