/**
 * Understanding user utterances for the rule-based restaurant bot (bAbI tasks 1–5 and DSTC6
 * Track 1). Every pattern here was derived from the original files: open slot values (cuisine,
 * location, restaurant names) are read from the words in pattern slots, never from a list, so
 * out-of-vocabulary entities work. Party sizes, price ranges, atmospheres and dietary restrictions
 * are closed sets in both datasets and are listed.
 */

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
  for (const [slot, values] of Object.entries(closed) as [Slot, readonly string[]][]) if (values.includes(value)) return slot;
  return undefined;
}

const W = '([^\\s,.]+)'; // one entity word

/**
 * Slot phrases that compose requests, answers and updates. Order matters: the more specific
 * phrases are matched (and removed) before `in X`, which would otherwise read `in a cheap ...`.
 */
const SLOT_PHRASES: readonly { re: RegExp; slot: Slot }[] = [
  { re: new RegExp(`\\bin a ${W} price range\\b`), slot: 'price' },
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
    const m = re.exec(rest);
    if (!m) continue;
    const value = m[1] as string;
    const allowed = closed[slot];
    if (allowed && !allowed.includes(value)) continue;
    if (slot === 'location' && (value === 'a' || closedSlotOf(value) !== undefined)) continue;
    if (out[slot] === undefined) out[slot] = value;
    rest = (rest.slice(0, m.index) + ' ' + rest.slice(m.index + m[0].length)).trim();
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

/** Understands one user utterance (bAbI or DSTC6 wording; case and outer spaces ignored). */
export function understand(utterance: string): UserAct {
  const s = utterance.trim().toLowerCase().replace(/\s+/g, ' ');
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
