/**
 * Observed frequencies of generated contexts against the generator's priors (used by tests and
 * the benchmark to check that the generator follows Tables 2 and 3 of the paper).
 */
import type { ContextPriors, Prior } from './facts.js';
import type { AirContext } from './context.js';
import { MONTHS } from '../../formats/airdialogue.js';

/**
 * One probability of the priors next to its observed frequency in generated contexts.
 *
 * @example
 * ```ts
 * import type { PriorCheck } from 'dialogym/airdialogue';
 * const row: PriorCheck = { label: 'goal=book', expected: 0.8, observed: 0.79 };
 * ```
 */
export interface PriorCheck {
  /** e.g. `goal=book`. */
  label: string;
  /** The prior's probability. */
  expected: number;
  /** The observed frequency. */
  observed: number;
}

class Counter {
  n = 0;
  readonly counts = new Map<string, number>();
  add(v: unknown): void {
    this.n++;
    const k = String(v);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }
  freq(v: unknown): number {
    return this.n === 0 ? 0 : (this.counts.get(String(v)) ?? 0) / this.n;
  }
}

function rows<T>(name: string, prior: Prior<T>, c: Counter, anyLabel = 'any'): PriorCheck[] {
  return prior.values.map((v, i) => ({ label: `${name}=${v === null ? anyLabel : String(v)}`, expected: prior.probs[i] as number, observed: c.freq(v === null ? undefined : v) }));
}

/**
 * Compares generated contexts with the priors that generated them: one row per listed
 * probability (customer priors, flight priors, reservation, departure months at 1/12 each,
 * departure airports uniform over `airports`).
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateContext, priorChecks, maxDeviation, IN_DOMAIN_PRIORS, AIRPORTS } from 'dialogym/airdialogue';
 * const rng = createRng(1);
 * const contexts = Array.from({ length: 2000 }, (_, i) => generateContext(rng.fork(`c${i}`)));
 * maxDeviation(priorChecks(contexts, IN_DOMAIN_PRIORS, Object.keys(AIRPORTS))); // small, e.g. < 0.03
 * ```
 */
export function priorChecks(contexts: readonly AirContext[], priors: ContextPriors, airports: readonly string[]): PriorCheck[] {
  const c = {
    goal: new Counter(), cls: new Counter(), price: new Counter(), airline: new Counter(), dep: new Counter(), ret: new Counter(),
    conn: new Counter(), fclass: new Counter(), fconn: new Counter(), res: new Counter(), month: new Counter(), airport: new Counter(),
  };
  for (const x of contexts) {
    const i = x.intent;
    c.goal.add(i.goal);
    c.cls.add(i.class);
    c.price.add(i.max_price);
    c.airline.add(i.airline_preference);
    c.dep.add(i.departure_time);
    c.ret.add(i.return_time);
    c.conn.add(i.max_connections);
    c.res.add(x.kb.reservation !== 0);
    c.month.add(i.departure_month);
    c.airport.add(i.departure_airport);
    for (const f of x.kb.kb) {
      c.fclass.add(f.class);
      c.fconn.add(f.num_connections);
    }
  }
  return [
    ...rows('goal', priors.goal, c.goal),
    ...rows('class', priors.class, c.cls),
    ...rows('max_price', priors.maxPrice, c.price),
    ...rows('airline_preference', priors.airlinePreference, c.airline),
    ...rows('departure_time', priors.time, c.dep),
    ...rows('return_time', priors.time, c.ret),
    ...rows('max_connections', priors.maxConnections, c.conn),
    ...rows('flight.class', priors.flightClass, c.fclass),
    ...rows('flight.num_connections', priors.flightConnections, c.fconn),
    { label: 'reservation', expected: priors.reservation, observed: c.res.freq(true) },
    ...MONTHS.map((m) => ({ label: `departure_month=${m}`, expected: 1 / 12, observed: c.month.freq(m) })),
    ...airports.map((a) => ({ label: `departure_airport=${a}`, expected: 1 / airports.length, observed: c.airport.freq(a) })),
  ];
}

/**
 * The largest |observed − expected| over the checks (0 for none).
 *
 * @example
 * ```ts
 * import { maxDeviation } from 'dialogym/airdialogue';
 * maxDeviation([{ label: 'goal=book', expected: 0.8, observed: 0.75 }]); // ≈ 0.05
 * ```
 */
export function maxDeviation(checks: readonly PriorCheck[]): number {
  return checks.reduce((m, c) => Math.max(m, Math.abs(c.observed - c.expected)), 0);
}
