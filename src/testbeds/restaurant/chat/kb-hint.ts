/**
 * What the web UI's empty state tells a person about the KB the sessions use (`GET /api/kb`,
 * `schemas/serve-kb-hint.schema.json`): the cities, cuisines, price ranges and party sizes it has,
 * and one request the bots understand that finds at least one restaurant of this KB.
 */
import type { KbStore } from '../kb.js';

/** The body of `GET /api/kb`. */
export interface KbHint {
  /** Restaurants in the KB. */
  readonly restaurants: number;
  /** Distinct values, sorted. */
  readonly cities: readonly string[];
  readonly cuisines: readonly string[];
  readonly prices: readonly string[];
  readonly partySizes: readonly string[];
  /** A first message that leads to an api_call with results here; null for an empty KB. */
  readonly example: string | null;
}

const PRICE_ORDER = ['cheap', 'moderate', 'expensive'];
const SIZE_ORDER = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

/** Known values in their natural order, unknown ones after them alphabetically. */
function ordered(values: Iterable<string>, known: readonly string[] = []): string[] {
  const rank = (v: string): number => {
    const i = known.indexOf(v);
    return i < 0 ? known.length : i;
  };
  return [...new Set(values)].filter((v) => v !== '').sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The hint of a KB. The example asks for the KB's first restaurant with the phrasing of the bAbI
 * users (`can you book a table in <city> for <n> people with <cuisine> food in a <price> price range`),
 * which the rules bot and an hcn trained on task 5 read in one turn.
 */
export function kbHint(store: KbStore): KbHint {
  const all = store.all();
  const first = all[0];
  const example = first
    ? [
        'can you book a table',
        first.location ? `in ${first.location}` : '',
        first.number ? `for ${first.number} people` : '',
        first.cuisine ? `with ${first.cuisine} food` : '',
        first.price ? `in a ${first.price} price range` : '',
      ]
        .filter(Boolean)
        .join(' ')
    : null;
  return {
    restaurants: all.length,
    cities: ordered(all.map((r) => r.location)),
    cuisines: ordered(all.map((r) => r.cuisine)),
    prices: ordered(all.map((r) => r.price), PRICE_ORDER),
    partySizes: ordered(all.map((r) => r.number), SIZE_ORDER),
    example,
  };
}
