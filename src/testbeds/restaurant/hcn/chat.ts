/**
 * An HCN over one conversation: the entity tracker and the GRU state advance with the new turns
 * only (a `StepEncoder` and the GRU states per conversation), where `Hcn.explain` keeps one such
 * cache for the whole model — which many interleaved sessions would keep throwing away, replaying
 * every history from its first turn. Same decision and explanation as `Hcn.explain` on the
 * datasets' wording (a test checks it turn by turn on the original dialogs).
 *
 * A person's wording is read first: an HCN trained on bAbI task 5 knows the task's user wording
 * (a bag of words of it), not `hi, could you find me a cheap italian place in rome for 4 people`.
 * A user turn the task's templates do not account for is read by the restaurant NLU (`understand`
 * with the HCN's lexicon as vocabulary: digits, synonyms, fillers, `no`/`yes` to a proposal) and
 * handed to the HCN in the task's wording (`inTaskWording`): `can you book a table with italian
 * food in rome for four people in a cheap price range`. Turns in the task's own wording, and turns
 * the NLU does not understand, reach the HCN as they are.
 *
 * Two hand-written rules constrain the actions (as HCNs allow, Williams et al. 2017 §2), for what
 * task 5 never shows: the bot does not ask for a value the user already gave (out of order: the
 * price when asked the party size), and it does not propose from the results of an api_call the
 * user's goal has moved away from (an update after a proposal): when the HCN picks a proposal
 * then, the best api_call template (filled with the current goal) is said instead.
 */
import type { Turn } from '../../../core/dialog.js';
import { continuation } from '../../../core/continuation.js';
import type { Hcn } from './hcn.js';
import { StepEncoder, type HcnStep } from './encode.js';
import { nextProposal, type HcnLexicon, type TrackerState } from './entities.js';
import { explainStep, type HcnExplanation } from './explain.js';
import { understand, understandTemplates, type Slot, type SlotValues, type UserAct } from '../rules/nlu.js';
import { readBotAct } from '../rules/phrases.js';

export interface HcnConversation {
  explain(history: readonly Turn[]): HcnExplanation;
}

const PHRASE: Readonly<Record<Slot, (v: string) => string>> = {
  cuisine: (v) => `with ${v} food`,
  location: (v) => `in ${v}`,
  number: (v) => `for ${v} people`,
  price: (v) => `in a ${v} price range`,
  atmosphere: (v) => `with a ${v} atmosphere`,
  restrictions: (v) => `with ${v} menu options`,
};
/** bAbI task 5's answers to the bot's slot questions. */
const ANSWER: Readonly<Partial<Record<Slot, (v: string) => string>>> = {
  cuisine: (v) => `i love ${v} food`,
  location: (v) => `${v} please`,
  number: (v) => `we will be ${v}`,
  price: (v) => `i am looking for a ${v} restaurant`,
};
const ORDER: readonly Slot[] = ['cuisine', 'location', 'number', 'price', 'atmosphere', 'restrictions'];

function phrases(slots: SlotValues): string {
  return ORDER.filter((k) => slots[k] !== undefined).map((k) => PHRASE[k](slots[k] as string)).join(' ');
}

const isProposal = (bot: string | undefined): boolean => bot !== undefined && /^what do you think of this option: \S+$/.test(bot);

/**
 * A user act in bAbI task 5's user wording, given what the bot said last, whether an api_call was
 * made (slot values after a call are updates) and whether the user asked for a booking already;
 * undefined when the act has no such wording.
 */
export function inTaskWording(act: UserAct, lastBot: string | undefined, afterCall: boolean, requested: boolean): string | undefined {
  const proposal = isProposal(lastBot);
  switch (act.kind) {
    case 'greet':
      return 'hello';
    case 'request':
      // Asked again once the bot is on it (`book for 4 people`): the slots are an answer.
      if (requested && Object.keys(act.slots).length > 0) return inTaskWording({ kind: 'inform', slots: act.slots, update: false }, lastBot, afterCall, true);
      return ['can you book a table', phrases(act.slots)].filter((x) => x !== '').join(' ');
    case 'inform': {
      const keys = ORDER.filter((k) => act.slots[k] !== undefined);
      if (afterCall || act.update) return `actually i would prefer ${phrases(act.slots)}`;
      // Slot values before any booking request (`italian in rome for 4`): that is the request.
      if (!requested) return `can you book a table ${phrases(act.slots)}`;
      const one = keys.length === 1 ? ANSWER[keys[0] as Slot] : undefined;
      return one ? one(act.slots[keys[0] as Slot] as string) : phrases(act.slots);
    }
    case 'no':
      return proposal ? 'no this does not work for me' : 'no';
    case 'reject':
      return 'no this does not work for me';
    case 'yes':
      return proposal ? "let's do it" : undefined;
    case 'accept':
      return "let's do it";
    case 'ask-info':
      return act.info === 'phone' ? 'may i have the phone number of the restaurant' : 'may i have the address of the restaurant';
    case 'thanks':
      return 'thank you';
    case 'bye':
      return 'no thanks';
    default:
      return undefined;
  }
}

/** An act as a string, slot order aside. */
function actKey(a: UserAct): string {
  const slots = 'slots' in a ? Object.entries(a.slots).sort() : [];
  return JSON.stringify([{ ...a, slots: undefined }, slots]);
}

/** The user's turn as the HCN reads it (see the module description). */
function readUserTurn(text: string, lex: HcnLexicon, st: TrackerState, lastBot: string | undefined, requested: boolean): string {
  const s = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const vocab = (w: string): Slot | undefined => {
    const t = lex.type(w);
    return t === 'cuisine' || t === 'location' ? t : undefined;
  };
  const act = understand(s, vocab);
  const templated = understandTemplates(s);
  // A bare no/yes means something else after a proposal than after a question: always reworded.
  // So does a first message with slot values only (`in london for 6 people`): it is the request.
  const contextual = ((act.kind === 'no' || act.kind === 'yes') && isProposal(lastBot)) || (act.kind === 'inform' && !requested && st.apiCalls === 0);
  if (!contextual && templated.kind !== 'unknown' && actKey(templated) === actKey(act)) return text;
  return inTaskWording(act, lastBot, st.apiCalls > 0, requested) ?? text;
}

export function hcnConversation(m: Hcn): HcnConversation {
  let seen: Turn[] = [];
  let enc = new StepEncoder(m);
  let hs: Float32Array[] = [];
  let lastBot: string | undefined;
  let lastCall: string | undefined;
  /** Whether a user turn so far was a booking request (or gave slot values). */
  let requested = false;
  return {
    explain(history) {
      if (continuation(seen, history) < 0) {
        enc = new StepEncoder(m);
        hs = [];
        lastBot = undefined;
        lastCall = undefined;
        requested = false;
      }
      for (let i = enc.length; i < history.length; i++) {
        const t = history[i] as Turn;
        if (t.speaker === 'bot') lastBot = t.text;
        if (t.speaker === 'bot' && t.text.startsWith('api_call ')) lastCall = t.text;
        if (t.speaker === 'user') {
          enc.push({ speaker: 'user', text: readUserTurn(t.text, m.lexicon, enc.state, lastBot, requested) });
          requested ||= enc.state.slots.size > 0 || lastBot !== undefined && lastBot !== 'hello what can i help you with today';
        } else enc.push(t);
      }
      seen = history.slice();
      let h: Float32Array = hs[hs.length - 1] ?? new Float32Array(m.config.hidden);
      for (let k = hs.length; k < enc.steps.length; k++) {
        const s = enc.steps[k] as HcnStep;
        h = m.net.step(s.x, h, s.mask).h;
        hs.push(h);
      }
      const step = enc.pending();
      const { probs } = m.net.step(step.x, h, step.mask);
      let best = -1;
      const bestOf = (ok: (t: number) => boolean): number => {
        let b = -1;
        for (let t = 0; t < probs.length; t++) if (step.mask[t] && ok(t) && (b < 0 || (probs[t] as number) > (probs[b] as number))) b = t;
        return b;
      };
      // Never ask for a value the user gave already (out of order, e.g. the price when asked the party size).
      const asksKnown = (t: number): boolean => {
        const act = readBotAct(step.fills[t] ?? '');
        return act.kind === 'ask' && enc.state.slots.has(act.slot);
      };
      best = bestOf((t) => !asksKnown(t));
      if (best < 0) best = bestOf(() => true);
      if (best >= 0 && lastCall !== undefined && isProposal(step.fills[best])) {
        const call = bestOf((t) => step.fills[t]?.startsWith('api_call ') === true);
        if (call >= 0 && step.fills[call] !== lastCall) best = call; // the goal moved: search again
      }
      const text = best >= 0 ? step.fills[best] ?? '' : '';
      return explainStep(m, { text, template: best, probs, step }, nextProposal(enc.state));
    },
  };
}
