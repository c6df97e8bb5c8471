/**
 * The reference rule-based bot for the restaurant testbeds (bAbI dialog tasks 1–5, the paper's
 * "Rule-based Systems" column; DSTC6 Track 1). One state machine: `trackState` reads the history,
 * `decide` picks the next bot turn from the state and the last user act.
 *
 * Policy (derived from the original files):
 * - greeting → greeting; booking request → `i'm on it` (or, for `... at <restaurant>`, the reservation);
 * - missing slots are asked in a fixed order (bAbI: cuisine, location, number, price; DSTC6 adds
 *   atmosphere first and dietary restrictions last), then `ok let me look into some options`;
 * - after that, the api_call with the goal's slots — or, when KB results are already in the history
 *   and no call was made (task 3), the best option directly;
 * - after a call the user may update slots (`sure is there anything else to update`) until `no`;
 * - options are proposed by decreasing rating among the current KB results, skipping proposed ones;
 * - phone/address requests are answered with the booked restaurant's KB facts;
 * - thanks → `is there anything i can help you with` once a reservation is under way, else
 *   `you're welcome`; `no thanks` → `you're welcome`.
 */
import type { Turn } from '../../../core/dialog.js';
import { isDstc6KbLine } from '../../../formats/dstc6.js';
import type { KbFact } from '../../../formats/babi.js';
import { attrType } from '../../../rankers/match-type.js';
import type { Responder } from '../../../rankers/ranker.js';
import { RESTRICTIONS, type InfoKind, type Slot } from './nlu.js';
import { PHRASEBOOKS, type Dialect, type Phrasebook } from './phrases.js';
import { bestRated, emptyState, ratingOf, trackState, type DialogState } from './state.js';

/**
 * Options of `createRulesBot` (the `rules` model).
 *
 * @example
 * ```ts
 * import { createRulesBot, type RulesOptions } from 'dialogym/restaurant';
 * const opts: RulesOptions = { dialect: 'dstc6', restrictions: true }; // a tst3/tst4 DSTC6 bot
 * const bot = createRulesBot(opts);
 * ```
 */
export interface RulesOptions {
  /** Bot wording; `auto` reads it from the history (bAbI when nothing tells). Default `auto`. */
  readonly dialect?: Dialect | 'auto';
  /**
   * Whether the DSTC6 restrictions slot is in use (test sets tst3/tst4). `auto` (default) takes it
   * from the history when it can; when it cannot, `respondRanked` lists both possible turns.
   */
  readonly restrictions?: boolean | 'auto';
  /**
   * The KB (facts as `readKbFile` gives them): its cuisines and locations let the bot read them in
   * any wording (`italian in rome please`), and only its values become open slot values there.
   * Without it, only the datasets' templates (`with X food`, `in X`) tell a cuisine or a location.
   */
  readonly kb?: readonly KbFact[];
}

/** The cuisines and locations of a KB, word → slot. */
export function kbVocabulary(kb: readonly KbFact[]): Map<string, Slot> {
  const out = new Map<string, Slot>();
  for (const f of kb) {
    const slot = attrType(f.attr);
    if ((slot === 'cuisine' || slot === 'location') && !out.has(f.value)) out.set(f.value, slot);
  }
  return out;
}

/** The next bot turn(s): the first is the answer; more when the history leaves a choice open. */
export function decide(st: DialogState, pb: Phrasebook, restrictions: boolean | undefined): string[] {
  const u = st.lastUser;
  if (!u) return [pb.greet];
  const one = (s: string): string[] => [s];
  switch (u.kind) {
    case 'greet':
      return one(pb.greet);
    case 'request':
      return one(pb.onIt);
    case 'request-at':
      return one(pb.reserve);
    case 'silence':
      return afterSilence(st, pb, restrictions);
    case 'inform':
    case 'inform-bare':
      if (st.updating || st.lastBot?.kind === 'updated') return one(pb.updated);
      return nextQuestion(st, pb, restrictions);
    case 'hesitate':
      return one(pb.wait);
    case 'no':
      return one(pb.search);
    case 'accept':
      return one(pb.reserve);
    case 'reject':
      // The search found nothing: there is nothing else to propose either.
      if (st.noResult) return one(pb.noResult);
      // Every result proposed already: say so rather than propose one again.
      if (st.results.length > 0 && st.results.every((r) => st.proposed.includes(r))) return one(pb.noOther);
      return one(pb.another);
    case 'recall': {
      const r = u.which === 'first' ? st.proposed[0] : st.proposed[st.proposed.length - 2];
      return one(pb.recallPrefix + (r ?? st.current ?? ''));
    }
    case 'ask-info':
      return one(infoOf(st, pb, u.info));
    case 'consult-info':
      return one(pb.wait);
    case 'confirm-info':
      return one(infoOf(st, pb, st.consulting ?? 'phone'));
    case 'thanks':
      return one(st.booked !== undefined ? pb.anythingElse : pb.welcome);
    case 'bye':
      return one(pb.welcome);
    case 'out-of-scope':
      return one(pb.sorry);
    case 'yes': // a yes to no question
    case 'unknown':
      // Not understood: DSTC6's bot waits for a clearer turn; bAbI has no such turn, so apologise.
      return one(st.dialect === 'dstc6' ? pb.wait : pb.sorry);
  }
}

function afterSilence(st: DialogState, pb: Phrasebook, restrictions: boolean | undefined): string[] {
  const b = st.lastBot;
  switch (b?.kind) {
    case 'on-it':
      return nextQuestion(st, pb, restrictions);
    case 'search':
      // Task 3 (results in the history, no call yet) proposes directly; otherwise call the API.
      if (st.apiCalls === 0 && st.results.length > 0) return [propose(st, pb)];
      return apiCall(st, pb, restrictions);
    case 'api-call':
    case 'another':
      // The search found nothing (`api_call no result`): offer to change the request.
      if (st.noResult) return [pb.noResult];
      return [propose(st, pb)];
    case 'wait':
    case 'sorry':
      // It missed the user's words (a person it did not understand) and the user says nothing more:
      // ask again what it needs — the slot still missing, or the updates (after the first api_call,
      // the proposals included: there the -v2 user says again what it said last) — rather than wait
      // on a silent user until the turn limit (a person is never asked again while the user is silent).
      if (st.updating) return [pb.updated];
      if (pb.askOrder.some((slot) => slot !== 'restrictions' && st.slots[slot] === undefined)) return nextQuestion(st, pb, restrictions);
      return [pb.wait];
    default:
      return [pb.wait];
  }
}

/** Asks the first missing slot, or announces the search. */
function nextQuestion(st: DialogState, pb: Phrasebook, restrictions: boolean | undefined): string[] {
  const missing = (slot: Slot): boolean => st.slots[slot] === undefined;
  for (const slot of pb.askOrder) {
    if (slot === 'restrictions') {
      if (!missing(slot)) continue;
      if (restrictions === true) return [pb.ask.restrictions as string];
      if (restrictions === undefined) return [pb.search, pb.ask.restrictions as string];
      continue;
    }
    if (missing(slot)) return [pb.ask[slot] as string];
  }
  return [pb.search];
}

function apiCall(st: DialogState, pb: Phrasebook, restrictions: boolean | undefined): string[] {
  const args = pb.apiOrder.filter((s) => s !== 'restrictions' || restrictions === true || st.slots.restrictions !== undefined);
  const call = (slots: readonly Slot[]): string => ['api_call', ...slots.map((s) => st.slots[s] ?? '')].join(' ');
  return [call(args)];
}

/** The best-rated restaurant of the current results not yet proposed (first seen on ties). */
function propose(st: DialogState, pb: Phrasebook): string {
  const rating = (name: string): number => ratingOf(st.kb.get(name));
  // Every option rejected: start again from the best one.
  const best = bestRated(st.results, rating, (name) => st.proposed.includes(name)) ?? bestRated(st.results, rating);
  return best === undefined ? pb.noResult : pb.proposePrefix + best;
}

function infoOf(st: DialogState, pb: Phrasebook, info: InfoKind): string {
  const name = st.booked ?? st.current ?? '';
  if (name === '') return pb.sorry; // no restaurant proposed or booked yet
  const value = st.kb.get(name)?.attrs.get(info) ?? `${name}_${info}`;
  return pb.infoPrefix + value;
}

/** Whether candidate responses show the DSTC6 restrictions slot in use (tst3/tst4 wording). */
export function candidatesUseRestrictions(candidates: readonly string[]): boolean {
  const words = new Set<string>(RESTRICTIONS);
  // KB-result lines carry `r_restrictions` in every DSTC6 KB, so they are no evidence.
  return candidates.some(
    (c) => !isDstc6KbLine(c) && (c.includes('dietary restrictions') || c.includes('menu options') || c.split(' ').some((w) => words.has(w))),
  );
}

/** Token-set overlap (Jaccard) of two utterances. */
function similarity(a: string, b: string): number {
  const ta = new Set(a.split(/\s+/));
  const tb = new Set(b.split(/\s+/));
  let inter = 0;
  for (const t of ta) if (tb.has(t)) inter++;
  const union = ta.size + tb.size - inter;
  return union === 0 ? 0 : inter / union;
}

/**
 * The rule-based responder of `createRulesBot`: `respond` gives the next bot turn;
 * `respondRanked` lists alternatives when the history leaves a choice open (and, given candidates
 * with no exact match, adds the closest candidate).
 *
 * @example
 * ```ts
 * import { createRulesBot, type RulesBot } from 'dialogym/restaurant';
 * const bot: RulesBot = createRulesBot();
 * bot.respondRanked([{ speaker: 'user', text: 'hi' }]); // ['hello what can i help you with today']
 * ```
 */
export type RulesBot = Responder & {
  respondRanked(history: readonly Turn[], candidates?: readonly string[]): string[];
  /** `respondRanked` from a state already tracked (`trackState`, or kept up to date with `applyTurn`). */
  respondRankedFromState(st: DialogState, candidates?: readonly string[]): string[];
  /** The state before any turn, with this bot's KB vocabulary (start `applyTurn` from it). */
  initialState(): DialogState;
};

/**
 * Creates the reference rule-based bot for bAbI tasks 1–5 and DSTC6 Track 1 (the `rules` model;
 * policy in the module description). Never throws.
 *
 * @example
 * ```ts
 * import { createRulesBot } from 'dialogym/restaurant';
 * const bot = createRulesBot();
 * bot.respond([
 *   { speaker: 'user', text: 'hello' },
 *   { speaker: 'bot', text: 'hello what can i help you with today' },
 *   { speaker: 'user', text: 'can you book a table in rome' },
 * ]); // "i'm on it"
 * ```
 */
export function createRulesBot(opts: RulesOptions = {}): RulesBot {
  const dialectOpt = opts.dialect ?? 'auto';
  const restrOpt = opts.restrictions ?? 'auto';
  const respondRankedFromState = (st: DialogState, candidates?: readonly string[]): string[] => {
    const dialect: Dialect = dialectOpt === 'auto' ? st.dialect ?? 'babi' : dialectOpt;
    let restrictions = dialect === 'babi' ? false : restrOpt === 'auto' ? st.restrictions : restrOpt;
    // The history says nothing about the restrictions slot: the candidates' wording tells.
    if (restrictions === undefined && candidates) restrictions = candidatesUseRestrictions(candidates);
    const out = decide(st, PHRASEBOOKS[dialect], restrictions);
    if (candidates && candidates.length > 0 && !out.some((x) => candidates.includes(x))) {
      // No exact match among the candidates: fall back on the candidate closest to the response.
      const top = out[0] as string;
      let best = candidates[0] as string;
      let bestSim = -1;
      for (const c of candidates) {
        const sim = similarity(top, c);
        if (sim > bestSim) {
          best = c;
          bestSim = sim;
        }
      }
      out.push(best);
    }
    return out;
  };
  const vocab = kbVocabulary(opts.kb ?? []);
  const respondRanked = (history: readonly Turn[], candidates?: readonly string[]): string[] => respondRankedFromState(trackState(history, vocab), candidates);
  return {
    name: 'rules',
    respondRanked,
    respondRankedFromState,
    initialState: () => emptyState(vocab),
    respond: (history) => respondRanked(history)[0] as string,
  };
}
