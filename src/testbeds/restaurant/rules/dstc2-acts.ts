/**
 * What a task-6 (DSTC2) bot utterance says, independently of how a system version words it: its
 * act (ask the food, state facts about a restaurant, say nothing matches, …) and the slots it
 * mentions, read off keywords and entity types that every DSTC2 system version shares. Used by
 * `dstc2-adapt` (dstc2-adapt.ts) to recognise an earlier bot turn of the dialog, in any wording,
 * as the act the rules now decide, and to re-say it with the current entities.
 *
 * The entities are found by type, not by position: restaurant names from the lexicon (KB and
 * training KB lines; underscored or spaced), the anonymised contact tokens (`x_phone`,
 * `x_address`, `x_post_code`), learned cuisines, the five areas and three price ranges. The act
 * keywords were read off the wordings of both versions seen in trn/dev (rules/dstc2-versions.ts):
 * e.g. A's `I'm sorry but there is no restaurant serving {cuisine} food` and B's `I am sorry but
 * there is no {cuisine} restaurant that matches your request` are both `nomatch` over {cuisine};
 * A's `{name} is a nice place in the {location} of town and the prices are {price}` and B's
 * `{name} is a nice restaurant in the {location} of town in the {price} price range` are both
 * `inform` over {location, name, price}.
 */
import { LOCATIONS, PRICES, type Dstc2Lexicon } from './dstc2-lexicon.js';
import { namePatterns } from './dstc2-state.js';

/** The act of a bot utterance (`other` when no keyword matches). */
export type Dstc2Act =
  | 'call'
  | 'greet'
  | 'bye'
  | 'anything-else'
  | 'confused'
  | 'not-heard'
  | 'nomore'
  | 'nomatch'
  | 'confirm'
  | 'ask:cuisine'
  | 'ask:location'
  | 'ask:price'
  | 'inform'
  | 'other';

/** A bot utterance read by act: the act, its template (entities as `{slot}`) and the values taken out. */
export interface Dstc2BotAct {
  readonly act: Dstc2Act;
  readonly template: string;
  /** Slot → the value found in the utterance (`name` is the KB's underscored form). */
  readonly values: Readonly<Record<string, string>>;
  /** `act|slot,slot,…` (slots sorted): two utterances with the same signature say the same thing. */
  readonly signature: string;
}

const CONTACT = /^(\S+)_(phone|address|post_code)$/;
/** The ask-price question lists every price range: those are not values. */
const PRICE_LIST = /cheap , moderate , or expensive/;

/** The words after a cuisine (`… food`, `… restaurant`), and the words that stand there but are none. */
const CUISINE_PLACE = /^(food|restaurant)$/;
const NOT_CUISINE = new Set(['no', 'any', 'some', 'serving', 'is', 'of', 'for', 'and', 'or', 'in', 'other', 'a', 'the', 'this', 'that', 'nice', 'great', 'tasty', 'good', 'what', 'which', 'another', 'different', ...LOCATIONS, ...PRICES]);

/** Act keywords, checked in order on the template (lower-cased). */
const ACTS: readonly [Dstc2Act, RegExp][] = [
  ['greet', /\bwelcome to\b/],
  ['bye', /^you are welcome\b/],
  ['anything-else', /\banything else\b/],
  ['confused', /\bconfused\b/],
  ['not-heard', /\bhear you\b/],
  ['nomore', /\bno other\b/],
  ['nomatch', /\bthere is no\b/],
  ['confirm', /\bright\?$|^did you say\b|^let me confirm\b|\bor you dont care\b|^sorry would you like\b/],
  ['ask:cuisine', /(kind|type) of food\b.*\?|\bwhat food\b.*\?/],
  ['ask:location', /(part of town|area)\b.*\?/],
  ['ask:price', /price range\?|\bprice range\b.*\?/],
];

/** Reads a bot utterance by act (see the module description). */
export function readBotAct(text: string, lex: Dstc2Lexicon): Dstc2BotAct {
  const s = text.trim();
  if (s.startsWith('api_call')) return { act: 'call', template: s, values: {}, signature: 'call|' };
  // The greeting names no entity (`You can ask for …`: `ask` is also a restaurant).
  if (ACTS[0]?.[1].test(s.toLowerCase())) return { act: 'greet', template: s, values: {}, signature: 'greet|' };
  const values: Record<string, string> = {};
  let t = ` ${s} `;
  // The name first: restaurant names contain cuisine and area words.
  for (const [form, name] of namePatterns(lex)) {
    if (t.includes(` ${form} `)) {
      t = t.split(` ${form} `).join(' {name} ');
      values['name'] = name;
      break;
    }
  }
  const priceList = PRICE_LIST.test(s);
  const words = t.trim().split(' ');
  const out = words.map((w, i) => {
    const c = CONTACT.exec(w);
    if (c) return take(values, c[2] as string, w);
    // A cuisine of the lexicon, or a word in a cuisine's place that the lexicon lacks (`there is
    // no polish restaurant`, `modern_european food`, which the KB files under `european`).
    if (lex.cuisines.has(w) || (CUISINE_PLACE.test(words[i + 1] ?? '') && /^[a-z_]+$/.test(w) && !NOT_CUISINE.has(w))) return take(values, 'cuisine', w);
    if ((LOCATIONS as readonly string[]).includes(w)) return take(values, 'location', w);
    if (!priceList && (PRICES as readonly string[]).includes(w)) return take(values, 'price', w);
    return w;
  });
  const template = out.join(' ');
  const low = template.toLowerCase();
  let act: Dstc2Act = values['name'] !== undefined ? 'inform' : 'other';
  // A question is its last sentence's (`There are restaurants … type of food . What price range …?`).
  const last = low.slice(low.lastIndexOf(' . ') + 1);
  for (const [a, re] of ACTS) {
    if (re.test(a.startsWith('ask:') ? last : low)) {
      act = a;
      break;
    }
  }
  return { act, template, values, signature: `${act}|${Object.keys(values).sort().join(',')}` };
}

/** Takes a value out of the utterance: its first occurrence names the slot, a second stays a word. */
function take(values: Record<string, string>, slot: string, word: string): string {
  if (values[slot] === undefined) values[slot] = word;
  else if (values[slot] !== word) return word;
  return `{${slot}}`;
}
