/**
 * The user's `userStyle: 'varied'` wording (-v2 envs): wider paraphrases of each of its acts than
 * the datasets' patterns, several per act, picked by the user's seeded rng; values (`rome`,
 * `six`, `cheap`, restaurant names) are kept as the KB writes them. The DSTC6 user's thinking
 * aloud before an answer (hesitations, questions to a friend, off-topic questions) is kept as the
 * dataset's; what it then says is paraphrased. A robustness test for models trained on the
 * datasets: they never saw these wordings.
 */
import type { Rng } from '../../../core/rng.js';
import type { CallSlot, InfoKind } from './goal.js';
import type { UserLanguage } from './user.js';

/** The paraphrases (`X`: the value or the restaurant name). */
export const VARIED = {
  greetings: ['hi there', 'hey', 'hello there', 'good evening', 'good afternoon', 'hi, how are you'],
  requestOpeners: ["i'm looking for a restaurant", 'could you find me a place to eat', 'i want to reserve a table', 'please book me a table', 'i need a restaurant', "we'd like to go out to eat"],
  /** How a slot is said inside a request or an update. */
  slotPhrases: {
    cuisine: ['serving X food', 'that does X cuisine', 'with X dishes', 'for X food'],
    location: ['in X', 'somewhere in X', 'located in X', 'around X'],
    number: ['for X', 'for a party of X', 'for X guests', 'for X of us'],
    price: ['in the X price range', 'on the X side', 'with X prices', 'that is X'],
    atmosphere: ['with a X vibe', 'with a X atmosphere', 'that feels X'],
    restrictions: ['with X options', 'that has X dishes', 'suitable for X diets'],
  } as Readonly<Record<CallSlot, readonly string[]>>,
  /** Answers to a slot question. */
  answers: {
    cuisine: ['X food please', "let's go with X", "i'd like X cuisine", 'X would be nice', 'i feel like X food'],
    location: ['X', 'somewhere in X', 'in X if possible', 'X would be great', "let's say X"],
    number: ['X people', 'there will be X of us', 'a party of X', 'X of us', 'a table for X'],
    price: ['X', 'something X', 'the X range', "i'd prefer X", 'X prices please'],
    atmosphere: ['X', 'something X', 'a X atmosphere would be nice', 'X please'],
    restrictions: ['X', 'it has to be X', 'we need X options', 'X food only'],
  } as Readonly<Record<CallSlot, readonly string[]>>,
  /** Updates of the request (tasks 2, 5). */
  updates: {
    cuisine: ['actually, make it X food', 'on second thought, i want X cuisine', 'can we switch to X food instead'],
    location: ['actually, can it be in X instead', 'on second thought, somewhere in X', 'change of plans, we want X'],
    number: ['actually we will be X', 'make it X people instead', 'on second thought, a table for X'],
    price: ['actually, make it X', 'can we go X instead', 'on second thought, something X'],
    atmosphere: ['actually, something X instead', 'on second thought, a X atmosphere'],
    restrictions: ['actually, it has to be X', 'sorry, we need X options after all'],
  } as Readonly<Record<CallSlot, readonly string[]>>,
  noMoreUpdates: ['no', "no, that's all", "nope, that's it", 'nothing else', "that's everything"],
  accepts: ['sounds good', "yes, let's book it", "perfect, i'll take it", 'yes please', 'that one works for me'],
  rejects: ['not that one', 'what else do you have', "i'd rather not", 'something different please', "hmm, i don't think so"],
  bookAt: ["i'd like to book a table at X", 'please reserve X for me', 'can i get a table at X', 'book me into X please'],
  askInfo: {
    phone: ["what's their phone number", 'can i get the phone number', 'how can i call them', 'phone number please'],
    address: ['where is it located', "what's the address", 'can you give me the address', 'address please'],
  } as Readonly<Record<InfoKind, readonly string[]>>,
  thanks: ['thanks a lot', 'great, thanks', 'thank you so much', 'cheers', 'much appreciated'],
  noThanks: ["no, that's all", 'nothing else, thanks', "that's it, thanks", "no i'm good"],
} as const;

const fillX = (pattern: string, value: string): string => pattern.replace('X', value);

/** The varied wording over `base` (whose distractors are kept). */
export function variedLanguage(base: UserLanguage): UserLanguage {
  const phrase = (rng: Rng, slot: CallSlot, value: string): string => fillX(rng.pick(VARIED.slotPhrases[slot]), value);
  return {
    silence: base.silence,
    greeting: (rng) => rng.pick(VARIED.greetings),
    request: (rng, goal, slots) => [rng.pick(VARIED.requestOpeners), ...slots.map((s) => phrase(rng, s, goal[s] as string))].join(' '),
    bookAt: (rng, name) => fillX(rng.pick(VARIED.bookAt), name),
    answer: (rng, slot, value) => ({ ...base.answer(rng, slot, value), text: fillX(rng.pick(VARIED.answers[slot]), value) }),
    update: (rng, slot, value, index) => ({ ...base.update(rng, slot, value, index), text: fillX(rng.pick(VARIED.updates[slot]), value) }),
    noMoreUpdates: (rng) => rng.pick(VARIED.noMoreUpdates),
    accept: (rng) => rng.pick(VARIED.accepts),
    reject: (rng) => ({ ...base.reject(rng), text: rng.pick(VARIED.rejects) }),
    askInfo: (rng, kind) => ({ ...base.askInfo(rng, kind), text: rng.pick(VARIED.askInfo[kind]) }),
    thanks: (rng) => rng.pick(VARIED.thanks),
    noThanks: (rng) => rng.pick(VARIED.noThanks),
  };
}
