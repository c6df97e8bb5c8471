/**
 * A person talks to the learned AirDialogue models (`dialogym airdialogue train`): playing the
 * customer against the learned agent (the person sees a generated customer context; the agent
 * sees its flight table and ends the dialogue with an action, which the official scorer logic
 * scores), or playing the agent against the learned customer (the person sees the flight table
 * and the reservation, and ends the dialogue with an action: `/book 1004 Emily Edwards`,
 * `/change 1012 …`, `/cancel …`, `/no_flight …`, `/no_reservation …`).
 *
 * The models run as the self-play policies do (`learnedAgent` / `learnedCustomer`): each keeps
 * its GRU state over the conversation (every word is read once), decodes its turns greedily and
 * the agent's state model writes the final action from the whole conversation. A person's text is
 * normalised towards the corpus' wording (ordinals, currency, month names; module function
 * `normalizeUtterance`), never refused; words outside the vocabulary read as `<unk>`.
 *
 * The REPL (`repl.ts`) and the chat backend `serve` mounts (`backend.ts`) share this class.
 */
import { createRng } from '../../../core/rng.js';
import { InputError } from '../../../core/errors.js';
import type { Action, AirExample, Flight, Intent, KbLine } from '../../../formats/airdialogue.js';
import { AIRPORTS, OOD_EXTRA_AIRPORTS, PRICE_ANY } from '../facts.js';
import { generateContext, type AirContext } from '../context.js';
import { MONTH_SPELLINGS } from '../language.js';
import type { AgentSession, CustomerSession } from '../policies.js';
import { scoreAction, type Score } from '../scorer.js';
import { oodContext, type OodSetting } from '../learned/data.js';
import { learnedAgent, learnedCustomer } from '../learned/policy.js';
import type { AirModels } from '../learned/train.js';

/** The side the person plays. */
export type AirChatRole = 'customer' | 'agent';

/** Options of an `AirChat`. */
export interface AirChatOptions {
  /** The side the person plays: `customer` (the learned agent answers) or `agent` (the learned customer talks). */
  readonly role: AirChatRole;
  /** Seed of the generated context (default 0): the context of self-play episode seed `seed`. */
  readonly seed?: number;
  /** Context setting of the generator (0 in-domain, 1 and 2 the OOD settings of `airdialogue splits`). */
  readonly ood?: OodSetting;
  /** A given context instead of a generated one (e.g. a line of a data file, `contextOfExample`). */
  readonly context?: AirContext;
  /** Where a given context came from, for people (default `context seed <seed>`). */
  readonly origin?: string;
  /** Utterances (both sides) after which the dialogue ends unscored (default 40, as `airdialogue-v1`). */
  readonly maxTurns?: number;
  /** Longest kept message in characters; longer ones are cut (default 500). */
  readonly maxTextLength?: number;
}

/** One utterance of the conversation; `heard` is what the model read when normalisation changed the person's text. */
export interface AirChatTurn {
  readonly speaker: AirChatRole;
  readonly text: string;
  readonly heard?: string;
}

/** How the dialogue ended: the agent's action (null when cut at the turn limit), the expected one and the score. */
export interface AirChatEnd {
  readonly action: Action | null;
  readonly expected: Action;
  readonly score: Score;
  readonly truncated: boolean;
}

/** What one step of the person produced: the new utterances (the person's first) and the end, if reached. */
export interface AirChatStep {
  readonly turns: readonly AirChatTurn[];
  readonly end: AirChatEnd | null;
}

const ZERO_SCORE: Score = { name: 0, flight: 0, action: 0, total: 0, exact: { name: 0, flight: 0, action: 0, total: 0 } };

/** The AirDialogue end states a person playing the agent can choose, with whether they need a flight. */
export const AIR_END_STATES: Readonly<Record<string, boolean>> = { book: true, change: true, cancel: false, no_flight: false, no_reservation: false };

/** The context of a data-file example (its intent, KB line and expected action). */
export function contextOfExample(ex: AirExample): AirContext {
  return { intent: ex.data.intent, kb: ex.kb, expected: ex.data.expected_action };
}

// ---------------------------------------------------------------------------------------------
// text

/**
 * A person's message as the models read it: control characters removed, whitespace collapsed,
 * cut to `maxLength` characters; ordinals as numbers (`12th` → `12`), amounts as the corpus says
 * them (`$1,000` → `1000 dollars`), month names in the data's spelling (`september`, `sep.` →
 * `Sept`), `nonstop` → `non-stop`. Never refuses: an empty result is the empty string.
 */
export function normalizeUtterance(text: string, maxLength = 500): string {
  let t = text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (t.length > maxLength) t = t.slice(0, maxLength).trimEnd();
  t = t.replace(/\$\s?(\d[\d,]*)(\.\d+)?/g, (_m, n: string) => `${n.replace(/,/g, '')} dollars`);
  t = t.replace(/\b(\d{1,3}(?:,\d{3})+)\b/g, (m) => m.replace(/,/g, ''));
  t = t.replace(/\b(\d{1,2})(?:st|nd|rd|th)\b/gi, '$1');
  t = t.replace(/\bnon ?stop\b/gi, 'non-stop');
  // a month name next to a day number (`sep. 12`, `12 september`), not the verb in `may I`
  const month = (m: string, w: string) => MONTH_SPELLINGS[w.toLowerCase()] ?? m;
  t = t.replace(/\b([A-Za-z]{3,9})\b\.?(?= ?\d)/g, month).replace(/(?<=\d )([A-Za-z]{3,9})\b/g, month);
  return t;
}

/**
 * A model's word sequence as readable text: punctuation attached, clitics joined, sentences
 * capitalised, month names before a day in the data's spelling, and each of `proper` (names,
 * airport codes of the context) written as given wherever it occurs as whole words.
 */
export function detokenize(words: string, proper: readonly string[] = []): string {
  let t = words
    .replace(/ ([.,!?;:)])/g, '$1')
    .replace(/\( /g, '(')
    .replace(/(\w) ' (\w)/g, "$1'$2")
    .replace(/(^|[.!?] )([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase())
    .replace(/\bi\b/g, 'I')
    .replace(/\b([a-z]{3,9})(?= \d)/g, (m, w: string) => MONTH_SPELLINGS[w] ?? m);
  for (const p of proper) {
    const esc = p.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    t = t.replace(new RegExp(`(?<![\\p{L}\\p{N}])${esc}(?![\\p{L}\\p{N}])`, 'giu'), p);
  }
  return t;
}

/**
 * An action typed by a person playing the agent: `/book 1004 Emily Edwards`, `/change 1012 …`,
 * `/cancel Emily Edwards`, `/no_flight …`, `/no_reservation …` (`-` in place of `_` too). Returns
 * undefined when `line` is not an end command; throws an InputError naming what is wrong with one.
 */
export function parseEndCommand(line: string): Action | undefined {
  const m = /^\/([a-z_-]+)\b\s*(.*)$/i.exec(line.trim());
  if (!m) return undefined;
  const status = (m[1] as string).toLowerCase().replace(/-/g, '_');
  if (!Object.hasOwn(AIR_END_STATES, status)) return undefined;
  let rest = (m[2] as string).trim();
  const flight: number[] = [];
  if (AIR_END_STATES[status]) {
    const f = /^(\d+)\b\s*(.*)$/.exec(rest);
    if (!f) throw new InputError(`/${status} needs a flight number from the table, then the name: /${status} 1004 Emily Edwards`);
    flight.push(Number(f[1]));
    rest = f[2] as string;
  }
  return { status, name: rest.replace(/\s+/g, ' ').trim(), flight };
}

// ---------------------------------------------------------------------------------------------
// contexts as text

function city(code: string): string {
  return AIRPORTS[code] ?? OOD_EXTRA_AIRPORTS[code] ?? code;
}

/** The customer's context as lines for a person: goal, name, trip, dates, times and limits. */
export function describeIntent(intent: Intent): string[] {
  const goal = intent.goal === 'book' ? 'book a new round trip' : intent.goal === 'change' ? 'change your existing reservation to this trip' : 'cancel your existing reservation';
  const prefs = [
    `price at most ${intent.max_price >= PRICE_ANY ? 'any' : `$${intent.max_price}`}`,
    `connections at most ${intent.max_connections ?? 'any'}`,
    `class ${intent.class ?? 'any'}`,
    `departure ${intent.departure_time ?? 'any time'}`,
    `return ${intent.return_time ?? 'any time'}`,
    `airline ${intent.airline_preference === 'normal-cost' ? 'standard fare only' : 'any'}`,
  ];
  const lines = [
    `You are ${intent.name}. Goal: ${goal}.`,
    `Trip: ${intent.departure_airport} (${city(intent.departure_airport)}) → ${intent.return_airport} (${city(intent.return_airport)}), out ${intent.departure_month} ${intent.departure_day}, back ${intent.return_month} ${intent.return_day}.`,
    `Limits: ${prefs.join('; ')}.`,
  ];
  return lines;
}

function hour(h: number): string {
  return `${String(h).padStart(2, '0')}h`;
}

/** One flight as a table row. */
export function flightRow(f: Flight): string {
  return [
    String(f.flight_number),
    f.airline.padEnd(10),
    `${f.departure_airport}→${f.return_airport}`,
    `out ${f.departure_month} ${f.departure_day} ${hour(f.departure_time_num)}`.padEnd(16),
    `back ${f.return_month} ${f.return_day} ${hour(f.return_time_num)}`.padEnd(17),
    f.class.padEnd(8),
    `$${f.price}`.padStart(5),
    `${f.num_connections} conn.`,
  ].join('  ');
}

/** The agent's context as lines for a person: the reservation, then the flight table. */
export function describeKb(kb: KbLine): string[] {
  return [
    kb.reservation === 0 ? 'Reservation: none (this customer has no reservation).' : `Reservation: flight ${kb.reservation} (the customer's existing reservation).`,
    `Flights (${kb.kb.length}):`,
    ...kb.kb.map((f) => '  ' + flightRow(f)),
  ];
}

/** An action as one line (`book flight 1004 for Emily Edwards`). */
export function describeAction(a: Action | null): string {
  if (!a) return '(none: the dialogue was cut at the turn limit)';
  const who = a.name === '' ? 'no name' : a.name;
  return `${a.status || '(no status)'}${a.flight.length ? ` flight ${a.flight.join(', ')}` : ''} for ${who}`;
}

/** The score as one line (scaled components, then the exact-match total). */
export function describeScore(s: Score): string {
  const f = (x: number) => x.toFixed(3);
  return `score ${f(s.total)} (name ${f(s.name)}, flight ${f(s.flight)}, action ${f(s.action)}); exact ${f(s.exact.total)}`;
}

// ---------------------------------------------------------------------------------------------
// the conversation

/** One conversation between a person and a learned model (module description). */
export class AirChat {
  readonly role: AirChatRole;
  readonly context: AirContext;
  readonly seed: number;
  /** Where the context came from, for people (`context seed 3`, `dev_data.json line 5`). */
  readonly origin: string;
  private readonly turnsSoFar: AirChatTurn[] = [];
  private ended: AirChatEnd | null = null;
  private readonly agent: AgentSession | null;
  private readonly customer: CustomerSession | null;
  private readonly maxTurns: number;
  private readonly maxTextLength: number;
  /** The context's name and airport codes, written as such in the models' turns. */
  private readonly proper: string[];
  private readonly models: AirModels;
  /** What the learned agent has read of the person (playing the customer), turn by turn: `finishNow` replays it. */
  private readonly heardByAgent: string[] = [];

  constructor(models: AirModels, o: AirChatOptions) {
    this.role = o.role;
    this.models = models;
    this.seed = o.seed ?? 0;
    this.origin = o.origin ?? (o.context ? 'a given context' : `context seed ${this.seed}`);
    this.maxTurns = o.maxTurns ?? 40;
    this.maxTextLength = o.maxTextLength ?? 500;
    const rng = createRng(this.seed);
    // as AirDialogueEnv.reset with this seed: the same context as self-play episode seed `seed`
    this.context = o.context ?? generateContext(rng.fork('context'), oodContext(o.ood ?? 0));
    const { intent, kb } = this.context;
    this.proper = [intent.name.trim(), ...new Set([intent.departure_airport, intent.return_airport, ...kb.kb.flatMap((f) => [f.departure_airport, f.return_airport])])];
    if (o.role === 'customer') {
      this.customer = null;
      this.agent = learnedAgent(models)(this.context.kb, rng.fork('agent'));
    } else {
      this.agent = null;
      this.customer = learnedCustomer(models)(this.context.intent, rng.fork('customer'));
      this.turnsSoFar.push({ speaker: 'customer', text: detokenize(this.customer.open(), this.proper) });
    }
  }

  /** The conversation so far. */
  get turns(): readonly AirChatTurn[] {
    return this.turnsSoFar;
  }

  /** How the dialogue ended, or null while it goes on. */
  get end(): AirChatEnd | null {
    return this.ended;
  }

  /** What the person sees of the context: the intent (playing the customer) or the KB line (playing the agent). */
  get visibleContext(): { intent: Intent } | { kb: KbLine } {
    return this.role === 'customer' ? { intent: this.context.intent } : { kb: this.context.kb };
  }

  /** The context for the person, as lines. */
  describeContext(): string[] {
    return this.role === 'customer' ? describeIntent(this.context.intent) : describeKb(this.context.kb);
  }

  private finish(action: Action | null, truncated: boolean): AirChatEnd {
    const expected = this.context.expected;
    this.ended = { action, expected, truncated, score: action ? scoreAction(action, expected, this.context.kb) : ZERO_SCORE };
    return this.ended;
  }

  private checkOpen(): void {
    if (this.ended) throw new InputError('the dialogue is over; start a new one');
  }

  private limit(): boolean {
    if (this.ended || this.turnsSoFar.length < this.maxTurns) return false;
    this.finish(null, true);
    return true;
  }

  /**
   * The person's utterance; the model answers. Playing the agent, an end command
   * (`parseEndCommand`) ends the dialogue instead. An empty message is an InputError.
   */
  say(text: string): AirChatStep {
    this.checkOpen();
    if (this.role === 'agent') {
      const a = parseEndCommand(text);
      if (a) return this.act(a);
    }
    const heard = normalizeUtterance(text, this.maxTextLength);
    if (heard === '') throw new InputError('empty message');
    const shown = text.replace(/\s+/g, ' ').trim().slice(0, this.maxTextLength);
    const mine: AirChatTurn = heard === shown ? { speaker: this.role, text: shown } : { speaker: this.role, text: shown, heard };
    const start = this.turnsSoFar.length;
    this.turnsSoFar.push(mine);
    if (!this.limit()) {
      if (this.agent) {
        this.heardByAgent.push(heard);
        const move = this.agent.respond(heard);
        this.turnsSoFar.push({ speaker: 'agent', text: detokenize(move.utterance, this.proper) });
        if (move.action) this.finish(move.action, false);
      } else {
        this.turnsSoFar.push({ speaker: 'customer', text: detokenize((this.customer as CustomerSession).respond(heard), this.proper) });
      }
      this.limit();
    }
    return { turns: this.turnsSoFar.slice(start), end: this.ended };
  }

  /**
   * The person (playing the customer) asks the learned agent to act now: it answers once more
   * and its state model writes the action (name, flight, status) from the dialogue so far, which
   * is scored as when the agent ends by itself. The learned agent policy (`learnedAgent`) has no
   * "decide now" call, so a fresh session of it that must act at its next turn re-reads the
   * person's turns (greedy decoding: its earlier turns come out the same) and then an empty
   * customer turn. Playing the agent, or after the end, it is an InputError.
   */
  finishNow(): AirChatStep {
    this.checkOpen();
    if (this.role !== 'customer') throw new InputError('you play the agent: end the dialogue with an action (/book, /change, /cancel, /no_flight, /no_reservation)');
    const agent = learnedAgent(this.models, { maxAgentTurns: this.heardByAgent.length + 1 })(this.context.kb, createRng(this.seed).fork('agent'));
    for (const heard of this.heardByAgent) agent.respond(heard);
    const move = agent.respond('');
    const start = this.turnsSoFar.length;
    this.turnsSoFar.push({ speaker: 'customer', text: '(asks the agent to finish now)' });
    this.turnsSoFar.push({ speaker: 'agent', text: detokenize(move.utterance, this.proper) });
    this.finish(move.action ?? null, move.action === undefined);
    return { turns: this.turnsSoFar.slice(start), end: this.ended };
  }

  /** The person (playing the agent) ends the dialogue with an action; it is scored. */
  act(a: Action): AirChatStep {
    this.checkOpen();
    if (this.role !== 'agent') throw new InputError('only the agent ends the dialogue with an action; you play the customer');
    if (!Object.hasOwn(AIR_END_STATES, a.status)) throw new InputError(`unknown action '${a.status}' (${Object.keys(AIR_END_STATES).join(', ')})`);
    const needs = AIR_END_STATES[a.status] === true;
    if (needs && a.flight.length !== 1) throw new InputError(`${a.status} needs one flight number from the table`);
    if (needs && !this.context.kb.kb.some((f) => f.flight_number === a.flight[0])) throw new InputError(`flight ${a.flight[0]} is not in the table`);
    const action: Action = { status: a.status, name: a.name.replace(/\s+/g, ' ').trim().slice(0, 100), flight: needs ? [a.flight[0] as number] : [] };
    const turn: AirChatTurn = { speaker: 'agent', text: `(${describeAction(action)})` };
    this.turnsSoFar.push(turn);
    return { turns: [turn], end: this.finish(action, false) };
  }

  /** The conversation as a JSON-ready object (what the person may see; `expected` only once it ended). */
  view(): { role: AirChatRole; seed: number; context: { intent: Intent } | { kb: KbLine }; turns: readonly AirChatTurn[]; end: AirChatEnd | null } {
    return { role: this.role, seed: this.seed, context: this.visibleContext, turns: this.turnsSoFar, end: this.ended };
  }
}
