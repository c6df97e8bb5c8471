/**
 * User utterance patterns and bot utterances of the bAbI dialog tasks 1-5, derived from the
 * original files (all 20 task 1-5 files, 20,000 dialogs). Counts in the comments are measured on
 * the originals, summed over the four splits; every choice among variants is uniform there (each
 * variant's share is within a few percent of 1/n), so the simulator picks uniformly.
 *
 * User side: 42 patterns + `<SILENCE>` = 43, matching the paper's count:
 *   3 greetings, 4 request openers (+ slot phrases), 10 slot answers, 2 update openers, `no`,
 *   3 thanks, 4 accepts, 3 rejects, 4 "book at <restaurant>" openers, 3 phone + 3 address
 *   questions, 2 final "no thanks".
 * Bot side: 15 fixed templates once entities are typed (12 entity-free utterances + option,
 * phone, address) plus the api_call.
 */
import type { Rng } from '../../core/rng.js';
import type { ApiCall, Field } from './kb.js';

/** Opening user turn (e.g. task 1: hello 1378, hi 1333, good morning 1289). */
export const GREETINGS: readonly string[] = ['hello', 'hi', 'good morning'];

/** Request openers of tasks 1, 2, 3, 5 (task 1: may i have 1027, can you book 998, reservation 997, i'd like 978), followed by slot phrases. */
export const REQUEST_OPENERS: readonly string[] = ['can you book a table', 'may i have a table', "i'd like to book a table", 'can you make a restaurant reservation'];

/**
 * How a field is phrased inside a request or an update (`X` = the value). Task 1 requests:
 * `with X cuisine` 1034 / `with X food` 960, `for X people` 1028 / `for X` 974.
 */
export const SLOT_PHRASES: Readonly<Record<Field, readonly string[]>> = {
  cuisine: ['with X food', 'with X cuisine'],
  location: ['in X'],
  number: ['for X', 'for X people'],
  price: ['in a X price range'],
};

/** The user's answer to the bot's question about a field (task 1: 678/667/661, 1022/979, 673/665/660, 1006/984). */
export const SLOT_ANSWERS: Readonly<Record<Field, readonly string[]>> = {
  cuisine: ['i love X food', 'with X food', 'with X cuisine'],
  location: ['X please', 'in X'],
  number: ['we will be X', 'for X people please', 'for X please'],
  price: ['in a X price range please', 'i am looking for a X restaurant'],
};

/** Update openers (tasks 2, 5), followed by a slot phrase: `instead could it be in rome`. */
export const UPDATE_OPENERS: readonly string[] = ['instead could it be', 'actually i would prefer'];
/** The user's answer when there is nothing more to update. */
export const NO_MORE_UPDATES = 'no';

/** Thanks after the final api_call (task 2) or after phone/address (task 5): 1337/1334/1329. */
export const THANKS: readonly string[] = ['thanks', 'thank you', 'you rock'];
/** Task 5's answer to "is there anything i can help you with": 2015/1985. */
export const NO_THANKS: readonly string[] = ['no thank you', 'no thanks'];

/** Accepting a proposed restaurant (task 3: 1056/989/985/970). */
export const ACCEPTS: readonly string[] = ["it's perfect", "let's do it", 'that looks great', 'i love that'];
/** Rejecting a proposed restaurant (task 3: 2010/1958/1926). */
export const REJECTS: readonly string[] = ['do you have something else', "no i don't like that", 'no this does not work for me'];

/** Task 4 opening requests, followed by ` at <restaurant>` (1015/1011/1011/963). */
export const BOOK_AT_OPENERS: readonly string[] = REQUEST_OPENERS;

/** Asking for the phone number / the address (task 4: 679/661/634 and 686/671/669). */
export const ASK_PHONE: readonly string[] = ['may i have the phone number of the restaurant', 'do you have its phone number', 'what is the phone number of the restaurant'];
export const ASK_ADDRESS: readonly string[] = ['do you have its address', 'may i have the address of the restaurant', 'can you provide the address'];

/** Bot utterances (entity-free). The price question's missing "you" is the original's typo. */
export const BOT = {
  greet: 'hello what can i help you with today',
  onIt: "i'm on it",
  lookInto: 'ok let me look into some options for you',
  anythingElseToUpdate: 'sure is there anything else to update',
  welcome: "you're welcome",
  findOther: 'sure let me find an other option for you',
  reserve: 'great let me do the reservation',
  anythingElse: 'is there anything i can help you with',
  ask: {
    cuisine: 'any preference on a type of cuisine',
    location: 'where should it be',
    number: 'how many people would be in your party',
    price: 'which price range are looking for',
  } as Readonly<Record<Field, string>>,
} as const;

/** The DSTC6 bot's slot questions (bAbI's four without the typo, plus atmosphere and restrictions). */
export const DSTC6_ASK: Readonly<Record<Field | 'atmosphere' | 'restrictions', string>> = {
  atmosphere: 'are you looking for a specific atmosphere',
  cuisine: 'any preference on a type of cuisine',
  location: 'where should it be',
  number: 'how many people would be in your party',
  price: 'which price range are you looking for',
  restrictions: 'do you have any dietary restrictions',
};

/** Bot utterances that carry an entity. */
export const botPropose = (name: string): string => `what do you think of this option: ${name}`;
export const botHereItIs = (value: string): string => `here it is ${value}`;

/** The 12 entity-free bot utterances, in a fixed order (used for the candidates file). */
export const FIXED_BOT_UTTERANCES: readonly string[] = [
  BOT.greet,
  BOT.onIt,
  BOT.ask.cuisine,
  BOT.ask.location,
  BOT.ask.number,
  BOT.ask.price,
  BOT.lookInto,
  BOT.anythingElseToUpdate,
  BOT.findOther,
  BOT.reserve,
  BOT.anythingElse,
  BOT.welcome,
];

/** Fills the `X` of a pattern. */
export function fill(pattern: string, value: string): string {
  return pattern.replace('X', value);
}

/**
 * Per-task distributions measured on the originals (counts over the four splits):
 * - slots given in the opening request: task 1 and 3 uniform 0-4 (807/785/799/814/795),
 *   task 2 always 4, task 5 uniform 1-3 (1301/1344/1355); order of the slots uniformly random.
 * - updates after the first api_call: task 2 uniform 1-4 (each 23-27%), task 5 uniform 1-3;
 *   distinct fields, each set to a different value.
 * - proposals: by decreasing rating; the user accepts each with probability 1/4 and always the
 *   last one (task 3, 3 results: first accepted 26%, second 18%, third 56%).
 * - phone/address: phone only 25%, address only 25%, both 50% in either order (task 4: first
 *   question address 2026 / phone 1974, a second question in 2044 of 4000 dialogs).
 */
export const DISTRIBUTIONS = {
  requestSlots: { 1: [0, 4], 2: [4, 4], 3: [0, 4], 5: [1, 3] } as Readonly<Record<1 | 2 | 3 | 5, readonly [number, number]>>,
  updates: { 2: [1, 4], 5: [1, 3] } as Readonly<Record<2 | 5, readonly [number, number]>>,
  acceptProbability: 0.25,
  /** Weights of phone only / address only / both. */
  infoWeights: [0.25, 0.25, 0.5] as const,
  /** Minimum number of KB results of the final call (tasks 3 and 5; the originals have 3-6). */
  minResults: 3,
} as const;

/**
 * The template of a bot utterance: entity-carrying utterances (api_call, proposal, recall, phone,
 * address) collapse to a tag, every other utterance is its own template (bAbI and DSTC6 alike).
 */
export type BotTemplate = string;
export const ENTITY_TEMPLATES: ReadonlySet<string> = new Set(['<api_call>', '<propose>', '<recall>', '<phone>', '<address>']);

export function templateOf(text: string): BotTemplate {
  if (text.startsWith('api_call ')) return '<api_call>';
  if (text.startsWith('what do you think of this option: ')) return '<propose>';
  if (text.startsWith('the option was ')) return '<recall>';
  if (text.startsWith('here it is ')) return text.endsWith('_phone') ? '<phone>' : '<address>';
  return text;
}

const slotPhrase = (rng: Rng, field: Field, value: string): string => fill(rng.pick(SLOT_PHRASES[field]), value);

/**
 * The bAbI user's turns from the patterns above: what the simulator's dialogs say (simulator.ts)
 * and what the online `-v1` user says (online/babi.ts). Each draws from `rng` in the order the
 * generated files were made with.
 */
export const BABI_USER = {
  greeting: (rng: Rng): string => rng.pick(GREETINGS),
  /** The opening request giving `slots` of `goal`. */
  request: (rng: Rng, goal: ApiCall, slots: readonly Field[]): string => [rng.pick(REQUEST_OPENERS), ...slots.map((f) => slotPhrase(rng, f, goal[f]))].join(' '),
  bookAt: (rng: Rng, name: string): string => `${rng.pick(BOOK_AT_OPENERS)} at ${name}`,
  answer: (rng: Rng, field: Field, value: string): string => fill(rng.pick(SLOT_ANSWERS[field]), value),
  update: (rng: Rng, field: Field, value: string): string => `${rng.pick(UPDATE_OPENERS)} ${slotPhrase(rng, field, value)}`,
  accept: (rng: Rng): string => rng.pick(ACCEPTS),
  reject: (rng: Rng): string => rng.pick(REJECTS),
  askInfo: (rng: Rng, kind: 'phone' | 'address'): string => rng.pick(kind === 'phone' ? ASK_PHONE : ASK_ADDRESS),
  thanks: (rng: Rng): string => rng.pick(THANKS),
  noThanks: (rng: Rng): string => rng.pick(NO_THANKS),
};

/** What the user asks after booking, drawn with `weights` (`DISTRIBUTIONS.infoWeights`): phone only, address only, or both in random order. */
export function drawInfo(rng: Rng, weights: readonly number[]): Array<'phone' | 'address'> {
  const which = rng.weighted(weights);
  return which === 0 ? ['phone'] : which === 1 ? ['address'] : rng.shuffle(['phone', 'address'] as const);
}
