/**
 * What the restaurant bot says, per dataset wording ("dialect"), and the reverse: reading the
 * bot's own earlier turns in a history back into acts. bAbI dialog tasks 1–5 and DSTC6 Track 1
 * share most utterances; DSTC6 fixes the `which price range are looking for` typo, writes
 * `another option`, adds the atmosphere/restrictions questions and a few new acts.
 */
import type { InfoKind, Slot, SlotValues } from './nlu.js';
import { BOT, DSTC6_ASK } from '../patterns.js';

export type Dialect = 'babi' | 'dstc6';

export interface Phrasebook {
  readonly dialect: Dialect;
  readonly greet: string;
  readonly onIt: string;
  readonly ask: Readonly<Partial<Record<Slot, string>>>;
  /** Order in which missing slots are asked. */
  readonly askOrder: readonly Slot[];
  /** Slots of an `api_call`, in order (restrictions only when that slot is in use). */
  readonly apiOrder: readonly Slot[];
  readonly search: string;
  readonly updated: string;
  readonly proposePrefix: string;
  readonly another: string;
  readonly reserve: string;
  readonly infoPrefix: string;
  readonly anythingElse: string;
  readonly welcome: string;
  readonly wait: string;
  readonly sorry: string;
  readonly recallPrefix: string;
  /** Every option of the search rejected (not in the datasets): offer to change the request. */
  readonly noOther: string;
  /** The search found nothing (`api_call no result`; not in tasks 1–5): offer to change the request. */
  readonly noResult: string;
}

const common = {
  greet: 'hello what can i help you with today',
  onIt: "i'm on it",
  search: 'ok let me look into some options for you',
  updated: 'sure is there anything else to update',
  proposePrefix: 'what do you think of this option: ',
  reserve: 'great let me do the reservation',
  infoPrefix: 'here it is ',
  anythingElse: 'is there anything i can help you with',
  welcome: "you're welcome",
  wait: "whenever you're ready",
  sorry: "i am sorry, i don't have an answer to that question",
  recallPrefix: 'the option was ',
  noOther: 'sorry there is no other option, would you like to change something',
  noResult: 'sorry there is no restaurant matching your request, would you like to change something',
} as const;

export const BABI: Phrasebook = {
  ...common,
  dialect: 'babi',
  ask: BOT.ask, // the simulator's questions (price: the original's typo)
  askOrder: ['cuisine', 'location', 'number', 'price'],
  apiOrder: ['cuisine', 'location', 'number', 'price'],
  another: 'sure let me find an other option for you',
};

export const DSTC6: Phrasebook = {
  ...common,
  dialect: 'dstc6',
  ask: DSTC6_ASK,
  askOrder: ['atmosphere', 'cuisine', 'location', 'number', 'price', 'restrictions'],
  apiOrder: ['cuisine', 'location', 'number', 'price', 'atmosphere', 'restrictions'],
  another: 'sure let me find another option for you',
};

export const PHRASEBOOKS: Readonly<Record<Dialect, Phrasebook>> = { babi: BABI, dstc6: DSTC6 };

/** A bot turn read back as an act. */
export type BotAct =
  | { readonly kind: 'greet' | 'on-it' | 'search' | 'updated' | 'another' | 'reserve' | 'anything-else' | 'welcome' | 'wait' | 'sorry' }
  | { readonly kind: 'ask'; readonly slot: Slot }
  | { readonly kind: 'api-call'; readonly slots: SlotValues }
  | { readonly kind: 'propose'; readonly restaurant: string }
  | { readonly kind: 'recall'; readonly restaurant: string }
  | { readonly kind: 'info'; readonly info: InfoKind | undefined; readonly value: string }
  | { readonly kind: 'other' };

/** Reads a bot utterance of either dialect. */
export function readBotAct(text: string): BotAct {
  const s = text.trim();
  for (const pb of [BABI, DSTC6]) {
    for (const [slot, q] of Object.entries(pb.ask) as [Slot, string][]) if (s === q) return { kind: 'ask', slot };
  }
  if (s.startsWith('api_call ')) {
    const args = s.slice('api_call '.length).split(' ');
    const slots: SlotValues = {};
    DSTC6.apiOrder.forEach((slot, i) => {
      if (args[i] !== undefined) slots[slot] = args[i];
    });
    return { kind: 'api-call', slots };
  }
  if (s.startsWith(common.proposePrefix)) return { kind: 'propose', restaurant: s.slice(common.proposePrefix.length) };
  if (s.startsWith(common.recallPrefix)) return { kind: 'recall', restaurant: s.slice(common.recallPrefix.length) };
  if (s.startsWith(common.infoPrefix)) {
    const value = s.slice(common.infoPrefix.length);
    const info = value.endsWith('_phone') ? 'phone' : value.endsWith('_address') ? 'address' : undefined;
    return { kind: 'info', info, value };
  }
  switch (s) {
    case common.greet: return { kind: 'greet' };
    case common.onIt: return { kind: 'on-it' };
    case common.search: return { kind: 'search' };
    case common.updated:
    case common.noOther: return { kind: 'updated' };
    case common.noResult: return { kind: 'updated' };
    case BABI.another:
    case DSTC6.another: return { kind: 'another' };
    case common.reserve: return { kind: 'reserve' };
    case common.anythingElse: return { kind: 'anything-else' };
    case common.welcome: return { kind: 'welcome' };
    case common.wait: return { kind: 'wait' };
    case common.sorry: return { kind: 'sorry' };
    default: return { kind: 'other' };
  }
}

/** Which dialect a bot utterance can only belong to, if any. */
export function dialectOfBotText(text: string): Dialect | undefined {
  const s = text.trim();
  if (s === BABI.ask.price || s === BABI.another) return 'babi';
  if (s === DSTC6.ask.price || s === DSTC6.another || s === common.wait || s === common.sorry || s.startsWith(common.recallPrefix)) return 'dstc6';
  if (s === DSTC6.ask.atmosphere || s === DSTC6.ask.restrictions) return 'dstc6';
  return undefined;
}
