/**
 * The customer's answers from its intent, in the simulator's templated style: one function per
 * thing it can be asked (each draws its template from the given stream). The rule customer of
 * `airdialogue-v1` and the lexicon customer of `airdialogue-v2` both answer with them, so an agent
 * asking in the simulator's wording hears the same words from both.
 */
import type { Intent } from '../../formats/airdialogue.js';
import type { Rng } from '../../core/rng.js';
import { AIRPORTS, OOD_EXTRA_AIRPORTS, PRICE_ANY } from './facts.js';
import {
  CUSTOMER_ACCEPT,
  CUSTOMER_AIRLINE,
  CUSTOMER_CLASS,
  CUSTOMER_CONNECTIONS,
  CUSTOMER_DATES,
  CUSTOMER_DEP_DATE,
  CUSTOMER_DEP_TIME,
  CUSTOMER_DESTINATION,
  CUSTOMER_NAME,
  CUSTOMER_NO_LIMIT,
  CUSTOMER_NO_PREFS,
  CUSTOMER_OPENING,
  CUSTOMER_OPENING_WITH_NAME,
  CUSTOMER_ORIGIN,
  CUSTOMER_PREFS_LEAD,
  CUSTOMER_PRICE,
  CUSTOMER_RET_DATE,
  CUSTOMER_RET_TIME,
  CUSTOMER_ROUTE,
  fill,
} from './language.js';

function cityOf(code: string): string {
  return AIRPORTS[code] ?? OOD_EXTRA_AIRPORTS[code] ?? code;
}

/** "A, B and C". */
function joinPhrases(ps: readonly string[]): string {
  if (ps.length <= 1) return ps.join('');
  return ps.slice(0, -1).join(', ') + ' and ' + ps[ps.length - 1];
}

/** A sentence from phrases: joined, capitalised, with a full stop. */
function sentence(lead: string, ps: readonly string[]): string {
  const s = lead + joinPhrases(ps) + '.';
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function places(i: Intent): Record<string, string> {
  return { from: i.departure_airport, to: i.return_airport, fromCity: cityOf(i.departure_airport), toCity: cityOf(i.return_airport) };
}

/**
 * The phrase of each requirement the customer has, in the order it names them: all of them, or
 * only its times of day (both, the departure's or the return's).
 */
function requirementPhrases(i: Intent, r: Rng, which: 'all' | 'times' | 'departure' | 'return'): string[] {
  const ps: string[] = [];
  if (which === 'all') {
    if (i.max_price < PRICE_ANY) ps.push(fill(r.pick(CUSTOMER_PRICE), { price: i.max_price }));
    if (i.max_connections !== undefined && i.max_connections < 2) ps.push(r.pick(CUSTOMER_CONNECTIONS[i.max_connections] ?? []));
    if (i.class !== undefined) ps.push(fill(r.pick(CUSTOMER_CLASS), { cls: i.class }));
  }
  if (i.departure_time !== undefined && which !== 'return') ps.push(fill(r.pick(CUSTOMER_DEP_TIME), { seg: i.departure_time }));
  if (i.return_time !== undefined && which !== 'departure') ps.push(fill(r.pick(CUSTOMER_RET_TIME), { seg: i.return_time }));
  if (i.airline_preference !== undefined && which === 'all') ps.push(r.pick(CUSTOMER_AIRLINE));
  return ps;
}

/**
 * The customer's answers, one per thing it can be asked, each drawn from `rng` (module
 * description above). `requirements` is the one sentence of all its other requirements (budget,
 * connections, class, times, airline) or that it has none; a single topic it has no requirement
 * on is answered with `CUSTOMER_NO_LIMIT`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { customerAnswers, generateContext } from 'dialogym/airdialogue';
 * const { intent } = generateContext(createRng(1));
 * const say = customerAnswers(intent, createRng(2));
 * say.name();    // e.g. 'My name is Emily Edwards.'
 * say.budget();  // e.g. 'My budget is 500 dollars.' or 'Any price is fine.'
 * ```
 */
export function customerAnswers(i: Intent, r: Rng) {
  return {
    /** The first utterance: the goal, sometimes with the name. */
    opening: (): string => (r.chance(0.3) ? fill(r.pick(CUSTOMER_OPENING_WITH_NAME[i.goal]), { name: i.name }) : r.pick(CUSTOMER_OPENING[i.goal])),
    goal: (): string => r.pick(CUSTOMER_OPENING[i.goal]),
    name: (): string => fill(r.pick(CUSTOMER_NAME), { name: i.name }),
    route: (): string => fill(r.pick(CUSTOMER_ROUTE), places(i)),
    origin: (): string => fill(r.pick(CUSTOMER_ORIGIN), places(i)),
    destination: (): string => fill(r.pick(CUSTOMER_DESTINATION), places(i)),
    dates: (): string => fill(r.pick(CUSTOMER_DATES), { depMonth: i.departure_month, depDay: i.departure_day, retMonth: i.return_month, retDay: i.return_day }),
    departureDate: (): string => fill(r.pick(CUSTOMER_DEP_DATE), { depMonth: i.departure_month, depDay: i.departure_day }),
    returnDate: (): string => fill(r.pick(CUSTOMER_RET_DATE), { retMonth: i.return_month, retDay: i.return_day }),
    requirements: (): string => {
      const ps = requirementPhrases(i, r, 'all');
      return ps.length === 0 ? r.pick(CUSTOMER_NO_PREFS) : sentence(r.pick(CUSTOMER_PREFS_LEAD), ps);
    },
    times: (only?: 'departure' | 'return'): string => {
      const ps = requirementPhrases(i, r, only ?? 'times');
      const none = only === 'departure' ? CUSTOMER_NO_LIMIT.departureTime : only === 'return' ? CUSTOMER_NO_LIMIT.returnTime : CUSTOMER_NO_LIMIT.times;
      return ps.length === 0 ? r.pick(none) : sentence('', ps);
    },
    budget: (): string => (i.max_price < PRICE_ANY ? sentence('', [fill(r.pick(CUSTOMER_PRICE), { price: i.max_price })]) : r.pick(CUSTOMER_NO_LIMIT.budget)),
    connections: (): string => {
      const c = i.max_connections;
      return c !== undefined && c < 2 ? sentence('', [r.pick(CUSTOMER_CONNECTIONS[c] ?? [])]) : r.pick(CUSTOMER_NO_LIMIT.connections);
    },
    class: (): string => (i.class !== undefined ? sentence('', [fill(r.pick(CUSTOMER_CLASS), { cls: i.class })]) : r.pick(CUSTOMER_NO_LIMIT.class)),
    airline: (): string => (i.airline_preference !== undefined ? sentence('', [r.pick(CUSTOMER_AIRLINE)]) : r.pick(CUSTOMER_NO_LIMIT.airline)),
    accept: (): string => r.pick(CUSTOMER_ACCEPT[i.goal === 'change' ? 'change' : 'book']),
  };
}

/**
 * What `customerAnswers` returns: one answer function per thing the customer can be asked.
 *
 * @example
 * ```ts
 * import type { CustomerAnswers } from 'dialogym/airdialogue';
 * const askBudget = (say: CustomerAnswers): string => say.budget();
 * ```
 */
export type CustomerAnswers = ReturnType<typeof customerAnswers>;
