/**
 * What a person sees of the AirDialogue environments (the `person` hook of their family;
 * `env/person.ts`), as in the paper's web interface: the customer's travel context as a goal card
 * (from `airdialogue-v2`'s `info.goal`, the intent), what the simulated customer answers now (from
 * how it read the agent's turn, `info.read`), the agent's flight table and the reservation, and the
 * end in words with the score's parts. The goal text is also what the LLM user is told, and the
 * flight table what the LLM agent is shown (`airLlmView`, the descriptor's LLM section).
 */
import type { Flight, Intent, KbLine } from '../../formats/airdialogue.js';
import { detailInWords } from '../../env/detail-words.js';
import type { EndedEpisode, GoalCard, PersonView, ViewSection } from '../../env/person.js';
import type { LlmView } from '../../llm/prompts.js';
import { AIRPORTS, OOD_EXTRA_AIRPORTS, PRICE_ANY } from './facts.js';
import { AIR_ACTS, type AirAct } from './lexicon.js';

function cityOf(code: string): string {
  const city = AIRPORTS[code] ?? OOD_EXTRA_AIRPORTS[code];
  return city === undefined ? code : `${code} (${city})`;
}

/**
 * The AirDialogue customer's goal (the intent, `info.goal` of `airdialogue-v2`) as lines: name,
 * what it wants to do, airports, dates, budget, connections, class, times and airline.
 */
export function airGoalLines(goal: unknown): string[] {
  const i = goal as Intent;
  const want = i.goal === 'book' ? 'book a new flight' : i.goal === 'change' ? 'change your reservation to a new flight' : 'cancel your reservation';
  return [
    `your name: ${i.name}`,
    `you want to: ${want}`,
    `from: ${cityOf(i.departure_airport)}`,
    `to: ${cityOf(i.return_airport)}`,
    `departure date: ${i.departure_month} ${i.departure_day}`,
    `return date: ${i.return_month} ${i.return_day}`,
    `budget: ${i.max_price >= PRICE_ANY ? 'any' : `at most ${i.max_price} dollars`}`,
    `connections: ${i.max_connections === undefined ? 'any' : i.max_connections === 0 ? 'none (a direct flight)' : `at most ${i.max_connections}`}`,
    `class: ${i.class ?? 'any'}`,
    `departure time: ${i.departure_time ?? 'any'}`,
    `return time: ${i.return_time ?? 'any'}`,
    `airline: ${i.airline_preference === 'normal-cost' ? 'a normal-cost airline (UA, AA, Delta, Hawaiian)' : 'any'}`,
  ];
}

/** The AirDialogue customer's goal as the lines of the LLM user's goal section (`- ` before each of `airGoalLines`). */
export function airGoalText(goal: unknown): string {
  return airGoalLines(goal)
    .map((l) => `- ${l}`)
    .join('\n');
}

/** The columns of the flight table (the agent's view and the LLM agent's context). */
export const FLIGHT_COLUMNS: readonly string[] = ['flight', 'airline', 'from', 'to', 'departure', 'return', 'class', 'connections', 'price'];

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** One flight as the cells of `FLIGHT_COLUMNS` (times as `h:00`). */
export function flightCells(f: Flight): string[] {
  return [
    String(f.flight_number),
    f.airline,
    f.departure_airport,
    f.return_airport,
    `${f.departure_month} ${f.departure_day}, ${pad2(f.departure_time_num)}:00`,
    `${f.return_month} ${f.return_day}, ${pad2(f.return_time_num)}:00`,
    f.class,
    String(f.num_connections),
    String(f.price),
  ];
}

/** The reservation line of the agent's context. */
export function reservationText(kb: KbLine): string {
  return kb.reservation === 0 ? 'The customer has no reservation.' : `The customer's reservation: flight ${kb.reservation}.`;
}

/**
 * The AirDialogue context of the LLM agent: the reservation line, then the flight table (markdown;
 * times as `h:00`).
 *
 * @example
 * ```ts
 * flightContext({ reservation: 0, kb: [] }); // "The customer has no reservation.\n\n| flight | airline | from | to | departure | return | class | connections | price |\n|---|…"
 * ```
 */
export function flightContext(kb: KbLine): string {
  const lines = [reservationText(kb), ''];
  lines.push(`| ${FLIGHT_COLUMNS.join(' | ')} |`, `|${FLIGHT_COLUMNS.map(() => '---|').join('')}`);
  for (const f of kb.kb) lines.push(`| ${flightCells(f).join(' | ')} |`);
  return lines.join('\n');
}

/** The goal card: the customer's travel context. */
function goalCard(info: Readonly<Record<string, unknown>>): GoalCard {
  const title = 'Your trip (you are the customer)';
  const goal = info['goal'];
  if (goal === undefined || goal === null) return { title, lines: ['This environment (airdialogue-v1) does not tell the customer’s travel context: airdialogue-v2 does (same seeds).'] };
  return { title, lines: [...airGoalLines(goal), 'Tell the agent what it asks for in your own words; accept a flight that fits.'] };
}

const ACT_OF_LABEL: ReadonlyMap<string, AirAct> = new Map(AIR_ACTS.map((a) => [a.label, a.act]));

/** What the customer says for each act it read (in words for the person). */
const ANSWER_WORDS: Readonly<Record<AirAct, string>> = {
  goal: 'what you want to do (book, change or cancel)',
  greet: 'what you want to do (book, change or cancel)',
  name: 'your full name',
  open: 'your route, your dates and your other requirements',
  route: 'both airports',
  origin: 'your departure airport',
  destination: 'your destination airport',
  dates: 'both dates',
  'departure date': 'your departure date',
  'return date': 'your return date',
  times: 'your times of day for both flights (or that any time is fine)',
  'departure time': 'your departure time of day (or that any is fine)',
  'return time': 'your return time of day (or that any is fine)',
  budget: 'your budget (or that you have no limit)',
  connections: 'your connection limit (or that any number is fine)',
  class: 'your cabin class (or that any class is fine)',
  airline: 'your airline preference (or that any airline is fine)',
  requirements: 'all your other requirements (budget, connections, class, times, airline), or that you have none',
  propose: '',
  wait: '',
  close: '',
};

/** "A, B and C". */
function joinWords(ps: readonly string[]): string {
  return ps.length <= 1 ? ps.join('') : `${ps.slice(0, -1).join(', ')} and ${ps[ps.length - 1]}`;
}

/**
 * What the simulated customer of `airdialogue-v2` does now, from how it read the agent's turn
 * (`info.read`: `ask(name) + ask(budget)`, `propose(1012)`, `not understood`, …); at the reset
 * (`info.goal`, no `read`), the opening. Undefined for `airdialogue-v1`, which tells neither.
 */
export function airUserHint(info: Readonly<Record<string, unknown>>): string | undefined {
  const read = info['read'];
  if (typeof read !== 'string') {
    const goal = info['goal'] as Intent | undefined;
    if (goal === undefined || goal === null || info['turn'] !== undefined) return undefined;
    return `Open the conversation: say that you want to ${goal.goal === 'book' ? 'book a flight' : goal.goal === 'change' ? 'change your reservation' : 'cancel your reservation'}.`;
  }
  if (read === 'not understood') return 'Say you did not understand what the agent meant.';
  const acts = read.split(' + ').map((l) => ACT_OF_LABEL.get(l.replace(/^propose\(\d+\)$/, 'propose(<flight>)')));
  if (acts.includes(undefined) || read.startsWith('act(')) return undefined;
  const parts: string[] = [];
  const tell = acts.map((a) => ANSWER_WORDS[a as AirAct]).filter((w) => w !== '');
  if (tell.length > 0) parts.push(`Tell the agent ${joinWords(tell)}.`);
  if (acts.includes('propose')) parts.push('Accept the flight the agent proposes.');
  if (acts.includes('wait')) parts.push('Say you will wait.');
  if (acts.includes('close')) parts.push('Thank the agent.');
  return parts.join(' ');
}

/** What a person playing the agent sees besides the dialog: the reservation and the flight table. */
function agentView(observation: unknown): readonly ViewSection[] {
  const c = (observation as { context?: KbLine } | null)?.context;
  if (!c || !Array.isArray(c.kb)) return [];
  return [
    { kind: 'text', title: 'Reservation', lines: [reservationText(c)] },
    { kind: 'table', title: 'Flights', columns: FLIGHT_COLUMNS, rows: c.kb.map(flightCells) },
  ];
}

const FAILURE_WORDS: Readonly<Record<string, string>> = {
  'wrong status': 'the wrong action (book, change, cancel, no flight or no reservation)',
  'wrong flight': 'the wrong flight',
  'wrong name': "the wrong customer's name",
  'max turns': 'the conversation reached its turn limit without an action',
};

function num(x: unknown): string {
  return typeof x === 'number' ? (Number.isInteger(x) ? String(x) : x.toFixed(2)) : '?';
}

/** What the agent's final action does, in words (`book flight 1003 for Mary Smith`); undefined for no action. */
function actionWords(a: { status?: unknown; name?: unknown; flight?: unknown }): string | undefined {
  if (typeof a.status !== 'string') return undefined;
  const name = typeof a.name === 'string' && a.name !== '' ? ` for ${a.name}` : '';
  const flights = Array.isArray(a.flight) ? a.flight.filter((f) => typeof f === 'number') : [];
  const flight = flights.length > 0 ? ` flight ${flights.join(', ')}` : '';
  const words: Readonly<Record<string, string>> = {
    book: `Booked${flight}${name}.`,
    change: `Changed the reservation${name} to${flight || ' a new flight'}.`,
    cancel: `Cancelled the reservation${name}.`,
    no_flight: `No flight fits${name}.`,
    no_reservation: `No reservation found${name}.`,
  };
  return words[a.status] ?? `${a.status}${flight}${name}.`;
}

/** An agent's action in words: its utterance, then its final action (`{utterance, action}` or a tool call); undefined for plain text. */
function agentSaid(action: unknown): string | undefined {
  if (typeof action !== 'object' || action === null) return undefined;
  const o = action as { tool?: unknown; arguments?: Record<string, unknown>; utterance?: unknown; action?: unknown };
  let said: unknown;
  let act: { status?: unknown; name?: unknown; flight?: unknown } | undefined;
  if (typeof o.tool === 'string') {
    const { utterance, ...rest } = o.arguments ?? {};
    said = utterance;
    act = { status: o.tool, ...rest };
  } else {
    said = o.utterance;
    act = typeof o.action === 'object' && o.action !== null ? (o.action as typeof act) : undefined;
  }
  const words = act === undefined ? undefined : actionWords(act);
  const text = typeof said === 'string' && said !== '' ? said : undefined;
  if (words === undefined) return text;
  return text === undefined ? words : `${text} (${words})`;
}

/** An ended AirDialogue episode in words (to the customer or to the agent), with the score's parts. */
function outcome(e: EndedEpisode): readonly string[] {
  const lines: string[] = [];
  if (e.success) lines.push(e.role === 'agent' ? 'Success: you took the right action.' : 'Success: the agent took the right action.');
  else {
    const reason = e.failure ?? 'failed';
    lines.push(`Failure: ${FAILURE_WORDS[reason] ?? reason}.`);
    const why = detailInWords(e.detail);
    if (why !== undefined) lines.push(`Why: ${why}.`);
  }
  const a = e.info['action'] as { status?: string; name?: string; flight?: number[] } | null | undefined;
  if (a) lines.push(`Action: ${a.status}${a.flight && a.flight.length > 0 ? ` flight ${a.flight.join(', ')}` : ''} for ${a.name === '' ? '(no name)' : a.name}.`);
  const s = e.info['score'] as { total?: unknown; action?: unknown; flight?: unknown; name?: unknown } | undefined;
  if (s) lines.push(`Score: ${num(s.total)} (status ${num(s.action)}, flight ${num(s.flight)}, name ${num(s.name)}).`);
  return lines;
}

/**
 * The person view of the AirDialogue environments (module description above).
 *
 * @example
 * ```ts
 * import { make, envPersonView } from 'dialogym';
 * const { info } = make('airdialogue-v2').reset({ seed: 1 });
 * envPersonView('airdialogue-v2')?.goalCard(info).lines; // ['your name: …', 'you want to: …', …]
 * ```
 */
export const airPersonView: PersonView = { goalCard, userHint: airUserHint, agentView, agentSaid, outcome };

/**
 * How the AirDialogue environments are worded for a language model (the `view` of the descriptor's
 * LLM section, src/llm/prompts.ts): the LLM agent's context is the reservation and the flight
 * table of the first observation's `context` (`flightContext`); the LLM user's goal is the
 * customer's intent (`airGoalText`).
 *
 * @example
 * ```ts
 * const { obs } = make('airdialogue-v1').reset({ seed: 1 });
 * airLlmView.context?.('airdialogue-v1', obs); // "The customer has no reservation.\n\n| flight | …"
 * ```
 */
export const airLlmView: LlmView = {
  context(_envId, obs0) {
    const c = ((obs0 ?? {}) as { context?: unknown }).context as KbLine | undefined;
    return c && Array.isArray(c.kb) ? flightContext(c) : undefined;
  },
  goal: airGoalText,
};
