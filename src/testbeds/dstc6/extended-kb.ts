/**
 * The extended restaurant KBs of DSTC6 Track 1 (`extendedkb1.txt`, `extendedkb2.txt`): 5,400
 * restaurants × 9 attributes each, read, written and rebuilt with the shape measured on the two
 * real files:
 * - KB 1 uses the bAbI in-vocabulary cuisines/locations, KB 2 the out-of-vocabulary ones; both share
 *   prices, atmospheres (business/casual/romantic), restrictions (glutenfree/vegan/vegetarian),
 *   party sizes and ratings 1–72. Names, phones and addresses are disjoint between the two KBs.
 * - Every (location, price, cuisine, atmosphere) holds 24 restaurants: for each of 8 rating bins
 *   (1–9, 10–18, …, 64–72) one party size, shared by three restaurants — one per restriction —
 *   whose ratings are three distinct values of the bin. Within a (cuisine, location), each rating
 *   is used exactly three times (75 restaurants per rating over a KB).
 * - Names are `[the_]adj_adj_noun_noun` (`the_` on about half; 80 adjectives, 102 nouns, drawn
 *   independently), phone `<name>_phone`, address `<name>_address`. Restaurants are listed in
 *   random order, attributes in the order of `EXT_ATTRS`.
 */
import type { Rng } from '../../core/rng.js';
import { FormatError } from '../../core/errors.js';
import { readTextFile } from '../../core/files.js';
import { CUISINES, LOCATIONS, NUMBERS, PRICES, type VocabHalf } from '../restaurant/kb.js';

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
export const EXT_SLOTS = ['cuisine', 'location', 'number', 'price', 'atmosphere', 'restrictions'] as const;
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
 * The nine restaurant attributes, in the order of the KB file and of KB-result lines inside
 * DSTC6 contexts.
 *
 * @example
 * ```ts
 * import { EXT_ATTRS } from 'dialogym/dstc6';
 * EXT_ATTRS.length; // 9: location, price, rating, phone, cuisine, atmosphere, restrictions, number, address
 * ```
 */
export const EXT_ATTRS = ['location', 'price', 'rating', 'phone', 'cuisine', 'atmosphere', 'restrictions', 'number', 'address'] as const;
/**
 * One attribute of an extended-KB restaurant (an element of `EXT_ATTRS`).
 *
 * @example
 * ```ts
 * import { extAttrValue, type ExtAttr, type ExtRestaurant } from 'dialogym/dstc6';
 * declare const r: ExtRestaurant;
 * const attr: ExtAttr = 'rating';
 * extAttrValue(r, attr); // e.g. '46'
 * ```
 */
export type ExtAttr = (typeof EXT_ATTRS)[number];

/**
 * One restaurant of an extended KB: its name and nine attributes (values as in the file; the
 * rating as a number). Phone and address are `<name>_phone` / `<name>_address`.
 *
 * @example
 * ```ts
 * import type { ExtRestaurant } from 'dialogym/dstc6';
 * const r: ExtRestaurant = {
 *   name: 'the_witty_proud_story_horse', location: 'bombay', price: 'cheap', rating: 46,
 *   phone: 'the_witty_proud_story_horse_phone', cuisine: 'spanish', atmosphere: 'casual',
 *   restrictions: 'vegan', number: 'four', address: 'the_witty_proud_story_horse_address',
 * };
 * ```
 */
export interface ExtRestaurant {
  readonly name: string;
  readonly location: string;
  readonly price: string;
  readonly rating: number;
  readonly phone: string;
  readonly cuisine: string;
  readonly atmosphere: string;
  readonly restrictions: string;
  readonly number: string;
  readonly address: string;
}

/**
 * A (partial) api_call: a value per slot in use.
 *
 * @example
 * ```ts
 * import type { ExtCall } from 'dialogym/dstc6';
 * const call: ExtCall = { cuisine: 'spanish', location: 'bombay', number: 'four', price: 'cheap', atmosphere: 'casual' };
 * ```
 */
export type ExtCall = Readonly<Partial<Record<ExtSlot, string>>>;

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
 * import { KB_FILE_NAMES, readExtendedKb } from 'dialogym/dstc6';
 * const kb1 = readExtendedKb('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/' + KB_FILE_NAMES[1]);
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
 * import { generateExtendedKb, formatExtendedKb } from 'dialogym/dstc6';
 * const kb1 = generateExtendedKb(createRng(1), 1);
 * const text = formatExtendedKb(kb1); // 48,600 lines, like extendedkb1.txt
 * ```
 */
export function generateExtendedKb(rng: Rng, kb: KbId, used: Set<string> = new Set()): ExtRestaurant[] {
  const vocab = KB_VOCAB[kb];
  const binSize = RATING_MAX / RATING_BINS;
  const out: ExtRestaurant[] = [];
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
export function generateExtendedKbs(rng: Rng): Record<KbId, ExtRestaurant[]> {
  const used = new Set<string>();
  return { 1: generateExtendedKb(rng.fork('kb1'), 1, used), 2: generateExtendedKb(rng.fork('kb2'), 2, used) };
}

/**
 * The text of a restaurant's attribute as written in KB files and KB-result lines (the rating
 * as a decimal string).
 *
 * @example
 * ```ts
 * import { extAttrValue, type ExtRestaurant } from 'dialogym/dstc6';
 * declare const r: ExtRestaurant;
 * extAttrValue(r, 'cuisine'); // e.g. 'spanish'
 * ```
 */
export function extAttrValue(r: ExtRestaurant, a: ExtAttr): string {
  return a === 'rating' ? String(r.rating) : r[a];
}

/**
 * The text of an `extendedkb*.txt` file: `1 <name> R_<attr><TAB><value>`, 9 lines per
 * restaurant in `EXT_ATTRS` order, each ending in `\n`.
 *
 * @example
 * ```ts
 * import { formatExtendedKb, readExtendedKb } from 'dialogym/dstc6';
 * const file = 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb1.txt';
 * formatExtendedKb(readExtendedKb(file)); // the file's text again
 * ```
 */
export function formatExtendedKb(rs: readonly ExtRestaurant[]): string {
  const lines: string[] = [];
  for (const r of rs) for (const a of EXT_ATTRS) lines.push(`1 ${r.name} R_${a}\t${extAttrValue(r, a)}`);
  return lines.join('\n') + '\n';
}

/**
 * KB-result lines of a restaurant inside a DSTC6 context: `<name> r_<attr> <value>`, one per
 * attribute in `EXT_ATTRS` order.
 *
 * @example
 * ```ts
 * import { extResultLines, type ExtRestaurant } from 'dialogym/dstc6';
 * declare const r: ExtRestaurant;
 * extResultLines(r)[0]; // e.g. 'the_witty_proud_story_horse r_location bombay'
 * ```
 */
export function extResultLines(r: ExtRestaurant): string[] {
  return EXT_ATTRS.map((a) => `${r.name} r_${a} ${extAttrValue(r, a)}`);
}

/**
 * Parses an extended KB file (`1 <name> R_<attr><TAB><value>` lines); `file` names it in
 * errors. Every restaurant needs the nine attributes once and an integer rating; a malformed line,
 * an unknown or repeated attribute, or a missing one throws a FormatError `file:line: reason`.
 * Restaurants come in first-seen order.
 *
 * @example
 * ```ts
 * import { parseExtendedKb } from 'dialogym/dstc6';
 * const text = ['location\tbombay', 'price\tcheap', 'rating\t46', 'phone\tx_phone', 'cuisine\tspanish', 'atmosphere\tcasual', 'restrictions\tvegan', 'number\tfour', 'address\tx_address']
 *   .map((l) => `1 x R_${l}`).join('\n');
 * parseExtendedKb(text, 'kb.txt')[0]?.rating; // 46
 * ```
 */
export function parseExtendedKb(text: string, file: string): ExtRestaurant[] {
  const byName = new Map<string, { line: number; attrs: Map<string, string> }>();
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new FormatError(file, 1, 'empty file: no KB fact');
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = /^\d+ (\S+) R_(\w+)\t(\S+)$/.exec(line);
    if (!m) throw new FormatError(file, i + 1, `expected '1 <name> R_<attr><TAB><value>', got '${line.slice(0, 60)}'`);
    const [, name, attr, value] = m as unknown as [string, string, string, string];
    if (!(EXT_ATTRS as readonly string[]).includes(attr)) throw new FormatError(file, i + 1, `unknown attribute R_${attr} (expected one of ${EXT_ATTRS.map((a) => 'R_' + a).join(' ')})`);
    let e = byName.get(name);
    if (!e) byName.set(name, (e = { line: i + 1, attrs: new Map() }));
    if (e.attrs.has(attr)) throw new FormatError(file, i + 1, `${name} has R_${attr} twice`);
    e.attrs.set(attr, value);
  });
  const out: ExtRestaurant[] = [];
  for (const [name, { line, attrs }] of byName) {
    const missing = EXT_ATTRS.filter((a) => !attrs.has(a));
    if (missing.length > 0) throw new FormatError(file, line, `restaurant ${name} lacks ${missing.map((a) => 'R_' + a).join(', ')}`);
    const rating = Number(attrs.get('rating'));
    if (!Number.isInteger(rating)) throw new FormatError(file, line, `restaurant ${name}: R_rating is not an integer (${attrs.get('rating')})`);
    const g = (a: ExtAttr): string => attrs.get(a) as string;
    out.push({ name, location: g('location'), price: g('price'), rating, phone: g('phone'), cuisine: g('cuisine'), atmosphere: g('atmosphere'), restrictions: g('restrictions'), number: g('number'), address: g('address') });
  }
  return out;
}

/**
 * Reads an extended KB file (see `parseExtendedKb`); a missing or malformed file throws a
 * FormatError.
 *
 * @example
 * ```ts
 * import { readExtendedKb, kbIdOf } from 'dialogym/dstc6';
 * const kb = readExtendedKb('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb1.txt');
 * kb.length;   // 5400
 * kbIdOf(kb);  // 1
 * ```
 */
export function readExtendedKb(file: string): ExtRestaurant[] {
  return parseExtendedKb(readTextFile(file), file);
}

/**
 * Which KB's vocabulary a KB's restaurants use (by cuisine and location), or undefined if
 * mixed, unknown or empty.
 *
 * @example
 * ```ts
 * import { kbIdOf, readExtendedKb } from 'dialogym/dstc6';
 * kbIdOf(readExtendedKb('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb2.txt')); // 2
 * ```
 */
export function kbIdOf(rs: readonly ExtRestaurant[]): KbId | undefined {
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
export function callKey(call: ExtCall, slots: readonly ExtSlot[]): string {
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
export function formatExtApiCall(call: ExtCall, slots: readonly ExtSlot[]): string {
  return ['api_call', ...slots.map((s) => call[s] ?? '')].join(' ');
}

/**
 * A KB indexed by the api_call slots of one set (with or without restrictions): `query(call)`
 * returns the restaurants matching every slot of `slots` (an empty list when none).
 *
 * @example
 * ```ts
 * import { ExtKbStore, readExtendedKb } from 'dialogym/dstc6';
 * const store = new ExtKbStore(readExtendedKb('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb1.txt'), ['cuisine', 'location', 'number', 'price', 'atmosphere']);
 * store.query({ cuisine: 'spanish', location: 'bombay', number: 'four', price: 'cheap', atmosphere: 'casual' });
 * ```
 */
export class ExtKbStore {
  private readonly index = new Map<string, ExtRestaurant[]>();
  constructor(
    readonly restaurants: readonly ExtRestaurant[],
    readonly slots: readonly ExtSlot[],
  ) {
    for (const r of restaurants) {
      const k = callKey(r, slots);
      const list = this.index.get(k);
      if (list) list.push(r);
      else this.index.set(k, [r]);
    }
  }
  query(call: ExtCall): readonly ExtRestaurant[] {
    return this.index.get(callKey(call, this.slots)) ?? [];
  }
}
