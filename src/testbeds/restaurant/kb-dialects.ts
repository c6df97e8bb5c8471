/**
 * The two restaurant KB layouts a bot can query, and how each dataset writes them — the one reader
 * and writer of restaurant KB files (`readKb`, `parseKb`, `formatKb`):
 *
 * - `babi` (bAbI dialog tasks 1–5, `dialog-babi-kb-all.txt`): 7 attributes; `api_call cuisine
 *   location number price`; result lines `name R_attr value` in the order phone, cuisine, address,
 *   location, number, price, rating (the same in all original result blocks).
 * - `dstc6` (DSTC6 Track 1, `extendedkb1.txt` / `extendedkb2.txt`): 9 attributes (adds atmosphere
 *   and dietary restrictions); `api_call cuisine location number price atmosphere [restrictions]`
 *   (tst1/tst2 use 5 arguments, tst3/tst4 6); result lines `name r_attr value` (lower-case prefix)
 *   in the KB file's attribute order. KB file lines are strictly `1 <name> R_<attr><TAB><value>`.
 *
 * Task 6 (DSTC2) KBs have another shape (post codes, `dontcare` calls) and are not handled here.
 */
import { FormatError } from '../../core/errors.js';
import { formatBabiKb, parseBabiKb, type KbFact } from '../../formats/babi.js';
import { RATINGS, type ApiCall, type KbStore, type Restaurant } from './kb.js';
import { parseAs, readTextAs } from '../../formats/sniff.js';
import { excerpt } from '../../core/text.js';
import { kbFactIssue, kbValueIssue, quoteKbValue } from '../../formats/kb-values.js';

/**
 * The name of a KB layout: `babi` (tasks 1–5) or `dstc6` (DSTC6 Track 1).
 *
 * @example
 * ```ts
 * import { KB_DIALECTS, type KbDialectName } from 'dialogym/restaurant';
 * const name: KbDialectName = 'dstc6';
 * KB_DIALECTS[name].silence; // '<silence>'
 * ```
 */
export type KbDialectName = 'babi' | 'dstc6';

/**
 * A restaurant attribute without the `R_` prefix (atmosphere and restrictions: DSTC6 only).
 *
 * @example
 * ```ts
 * import { attrOf, type RestaurantAttr, type Restaurant } from 'dialogym/restaurant';
 * declare const r: Restaurant;
 * const a: RestaurantAttr = 'atmosphere';
 * attrOf(r, a); // undefined for a bAbI restaurant
 * ```
 */
export type RestaurantAttr = 'cuisine' | 'location' | 'price' | 'rating' | 'phone' | 'address' | 'number' | 'atmosphere' | 'restrictions';

/**
 * A KB layout: attribute orders of the KB file and of result lines, the result-line prefix, the
 * api_call arguments and the silence token of its dialogs (`BABI_KB`, `DSTC6_KB`).
 *
 * @example
 * ```ts
 * import { BABI_KB, type KbDialect } from 'dialogym/restaurant';
 * const d: KbDialect = BABI_KB;
 * d.callSlots; // ['cuisine', 'location', 'number', 'price']
 * ```
 */
export interface KbDialect {
  readonly name: KbDialectName;
  /** Attributes in the KB file's order. */
  readonly fileAttrs: readonly RestaurantAttr[];
  /** Attributes in the order of the KB-result lines inside dialogs. */
  readonly resultAttrs: readonly RestaurantAttr[];
  /** Attribute prefix of the result lines inside dialogs (`R_` in bAbI, `r_` in DSTC6). */
  readonly resultPrefix: 'R_' | 'r_';
  /** The api_call's arguments in order; the first `minCallArgs` are required. */
  readonly callSlots: readonly (keyof ApiCall)[];
  /** Fewest api_call arguments accepted. */
  readonly minCallArgs: number;
  /** The user's silence token in this dataset's dialogs. */
  readonly silence: string;
  /**
   * KB file lines: strictly `1 <name> R_<attr><TAB><value>` (DSTC6), or any bAbI KB line (TAB or
   * space between attribute and value, see `parseBabiKb`).
   */
  readonly strictFileLines: boolean;
  /** Highest rating of the layout's KBs (ratings are integers from 1): 8 in bAbI, 72 in DSTC6's extended KBs. */
  readonly maxRating: number;
}

/**
 * The bAbI tasks 1–5 layout: 7 attributes, 4-argument api_calls, `R_` result lines, `<SILENCE>`.
 *
 * @example
 * ```ts
 * import { BABI_KB, parseApiCall } from 'dialogym/restaurant';
 * parseApiCall('api_call italian rome six cheap', BABI_KB); // { ok: true, call: { cuisine: 'italian', … } }
 * ```
 */
export const BABI_KB: KbDialect = {
  name: 'babi',
  fileAttrs: ['cuisine', 'location', 'price', 'rating', 'phone', 'address', 'number'],
  resultAttrs: ['phone', 'cuisine', 'address', 'location', 'number', 'price', 'rating'],
  resultPrefix: 'R_',
  callSlots: ['cuisine', 'location', 'number', 'price'],
  minCallArgs: 4,
  silence: '<SILENCE>',
  strictFileLines: false,
  maxRating: Math.max(...RATINGS),
};

/**
 * The DSTC6 Track 1 layout: 9 attributes, 5- or 6-argument api_calls, `r_` result lines,
 * `<silence>`.
 *
 * @example
 * ```ts
 * import { DSTC6_KB, parseApiCall } from 'dialogym/restaurant';
 * parseApiCall('api_call italian rome six cheap romantic', DSTC6_KB).ok; // true
 * ```
 */
export const DSTC6_KB: KbDialect = {
  name: 'dstc6',
  fileAttrs: ['location', 'price', 'rating', 'phone', 'cuisine', 'atmosphere', 'restrictions', 'number', 'address'],
  resultAttrs: ['location', 'price', 'rating', 'phone', 'cuisine', 'atmosphere', 'restrictions', 'number', 'address'],
  resultPrefix: 'r_',
  callSlots: ['cuisine', 'location', 'number', 'price', 'atmosphere', 'restrictions'],
  minCallArgs: 5,
  silence: '<silence>',
  strictFileLines: true,
  maxRating: 72,
};

/**
 * The two layouts by name.
 *
 * @example
 * ```ts
 * import { KB_DIALECTS } from 'dialogym/restaurant';
 * Object.keys(KB_DIALECTS); // ['babi', 'dstc6']
 * ```
 */
export const KB_DIALECTS: Readonly<Record<KbDialectName, KbDialect>> = { babi: BABI_KB, dstc6: DSTC6_KB };

const ALL_ATTRS: readonly RestaurantAttr[] = DSTC6_KB.fileAttrs;

/**
 * The value of an attribute of a restaurant as written in files (the rating as a decimal
 * string; undefined when the restaurant lacks the attribute).
 *
 * @example
 * ```ts
 * import { attrOf, readKb } from 'dialogym/restaurant';
 * const [r] = readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').restaurants;
 * attrOf(r!, 'rating'); // e.g. '1'
 * ```
 */
export function attrOf(r: Restaurant, attr: RestaurantAttr): string | undefined {
  return attr === 'rating' ? String(r.rating) : r[attr];
}

/**
 * Why `rating` is not a rating of the layout (an integer from 1 to `dialect.maxRating`), or
 * undefined; `shown` is how the message quotes the value (default: the number).
 *
 * @example
 * ```ts
 * import { ratingIssue, BABI_KB } from 'dialogym/restaurant';
 * ratingIssue(3, BABI_KB);  // undefined
 * ratingIssue(9, BABI_KB);  // 'must be an integer from 1 to 8 (babi KB ratings), got 9'
 * ```
 */
export function ratingIssue(rating: number, dialect: KbDialect, shown = String(rating)): string | undefined {
  return Number.isInteger(rating) && rating >= 1 && rating <= dialect.maxRating ? undefined : `must be an integer from 1 to ${dialect.maxRating} (${dialect.name} KB ratings), got ${shown}`;
}

/**
 * The first attribute of a restaurant that cannot go into a KB of the layout, and why (a value
 * that `kbValueIssue` refuses for one word, a missing value, a rating out of range), or undefined.
 * The writers and the SQLite store check every restaurant with it.
 *
 * @example
 * ```ts
 * import { restaurantIssue, BABI_KB, type Restaurant } from 'dialogym/restaurant';
 * declare const r: Restaurant;
 * restaurantIssue({ ...r, phone: 'x\nresto_y R_phone 1' }, BABI_KB); // { attr: 'phone', reason: 'holds a newline' }
 * ```
 */
export function restaurantIssue(r: Restaurant, dialect: KbDialect): { readonly attr: 'name' | RestaurantAttr; readonly reason: string } | undefined {
  const name = typeof r.name === 'string' ? kbValueIssue(r.name, { oneWord: true }) : 'is missing';
  if (name !== undefined) return { attr: 'name', reason: name };
  for (const attr of ALL_ATTRS) {
    if (attr === 'rating') {
      const bad = ratingIssue(r.rating, dialect);
      if (bad !== undefined) return { attr, reason: bad };
      continue;
    }
    const v: unknown = r[attr];
    if (v === undefined && !dialect.fileAttrs.includes(attr)) continue; // DSTC6 attributes of a bAbI restaurant
    const bad = typeof v === 'string' ? kbValueIssue(v, { oneWord: true }) : 'is missing';
    if (bad !== undefined) return { attr, reason: bad };
  }
  return undefined;
}

/**
 * Builds restaurants from the facts of a bAbI or DSTC6 KB file. With `expect`, the file must be of
 * that layout (exactly its attributes, `R_` prefix); without, the layout is detected (DSTC6 when
 * any restaurant has an atmosphere or restrictions; `r_`/`R_` prefixes). Every restaurant needs
 * every attribute of its layout, once, one-word values fit for dialog lines (`kbValueIssue`: no
 * control character, nothing shaped like a KB fact or an api_call) and a rating from 1 to the
 * layout's `maxRating`. `file` names the source in errors (fact N = line N).
 *
 * @example
 * ```ts
 * import { readBabiKb } from 'dialogym';
 * import { restaurantsFromKbFacts } from 'dialogym/restaurant';
 * const file = 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb1.txt';
 * const { dialect, restaurants } = restaurantsFromKbFacts(readBabiKb(file).facts, file);
 * dialect.name; // 'dstc6'
 * ```
 */
export function restaurantsFromKbFacts(facts: readonly KbFact[], file = '<kb>', expect?: KbDialect): { dialect: KbDialect; restaurants: Restaurant[] } {
  const known = expect?.fileAttrs ?? ALL_ATTRS;
  const byName = new Map<string, { first: number; attrs: Map<RestaurantAttr, string> }>();
  let dstc6 = false;
  facts.forEach((f, i) => {
    const m = (expect ? /^R_(\w+)$/ : /^[rR]_(\w+)$/).exec(f.attr);
    const attr = m?.[1] as RestaurantAttr | undefined;
    if (attr === undefined || !known.includes(attr)) {
      const hint = !expect && f.attr === 'R_post_code' ? ' (a task 6 / DSTC2 KB: not supported)' : '';
      const want = expect ? `one of ${known.map((a) => 'R_' + a).join(' ')}` : `R_ followed by one of ${known.join(' ')}`;
      throw new FormatError(file, i + 1, `unknown attribute ${f.attr}${hint} (expected ${want})`);
    }
    if (attr === 'atmosphere' || attr === 'restrictions') dstc6 = true;
    const bad = kbFactIssue(f.entity, f.value, { oneWord: true });
    if (bad !== undefined) throw new FormatError(file, i + 1, `${quoteKbValue(f.entity)} ${f.attr}: ${bad}`);
    let e = byName.get(f.entity);
    if (!e) byName.set(f.entity, (e = { first: i + 1, attrs: new Map() }));
    if (e.attrs.has(attr)) throw new FormatError(file, i + 1, `${f.entity} has ${f.attr} twice`);
    e.attrs.set(attr, f.value);
  });
  if (byName.size === 0) throw new FormatError(file, 1, 'no restaurant in the KB file');
  const dialect = expect ?? (dstc6 ? DSTC6_KB : BABI_KB);
  const restaurants: Restaurant[] = [];
  for (const [name, { first, attrs }] of byName) {
    const missing = dialect.fileAttrs.filter((a) => !attrs.has(a));
    if (missing.length > 0) throw new FormatError(file, first, `restaurant ${name} lacks ${missing.map((a) => 'R_' + a).join(', ')}${expect ? '' : ` (${dialect.name} KB)`}`);
    const text = attrs.get('rating') as string;
    const rating = /^[0-9]{1,15}$/.test(text) ? Number(text) : Number.NaN;
    const badRating = ratingIssue(rating, dialect, quoteKbValue(text));
    if (badRating !== undefined) throw new FormatError(file, first, `restaurant ${name}: R_rating ${badRating}`);
    const get = (a: RestaurantAttr): string => attrs.get(a) as string;
    const r: Restaurant = {
      name,
      cuisine: get('cuisine'),
      location: get('location'),
      price: get('price'),
      rating,
      phone: get('phone'),
      address: get('address'),
      number: get('number'),
    };
    if (attrs.has('atmosphere')) r.atmosphere = get('atmosphere');
    if (attrs.has('restrictions')) r.restrictions = get('restrictions');
    restaurants.push(r);
  }
  return { dialect, restaurants };
}

/** The facts of a KB file whose lines must all be `1 <name> R_<attr><TAB><value>` (KbDialect.strictFileLines). */
function strictKbFacts(text: string, file: string): KbFact[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new FormatError(file, 1, 'empty file: no KB fact');
  return lines.map((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = /^1 (\S+) (R_\w+)\t(\S+)$/.exec(line);
    if (!m) throw new FormatError(file, i + 1, `expected '1 <name> R_<attr><TAB><value>', got '${excerpt(line)}'`);
    return { entity: m[1] as string, attr: m[2] as string, value: m[3] as string };
  });
}

/**
 * Parses the text of a restaurant KB file (see `restaurantsFromKbFacts` for `expect`): the layout
 * and the restaurants; a malformed file throws a FormatError `file:line: reason`.
 *
 * @example
 * ```ts
 * import { parseKb, BABI_KB } from 'dialogym/restaurant';
 * const attrs = ['R_cuisine\tthai', 'R_location\thanoi', 'R_price\tcheap', 'R_rating\t3', 'R_phone\tx_phone', 'R_address\tx_address', 'R_number\tfour'];
 * parseKb(attrs.map((a) => `1 x ${a}\n`).join(''), 'kb.txt', BABI_KB).restaurants[0]?.rating; // 3
 * ```
 */
export function parseKb(text: string, file = '<kb>', expect?: KbDialect): { dialect: KbDialect; restaurants: Restaurant[] } {
  return parseAs(text, file, ['babi-kb', 'dstc6-kb'], 'a bAbI or DSTC6 KB file', (t, f) => restaurantsOfText(t, f, expect));
}

function restaurantsOfText(text: string, file: string, expect?: KbDialect): { dialect: KbDialect; restaurants: Restaurant[] } {
  const facts = expect?.strictFileLines ? strictKbFacts(text, file) : parseBabiKb(text, file).facts;
  return restaurantsFromKbFacts(facts, file, expect);
}

/**
 * Reads a restaurant KB file — `dialog-babi-kb-all.txt`, `extendedkb1.txt`, … — detecting its
 * layout (or requiring `expect`); errors are FormatErrors naming the file and line.
 *
 * @example
 * ```ts
 * import { readKb, DSTC6_KB } from 'dialogym/restaurant';
 * readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').restaurants.length; // 1200
 * readKb('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb1.txt', DSTC6_KB).dialect.name; // 'dstc6'
 * ```
 */
export function readKb(file: string, expect?: KbDialect): { dialect: KbDialect; restaurants: Restaurant[] } {
  return parseKb(readTextAs(file, ['babi-kb', 'dstc6-kb'], 'a bAbI or DSTC6 KB file'), file, expect);
}

/**
 * The outcome of reading an `api_call …` utterance against a KB layout: the call, or why it is
 * not one.
 *
 * @example
 * ```ts
 * import { parseApiCall, BABI_KB, type ParsedApiCall } from 'dialogym/restaurant';
 * const p: ParsedApiCall = parseApiCall('api_call italian rome', BABI_KB);
 * if (!p.ok) console.log(p.reason); // api_call takes 4 arguments …
 * ```
 */
export type ParsedApiCall = { readonly ok: true; readonly call: ApiCall } | { readonly ok: false; readonly reason: string };

/**
 * Reads `api_call a b c …` into a call of the dialect (arguments in `callSlots` order); returns
 * `{ ok: false, reason }` for another utterance or a wrong number of arguments. Never throws.
 *
 * @example
 * ```ts
 * import { parseApiCall, DSTC6_KB } from 'dialogym/restaurant';
 * const p = parseApiCall('api_call thai hanoi four cheap casual vegan', DSTC6_KB);
 * if (p.ok) p.call.restrictions; // 'vegan'
 * ```
 */
export function parseApiCall(text: string, dialect: KbDialect): ParsedApiCall {
  const words = text.trim().split(/\s+/);
  if (words[0] !== 'api_call') return { ok: false, reason: `not an api_call: '${text}'` };
  const args = words.slice(1);
  const max = dialect.callSlots.length;
  if (args.length < dialect.minCallArgs || args.length > max) {
    const want = dialect.minCallArgs === max ? `${max}` : `${dialect.minCallArgs} to ${max}`;
    return { ok: false, reason: `api_call takes ${want} arguments (${dialect.callSlots.join(' ')}) for a ${dialect.name} KB, got ${args.length}` };
  }
  const call: ApiCall = { cuisine: '', location: '', number: '', price: '' };
  args.forEach((v, i) => {
    call[dialect.callSlots[i] as keyof ApiCall] = v;
  });
  return { ok: true, call };
}

/**
 * The KB-result lines of a restaurant as the dialect's dialogs write them (`name R_attr value`
 * in bAbI, `name r_attr value` in DSTC6).
 *
 * @example
 * ```ts
 * import { resultLines, BABI_KB, readKb } from 'dialogym/restaurant';
 * const [r] = readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').restaurants;
 * resultLines(r!, BABI_KB).length; // 7
 * ```
 */
export function resultLines(r: Restaurant, dialect: KbDialect): string[] {
  return dialect.resultAttrs.map((a) => `${r.name} ${dialect.resultPrefix}${a} ${attrOf(r, a) ?? ''}`);
}

/**
 * Facts of restaurants in the dialect's KB-file order (`R_` prefix, as in KB files).
 *
 * @example
 * ```ts
 * import { formatBabiKb } from 'dialogym';
 * import { restaurantsToKbFacts, DSTC6_KB, type Restaurant } from 'dialogym/restaurant';
 * declare const rs: Restaurant[];
 * formatBabiKb({ facts: restaurantsToKbFacts(rs, DSTC6_KB), sep: '\t' });
 * ```
 */
export function restaurantsToKbFacts(rs: readonly Restaurant[], dialect: KbDialect): KbFact[] {
  const facts: KbFact[] = [];
  for (const r of rs) for (const a of dialect.fileAttrs) facts.push({ entity: r.name, attr: 'R_' + a, value: attrOf(r, a) ?? '' });
  return facts;
}

/**
 * The text of a KB file of the dialect: `1 <name> R_<attr><TAB><value>`, attributes in the file
 * order; `formatKb(readKb(f).restaurants, dialect)` gives the original bytes back.
 *
 * @example
 * ```ts
 * import { formatKb, readKb } from 'dialogym/restaurant';
 * const { dialect, restaurants } = readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt');
 * formatKb(restaurants, dialect); // the file's text
 * ```
 */
export function formatKb(rs: readonly Restaurant[], dialect: KbDialect): string {
  return formatBabiKb({ facts: restaurantsToKbFacts(rs, dialect), sep: '\t' });
}

/**
 * Restaurants by decreasing rating (name order on ties): the order the bots propose options in.
 * Returns a new array.
 *
 * @example
 * ```ts
 * import { byRating, MemoryKbStore, readKb } from 'dialogym/restaurant';
 * const store = new MemoryKbStore(readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').restaurants);
 * byRating(store.query({ cuisine: 'italian', location: 'rome', number: 'six', price: 'cheap' }))[0]?.rating;
 * ```
 */
export function byRating(rs: readonly Restaurant[]): Restaurant[] {
  return rs.slice().sort((a, b) => b.rating - a.rating || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The KB line of a call without results, `api_call no result` (bAbI task 6's convention, used by
 * `answerApiCall` for both layouts).
 *
 * @example
 * ```ts
 * import { answerApiCall, MemoryKbStore, BABI_KB, NO_RESULT } from 'dialogym/restaurant';
 * const a = answerApiCall(new MemoryKbStore([]), BABI_KB, 'api_call thai hanoi four cheap');
 * a.ok && a.lines[0] === NO_RESULT; // true
 * ```
 */
export const NO_RESULT = 'api_call no result';

/**
 * Options of `answerApiCall`.
 *
 * @example
 * ```ts
 * import type { AnswerOptions } from 'dialogym/restaurant';
 * const opts: AnswerOptions = { order: 'kb', maxResults: 3 };
 * ```
 */
export interface AnswerOptions {
  /** Order of the results: by decreasing rating (default; the originals' most frequent order) or KB order. */
  readonly order?: 'rating' | 'kb';
  /** At most this many restaurants (default: all). */
  readonly maxResults?: number;
}

/**
 * What `answerApiCall` returns: the call, the matching restaurants and their result lines, or why
 * the utterance is not a valid call.
 *
 * @example
 * ```ts
 * import { answerApiCall, MemoryKbStore, BABI_KB, type ApiCallAnswer } from 'dialogym/restaurant';
 * const a: ApiCallAnswer = answerApiCall(new MemoryKbStore([]), BABI_KB, 'hello');
 * if (!a.ok) console.log(a.reason); // not an api_call: 'hello'
 * ```
 */
export type ApiCallAnswer =
  | { readonly ok: true; readonly call: ApiCall; readonly restaurants: Restaurant[]; readonly lines: string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Runs an `api_call …` utterance on a store: the matching restaurants and their KB-result lines as
 * the dataset writes them (`NO_RESULT` alone when nothing matches); `{ ok: false, reason }` when
 * `text` is not a valid call of the dialect. Errors of the store pass through.
 *
 * @example
 * ```ts
 * import { answerApiCall, MemoryKbStore, BABI_KB, readKb } from 'dialogym/restaurant';
 * const store = new MemoryKbStore(readKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').restaurants);
 * const a = answerApiCall(store, BABI_KB, 'api_call italian rome six cheap', { maxResults: 2 });
 * if (a.ok) console.log(a.lines.join('\n'));
 * ```
 */
export function answerApiCall(store: KbStore, dialect: KbDialect, text: string, opts: AnswerOptions = {}): ApiCallAnswer {
  const parsed = parseApiCall(text, dialect);
  if (!parsed.ok) return parsed;
  let rs = store.query(parsed.call);
  if ((opts.order ?? 'rating') === 'rating') rs = byRating(rs);
  if (opts.maxResults !== undefined) rs = rs.slice(0, opts.maxResults);
  const lines = rs.length === 0 ? [NO_RESULT] : rs.flatMap((r) => resultLines(r, dialect));
  return { ok: true, call: parsed.call, restaurants: rs, lines };
}
