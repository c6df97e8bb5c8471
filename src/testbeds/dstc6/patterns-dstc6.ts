/**
 * User patterns and distributions of the DSTC6 Track 1 dialogs, measured on the 20 real test
 * files (tst1–tst4 × 5 tasks; counts below are summed over them, delexicalised). Shared wordings
 * (greetings, request openers, thanks, phone/address questions) come from the bAbI patterns.
 *
 * "distr0.5" in the file names is the distractor probability: when the bot asks for cuisine,
 * location or price (or, from the second update on, before a cuisine/location/price update) the
 * user first hesitates with probability 0.5 ("let me check if rome or paris would work"), the bot
 * answers "whenever you're ready", then the user commits. In tasks 4/5 the distractor is "i am
 * asking my friend if we need the phone number" → wait → "yes we need it, what is it please".
 * Candidate choices within a list are uniform unless a weight is given (the counts agree).
 */
import { ASK_ADDRESS, ASK_PHONE, DSTC6_ASK, GREETINGS, NO_THANKS, REQUEST_OPENERS, SLOT_PHRASES as BABI_SLOT_PHRASES, THANKS } from '../restaurant/patterns.js';
import type { ExtSlot } from './extended-kb.js';

export { ASK_ADDRESS, ASK_PHONE, GREETINGS, NO_THANKS, REQUEST_OPENERS, THANKS };

/** The five ways the user starts a sentence about her friend (counts 1,024–1,105 each across files). */
export const FRIEND_PREFIXES: readonly string[] = ['wait', 'hold on', 'one moment', 'one minute please', 'sorry one sec'];

/** How a slot is phrased inside a request or an update (`X` = value): bAbI's four, and the two new slots. */
export const SLOT_PHRASES: Readonly<Record<ExtSlot, readonly string[]>> = {
  ...BABI_SLOT_PHRASES,
  atmosphere: ['with a X atmosphere'],
  restrictions: ['with X menu options'],
};

/** A committing answer to the bot's question. `X` = the chosen value, `Y` = another value of the slot. */
export interface AnswerPattern {
  readonly text: string;
  readonly weight?: number;
}

/**
 * Committing answers per slot: direct answers, "choice" sentences naming two values, and the
 * friend's choice (`F, i am asking my friend and she wants X, let's do that`). Each item is
 * equally likely (cuisine: 3 direct 480–506, 4 choices 471–528, friend 503).
 */
export const ANSWERS: Readonly<Record<ExtSlot, readonly string[]>> = {
  cuisine: [
    'with X cuisine',
    'with X food',
    "i'd like X food",
    "i want Y food but my friend insists on X so let's do that",
    "i want X food please, my friend doesn't like Y",
    "i think i had Y last time, so let's do X food",
    "let's go with X food, i will keep Y for next time",
    "F, i am asking my friend and she wants X, let's do that",
  ],
  location: [
    'in X',
    'X please',
    'find me one in X, Y will be too complicated',
    "let's try X, Y is out of the way for me",
    "Y is very tempting but i'm afraid i have to stick to X today",
    "i was thinking Y but my friend prefers X so let's do that",
    "F, i am asking my friend and she wants X, let's do that",
  ],
  number: ['we will be X', 'for X please', 'for X people please'],
  price: [
    'in a X price range please',
    'i am looking for a X restaurant',
    "i want Y price range, but my friend wants a X range so let's do that",
    "let's do X price range, and keep Y price range for another day",
    "F, i am asking my friend and she wants X, let's do that",
  ],
  atmosphere: ['i am looking for a X atmosphere'],
  restrictions: ['i eat X'],
};

/**
 * Hesitations (the user thinks aloud, the bot waits). `A` and `B` are two distinct random values
 * of the slot (the goal value among them or not: both occur about equally). Weights from the
 * counts: "i got A last time" 827 vs 439–462 for the other cuisine ones, "let me check if" 999 vs
 * 317–355, "leaning towards" 711 vs 343–409.
 */
export const HESITATIONS: Readonly<Partial<Record<ExtSlot, readonly AnswerPattern[]>>> = {
  cuisine: [
    { text: 'i got A last time, so i may be due for a change', weight: 2 },
    { text: 'i love A food, but i also like variety.' },
    { text: 'i find A cuisine often disappointing, but sometimes delicious. let me think.' },
    { text: 'i like A cuisine better than B cuisine, generally, but not always, and there are so many other options' },
    { text: 'i always forget if my friend prefers A or B cuisine, but perhaps i should pick something else entirely' },
    { text: "F, i am asking my friend if she wants to do A, let's see" },
  ],
  location: [
    { text: 'let me check if A or B would work', weight: 3 },
    { text: "i could perhaps do A or B, but it's not ideal" },
    { text: 'i like A, but i always go there' },
    { text: 'i am not very fond of A, but it was nice last time' },
    { text: "i am very fond of A, but it's also good to change sometimes" },
    { text: "i don't like A, but the restaurants aren't bad" },
    { text: "F, i am asking my friend if she wants to do A, let's see" },
  ],
  price: [
    { text: 'leaning towards A, but give me a bit more time', weight: 2 },
    { text: 'A perhaps. let me think' },
    { text: 'A is nice on the stomach but hard on the wallet' },
    { text: 'A sounds like a good middle ground, but i am not sure' },
    { text: 'A is tempting but B may be more reasonable' },
    { text: "F, i am asking my friend if she wants A, let's see" },
  ],
};

/** Slots whose answers and updates can be preceded by a hesitation. */
export const HESITANT_SLOTS: readonly ExtSlot[] = ['cuisine', 'location', 'price'];

/** Update openers followed by a slot phrase; the friend's form is as frequent as the two others together. */
export const UPDATE_OPENERS: readonly AnswerPattern[] = [
  { text: 'instead could it be' },
  { text: 'actually i would prefer' },
  { text: 'F, i am asking my friend and she wants', weight: 2 },
];
export const NO_MORE_UPDATES = 'no';

/** Answers to a proposal. */
export const ACCEPTS: readonly string[] = ['ok i like it', "it's perfect", 'that looks great', "let's do it"];
export const REJECTS: readonly string[] = ['do you have something else', 'no this does not work for me', "no i don't like it"];
/** Rejecting again after the bot repeated an earlier option (3 times as frequent as REJECTS there). */
export const REJECTS_AGAIN: readonly string[] = ["i still don't like that", 'no still no good', 'hmm no this does not work'];
export const RECALL_FIRST: readonly string[] = ['what was the first one you suggested', 'what was the first option again', 'sorry could you repeat the first option'];
export const RECALL_PREVIOUS: readonly string[] = ['would you please repeat the one you proposed before', 'sorry what was the previous option again', 'what was the one you suggested before'];
/** After a repeated option: take the repeated one, or the one proposed last. */
export const ACCEPT_RECALLED: readonly string[] = ['ok i want that one', "yes let's go with that previous one", 'i like that option actually, why not', "you know what, let's do that one"];
export const ACCEPT_NEWEST: readonly string[] = ["let's go with the last one", 'i want the last option', 'i like the new one', 'the new one sounds better'];
/** Questions the bot cannot answer (179–219 each). */
export const OUT_OF_SCOPE: readonly string[] = [
  'is this place dog-friendly',
  'should i take my umbrella',
  'is there a good bar nearby',
  'is it a long walk from the subway',
  'is the area pretty safe at night',
  'is it possible to request a table next to a window',
  'do they serve appetizers',
  'do they serve sustainably produced food',
  'what time does the subway service end',
  'is there public transportation nearby',
  'is there a movie theater close by',
  'will it be raining',
];

/** Phone/address questions: three direct ones each, plus the friend's form. */
export const ASK_INFO_FRIEND: Readonly<Record<'phone' | 'address', string>> = {
  phone: 'F, i am asking my friend and we need the phone number, what is it',
  address: 'F, i am asking my friend and we need the address, what is it',
};
/** The distractor: the user consults her friend, then confirms. */
export const CONSULT_INFO: Readonly<Record<'phone' | 'address', string>> = {
  phone: 'F, i am asking my friend if we need the phone number',
  address: 'F, i am asking my friend if we need the address',
};
export const CONFIRM_INFO = 'yes we need it, what is it please';

/** The bot's utterances (the DSTC6 wording; identical to the rule bot's DSTC6 phrasebook). */
export const BOT6 = {
  greet: 'hello what can i help you with today',
  onIt: "i'm on it",
  lookInto: 'ok let me look into some options for you',
  updated: 'sure is there anything else to update',
  wait: "whenever you're ready",
  another: 'sure let me find another option for you',
  sorry: "i am sorry, i don't have an answer to that question",
  reserve: 'great let me do the reservation',
  anythingElse: 'is there anything i can help you with',
  welcome: "you're welcome",
  ask: DSTC6_ASK as Readonly<Record<ExtSlot, string>>,
} as const;
export const propose6 = (name: string): string => `what do you think of this option: ${name}`;
export const recall6 = (name: string): string => `the option was ${name}`;
export const hereItIs6 = (value: string): string => `here it is ${value}`;

/** Order in which the bot asks for missing slots. */
export const ASK_ORDER: readonly ExtSlot[] = ['atmosphere', 'cuisine', 'location', 'number', 'price', 'restrictions'];

/**
 * Measured distributions. `hesitation`: 0.5 ("distr0.5"); measured 0.45–0.51 on answers and
 * 0.48–0.49 on updates after the first. The proposal parameters are fitted to the per-dialog
 * counts of the bot's answers in the real task 3 files (proposals 2.0, "find another option" 1.05,
 * apologies 0.66, repeated options 0.35 per reservation), since the share of a user reply among
 * entries is biased towards long dialogs (an entry is a uniform cut, so replies that lengthen the
 * dialog appear in more contexts): accepting is the paper's 25%.
 */
export const DSTC6_DIST = {
  hesitation: 0.5,
  /** Slots named in the opening request: tasks 1 and 5 uniform 0–4 (≈ 390–425 each), tasks 2 and 3 all. */
  requestSlots: { 1: [0, 4], 5: [0, 4] } as Readonly<Record<1 | 5, readonly [number, number]>>,
  /** Out-of-scope question after a proposal that is not the last one. */
  outOfScope: 0.4,
  /** Accept probability per proposal that is not the last one (the last one is always accepted). */
  accept: { 3: 0.25, 5: 0.25 } as Readonly<Record<3 | 5, number>>,
  /** Given no acceptance at the 2nd+ proposal: ask to repeat an earlier option (first or previous, equally). */
  recall: 0.6,
  /** After a repeated option: accept it / accept the newest / reject (52 / 49 / 136 of 237). */
  afterRecall: [0.22, 0.21, 0.57] as const,
  /** Rejections after a repeated option use REJECTS_AGAIN with this probability, else REJECTS (101 vs 35). */
  rejectAgain: 0.75,
  /** Phone only / address only / both (in either order), as in bAbI. */
  infoWeights: [0.25, 0.25, 0.5] as const,
  /** KB results shown per call at most (random subset when more match; real files: 3–4 in task 3, 1–4 in task 5). */
  maxResults: 4,
  /** Minimum results of the call: task 3 keeps calls with ≥ 3, task 5 with ≥ 1. */
  minResults: { 3: 3, 5: 1 } as Readonly<Record<3 | 5, number>>,
} as const;

/** Fills `X`/`Y`/`A`/`B` and the friend prefix `F` of a pattern. */
export function fillPattern(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\b[XYABF]\b/g, (k) => vars[k] ?? k);
}
