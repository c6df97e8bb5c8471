/**
 * The restaurant knowledge base of the bAbI dialog tasks 1-5 (Bordes, Boureau & Weston 2017).
 *
 * Every (location, price, cuisine, rating 1-8) combination is one restaurant, named
 * `resto_<location>_<price>_<cuisine>_<rating>stars`, with phone `<name>_phone`, address
 * `<name>_address` and one party size (`R_number`) drawn at random. The entity vocabulary is split
 * into two disjoint halves exactly as in the original data: the in-vocabulary half (trn/dev/tst)
 * and the out-of-vocabulary half (tst-OOV); each half holds 5 × 5 × 3 × 8 = 600 restaurants.
 *
 * Orders below are those of the original `dialog-babi-kb-all.txt` (OOV half first; within a half
 * location → price → cuisine → rating), so a generated KB file reads like the original one.
 *
 * `Restaurant`, `KbStore` and `MemoryKbStore` serve the DSTC6 extended KBs too (with atmosphere and
 * restrictions); KB files are read and written by `kb-dialects.ts`, SQLite KBs by `kb-sqlite.ts`.
 */
import type { Rng } from '../../core/rng.js';

/** The half of the vocabulary a value, restaurant or test set is drawn from: in-vocabulary or out-of-vocabulary (OOV test sets). */
export type VocabHalf = 'iv' | 'oov';

export const CUISINES: Readonly<Record<VocabHalf, readonly string[]>> = {
  iv: ['indian', 'italian', 'french', 'spanish', 'british'],
  oov: ['korean', 'cantonese', 'japanese', 'thai', 'vietnamese'],
};
export const LOCATIONS: Readonly<Record<VocabHalf, readonly string[]>> = {
  iv: ['paris', 'rome', 'bombay', 'madrid', 'london'],
  oov: ['seoul', 'tokyo', 'beijing', 'bangkok', 'hanoi'],
};
export const PRICES: readonly string[] = ['cheap', 'moderate', 'expensive'];
export const NUMBERS: readonly string[] = ['two', 'four', 'six', 'eight'];
export const RATINGS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];

/** The four fields of an api_call, in the order the call (and the bot's questions) use. */
export const FIELDS = ['cuisine', 'location', 'number', 'price'] as const;
export type Field = (typeof FIELDS)[number];

export interface ApiCall {
  cuisine: string;
  location: string;
  number: string;
  price: string;
  /** DSTC6 Track 1 only: the call's 5th and 6th arguments (absent = not constrained). */
  atmosphere?: string;
  restrictions?: string;
}

/** A restaurant of a bAbI KB, or of a DSTC6 extended KB (with atmosphere and restrictions). */
export interface Restaurant {
  name: string;
  cuisine: string;
  location: string;
  price: string;
  rating: number;
  phone: string;
  address: string;
  number: string;
  /** DSTC6 Track 1 KBs only. */
  atmosphere?: string;
  restrictions?: string;
}

/** A restaurant KB answering api_calls: `MemoryKbStore` (here) or `SqliteKbStore` (kb-sqlite.ts). */
export interface KbStore {
  /** Restaurants matching all fields of the call (atmosphere/restrictions only when given), in store order. */
  query(call: ApiCall): Restaurant[];
  /** Every restaurant, in store order. */
  all(): Restaurant[];
}

/** The values of a field within one vocabulary half. */
export function fieldValues(field: Field, vocab: VocabHalf): readonly string[] {
  switch (field) {
    case 'cuisine':
      return CUISINES[vocab];
    case 'location':
      return LOCATIONS[vocab];
    case 'number':
      return NUMBERS;
    case 'price':
      return PRICES;
  }
}

export function restaurantName(location: string, price: string, cuisine: string, rating: number): string {
  return `resto_${location}_${price}_${cuisine}_${rating}stars`;
}

export function formatApiCall(c: ApiCall): string {
  return `api_call ${c.cuisine} ${c.location} ${c.number} ${c.price}`;
}

export function apiCallKey(c: ApiCall): string {
  return `${c.cuisine}|${c.location}|${c.number}|${c.price}`;
}

/** Every api_call of a vocabulary half (5 × 5 × 4 × 3 = 300), in a fixed order. */
export function allApiCalls(vocab: VocabHalf): ApiCall[] {
  const out: ApiCall[] = [];
  for (const cuisine of CUISINES[vocab]) for (const location of LOCATIONS[vocab]) for (const number of NUMBERS) for (const price of PRICES) out.push({ cuisine, location, number, price });
  return out;
}

export interface KbGenOptions {
  /** Which halves to generate, in this order (default: the original's, OOV first). */
  vocabs?: readonly VocabHalf[];
  /**
   * Redraw a half's party sizes until it is typical (default true): its number of api_calls with
   * ≥ 3 results, and their mean number of results, lie within `TYPICAL_TOLERANCE` of their
   * expectation under the uniform party-size model (96.4 calls, 3.454 results). Tasks 3 and 5 are
   * built on those calls, and a plain draw moves their KB lines per dialog by up to ±8% from one
   * seed to the next; the original KB is a typical draw (95 calls / 3.39 results in-vocabulary,
   * 89 / 3.47 OOV).
   */
  typical?: boolean;
}

/** Relative tolerances of a typical KB half (see KbGenOptions.typical). */
export const TYPICAL_TOLERANCE = { calls: 0.08, meanResults: 0.012 } as const;

/** Expected number of calls with ≥ `min` results in a half, and their expected mean number of results. */
export function expectedValidCalls(min = 3): { calls: number; meanResults: number } {
  const n = RATINGS.length;
  const p = 1 / NUMBERS.length;
  let pMin = 0;
  let mean = 0;
  for (let k = min; k <= n; k++) {
    const pk = binom(n, k) * p ** k * (1 - p) ** (n - k);
    pMin += pk;
    mean += k * pk;
  }
  const calls = CUISINES.iv.length * LOCATIONS.iv.length * PRICES.length * NUMBERS.length;
  return { calls: calls * pMin, meanResults: mean / pMin };
}

function binom(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

function halfRestaurants(vocab: VocabHalf, rng: Rng): Restaurant[] {
  const out: Restaurant[] = [];
  for (const location of LOCATIONS[vocab])
    for (const price of PRICES)
      for (const cuisine of CUISINES[vocab])
        for (const rating of RATINGS) {
          const name = restaurantName(location, price, cuisine, rating);
          out.push({ name, cuisine, location, price, rating, phone: `${name}_phone`, address: `${name}_address`, number: rng.pick(NUMBERS) });
        }
  return out;
}

/** Number of calls with ≥ `min` results and their mean result count. */
export function validCallStats(rs: readonly Restaurant[], min = 3): { calls: number; meanResults: number } {
  const counts = new Map<string, number>();
  for (const r of rs) counts.set(apiCallKey(r), (counts.get(apiCallKey(r)) ?? 0) + 1);
  let calls = 0;
  let total = 0;
  for (const c of counts.values())
    if (c >= min) {
      calls++;
      total += c;
    }
  return { calls, meanResults: calls ? total / calls : 0 };
}

/**
 * Generates the KB: one restaurant per (location, price, cuisine, rating), each with a party size
 * drawn uniformly from two/four/six/eight (the original's 1,200 sizes are close to uniform:
 * four 321, six 314, two 310, eight 255). Each half uses its own stream `rng.fork(vocab)`.
 */
export function generateRestaurants(rng: Rng, opts: KbGenOptions = {}): Restaurant[] {
  const out: Restaurant[] = [];
  const want = expectedValidCalls(3);
  for (const vocab of opts.vocabs ?? (['oov', 'iv'] as const)) {
    const hr = rng.fork(vocab);
    let half = halfRestaurants(vocab, hr);
    for (let attempt = 0; opts.typical !== false && attempt < 10_000; attempt++) {
      const s = validCallStats(half);
      if (Math.abs(s.calls - want.calls) <= TYPICAL_TOLERANCE.calls * want.calls && Math.abs(s.meanResults - want.meanResults) <= TYPICAL_TOLERANCE.meanResults * want.meanResults) break;
      half = halfRestaurants(vocab, hr);
    }
    out.push(...half);
  }
  return out;
}

/** Which vocabulary half a restaurant (or call) belongs to, or undefined when its entities mix halves / are unknown. */
export function vocabOf(x: { cuisine: string; location: string }): VocabHalf | undefined {
  for (const v of ['iv', 'oov'] as const) if (CUISINES[v].includes(x.cuisine) && LOCATIONS[v].includes(x.location)) return v;
  return undefined;
}

/** In-memory KB store with an index on the four api_call fields (atmosphere/restrictions filtered). */
export class MemoryKbStore implements KbStore {
  private readonly rows: readonly Restaurant[];
  private readonly index = new Map<string, Restaurant[]>();

  constructor(restaurants: readonly Restaurant[]) {
    this.rows = restaurants.slice();
    for (const r of this.rows) {
      const k = apiCallKey(r);
      const list = this.index.get(k);
      if (list) list.push(r);
      else this.index.set(k, [r]);
    }
  }

  query(call: ApiCall): Restaurant[] {
    const rs = this.index.get(apiCallKey(call)) ?? [];
    return rs.filter((r) => (call.atmosphere === undefined || r.atmosphere === call.atmosphere) && (call.restrictions === undefined || r.restrictions === call.restrictions));
  }

  all(): Restaurant[] {
    return this.rows.slice();
  }

  /** A store holding only the restaurants of one vocabulary half. */
  half(vocab: VocabHalf): MemoryKbStore {
    return new MemoryKbStore(this.rows.filter((r) => vocabOf(r) === vocab));
  }
}
