/**
 * The simulated user of the online restaurant environments (bAbI tasks 1–5 and DSTC6 Track 1).
 * It holds a goal sampled as the dataset generators sample theirs (`Goal`) and reacts to what the
 * agent says, with the datasets' utterance patterns (a `UserLanguage`): it answers the slot the
 * agent asks for, gives its updates after the first api_call (tasks 2 and 5), accepts or rejects
 * proposed options (25 % accept, the last one always), asks for the phone number and/or address
 * (tasks 4 and 5), thanks and says goodbye; when it does not understand the agent it repeats what
 * it said last (the datasets have no other "not understood" turn).
 *
 * It also scores the dialog as it goes: the first failure (wrong final api_call, an option
 * proposed out of the highest-rated-first order, wrong information) is kept for `info.failure`.
 */
import type { Rng } from '../../../core/rng.js';
import type { ApiCall, Restaurant } from '../kb.js';
import type { TaskId } from '../simulator.js';

/** A slot of an api_call (bAbI: the first four; DSTC6 adds atmosphere and restrictions). */
export type CallSlot = 'cuisine' | 'location' | 'number' | 'price' | 'atmosphere' | 'restrictions';
/** What the user asks about the booked restaurant. */
export type InfoKind = 'phone' | 'address';

/**
 * The user's goal for one episode: the call of the request phase, the call after its updates, the
 * slots named in the opening request, the fields it updates (in order), the options shown before
 * the dialog (task 3) or the restaurant to book (task 4), and the information it will ask for.
 */
export interface Goal {
  readonly task: TaskId;
  readonly first: ApiCall;
  readonly final: ApiCall;
  readonly request: readonly CallSlot[];
  readonly updates: readonly CallSlot[];
  /** Task 3: the KB results in the history before the dialog starts (in the shown order). */
  readonly shown: readonly Restaurant[];
  /** Task 4: the restaurant the user books. */
  readonly restaurant?: Restaurant;
  readonly info: readonly InfoKind[];
}

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
  readonly noMoreUpdates: string;
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

/** The slot a bot utterance asks about, if it is a question about one of `slots`. */
export function askedSlot(text: string, slots: readonly CallSlot[]): CallSlot | undefined {
  for (const [slot, re] of SLOT_CUES) if (slots.includes(slot) && re.test(text)) return slot;
  return undefined;
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

  private fail(reason: string, detail: Record<string, unknown>): void {
    if (this.failure !== undefined) return;
    this.failure = reason;
    this.detail = detail;
  }

  /** The first failure so far (undefined when none) and its details. */
  outcome(): { failure: string | undefined; detail: Record<string, unknown> } {
    return { failure: this.failure, detail: this.detail };
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
        this.fail(wrong, { expected: g.final, got: this.lastCall ?? null });
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

  /** The user's reaction to the agent's utterance `text` (`call` when it is an api_call). */
  react(text: string, outcome: CallOutcome | undefined): Reaction {
    const g = this.goal;
    if (this.pending !== undefined) {
      const p = this.pending;
      this.pending = undefined;
      return this.reply(this.say(p));
    }
    if (outcome !== undefined) return this.onCall(outcome);
    if (text.startsWith(PROPOSE_PREFIX)) return this.onProposal(text.slice(PROPOSE_PREFIX.length).trim());
    if (text.startsWith(INFO_PREFIX) && this.phase === 'info') return this.onInfo(text.slice(INFO_PREFIX.length).trim());
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
        if (/\byou'?re welcome\b|\bgoodbye\b|\bbye\b/.test(text)) return this.end();
        this.phase = 'closing';
        return this.reply(this.say(this.lang.noThanks(this.rng)));
      case 'closing':
        return this.end();
      case 'updates':
        if (/anything else to update/.test(text)) return this.nextUpdateOrNo();
        break;
      default:
        break;
    }
    const slot = askedSlot(text, this.slots);
    if (slot !== undefined) {
      const value = (this.phase === 'request' ? g.first : g.final)[slot];
      if (value !== undefined) return this.reply(this.sayWith(this.lang.answer(this.rng, slot, value)));
    }
    if (isStatement(text)) return this.reply(this.lang.silence);
    return this.reply(this.say(this.last));
  }

  private nextUpdateOrNo(): Reaction {
    const g = this.goal;
    if (this.nextUpdate < g.updates.length) {
      const slot = g.updates[this.nextUpdate] as CallSlot;
      const i = this.nextUpdate++;
      return this.reply(this.sayWith(this.lang.update(this.rng, slot, g.final[slot] as string, i)));
    }
    this.phase = 'await-call';
    return this.reply(this.say(this.lang.noMoreUpdates));
  }

  private onCall(o: CallOutcome): Reaction {
    const g = this.goal;
    if (o.call === undefined) {
      this.fail('invalid api_call', { reason: o.invalid });
      return this.reply(this.say(this.last));
    }
    this.callsMade++;
    this.lastCall = o.call;
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

  private onInfo(value: string): Reaction {
    const g = this.goal;
    const kind = g.info[this.infoAsked] as InfoKind;
    const r = this.accepted as Restaurant;
    const want = kind === 'phone' ? r.phone : r.address;
    if (value !== want) this.fail('information', { expected: want, got: value });
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
