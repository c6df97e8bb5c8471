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

/**
 * The half of the vocabulary a value, restaurant or test set is drawn from: in-vocabulary or
 * out-of-vocabulary (OOV test sets).
 *
 * @example
 * ```ts
 * import { CUISINES, type VocabHalf } from 'dialogym/restaurant';
 * const half: VocabHalf = 'oov';
 * CUISINES[half]; // ['korean', 'cantonese', 'japanese', 'thai', 'vietnamese']
 * ```
 */
export type VocabHalf = 'iv' | 'oov';

/**
 * The cuisines of each vocabulary half, in the original KB's order.
 *
 * @example
 * ```ts
 * import { CUISINES } from 'dialogym/restaurant';
 * CUISINES.iv; // ['indian', 'italian', 'french', 'spanish', 'british']
 * ```
 */
export const CUISINES: Readonly<Record<VocabHalf, readonly string[]>> = {
  iv: ['indian', 'italian', 'french', 'spanish', 'british'],
  oov: ['korean', 'cantonese', 'japanese', 'thai', 'vietnamese'],
};
/**
 * The locations of each vocabulary half, in the original KB's order.
 *
 * @example
 * ```ts
 * import { LOCATIONS } from 'dialogym/restaurant';
 * LOCATIONS.oov; // ['seoul', 'tokyo', 'beijing', 'bangkok', 'hanoi']
 * ```
 */
export const LOCATIONS: Readonly<Record<VocabHalf, readonly string[]>> = {
  iv: ['paris', 'rome', 'bombay', 'madrid', 'london'],
  oov: ['seoul', 'tokyo', 'beijing', 'bangkok', 'hanoi'],
};
/**
 * The price ranges (both halves): cheap, moderate, expensive.
 *
 * @example
 * ```ts
 * import { PRICES } from 'dialogym/restaurant';
 * PRICES.indexOf('moderate'); // 1
 * ```
 */
export const PRICES: readonly string[] = ['cheap', 'moderate', 'expensive'];
/**
 * The party sizes (both halves): two, four, six, eight.
 *
 * @example
 * ```ts
 * import { NUMBERS } from 'dialogym/restaurant';
 * NUMBERS.includes('six'); // true
 * ```
 */
export const NUMBERS: readonly string[] = ['two', 'four', 'six', 'eight'];
/**
 * The ratings 1–8 (one restaurant per rating for each location, price and cuisine).
 *
 * @example
 * ```ts
 * import { RATINGS } from 'dialogym/restaurant';
 * RATINGS.length; // 8
 * ```
 */
export const RATINGS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];

/**
 * The four fields of an api_call, in the order the call (and the bot's questions) use.
 *
 * @example
 * ```ts
 * import { FIELDS } from 'dialogym/restaurant';
 * FIELDS.join(' '); // 'cuisine location number price'
 * ```
 */
export const FIELDS = ['cuisine', 'location', 'number', 'price'] as const;
/**
 * One api_call field: cuisine, location, number or price.
 *
 * @example
 * ```ts
 * import { fieldValues, type Field } from 'dialogym/restaurant';
 * const field: Field = 'price';
 * fieldValues(field, 'iv'); // ['cheap', 'moderate', 'expensive']
 * ```
 */
export type Field = (typeof FIELDS)[number];

/**
 * An api_call's arguments (`api_call <cuisine> <location> <number> <price>`); DSTC6 calls add
 * atmosphere and restrictions.
 *
 * @example
 * ```ts
 * import { formatApiCall, type ApiCall } from 'dialogym/restaurant';
 * const call: ApiCall = { cuisine: 'italian', location: 'rome', number: 'six', price: 'cheap' };
 * formatApiCall(call); // 'api_call italian rome six cheap'
 * ```
 */
export interface ApiCall {
  cuisine: string;
  location: string;
  number: string;
  price: string;
  /** DSTC6 Track 1 only: the call's 5th and 6th arguments (absent = not constrained). */
  atmosphere?: string;
  restrictions?: string;
}

/**
 * One restaurant of the KB with its seven attributes (DSTC6 KBs add atmosphere and
 * restrictions). Names are `resto_<location>_<price>_<cuisine>_<rating>stars`.
 *
 * @example
 * ```ts
 * import type { Restaurant } from 'dialogym/restaurant';
 * const r: Restaurant = {
 *   name: 'resto_rome_cheap_italian_1stars', cuisine: 'italian', location: 'rome', price: 'cheap', rating: 1,
 *   phone: 'resto_rome_cheap_italian_1stars_phone', address: 'resto_rome_cheap_italian_1stars_address', number: 'six',
 * };
 * ```
 */
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

/**
 * A queryable restaurant KB: what the simulator and the bots answer api_calls from. Implemented
 * in memory (`MemoryKbStore`) and over SQLite (`SqliteKbStore`).
 *
 * @example
 * ```ts
 * import { MemoryKbStore, readKb, type KbStore } from 'dialogym/restaurant';
 * const kb: KbStore = new MemoryKbStore(readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').restaurants);
 * kb.query({ cuisine: 'italian', location: 'rome', number: 'six', price: 'cheap' }).map((r) => r.name);
 * ```
 */
export interface KbStore {
  /** Restaurants matching all fields of the call (atmosphere/restrictions only when given), in store order. */
  query(call: ApiCall): Restaurant[];
  /** Every restaurant, in store order. */
  all(): Restaurant[];
}

/**
 * The values of a field within one vocabulary half (number and price are shared by both).
 *
 * @example
 * ```ts
 * import { fieldValues } from 'dialogym/restaurant';
 * fieldValues('location', 'iv'); // ['paris', 'rome', 'bombay', 'madrid', 'london']
 * ```
 */
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

/**
 * The name of the restaurant with these attributes: `resto_<location>_<price>_<cuisine>_<rating>stars`.
 *
 * @example
 * ```ts
 * import { restaurantName } from 'dialogym/restaurant';
 * restaurantName('rome', 'cheap', 'italian', 4); // 'resto_rome_cheap_italian_4stars'
 * ```
 */
export function restaurantName(location: string, price: string, cuisine: string, rating: number): string {
  return `resto_${location}_${price}_${cuisine}_${rating}stars`;
}

/**
 * The bot's api_call utterance for a call (the four bAbI fields only; DSTC6 fields are left out).
 *
 * @example
 * ```ts
 * import { formatApiCall } from 'dialogym/restaurant';
 * formatApiCall({ cuisine: 'french', location: 'paris', number: 'two', price: 'expensive' }); // 'api_call french paris two expensive'
 * ```
 */
export function formatApiCall(c: ApiCall): string {
  return `api_call ${c.cuisine} ${c.location} ${c.number} ${c.price}`;
}

/**
 * A lookup key for a call (or a restaurant): its four fields joined with `|`.
 *
 * @example
 * ```ts
 * import { apiCallKey } from 'dialogym/restaurant';
 * apiCallKey({ cuisine: 'french', location: 'paris', number: 'two', price: 'cheap' }); // 'french|paris|two|cheap'
 * ```
 */
export function apiCallKey(c: ApiCall): string {
  return `${c.cuisine}|${c.location}|${c.number}|${c.price}`;
}

/**
 * Every api_call of a vocabulary half (5 × 5 × 4 × 3 = 300), in a fixed order.
 *
 * @example
 * ```ts
 * import { allApiCalls } from 'dialogym/restaurant';
 * allApiCalls('oov').length; // 300
 * ```
 */
export function allApiCalls(vocab: VocabHalf): ApiCall[] {
  const out: ApiCall[] = [];
  for (const cuisine of CUISINES[vocab]) for (const location of LOCATIONS[vocab]) for (const number of NUMBERS) for (const price of PRICES) out.push({ cuisine, location, number, price });
  return out;
}

/**
 * Options of `generateRestaurants`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateRestaurants, type KbGenOptions } from 'dialogym/restaurant';
 * const opts: KbGenOptions = { vocabs: ['iv'], typical: false };
 * generateRestaurants(createRng(1), opts).length; // 600
 * ```
 */
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

/**
 * Relative tolerances of a typical KB half (see `KbGenOptions.typical`): 8% on the number of
 * calls with ≥ 3 results, 1.2% on their mean number of results.
 *
 * @example
 * ```ts
 * import { TYPICAL_TOLERANCE, expectedValidCalls } from 'dialogym/restaurant';
 * const { calls } = expectedValidCalls();
 * const [lo, hi] = [calls * (1 - TYPICAL_TOLERANCE.calls), calls * (1 + TYPICAL_TOLERANCE.calls)];
 * ```
 */
export const TYPICAL_TOLERANCE = { calls: 0.08, meanResults: 0.012 } as const;

/**
 * Expected number of api_calls with ≥ `min` results in a half, and their expected mean number
 * of results, when party sizes are uniform.
 *
 * @example
 * ```ts
 * import { expectedValidCalls } from 'dialogym/restaurant';
 * expectedValidCalls(3); // ≈ { calls: 96.4, meanResults: 3.454 }
 * ```
 */
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

/**
 * Number of api_calls with ≥ `min` results among `rs`, and their mean result count (0 when none).
 *
 * @example
 * ```ts
 * import { validCallStats, vocabOf, readKb } from 'dialogym/restaurant';
 * const iv = readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').restaurants.filter((r) => vocabOf(r) === 'iv');
 * validCallStats(iv); // { calls: 95, meanResults: ≈ 3.39 } on the original KB
 * ```
 */
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
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateRestaurants, formatKb, BABI_KB } from 'dialogym/restaurant';
 * const restaurants = generateRestaurants(createRng(1)); // 1,200: OOV half then in-vocabulary half
 * const text = formatKb(restaurants, BABI_KB);
 * ```
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

/**
 * Which vocabulary half a restaurant (or call) belongs to, by cuisine and location, or undefined
 * when its entities mix halves or are unknown.
 *
 * @example
 * ```ts
 * import { vocabOf } from 'dialogym/restaurant';
 * vocabOf({ cuisine: 'thai', location: 'hanoi' });  // 'oov'
 * vocabOf({ cuisine: 'thai', location: 'paris' });  // undefined
 * ```
 */
export function vocabOf(x: { cuisine: string; location: string }): VocabHalf | undefined {
  for (const v of ['iv', 'oov'] as const) if (CUISINES[v].includes(x.cuisine) && LOCATIONS[v].includes(x.location)) return v;
  return undefined;
}

/**
 * In-memory KB store with an index on the four api_call fields; `query` also filters on
 * atmosphere and restrictions when the call has them. `half(vocab)` keeps one vocabulary half.
 *
 * @example
 * ```ts
 * import { MemoryKbStore, readKb } from 'dialogym/restaurant';
 * const store = new MemoryKbStore(readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').restaurants);
 * const oov = store.half('oov');
 * oov.query({ cuisine: 'thai', location: 'hanoi', number: 'four', price: 'cheap' });
 * ```
 */
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
