/**
 * Safe synonyms of the restaurant domain's closed values, for chat: a person writes
 * `moderately priced`, `inexpensive` or `a party of 6`; the KB and the api_call know `moderate`,
 * `cheap` and `six`. `canonicalRestaurantText` rewrites such phrases into the KB's words before the
 * models read a chat message (the datasets never use these phrases, so dataset scores do not move).
 *
 * The mapping (whole words only; longest phrase first):
 * - cheap ← inexpensive, affordable, budget, economical, cheapest, cheaply, low cost, low-cost,
 *   low priced, low-priced, not expensive, on a budget
 * - moderate ← moderately, moderately priced, moderate priced, mid range, mid-range, midrange,
 *   mid priced, mid-priced, mid price, mid-price, medium, medium priced, medium-priced, reasonably priced, reasonable,
 *   average priced, middle of the road
 * - expensive ← pricey, pricy, costly, upscale, high end, high-end, fancy, luxury, luxurious, posh,
 *   expensively, most expensive
 * - two ← a couple, couple of us, just the two of us, me and my partner, me and my wife, me and my
 *   husband; `N of us`, `N persons`/`guests`/`diners`/`adults` are read by the bots as party sizes
 * `i fancy`/`we fancy` (the verb) read as `i want`/`we want`. What is not mapped on purpose: `not cheap` (which of moderate and expensive?), cuisines by dish
 * (`pizza` is not always italian), a number outside the KB's party sizes (`for 3` stays `three`:
 * no KB value, so the bot asks again rather than calling with a wrong size).
 */
import { normaliseChatText } from './chat-text.js';

const PHRASES: readonly (readonly [string, string])[] = [
  ['i fancy', 'i want'], // the verb is not the price
  ['we fancy', 'we want'],
  ['not expensive', 'cheap'],
  ['on a budget', 'cheap'],
  ['inexpensive', 'cheap'],
  ['affordable', 'cheap'],
  ['budget', 'cheap'],
  ['economical', 'cheap'],
  ['cheapest', 'cheap'],
  ['cheaply', 'cheap'],
  ['low cost', 'cheap'],
  ['low-cost', 'cheap'],
  ['low priced', 'cheap'],
  ['low-priced', 'cheap'],
  ['middle of the road', 'moderate'],
  ['moderately priced', 'moderate'],
  ['moderate priced', 'moderate'],
  ['moderately', 'moderate'],
  ['mid range', 'moderate'],
  ['mid-range', 'moderate'],
  ['midrange', 'moderate'],
  ['mid priced', 'moderate'],
  ['mid price', 'moderate'],
  ['mid-price', 'moderate'],
  ['mid-priced', 'moderate'],
  ['medium priced', 'moderate'],
  ['medium-priced', 'moderate'],
  ['medium', 'moderate'],
  ['reasonably priced', 'moderate'],
  ['reasonable', 'moderate'],
  ['average priced', 'moderate'],
  ['most expensive', 'expensive'],
  ['expensively', 'expensive'],
  ['pricey', 'expensive'],
  ['pricy', 'expensive'],
  ['costly', 'expensive'],
  ['upscale', 'expensive'],
  ['high end', 'expensive'],
  ['high-end', 'expensive'],
  ['fancy', 'expensive'],
  ['luxury', 'expensive'],
  ['luxurious', 'expensive'],
  ['posh', 'expensive'],
  ['just the two of us', 'two people'],
  ['couple of us', 'two people'],
  ['a couple', 'two people'],
  ['me and my partner', 'two people'],
  ['me and my wife', 'two people'],
  ['me and my husband', 'two people'],
];

const RE = new RegExp(
  `(?<![\\w'-])(?:${[...PHRASES].sort((a, b) => b[0].length - a[0].length).map(([p]) => p.replace(/[-]/g, '\\-')).join('|')})(?![\\w'-])`,
  'g',
);
const TO = new Map(PHRASES);

/**
 * A chat message in the restaurant KB's words: `normaliseChatText` (lower case, no emoji or
 * punctuation, digits → words), then the synonyms above.
 *
 * @example
 * ```ts
 * import { canonicalRestaurantText } from 'dialogym/restaurant';
 * canonicalRestaurantText('A moderately priced place for 4, please 🙂'); // 'a moderate place for four please'
 * ```
 */
export function canonicalRestaurantText(text: string): string {
  return normaliseChatText(text).replace(RE, (m) => TO.get(m) ?? m);
}
