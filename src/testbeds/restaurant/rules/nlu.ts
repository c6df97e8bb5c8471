/**
 * Understanding user utterances for the rule-based restaurant bot (bAbI tasks 1–5 and DSTC6
 * Track 1). Every pattern here was derived from the original files: open slot values (cuisine,
 * location, restaurant names) are read from the words in pattern slots, never from a list, so
 * out-of-vocabulary entities work. Party sizes, price ranges, atmospheres and dietary restrictions
 * are closed sets in both datasets and are listed.
 *
 * A person in a chat does not speak the datasets' templates. When the templates do not account for
 * an utterance (or leave slots out), a second reading (`understandFree`) works on the utterance in
 * the KB's words (`canonicalRestaurantText`: digits as words, safe synonyms) with keywords: booking
 * words make a request, party sizes are read from `for four`, `4 people`, `a party of 6`, `table for
 * two`, the price from its (mapped) word, and cuisines and locations only when the KB knows the word
 * (`vocab`) — so `in an expensive price range` never makes `an` a location. Yes/no, "something
 * else", thanks and phone/address questions are read from keywords; what they mean depends on what
 * the bot just said (`state.ts` resolves them). Utterances of the datasets are read by their
 * templates first, so the datasets' scores do not depend on the second reading.
 */
import { canonicalRestaurantText } from '../synonyms.js';

export type Slot = 'cuisine' | 'location' | 'number' | 'price' | 'atmosphere' | 'restrictions';
export type SlotValues = Partial<Record<Slot, string>>;
export type InfoKind = 'phone' | 'address';

/** What a user turn means to the bot. */
export type UserAct =
  | { readonly kind: 'silence' }
  | { readonly kind: 'greet' }
  /** A booking request, possibly with slot values (`can you book a table in paris ...`). */
  | { readonly kind: 'request'; readonly slots: SlotValues }
  /** A booking request for a named restaurant (`can you book a table at resto_...`). */
  | { readonly kind: 'request-at'; readonly restaurant: string }
  /** Slot values, as an answer or a volunteered change (`actually i would prefer ...`). */
  | { readonly kind: 'inform'; readonly slots: SlotValues; readonly update: boolean }
  /** A bare value the user committed to (`she wants hanoi, let's do that`): typed by context. */
  | { readonly kind: 'inform-bare'; readonly value: string; readonly update: boolean }
  /** Thinking aloud without committing (`leaning towards cheap, but give me a bit more time`). */
  | { readonly kind: 'hesitate' }
  | { readonly kind: 'no' }
  /** A bare yes (`sure`, `sounds good`): accepts an option just proposed, else means nothing. */
  | { readonly kind: 'yes' }
  /** Accept an option; `which` says which one when the user points back (DSTC6). */
  | { readonly kind: 'accept'; readonly which: 'current' | 'recalled' | 'newest' }
  | { readonly kind: 'reject' }
  /** Ask to repeat an option proposed before (DSTC6): the first one, or the previous one. */
  | { readonly kind: 'recall'; readonly which: 'first' | 'previous' }
  | { readonly kind: 'ask-info'; readonly info: InfoKind }
  /** `i am asking my friend if we need the phone number` (DSTC6): wait. */
  | { readonly kind: 'consult-info'; readonly info: InfoKind }
  /** `yes we need it, what is it please` (DSTC6): give what was being consulted on. */
  | { readonly kind: 'confirm-info' }
  | { readonly kind: 'thanks' }
  | { readonly kind: 'bye' }
  /** A question the bot cannot answer (`is this place dog-friendly`). */
  | { readonly kind: 'out-of-scope' }
  | { readonly kind: 'unknown' };

/** Closed value sets (identical in bAbI and both DSTC6 KBs). */
export const NUMBERS = ['two', 'four', 'six', 'eight'] as const;
export const PRICES = ['cheap', 'moderate', 'expensive'] as const;
export const ATMOSPHERES = ['business', 'casual', 'romantic'] as const;
export const RESTRICTIONS = ['glutenfree', 'vegan', 'vegetarian'] as const;

const closed: Partial<Record<Slot, readonly string[]>> = {
  number: NUMBERS,
  price: PRICES,
  atmosphere: ATMOSPHERES,
  restrictions: RESTRICTIONS,
};

/** The slot of a closed-set value, if it is one. */
export function closedSlotOf(value: string): Slot | undefined {
  return closedSlots.get(value);
}

/** Each closed-set value → its slot (the sets are disjoint). Built once: the rule bot asks for every word it reads. */
const closedSlots: ReadonlyMap<string, Slot> = new Map((Object.entries(closed) as [Slot, readonly string[]][]).flatMap(([slot, values]) => values.map((v): [string, Slot] => [v, slot])));

const W = '([^\\s,.]+)'; // one entity word

/** Words that are never a cuisine or a location (articles, pronouns, fillers): `in an expensive …`. */
const NOT_A_VALUE: ReadonlySet<string> = new Set(
  ('a an the my our your their his her its this that these those it there here some any one me us them you town ' +
    'city area centre center downtown mind which what where please the thanks sure fact total general person ' +
    'advance particular good nice great case order fine town cash time people party group yes yeah yep no nope ok okay ' +
    "sure thank perfect now later tonight today tomorrow again more help that's it's another else").split(' '),
);

/**
 * Slot phrases that compose requests, answers and updates. Order matters: the more specific
 * phrases are matched (and removed) before `in X`, which would otherwise read `in a cheap ...`.
 */
const SLOT_PHRASES: readonly { re: RegExp; slot: Slot }[] = [
  { re: new RegExp(`\\bin an? ${W} price range\\b`), slot: 'price' },
  { re: new RegExp(`\\blooking for a ${W} restaurant\\b`), slot: 'price' },
  { re: new RegExp(`\\bwith a ${W} atmosphere\\b`), slot: 'atmosphere' },
  { re: new RegExp(`\\blooking for a ${W} atmosphere\\b`), slot: 'atmosphere' },
  { re: new RegExp(`\\bwith ${W} menu options\\b`), slot: 'restrictions' },
  { re: new RegExp(`^i eat ${W}$`), slot: 'restrictions' },
  { re: new RegExp(`\\bwith ${W} (?:food|cuisine)\\b`), slot: 'cuisine' },
  { re: new RegExp(`^i(?: love|'d like) ${W} food$`), slot: 'cuisine' },
  { re: new RegExp(`\\bfor ${W}(?: people)?\\b`), slot: 'number' },
  { re: new RegExp(`^we will be ${W}$`), slot: 'number' },
  { re: new RegExp(`\\bin ${W}`), slot: 'location' },
  { re: new RegExp(`^${W} please$`), slot: 'location' },
];

/**
 * Reads the slot values of a phrase made of slot phrases (`in paris for six people with french
 * food`). Closed-set slots only accept their values; a word that fits no phrase is ignored.
 */
export function extractSlots(phrase: string): SlotValues {
  const out: SlotValues = {};
  let rest = phrase.trim();
  for (const { re, slot } of SLOT_PHRASES) {
    // The first match that is a value: not a stop word (`in an …`), not negated (`not in paris`).
    const m = [...rest.matchAll(new RegExp(re.source, 'g'))].find((x) => {
      const value = x[1] as string;
      const allowed = closed[slot];
      if (allowed && !allowed.includes(value)) return false;
      if ((slot === 'location' || slot === 'cuisine') && (NOT_A_VALUE.has(value) || closedSlotOf(value) !== undefined)) return false;
      return !/\b(?:not|no|n't)\s*$/.test(rest.slice(0, x.index));
    });
    if (!m) continue;
    if (out[slot] === undefined) out[slot] = m[1] as string;
    rest = (rest.slice(0, m.index) + ' ' + rest.slice((m.index as number) + m[0].length)).trim();
  }
  return out;
}

const REQUEST = /^(?:i'd like to book a table|can you book a table|may i have a table|can you make a restaurant reservation)(?: (.*))?$/;
const UPDATE = /^(?:actually i would prefer|instead could it be) (.+)$/;
/** DSTC6: `<one sec>, i am asking my friend ...` */
const FRIEND = /^(?:wait|hold on|one moment|one minute please|sorry one sec), i am asking my friend (.+)$/;

/**
 * Choice patterns of DSTC6 that name two values and commit to one of them: `group` is the capture
 * holding the chosen value. Derived from the test files (the bot's next question shows the choice).
 */
const CHOICES: readonly { re: RegExp; group: 1 | 2; slot?: Slot }[] = [
  { re: new RegExp(`^i want ${W} price range, but my friend wants a ${W} range so let's do that$`), group: 2, slot: 'price' },
  { re: new RegExp(`^let's do ${W} price range, and keep ${W} price range for another day$`), group: 1, slot: 'price' },
  { re: new RegExp(`^i want ${W} food but my friend insists on ${W} so let's do that$`), group: 2, slot: 'cuisine' },
  { re: new RegExp(`^i want ${W} food please, my friend doesn't like ${W}$`), group: 1, slot: 'cuisine' },
  { re: new RegExp(`^i think i had ${W} last time, so let's do ${W} food$`), group: 2, slot: 'cuisine' },
  { re: new RegExp(`^let's go with ${W} food, i will keep ${W} for next time$`), group: 1, slot: 'cuisine' },
  { re: new RegExp(`^find me one in ${W}, ${W} will be too complicated$`), group: 1, slot: 'location' },
  { re: new RegExp(`^let's try ${W}, ${W} is out of the way for me$`), group: 1, slot: 'location' },
  { re: new RegExp(`^${W} is very tempting but i'm afraid i have to stick to ${W} today$`), group: 2, slot: 'location' },
  { re: new RegExp(`^i was thinking ${W} but my friend prefers ${W} so let's do that$`), group: 2, slot: 'location' },
];

/** DSTC6 musings that mention values without committing: the bot waits. */
const HESITATIONS: readonly RegExp[] = [
  /^let me check if \S+ or \S+ would work$/,
  /^i got \S+ last time, so i may be due for a change$/,
  /^leaning towards \S+, but give me a bit more time$/,
  /^i like \S+ cuisine better than \S+ cuisine, generally, but not always, and there are so many other options$/,
  /^i always forget if my friend prefers \S+ or \S+ cuisine, but perhaps i should pick something else entirely$/,
  /^i find \S+ cuisine often disappointing, but sometimes delicious\. let me think\.$/,
  /^i love \S+ food, but i also like variety\.$/,
  /^\S+ perhaps\. let me think$/,
  /^\S+ is nice on the stomach but hard on the wallet$/,
  /^\S+ is tempting but \S+ may be more reasonable$/,
  /^\S+ sounds like a good middle ground, but i am not sure$/,
  /^i am not very fond of \S+, but it was nice last time$/,
  /^i like \S+, but i always go there$/,
  /^i could perhaps do \S+ or \S+, but it's not ideal$/,
  /^i don't like \S+, but the restaurants aren't bad$/,
  /^i am very fond of \S+, but it's also good to change sometimes$/,
];

const GREETINGS = new Set(['hello', 'hi', 'good morning']);
const THANKS = new Set(['thanks', 'thank you', 'you rock']);
const BYE = new Set(['no thanks', 'no thank you']);
const ACCEPT = new Set(["it's perfect", "let's do it", 'i love that', 'that looks great', 'ok i like it']);
/** Accepting after the bot repeated an earlier option (DSTC6): the repeated one, or the newest. */
const ACCEPT_RECALLED = new Set(['yes let\'s go with that previous one', 'you know what, let\'s do that one', 'i like that option actually, why not', 'ok i want that one']);
const ACCEPT_NEWEST = new Set(['let\'s go with the last one', 'i want the last option', 'the new one sounds better', 'i like the new one']);
const REJECT = new Set([
  'no this does not work for me', "no i don't like that", "no i don't like it", 'do you have something else',
  'hmm no this does not work', "i still don't like that", 'no still no good',
]);
const RECALL_FIRST = new Set(['what was the first one you suggested', 'what was the first option again', 'sorry could you repeat the first option']);
const RECALL_PREVIOUS = new Set(['sorry what was the previous option again', 'would you please repeat the one you proposed before', 'what was the one you suggested before']);
const OUT_OF_SCOPE = new Set([
  'is this place dog-friendly', 'should i take my umbrella', 'is there a good bar nearby', 'is it a long walk from the subway',
  'is the area pretty safe at night', 'is it possible to request a table next to a window', 'do they serve appetizers',
  'do they serve sustainably produced food', 'what time does the subway service end', 'is there public transportation nearby',
  'is there a movie theater close by', 'will it be raining',
]);

function infoOf(s: string): InfoKind | undefined {
  if (/\bphone number\b/.test(s)) return 'phone';
  if (/\baddress\b/.test(s)) return 'address';
  return undefined;
}

function nonEmpty(s: SlotValues): boolean {
  return Object.keys(s).length > 0;
}

/** The slot of a KB value (`rome` → location), for the free reading; undefined for other words. */
export type Vocabulary = (word: string) => Slot | undefined;

/**
 * Understands one user utterance (bAbI or DSTC6 wording; case and outer spaces ignored), then any
 * wording (`understandFree`) when the templates do not account for it. `guess`: open values the
 * vocabulary does not know are also read by their cue words (`in <word>`, `<word> food`), as
 * without a vocabulary (a bot without a KB, whose vocabulary is only what it heard).
 */
export function understand(utterance: string, vocab?: Vocabulary, guess = false): UserAct {
  const s = utterance.trim().toLowerCase().replace(/\s+/g, ' ');
  const act = understandTemplates(s);
  if (s === '<silence>' || s === '') return act;
  if (act.kind === 'unknown') return understandFree(s, vocab, guess);
  if (act.kind === 'request' || act.kind === 'inform') {
    // Slots the templates missed (`for 4 people`, a cuisine without `food`), and KB types first.
    const slots = retype({ ...freeSlots(canonicalRestaurantText(s), vocab, guess), ...act.slots }, vocab);
    // Slot phrases in a booking request of other wording (`book a table for 4 in rome`): a request.
    if (act.kind === 'inform' && !act.update && understandFree(s, vocab, guess).kind === 'request') return { kind: 'request', slots };
    return { ...act, slots };
  }
  return act;
}

/** An open-slot value the KB types otherwise moves to that slot (`italian please` is a cuisine). */
function retype(slots: SlotValues, vocab: Vocabulary | undefined): SlotValues {
  if (!vocab) return slots;
  const out: SlotValues = {};
  for (const [slot, value] of Object.entries(slots) as [Slot, string][]) {
    const known = slot === 'cuisine' || slot === 'location' ? vocab(value) : undefined;
    const to = known === 'cuisine' || known === 'location' ? known : slot;
    if (to !== slot && slots[to] !== undefined) continue;
    out[to] = value;
  }
  return out;
}

const NEGATION = new Set(['not', 'no', "don't", 'dont', 'nothing', 'without', 'except']);
/** Words after a number that make it something other than a party size (`6 stars`, `at 8 pm`). */
const NOT_PARTY = new Set(['star', 'stars', 'pm', 'am', "o'clock", 'oclock', 'hours', 'hour', 'minutes', 'days', 'nights', 'weeks', 'times']);
const PARTY_WORDS = new Set(['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']);

/**
 * Slot values read from keywords in an utterance already in the KB's words
 * (`canonicalRestaurantText`): closed values anywhere (not negated), party sizes
 * that are KB sizes and not times or ratings, and cuisines/locations the vocabulary knows; the last
 * value of a slot wins (`italian, no wait, french`). Without a
 * vocabulary (or with `guess`, for the words it does not know), `in <word>` is a location and
 * `<word> food|cuisine` a cuisine (stop words excluded).
 */
export function freeSlots(c: string, vocab?: Vocabulary, guess = false): SlotValues {
  const toks = c.split(' ').filter((t) => t.length > 0);
  const out: SlotValues = {};
  toks.forEach((t, i) => {
    const prev = toks[i - 1] ?? '';
    if (NEGATION.has(prev) || (NEGATION.has(toks[i - 2] ?? '') && ['too', 'so', 'very', 'in', 'at', 'for'].includes(prev))) return;
    if (PARTY_WORDS.has(t)) {
      const next = toks[i + 1] ?? '';
      if (NOT_PARTY.has(next) || prev === 'at' || prev === 'around' || next === 'of' && toks[i + 2] === 'them') return;
      if ((NUMBERS as readonly string[]).includes(t)) out.number = t;
      return;
    }
    const closedSlot = closedSlotOf(t);
    if (closedSlot && closedSlot !== 'number') {
      out[closedSlot] = t;
      return;
    }
    const open = vocab?.(t);
    if (open === 'cuisine' || open === 'location') {
      out[open] = t; // the last value wins: `italian, no wait, french`
      return;
    }
    if ((vocab && !guess) || NOT_A_VALUE.has(t) || closedSlotOf(t) !== undefined) return;
    if (prev === 'in') out.location = t;
    else if (toks[i + 1] === 'food' || toks[i + 1] === 'cuisine') out.cuisine = t;
  });
  return out;
}

const has = (re: RegExp, s: string): boolean => re.test(s);

/**
 * Any wording, read from keywords on the utterance in the KB's words (see the module description).
 * Context-free: `yes`, `no` and `reject` are resolved against the bot's last turn by the state.
 */
export function understandFree(utterance: string, vocab?: Vocabulary, guess = false): UserAct {
  const c = canonicalRestaurantText(utterance);
  if (c === '' || c === '<silence>') return { kind: 'silence' };
  const slots = freeSlots(c, vocab, guess);
  const any = nonEmpty(slots);
  const request = has(/\b(?:book|booking|reserve|reservation|table|restaurant|restaurants|somewhere|place|eat|dinner|lunch|looking for|find|search|recommend)\b/, c);
  const greeting = /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day))(?: there| bot| again)?$/.test(c);
  if (greeting) return { kind: 'greet' };
  // A booking at a named restaurant in other words (`please reserve a table at resto_rome_cheap_thai_2stars`): KB names hold underscores.
  const at = request ? /\bat (\S+_\S+)$|\bat (\S+_\S+) /.exec(c) : null;
  if (at) return { kind: 'request-at', restaurant: (at[1] ?? at[2]) as string };
  const info = /\b(?:phone|telephone|call them|phone number|their number|contact)\b/.test(c) ? 'phone' : /\b(?:address|where is it|where is that|where are they|located)\b/.test(c) ? 'address' : undefined;
  if (info && !any) return { kind: 'ask-info', info };
  if (!any) {
    if (/^(?:no|nope|nah|no no|not really|nothing|no that's all|no that is all|no that's it|that's all|that is all|that's it|i'm good|all good|all set|no i'm good|nothing else)$/.test(c)) return { kind: 'no' };
    if (/\b(?:thanks|thank|thx|cheers|appreciate|appreciated)\b/.test(c)) return /^(?:no|nope|nah)\b/.test(c) ? { kind: 'bye' } : { kind: 'thanks' };
    if (/\b(?:bye|goodbye|see you|see ya)\b/.test(c)) return { kind: 'bye' };
    if (/\b(?:else|another|other|others|different|next|not that|not this|don't like|do not like|not for me|doesn't work|does not work|not great|not good|pass|skip)\b/.test(c) || /^(?:no|nope|nah|hmm no|meh)\b/.test(c)) return { kind: 'reject' };
    if (/^(?:yes|yeah|yep|yup|yes please|sure|ok|okay|alright|sounds good|sounds great|that works|works for me|perfect|great|good|lovely|fine|excellent|awesome|i'll take it|i will take it|book it|let's go|go ahead|deal|do it|that one|i like it|i like that)\b/.test(c)) return { kind: 'yes' };
    if (request) return { kind: 'request', slots };
    return { kind: 'unknown' };
  }
  if (request && !/\b(?:actually|instead|change|rather|switch|make it)\b/.test(c)) return { kind: 'request', slots };
  return { kind: 'inform', slots, update: /\b(?:actually|instead|change|rather|switch|make it|prefer)\b/.test(c) };
}

/** Understands an utterance of the datasets' templates only (lower case, single spaces): `unknown` for other wording. */
export function understandTemplates(s: string): UserAct {
  if (s === '<silence>' || s === '') return { kind: 'silence' };
  if (GREETINGS.has(s)) return { kind: 'greet' };
  if (THANKS.has(s)) return { kind: 'thanks' };
  if (BYE.has(s)) return { kind: 'bye' };
  if (s === 'no') return { kind: 'no' };
  if (ACCEPT.has(s)) return { kind: 'accept', which: 'current' };
  if (ACCEPT_RECALLED.has(s)) return { kind: 'accept', which: 'recalled' };
  if (ACCEPT_NEWEST.has(s)) return { kind: 'accept', which: 'newest' };
  if (REJECT.has(s)) return { kind: 'reject' };
  if (RECALL_FIRST.has(s)) return { kind: 'recall', which: 'first' };
  if (RECALL_PREVIOUS.has(s)) return { kind: 'recall', which: 'previous' };
  if (OUT_OF_SCOPE.has(s)) return { kind: 'out-of-scope' };
  if (s === 'yes we need it, what is it please') return { kind: 'confirm-info' };

  const req = REQUEST.exec(s);
  if (req) {
    const rest = req[1] ?? '';
    const at = /^at (\S+)$/.exec(rest);
    if (at) return { kind: 'request-at', restaurant: at[1] as string };
    return { kind: 'request', slots: extractSlots(rest) };
  }

  const friend = FRIEND.exec(s);
  if (friend) {
    const rest = friend[1] as string;
    const consult = /^if we need the (.+)$/.exec(rest);
    if (consult) {
      const info = infoOf(consult[1] as string);
      if (info) return { kind: 'consult-info', info };
    }
    const need = /^and we need the (.+), what is it$/.exec(rest);
    if (need) {
      const info = infoOf(need[1] as string);
      if (info) return { kind: 'ask-info', info };
    }
    if (/^if she wants (?:to do )?\S+, let's see$/.test(rest)) return { kind: 'hesitate' };
    const bare = new RegExp(`^and she wants ${W}, let's do that$`).exec(rest);
    if (bare) return { kind: 'inform-bare', value: bare[1] as string, update: true };
    const wants = /^and she wants (.+)$/.exec(rest);
    if (wants) {
      const slots = extractSlots(wants[1] as string);
      if (nonEmpty(slots)) return { kind: 'inform', slots, update: true };
    }
    return { kind: 'unknown' };
  }

  const upd = UPDATE.exec(s);
  if (upd) {
    const slots = extractSlots(upd[1] as string);
    if (nonEmpty(slots)) return { kind: 'inform', slots, update: true };
  }

  for (const c of CHOICES) {
    const m = c.re.exec(s);
    if (!m) continue;
    const value = m[c.group] as string;
    if (c.slot) return { kind: 'inform', slots: { [c.slot]: value }, update: false };
  }
  for (const h of HESITATIONS) if (h.test(s)) return { kind: 'hesitate' };

  const info = infoOf(s);
  if (info && /^(?:may i have|what is|do you have|can you provide) /.test(s)) return { kind: 'ask-info', info };

  const slots = extractSlots(s);
  if (nonEmpty(slots)) return { kind: 'inform', slots, update: false };
  return { kind: 'unknown' };
}
