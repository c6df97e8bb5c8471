/**
 * The "constraint satisfied" signal of the learned agent (beyond the paper; a hand-engineered
 * input in the spirit of bAbI's match type, Bordes et al. 2017 §4): what the customer has said so
 * far, read from its words by keyword rules, compared with each flight of the agent's table.
 *
 * The customer's restrictions are the twelve of the task logic (`violations`, logic.ts): the
 * airports, the two dates, the budget, the connection limit, the class, the departure and
 * return day segments and the airline type. They are read from the lower-cased word tokens the
 * model sees — the same cues as the rule agent's understanding (`readCustomerUtterance`,
 * language.ts), which reads the raw, capitalised text instead — so the signal works in
 * self-play, in the chat and on the true dialogues alike. An airport is only taken when it is
 * one of the table's airports ("to fly" is not a destination). Nothing here sees the customer's
 * private intent.
 *
 * Per flight, `CONSTRAINT_FEATURES` numbers: for each restriction +1 (said and met), −1 (said
 * and violated) or 0 (not said yet); then `ok` (no said restriction violated), `best` (the first
 * of the cheapest `ok` flights — the flight the task logic books, `cheapestMatching`), and two
 * inputs that are the same for every flight: `any` (some flight is `ok`) and the share of the
 * twelve restrictions said. `GLOBAL_FEATURES` are those last two alone (the status head's input).
 */
import type { DaySegment } from '../../../formats/airdialogue.js';
import { AIRLINE_TYPES } from '../facts.js';
import { daySegment } from '../logic.js';
import type { ContextToken } from './tokens.js';

/** Restrictions said by the customer so far (each absent until said). */
export interface SaidConstraints {
  from?: string;
  to?: string;
  depMonth?: string;
  depDay?: number;
  retMonth?: string;
  retDay?: number;
  maxPrice?: number;
  maxConnections?: number;
  cls?: string;
  depTime?: DaySegment;
  retTime?: DaySegment;
  normalCost?: boolean;
}

/** Per-restriction features, then ok, best, any, share said. */
export const CONSTRAINT_FEATURES = 16;
/** The flight-independent features (any flight ok, share of restrictions said). */
export const GLOBAL_FEATURES = 2;

const MONTH = '(jan|feb|mar|apr|may|june|july|aug|sept|oct|nov|dec)';
const SEG = '(morning|afternoon|evening)';
const CLAUSE = '[^.;,]*?';
/** Built once (the features are computed at every agent turn): `matchAll` copies a global pattern, so sharing them is safe. */
const AIRPORT_AFTER = { from: /\bfrom ([a-z0-9]+)\b/g, to: /\bto ([a-z0-9]+)\b/g };
const DATE = new RegExp(`\\b${MONTH} (\\d{1,2})\\b`, 'g');
const DEPART = new RegExp(`\\b(?:depart|departing|departure|leave|leaving)\\b${CLAUSE}\\b${SEG}\\b`);
const RETURN = new RegExp(`\\b(?:return|returning|come back|coming back)\\b${CLAUSE}\\b${SEG}\\b`);
const NORMAL_COST = new Set(Object.entries(AIRLINE_TYPES).flatMap(([a, t]) => (t === 'normal-cost' ? [a.toLowerCase()] : [])));

/**
 * The restrictions in the customer's words (lower-cased tokens, in the order said); `airports`:
 * the airport words that count as airports (the agent's table's). The first two dates are the
 * departure and the return; for the other restrictions the last statement counts.
 */
export function saidConstraints(words: readonly string[], airports: ReadonlySet<string>): SaidConstraints {
  const text = ` ${words.join(' ')} `;
  const s: SaidConstraints = {};
  const airport = (cue: keyof typeof AIRPORT_AFTER): string | undefined => {
    for (const m of text.matchAll(AIRPORT_AFTER[cue])) if (airports.has(m[1]!)) return m[1];
    return undefined;
  };
  const from = airport('from');
  if (from !== undefined) s.from = from;
  const to = airport('to');
  if (to !== undefined) s.to = to;
  const dates = [...text.matchAll(DATE)];
  if (dates[0]) [s.depMonth, s.depDay] = [dates[0][1]!, Number(dates[0][2])];
  if (dates[1]) [s.retMonth, s.retDay] = [dates[1][1]!, Number(dates[1][2])];
  const price = [...text.matchAll(/\b(?:budget is|under|more than|up to|at most) (?:\$ )?(\d{3,5})\b/g)].pop();
  if (price) s.maxPrice = Number(price[1]);
  if (/\b(direct|non - stop|nonstop|no connections?)\b/.test(text)) s.maxConnections = 0;
  else if (/\b(one|1) (connection|stop)s?\b/.test(text)) s.maxConnections = 1;
  const cls = [...text.matchAll(/\b(economy|business) class\b/g)].pop();
  if (cls) s.cls = cls[1]!;
  const dep = DEPART.exec(text);
  if (dep) s.depTime = dep[1] as DaySegment;
  const ret = RETURN.exec(text);
  if (ret) s.retTime = ret[1] as DaySegment;
  if (/\b(standard - fare|normal - cost|full - service)\b/.test(text)) s.normalCost = true;
  return s;
}

/** +1 met, −1 violated, 0 not said, per restriction, for one flight's 13 context tokens (FLIGHT_FIELDS order). */
function checks(s: SaidConstraints, f: readonly ContextToken[]): number[] {
  const w = (k: number) => f[k]?.word ?? '';
  const n = (k: number) => Number(w(k));
  const c = (said: unknown, met: () => boolean) => (said === undefined ? 0 : met() ? 1 : -1);
  return [
    c(s.from, () => w(0) === s.from),
    c(s.to, () => w(1) === s.to),
    c(s.depMonth, () => w(2) === s.depMonth),
    c(s.retMonth, () => w(3) === s.retMonth),
    c(s.depDay, () => n(4) === s.depDay),
    c(s.retDay, () => n(5) === s.retDay),
    c(s.depTime, () => daySegment(n(6)) === s.depTime),
    c(s.retTime, () => daySegment(n(7)) === s.retTime),
    c(s.cls, () => w(8) === s.cls),
    c(s.maxPrice, () => n(9) <= (s.maxPrice as number)),
    c(s.maxConnections, () => n(10) <= (s.maxConnections as number)),
    c(s.normalCost, () => NORMAL_COST.has(w(11))),
  ];
}

/**
 * The constraint features of every flight (n × `CONSTRAINT_FEATURES`, module description) for
 * the customer's words so far, and the `GLOBAL_FEATURES`.
 */
export function constraintFeatures(flights: readonly (readonly ContextToken[])[], customerWords: readonly string[]): { perFlight: Float32Array; global: Float32Array } {
  const airports = new Set(flights.flatMap((f) => [f[0]?.word ?? '', f[1]?.word ?? '']));
  const s = saidConstraints(customerWords, airports);
  const K = CONSTRAINT_FEATURES;
  const out = new Float32Array(flights.length * K);
  let best = -1;
  let bestPrice = Infinity;
  const said = Object.values(s).filter((v) => v !== undefined).length;
  flights.forEach((f, i) => {
    const cs = checks(s, f);
    out.set(cs, i * K);
    const ok = cs.every((v) => v >= 0);
    out[i * K + 12] = ok ? 1 : 0;
    const price = Number(f[9]?.word);
    if (ok && price < bestPrice) [best, bestPrice] = [i, price];
  });
  if (best >= 0) out[best * K + 13] = 1;
  const global = Float32Array.of(best >= 0 ? 1 : 0, said / 12);
  for (let i = 0; i < flights.length; i++) out.set(global, i * K + 14);
  return { perFlight: out, global };
}
