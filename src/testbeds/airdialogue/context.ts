/**
 * AirDialogue context generator: a customer context (goal + travel restrictions) and an agent
 * context (30 flights + reservation flag), drawn from the priors of the paper's Tables 2 and 3.
 */
import type { Action, DaySegment, Flight, FlightClass, Goal, Intent, KbLine, Month } from '../../formats/airdialogue.js';
import { MONTHS } from '../../formats/airdialogue.js';
import type { Rng } from '../../core/rng.js';
import {
  AIRLINES,
  AIRPORTS,
  BASE_EPOCH,
  BOOK_WINDOW_DAYS,
  CANDIDATE_AIRPORTS,
  FIRST_FLIGHT_NUMBER,
  FIRST_NAMES,
  FLIGHTS_PER_KB,
  FLIGHT_TIME_SD,
  IN_DOMAIN_PRIORS,
  LAST_NAMES,
  OOD_EXTRA_AIRPORTS,
  OOD_EXTRA_FIRST_NAMES,
  OOD_EXTRA_LAST_NAMES,
  OOD_PRIORS,
  PRICE_BETA,
  PRICE_MEAN,
  type ContextPriors,
  type Prior,
} from './facts.js';
import { expectedAction } from './logic.js';
import { ConfigError } from '../../core/errors.js';

/**
 * Options of the context generator (`generateContext`, `ContextGenerator`, `AirEnvOptions.context`);
 * every field has a default from the paper's tables. A bad `candidateAirports` or `flightsPerKb`
 * throws a ConfigError.
 *
 * @example
 * ```ts
 * import { generateContext, type ContextOptions } from 'dialogym/airdialogue';
 * import { createRng } from 'dialogym';
 * const opts: ContextOptions = { ood: true, flightsPerKb: 10 };
 * generateContext(createRng(1), opts).kb.kb.length; // 10
 * ```
 */
export interface ContextOptions {
  /** Out-of-domain variant: uniform goals, reservation 70%, larger name/airport sets. */
  ood?: boolean;
  /** Overrides the priors (defaults: in-domain or OOD according to `ood`). */
  priors?: ContextPriors;
  /** Airport codes to draw from. */
  airports?: readonly string[];
  /** Customer first names to draw from. */
  firstNames?: readonly string[];
  /** Customer last names to draw from. */
  lastNames?: readonly string[];
  /** Flights in the agent's database (default 30). */
  flightsPerKb?: number;
  /** Airports a context's routes are drawn among (default 3; at least 2). */
  candidateAirports?: number;
  /** Days between departure and return (default 2). */
  bookWindowDays?: number;
}

/**
 * One generated dialog context and the end state the task logic derives from it.
 *
 * @example
 * ```ts
 * import { generateContext, type AirContext } from 'dialogym/airdialogue';
 * import { createRng, formatAirLines } from 'dialogym';
 * const ctx: AirContext = generateContext(createRng(5));
 * console.log(ctx.intent.goal, ctx.kb.reservation, ctx.expected.status);
 * ```
 */
export interface AirContext {
  intent: Intent;
  kb: KbLine;
  expected: Action;
}

interface Resolved {
  priors: ContextPriors;
  airports: readonly string[];
  firstNames: readonly string[];
  lastNames: readonly string[];
  flightsPerKb: number;
  candidateAirports: number;
  bookWindowDays: number;
}

function resolve(o: ContextOptions): Resolved {
  const ood = o.ood === true;
  const airports = o.airports ?? (ood ? [...Object.keys(AIRPORTS), ...Object.keys(OOD_EXTRA_AIRPORTS)] : Object.keys(AIRPORTS));
  const r: Resolved = {
    priors: o.priors ?? (ood ? OOD_PRIORS : IN_DOMAIN_PRIORS),
    airports,
    firstNames: o.firstNames ?? (ood ? [...FIRST_NAMES, ...OOD_EXTRA_FIRST_NAMES] : FIRST_NAMES),
    lastNames: o.lastNames ?? (ood ? [...LAST_NAMES, ...OOD_EXTRA_LAST_NAMES] : LAST_NAMES),
    flightsPerKb: o.flightsPerKb ?? FLIGHTS_PER_KB,
    candidateAirports: o.candidateAirports ?? CANDIDATE_AIRPORTS,
    bookWindowDays: o.bookWindowDays ?? BOOK_WINDOW_DAYS,
  };
  if (r.candidateAirports < 2 || r.candidateAirports > r.airports.length) throw new ConfigError(`candidateAirports must be in [2, ${r.airports.length}]`);
  if (!Number.isInteger(r.flightsPerKb) || r.flightsPerKb < 1) throw new ConfigError('flightsPerKb must be a positive integer');
  for (const [k, p] of Object.entries(r.priors)) {
    if (typeof p === 'number') continue; // reservation: a probability
    const { values, probs } = p as Prior<unknown>;
    if (values.length !== probs.length || !probs.some((x) => x > 0)) throw new ConfigError(`priors.${k}: values and probs must have the same length and probs a positive entry (got ${values.length} values, ${probs.length} probs)`);
  }
  return r;
}

function draw<T>(rng: Rng, p: Prior<T>): T {
  return p.values[rng.weighted(p.probs)] as T;
}

const DAY_STR = Array.from({ length: 32 }, (_, d) => String(d));

/**
 * UTC month, day of month (a string, as in the data) and hour of a Unix time in seconds
 * (civil-from-days arithmetic; no Date objects).
 *
 * @example
 * ```ts
 * import { monthDay } from 'dialogym/airdialogue';
 * monthDay(1519233239); // { month: 'Feb', day: '21', hour: 17 }
 * ```
 */
export function monthDay(epochSeconds: number): { month: Month; day: string; hour: number } {
  const s = Math.floor(epochSeconds);
  const days = Math.floor(s / 86400);
  const hour = Math.floor((s - days * 86400) / 3600);
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { month: MONTHS[month - 1] as Month, day: DAY_STR[day] as string, hour };
}

/** Origin and destination: two distinct airports of the candidate list. */
function route(rng: Rng, candidates: readonly string[]): [string, string] {
  const o = rng.int(candidates.length);
  let d = rng.int(candidates.length);
  if (d === o) d = (d + 1) % candidates.length;
  return [candidates[o] as string, candidates[d] as string];
}

/**
 * Price rounded down to a multiple of 100, at least 100.
 *
 * @example
 * ```ts
 * import { discretePrice } from 'dialogym/airdialogue';
 * discretePrice(287.4); // 200
 * discretePrice(42);    // 100
 * ```
 */
export function discretePrice(p: number): number {
  return Math.max(100, Math.trunc(p / 100) * 100);
}

function flight(rng: Rng, r: Resolved, candidates: readonly string[], number: number, depEpoch: number, retEpoch: number): Flight {
  const [from, to] = route(rng, candidates);
  let d1 = rng.normal(depEpoch, FLIGHT_TIME_SD);
  let d2 = rng.normal(retEpoch, FLIGHT_TIME_SD);
  if (d1 > d2) [d1, d2] = [d2, d1];
  const cls = draw(rng, r.priors.flightClass) as FlightClass;
  const conn = draw(rng, r.priors.flightConnections);
  const mean = PRICE_MEAN[cls];
  const price = discretePrice(Math.trunc(rng.normal(mean, mean * (PRICE_BETA[conn] ?? 0.6))));
  const airline = rng.pick(AIRLINES);
  const a = monthDay(d1);
  const b = monthDay(d2);
  return {
    departure_airport: from,
    return_airport: to,
    departure_month: a.month,
    return_month: b.month,
    departure_day: a.day,
    return_day: b.day,
    departure_time_num: a.hour,
    return_time_num: b.hour,
    class: cls,
    num_connections: conn,
    price,
    flight_number: number,
    airline,
  };
}

/**
 * Draws one context (intent, KB of flights, expected action) from `rng` (the stream is
 * consumed; pass a fork for reproducible streams). Throws a ConfigError for bad options.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateContext } from 'dialogym/airdialogue';
 * const { intent, kb, expected } = generateContext(createRng(1).fork('context:0'));
 * ```
 */
export function generateContext(rng: Rng, options: ContextOptions = {}): AirContext {
  return generateWith(rng, resolve(options));
}

function generateWith(rng: Rng, r: Resolved): AirContext {
  const p = r.priors;
  const candidates = rng.sample(r.airports, r.candidateAirports);
  // customer
  const [from, to] = route(rng, candidates);
  const dep = BASE_EPOCH + rng.int(365 * 86400 + 1);
  const ret = dep + r.bookWindowDays * 86400;
  const name = `${rng.pick(r.firstNames)} ${rng.pick(r.lastNames)}`;
  const depTime = draw(rng, p.time) as DaySegment | null;
  const retTime = draw(rng, p.time) as DaySegment | null;
  const cls = draw(rng, p.class) as FlightClass | null;
  const maxPrice = draw(rng, p.maxPrice);
  const maxConn = draw(rng, p.maxConnections);
  const airline = draw(rng, p.airlinePreference);
  const goal = draw(rng, p.goal) as Goal;
  const a = monthDay(dep);
  const b = monthDay(ret);
  // key order of the original standardised intents
  const full: Record<string, unknown> = {
    departure_airport: from,
    return_airport: to,
    departure_month: a.month,
    departure_day: a.day,
    return_month: b.month,
    return_day: b.day,
    name,
  };
  if (depTime !== null) full.departure_time = depTime;
  if (retTime !== null) full.return_time = retTime;
  if (cls !== null) full.class = cls;
  full.max_price = maxPrice;
  if (maxConn !== null) full.max_connections = maxConn;
  if (airline !== null) full.airline_preference = airline;
  full.goal = goal;
  // agent
  const flights: Flight[] = [];
  for (let i = 0; i < r.flightsPerKb; i++) flights.push(flight(rng, r, candidates, FIRST_FLIGHT_NUMBER + i, dep, ret));
  const reservation = rng.chance(p.reservation) ? rng.pick(flights).flight_number : 0;
  const kb: KbLine = { kb: flights, reservation };
  const fullIntent = full as unknown as Intent;
  return { intent: fullIntent, kb, expected: expectedAction(fullIntent, kb) };
}

/**
 * A reusable generator: options are validated once (a ConfigError for bad ones) and each
 * `generate(rng)` draws a context from `rng` alone, so the same stream gives the same context
 * whatever else was generated.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { ContextGenerator } from 'dialogym/airdialogue';
 * const gen = new ContextGenerator({ ood: true });
 * const root = createRng(9);
 * const contexts = Array.from({ length: 3 }, (_, i) => gen.generate(root.fork(`context:${i}`)));
 * ```
 */
export class ContextGenerator {
  private readonly r: Resolved;
  constructor(options: ContextOptions = {}) {
    this.r = resolve(options);
  }
  generate(rng: Rng): AirContext {
    return generateWith(rng, this.r);
  }
}
