/**
 * AirDialogue task logic: f(customer context, agent context) → the expected end state.
 *
 * book, or change with a reservation → the cheapest flights meeting every stated restriction (all
 * flights tied at the lowest price are correct), or `no_flight` if none; change or cancel without a
 * reservation → `no_reservation`; cancel with one → `cancel`.
 */
import type { Action, DaySegment, Flight, Intent, KbLine } from '../../formats/airdialogue.js';
import { AIRLINE_TYPES } from './facts.js';

/**
 * The day segment of an hour (0–23): morning 3–11 h, afternoon 12–19 h, evening 20–2 h.
 *
 * @example
 * ```ts
 * import { daySegment } from 'dialogym/airdialogue';
 * daySegment(7);  // 'morning'
 * daySegment(23); // 'evening'
 * ```
 */
export function daySegment(hour: number): DaySegment {
  if (hour < 3 || hour > 19) return 'evening';
  if (hour <= 11) return 'morning';
  return 'afternoon';
}

/**
 * The restrictions of `intent` that `flight` violates, as intent field names (empty when it
 * satisfies all of them).
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { violations } from 'dialogym/airdialogue';
 * const [ex] = readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json');
 * violations(ex!.data.intent, ex!.kb.kb[0]!); // e.g. ['departure_airport', 'max_price']
 * ```
 */
export function violations(intent: Intent, flight: Flight): string[] {
  const v: string[] = [];
  if (flight.departure_airport !== intent.departure_airport) v.push('departure_airport');
  if (flight.return_airport !== intent.return_airport) v.push('return_airport');
  if (flight.departure_month !== intent.departure_month) v.push('departure_month');
  if (flight.departure_day !== intent.departure_day) v.push('departure_day');
  if (flight.return_month !== intent.return_month) v.push('return_month');
  if (flight.return_day !== intent.return_day) v.push('return_day');
  if (flight.price > intent.max_price) v.push('max_price');
  if (intent.max_connections !== undefined && flight.num_connections > intent.max_connections) v.push('max_connections');
  if (intent.class !== undefined && flight.class !== intent.class) v.push('class');
  if (intent.departure_time !== undefined && daySegment(flight.departure_time_num) !== intent.departure_time) v.push('departure_time');
  if (intent.return_time !== undefined && daySegment(flight.return_time_num) !== intent.return_time) v.push('return_time');
  if (intent.airline_preference !== undefined && AIRLINE_TYPES[flight.airline] !== intent.airline_preference) v.push('airline_preference');
  return v;
}

/**
 * The cheapest flights satisfying every restriction of `intent` (all those tied at the lowest
 * price), in database order; empty when none.
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { cheapestMatching } from 'dialogym/airdialogue';
 * const [ex] = readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json');
 * cheapestMatching(ex!.data.intent, ex!.kb.kb).map((f) => f.flight_number);
 * ```
 */
export function cheapestMatching(intent: Intent, flights: readonly Flight[]): Flight[] {
  let best = Infinity;
  let out: Flight[] = [];
  for (const f of flights) {
    if (violations(intent, f).length > 0) continue;
    if (f.price < best) {
      best = f.price;
      out = [f];
    } else if (f.price === best) out.push(f);
  }
  return out;
}

/**
 * Keeps letters and spaces only, trimmed (the original action standardisation).
 *
 * @example
 * ```ts
 * import { standardizeName } from 'dialogym/airdialogue';
 * standardizeName(' Emily Edwards. '); // 'Emily Edwards'
 * ```
 */
export function standardizeName(name: string): string {
  let s = '';
  for (const ch of name.trim()) if (ch === ' ' || /\p{L}/u.test(ch)) s += ch;
  return s;
}

/**
 * The expected action for a customer context and an agent context (rules in the module
 * description); the name is standardised.
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { expectedAction, sameAction } from 'dialogym/airdialogue';
 * const [ex] = readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json');
 * sameAction(expectedAction(ex!.data.intent, ex!.kb), ex!.data.expected_action); // true
 * ```
 */
export function expectedAction(intent: Intent, kb: KbLine): Action {
  const name = standardizeName(intent.name);
  const hasReservation = kb.reservation !== 0;
  if (intent.goal === 'book' || (intent.goal === 'change' && hasReservation)) {
    const flights = cheapestMatching(intent, kb.kb);
    if (flights.length === 0) return { status: 'no_flight', name, flight: [] };
    return { status: intent.goal, name, flight: flights.map((f) => f.flight_number) };
  }
  if (!hasReservation) return { status: 'no_reservation', name, flight: [] };
  return { status: 'cancel', name, flight: [] };
}

/**
 * Exact equality of two actions (status, name, and flight list in order; case-sensitive).
 *
 * @example
 * ```ts
 * import { sameAction } from 'dialogym/airdialogue';
 * sameAction({ status: 'cancel', name: 'Jo Lee', flight: [] }, { status: 'cancel', name: 'Jo Lee', flight: [] }); // true
 * ```
 */
export function sameAction(a: Action, b: Action): boolean {
  return a.status === b.status && a.name === b.name && a.flight.length === b.flight.length && a.flight.every((f, i) => f === b.flight[i]);
}

/**
 * What `checkLogic` returns: how many stored expected actions the task logic reproduces.
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { checkLogic, type LogicReport } from 'dialogym/airdialogue';
 * const r: LogicReport = checkLogic(readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json'));
 * console.log(`${r.agree}/${r.lines}`, r.disagreeing);
 * ```
 */
export interface LogicReport {
  /** Examples checked. */
  lines: number;
  /** Examples whose recomputed action equals the stored one. */
  agree: number;
  /** agree / lines (0 for none). */
  agreement: number;
  /** Line numbers (1-based) where the recomputed action differs, at most `maxListed`. */
  disagreeing: number[];
}

/**
 * Recomputes every expected action with `expectedAction` and counts agreement (`sameAction`)
 * with the stored one; lists at most `maxListed` disagreeing line numbers. Takes any iterable (a
 * stream of `airExamples`: one example in memory at a time). Never throws (a stream may).
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { checkLogic } from 'dialogym/airdialogue';
 * checkLogic(readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json')).agreement; // 1 on the original files
 * ```
 */
export function checkLogic(examples: Iterable<{ line: number; data: { intent: Intent; expected_action: Action }; kb: KbLine }>, maxListed = 20): LogicReport {
  let agree = 0;
  let lines = 0;
  const disagreeing: number[] = [];
  for (const ex of examples) {
    lines++;
    if (sameAction(expectedAction(ex.data.intent, ex.kb), ex.data.expected_action)) agree++;
    else if (disagreeing.length < maxListed) disagreeing.push(ex.line);
  }
  return { lines, agree, agreement: lines === 0 ? 0 : agree / lines, disagreeing };
}
