/**
 * The extended restaurant KBs of DSTC6 Track 1 (`extendedkb1.txt`, `extendedkb2.txt`): 5,400
 * restaurants × 9 attributes each, rebuilt with the shape measured on the two real files (they are
 * read and written by `readKb` / `formatKb` with the `DSTC6_KB` dialect of restaurant/kb-dialects.ts):
 * - KB 1 uses the bAbI in-vocabulary cuisines/locations, KB 2 the out-of-vocabulary ones; both share
 *   prices, atmospheres (business/casual/romantic), restrictions (glutenfree/vegan/vegetarian),
 *   party sizes and ratings 1–72. Names, phones and addresses are disjoint between the two KBs.
 * - Every (location, price, cuisine, atmosphere) holds 24 restaurants: for each of 8 rating bins
 *   (1–9, 10–18, …, 64–72) one party size, shared by three restaurants — one per restriction —
 *   whose ratings are three distinct values of the bin. Within a (cuisine, location), each rating
 *   is used exactly three times (75 restaurants per rating over a KB).
 * - Names are `[the_]adj_adj_noun_noun` (`the_` on about half; 80 adjectives, 102 nouns, drawn
 *   independently), phone `<name>_phone`, address `<name>_address`. Restaurants are listed in
 *   random order, attributes in the order of `DSTC6_KB.fileAttrs`.
 */
import type { Rng } from '../../core/rng.js';
import { CUISINES, LOCATIONS, NUMBERS, PRICES, type ApiCall, type Restaurant, type VocabHalf } from '../restaurant/kb.js';

/**
 * The atmosphere values of both extended KBs (and of api_calls): business, casual, romantic.
 *
 * @example
 * ```ts
 * import { ATMOSPHERES } from 'dialogym/dstc6';
 * ATMOSPHERES.includes('romantic'); // true
 * ```
 */
export const ATMOSPHERES: readonly string[] = ['business', 'casual', 'romantic'];
/**
 * The restriction values of both extended KBs: glutenfree, vegan, vegetarian (api_calls carry
 * one only in tst3 and tst4).
 *
 * @example
 * ```ts
 * import { RESTRICTIONS } from 'dialogym/dstc6';
 * const vegan = RESTRICTIONS.indexOf('vegan'); // 1
 * ```
 */
export const RESTRICTIONS: readonly string[] = ['glutenfree', 'vegan', 'vegetarian'];
/**
 * Highest restaurant rating in the extended KBs (ratings run 1–72).
 *
 * @example
 * ```ts
 * import { RATING_MAX, RATING_BINS } from 'dialogym/dstc6';
 * const binSize = RATING_MAX / RATING_BINS; // 9
 * ```
 */
export const RATING_MAX = 72;
/**
 * Number of rating bins (1–9, 10–18, …, 64–72) the KB generator fills evenly.
 *
 * @example
 * ```ts
 * import { RATING_MAX, RATING_BINS } from 'dialogym/dstc6';
 * const binOf = (rating: number) => Math.floor((rating - 1) / (RATING_MAX / RATING_BINS)); // 0..7
 * ```
 */
export const RATING_BINS = 8;

/**
 * The slots an api_call can carry, in api_call order (restrictions only when the set uses it).
 *
 * @example
 * ```ts
 * import { EXT_SLOTS, formatExtApiCall } from 'dialogym/dstc6';
 * formatExtApiCall({ cuisine: 'italian', location: 'rome', number: 'two', price: 'cheap', atmosphere: 'casual' }, EXT_SLOTS.slice(0, 5));
 * // 'api_call italian rome two cheap casual'
 * ```
 */
export const EXT_SLOTS = ['cuisine', 'location', 'number', 'price', 'atmosphere', 'restrictions'] as const satisfies readonly (keyof ApiCall)[];
/**
 * One api_call slot of DSTC6: cuisine, location, number, price, atmosphere, restrictions.
 *
 * @example
 * ```ts
 * import { slotValues, type ExtSlot } from 'dialogym/dstc6';
 * const slot: ExtSlot = 'atmosphere';
 * slotValues(slot, 1); // ['business', 'casual', 'romantic']
 * ```
 */
export type ExtSlot = (typeof EXT_SLOTS)[number];


/**
 * Which KB: 1 = in-vocabulary half (train, tst1, tst3), 2 = OOV half (tst2, tst4).
 *
 * @example
 * ```ts
 * import { KB_FILE_NAMES, type KbId } from 'dialogym/dstc6';
 * const kb: KbId = 2;
 * KB_FILE_NAMES[kb]; // 'extendedkb2.txt'
 * ```
 */
export type KbId = 1 | 2;
/**
 * The bAbI vocabulary half of each KB's cuisines and locations: `iv` for KB 1, `oov` for KB 2.
 *
 * @example
 * ```ts
 * import { KB_VOCAB } from 'dialogym/dstc6';
 * KB_VOCAB[2]; // 'oov'
 * ```
 */
export const KB_VOCAB: Readonly<Record<KbId, VocabHalf>> = { 1: 'iv', 2: 'oov' };
/**
 * File name of each KB in the DSTC6 release: `extendedkb1.txt`, `extendedkb2.txt`.
 *
 * @example
 * ```ts
 * import { KB_FILE_NAMES } from 'dialogym/dstc6';
 * import { DSTC6_KB, readKb } from 'dialogym/restaurant';
 * const kb1 = readKb('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/' + KB_FILE_NAMES[1], DSTC6_KB).restaurants;
 * ```
 */
export const KB_FILE_NAMES: Readonly<Record<KbId, string>> = { 1: 'extendedkb1.txt', 2: 'extendedkb2.txt' };

/**
 * The values of a slot in a KB's vocabulary (cuisines and locations differ between KB 1 and
 * KB 2; the other slots are shared).
 *
 * @example
 * ```ts
 * import { slotValues } from 'dialogym/dstc6';
 * slotValues('price', 1);    // ['cheap', 'moderate', 'expensive']
 * slotValues('cuisine', 2);  // the out-of-vocabulary cuisines
 * ```
 */
export function slotValues(slot: ExtSlot, kb: KbId): readonly string[] {
  switch (slot) {
    case 'cuisine':
      return CUISINES[KB_VOCAB[kb]];
    case 'location':
      return LOCATIONS[KB_VOCAB[kb]];
    case 'number':
      return NUMBERS;
    case 'price':
      return PRICES;
    case 'atmosphere':
      return ATMOSPHERES;
    case 'restrictions':
      return RESTRICTIONS;
  }
}

/**
 * Adjectives of restaurant names in the real KBs (both use the same lists; 80 words). Names
 * are `[the_]adj_adj_noun_noun`.
 *
 * @example
 * ```ts
 * import { NAME_ADJECTIVES, NAME_NOUNS } from 'dialogym/dstc6';
 * const name = `${NAME_ADJECTIVES[0]}_${NAME_ADJECTIVES[1]}_${NAME_NOUNS[0]}_${NAME_NOUNS[1]}`; // 'able_adorable_air_ant'
 * ```
 */
export const NAME_ADJECTIVES: readonly string[] = (
  'able adorable agreeable bad beautiful big black blue brave broad calm chubby clean crooked curved deep delightful different drab eager ' +
  'early elegant faithful fancy first flat gentle glamorous good gray great green handsome happy high hollow important jolly kind large ' +
  'last little lively long low magnificent narrow new next nice obedient old other plain proud public purple quaint relieved right round ' +
  'same shallow silly skinny small sparkling square steep straight thankful ugliest unsightly victorious white wide witty yellow young zealous'
).split(' ');
/**
 * Nouns of restaurant names in the real KBs (102 words); see `NAME_ADJECTIVES`.
 *
 * @example
 * ```ts
 * import { NAME_NOUNS } from 'dialogym/dstc6';
 * NAME_NOUNS.includes('horse'); // true
 * ```
 */
export const NAME_NOUNS: readonly string[] = (
  'air ant area art back bird book business car case cat change chicken city community company cow day dog door elephant end eye face ' +
  'fact family fish food fox friend game government group hand head health history home horse hour house idea information issue job ' +
  'kangaroo kind law level life line lion lot minute moment money monkey month morning name night number office others part party penguin ' +
  'pig place point power problem program question rabbit reason research result right room school service sheep side state story study ' +
  'system team thing tiger time war water way week whale wolf word work world year'
).split(' ');

function newName(rng: Rng, used: Set<string>): string {
  for (;;) {
    const words = [rng.pick(NAME_ADJECTIVES), rng.pick(NAME_ADJECTIVES), rng.pick(NAME_NOUNS), rng.pick(NAME_NOUNS)];
    const name = (rng.chance(0.5) ? 'the_' : '') + words.join('_');
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
  }
}

/**
 * Builds one KB of the real shape (see the file comment): 5,400 restaurants in random order.
 * `used` collects names across KBs so two KBs built with the same set never share a restaurant.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKb } from 'dialogym/dstc6';
 * import { DSTC6_KB, formatKb } from 'dialogym/restaurant';
 * const kb1 = generateExtendedKb(createRng(1), 1);
 * const text = formatKb(kb1, DSTC6_KB); // 48,600 lines, like extendedkb1.txt
 * ```
 */
export function generateExtendedKb(rng: Rng, kb: KbId, used: Set<string> = new Set()): Restaurant[] {
  const vocab = KB_VOCAB[kb];
  const binSize = RATING_MAX / RATING_BINS;
  const out: Restaurant[] = [];
  for (const cuisine of CUISINES[vocab])
    for (const location of LOCATIONS[vocab]) {
      // The 9 (price, atmosphere) groups of this (cuisine, location): in each rating bin, group g
      // takes values perm[g], perm[g+3], perm[g+6] (mod 9) of a random order of the bin's 9 ratings,
      // so each rating is used three times and never twice within a group.
      const groups: Array<{ price: string; atmosphere: string }> = [];
      for (const price of PRICES) for (const atmosphere of ATMOSPHERES) groups.push({ price, atmosphere });
      const order = rng.shuffle(groups.map((_, i) => i));
      for (let bin = 0; bin < RATING_BINS; bin++) {
        const perm = rng.shuffle(Array.from({ length: binSize }, (_, i) => bin * binSize + i + 1));
        groups.forEach((g, gi) => {
          const slot = order[gi] as number;
          const ratings = rng.shuffle([0, 3, 6].map((o) => perm[(slot + o) % binSize] as number));
          const number = rng.pick(NUMBERS);
          RESTRICTIONS.forEach((restrictions, ri) => {
            const name = newName(rng, used);
            out.push({ name, location, price: g.price, rating: ratings[ri] as number, phone: `${name}_phone`, cuisine, atmosphere: g.atmosphere, restrictions, number, address: `${name}_address` });
          });
        });
      }
    }
  return rng.shuffle(out);
}

/**
 * Both KBs from one stream (`fork('kb1')`, `fork('kb2')`), with disjoint names.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKbs } from 'dialogym/dstc6';
 * const { 1: kb1, 2: kb2 } = generateExtendedKbs(createRng(7).fork('kb'));
 * ```
 */
export function generateExtendedKbs(rng: Rng): Record<KbId, Restaurant[]> {
  const used = new Set<string>();
  return { 1: generateExtendedKb(rng.fork('kb1'), 1, used), 2: generateExtendedKb(rng.fork('kb2'), 2, used) };
}

/**
 * Which KB's vocabulary a KB's restaurants use (by cuisine and location), or undefined if
 * mixed, unknown or empty.
 *
 * @example
 * ```ts
 * import { DSTC6_KB, readKb } from 'dialogym/restaurant';
 * import { kbIdOf } from 'dialogym/dstc6';
 * kbIdOf(readKb('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb2.txt', DSTC6_KB).restaurants); // 2
 * ```
 */
export function kbIdOf(rs: readonly Restaurant[]): KbId | undefined {
  for (const kb of [1, 2] as const) {
    const v = KB_VOCAB[kb];
    if (rs.length > 0 && rs.every((r) => CUISINES[v].includes(r.cuisine) && LOCATIONS[v].includes(r.location))) return kb;
  }
  return undefined;
}

/**
 * A lookup key for a call (or a restaurant) over `slots`: the slot values joined with `|`
 * (missing ones empty). Equal keys mean the same api_call.
 *
 * @example
 * ```ts
 * import { callKey } from 'dialogym/dstc6';
 * callKey({ cuisine: 'spanish', location: 'bombay' }, ['cuisine', 'location', 'price']); // 'spanish|bombay|'
 * ```
 */
export function callKey(call: Partial<ApiCall>, slots: readonly ExtSlot[]): string {
  return slots.map((s) => call[s] ?? '').join('|');
}

/**
 * The bot's api_call utterance for a call: `api_call` then the values of `slots` in order
 * (an empty word for a missing value).
 *
 * @example
 * ```ts
 * import { formatExtApiCall } from 'dialogym/dstc6';
 * formatExtApiCall({ cuisine: 'spanish', location: 'bombay', number: 'four', price: 'cheap', atmosphere: 'casual' }, ['cuisine', 'location', 'number', 'price', 'atmosphere']);
 * // 'api_call spanish bombay four cheap casual'
 * ```
 */
export function formatExtApiCall(call: Partial<ApiCall>, slots: readonly ExtSlot[]): string {
  return ['api_call', ...slots.map((s) => call[s] ?? '')].join(' ');
}
