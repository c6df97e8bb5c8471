/**
 * The paper's task-6 rule-based baseline (Bordes, Boureau & Weston 2017, §4.1), registered as
 * `rules-dstc2`: a dialog state over cuisine, location and price (rules-dstc2-state.ts), rules that
 * fire on word matches, dialog position, entities and state (`decideDstc2` below), and responses
 * worded from patterns learned on the training file (rules-dstc2-patterns.ts).
 *
 * Rules, read off trn/dev:
 * - first turn: the greeting; `good bye` → the closing;
 * - before any api_call: a cuisine that no KB restaurant serves → `no restaurant serving X`;
 *   a known cuisine (or `any food` with a location) → the api_call; otherwise ask the area when
 *   neither area nor cuisine is known, else the cuisine, and the price when only it is missing;
 * - the api_call answer: `no result` → sorry pattern; else offer the best-rated result;
 * - after a call: changed constraints → a new api_call; questions about the current restaurant
 *   (phone before address before post code before price/area/food) → its KB facts; `anything
 *   else` → the next-best result (or `no other`); anything not understood → the current restaurant.
 */
import type { Dialog, Turn } from '../../../core/dialog.js';
import { ConfigError, errorText, optionName } from '../../../core/errors.js';
import type { Responder } from '../../../rankers/ranker.js';
import {
  buildLexicon,
  DONTCARE,
  DSTC2_SLOTS,
  type Dstc2Info,
  type Dstc2Lexicon,
  type Dstc2Slot,
  type SlotValues,
} from './dstc2-lexicon.js';
import { fill, learnPatterns, type Decision, type PatternTable, type PatternValues } from './dstc2-patterns.js';
import { goalChanged, rankedResults, trackDstc2, type Dstc2State, type KbResult } from './dstc2-state.js';

/**
 * Options of `createDstc2RulesBot` (the `rules-dstc2` model).
 *
 * @example
 * ```ts
 * import { readBabiKb } from 'dialogym';
 * import type { Dstc2RulesOptions } from 'dialogym/restaurant';
 * const opts: Dstc2RulesOptions = { kb: readBabiKb('data/dialog-bAbI-tasks/dialog-babi-task6-dstc2-kb.txt').facts };
 * ```
 */
export interface Dstc2RulesOptions {
  /** Task-6 KB facts (`dialog-babi-task6-dstc2-kb.txt`): restaurants' cuisines and contact facts. */
  readonly kb?: readonly { readonly entity: string; readonly attr: string; readonly value: string }[];
}

/** The constraint pattern of a set of slots: V (value) / D (don't care or unknown) per slot. */
export function constraintKey(slots: SlotValues | undefined): string {
  return DSTC2_SLOTS.map((s) => {
    const v = slots?.[s];
    return v === undefined || v === DONTCARE ? 'D' : 'V';
  }).join('');
}

export function apiCall(goal: SlotValues): string {
  return 'api_call ' + DSTC2_SLOTS.map((s) => (goal[s] === undefined || goal[s] === DONTCARE ? `R_${s}` : goal[s])).join(' ');
}

function slotValues(slots: SlotValues | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of DSTC2_SLOTS) {
    const v = slots?.[s];
    if (v !== undefined && v !== DONTCARE) out[s] = v;
  }
  return out;
}

/** What the bot knows about a restaurant: the api_call result's facts, else the KB's. */
function factsOf(name: string, st: Dstc2State, lex: Dstc2Lexicon): PatternValues {
  const fromResult = st.results.find((r) => r.name === name)?.facts ?? {};
  const fromKb = lex.restaurants.get(name) ?? {};
  const out: Record<string, string> = { name };
  for (const k of ['cuisine', 'location', 'price', 'phone', 'address', 'post_code']) {
    const v = fromResult[k] ?? fromKb[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

const offerValues = (r: KbResult, st: Dstc2State, lex: Dstc2Lexicon): PatternValues => ({ ...factsOf(r.name, st, lex), ...r.facts, name: r.name });

/** The rules' decision for the next bot turn. */
export function decideDstc2(history: readonly Turn[], lex: Dstc2Lexicon, served: ReadonlySet<string>): Decision {
  const st = trackDstc2(history, lex);
  const u = st.lastUser;
  if (st.botTurns === 0 || !u) return { key: 'greet', values: {} };
  const ck = constraintKey(st.call);
  if (st.resultsPending) {
    if (st.noResult) return { key: `noresult:${ck}`, values: slotValues(st.call) };
    const best = rankedResults(st)[0];
    if (best) return { key: `offer:${ck}`, values: offerValues(best, st, lex) };
  }
  if (u.bye) return { key: 'bye', values: {} };
  // A cuisine the KB has no restaurant for.
  const said = u.slots.cuisine;
  if (said !== undefined && said !== DONTCARE && served.size > 0 && !served.has(said)) return { key: 'nocuisine', values: { cuisine: said } };
  if (st.calls === 0) return beforeCall(st);
  if (goalChanged(st)) return { literal: apiCall(st.goal) };
  const cur = st.current;
  if (cur !== undefined && u.requests.length > 0) {
    const info = pickRequest(u.requests);
    return { key: `inform:${info}`, values: factsOf(cur, st, lex) };
  }
  if (u.reqalts) {
    const next = rankedResults(st)[0];
    if (next) return { key: `offer-alt:${ck}`, values: offerValues(next, st, lex) };
    return { key: `nomore:${ck}`, values: slotValues(st.call) };
  }
  if (cur !== undefined) return { key: 'current', values: factsOf(cur, st, lex) };
  return { key: 'confused', values: slotValues(st.goal) };
}

const REQUEST_ORDER: readonly Dstc2Info[] = ['phone', 'address', 'post_code', 'price', 'location', 'cuisine'];

function pickRequest(requests: readonly Dstc2Info[]): Dstc2Info {
  for (const r of REQUEST_ORDER) if (requests.includes(r)) return r;
  return requests[0] as Dstc2Info;
}

function beforeCall(st: Dstc2State): Decision {
  const g = st.goal;
  const known = (s: Dstc2Slot): boolean => g[s] !== undefined;
  const asked = (s: Dstc2Slot): boolean => st.asked.includes(s);
  const ask = (s: Dstc2Slot): Decision => ({ key: `ask:${s}`, values: {} });
  if (!known('cuisine')) return known('location') || asked('location') ? ask('cuisine') : ask('location');
  if (g.cuisine === DONTCARE) {
    if (!known('location') && !asked('location')) return ask('location');
    if (!known('price') && !asked('price') && g.location !== DONTCARE) return ask('price');
  }
  return { literal: apiCall(g) };
}

/**
 * The task-6 rule-based bot (`rules-dstc2`): the rules of the module description, worded with a
 * pattern table learned from the training dialogs. Build it with `createDstc2RulesBot` (the class
 * itself is exported from `dialogym/restaurant` as a type only).
 *
 * @example
 * ```ts
 * import { readBabiDialogs, readBabiKb } from 'dialogym';
 * import { createDstc2RulesBot, type Dstc2RulesBot } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const bot: Dstc2RulesBot = createDstc2RulesBot(readBabiDialogs(dir + 'dialog-babi-task6-dstc2-trn.txt').dialogs, { kb: readBabiKb(dir + 'dialog-babi-task6-dstc2-kb.txt').facts });
 * bot.respond([{ speaker: 'user', text: '<SILENCE>' }]); // the greeting
 * ```
 */
export class Dstc2RulesBot implements Responder {
  readonly name = 'rules-dstc2';
  readonly lexicon: Dstc2Lexicon;
  readonly patterns: PatternTable;
  /** Cuisines some KB restaurant serves. */
  private readonly served: Set<string>;

  constructor(train: readonly Dialog[], opts: Dstc2RulesOptions = {}) {
    this.lexicon = buildLexicon(train, opts.kb ?? []);
    this.served = new Set();
    for (const r of this.lexicon.restaurants.values()) if (r['cuisine'] !== undefined) this.served.add(r['cuisine']);
    this.patterns = learnPatterns(train, (h) => decideDstc2(h, this.lexicon, this.served));
  }

  decide(history: readonly Turn[]): Decision {
    return decideDstc2(history, this.lexicon, this.served);
  }

  respond(history: readonly Turn[]): string {
    return this.realise(this.decide(history));
  }

  /** Words a decision with the first learned pattern that fits its values. */
  realise(d: Decision): string {
    if ('literal' in d) return d.literal;
    const family = d.key.split(':')[0] as string;
    for (const k of [d.key, family]) {
      for (const p of this.patterns.byKey.get(k) ?? []) {
        if (d.values['name'] !== undefined && this.foreignName(p)) continue;
        const s = fill(p, d.values, this.patterns.nameForms);
        if (s !== undefined) return s;
      }
    }
    return d.values['name'] ?? '';
  }

  /** Whether a pattern still names a restaurant (it was another restaurant's turn). */
  foreignName(pattern: string): boolean {
    for (const w of pattern.split(' ')) if (this.lexicon.restaurants.has(w.replace(/_(phone|address|post_code)$/, ''))) return true;
    return false;
  }
}

/**
 * Factory for the `rules-dstc2` model: learns from the task-6 training dialogs; throws a
 * ConfigError when none are given.
 *
 * @example
 * ```ts
 * import { readBabiDialogs, evaluateDialogs, accuracy } from 'dialogym';
 * import { createDstc2RulesBot } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const bot = createDstc2RulesBot(readBabiDialogs(dir + 'dialog-babi-task6-dstc2-trn.txt').dialogs);
 * accuracy.perResponse(evaluateDialogs(bot, readBabiDialogs(dir + 'dialog-babi-task6-dstc2-tst.txt').dialogs));
 * ```
 */
export function createDstc2RulesBot(train: readonly Dialog[] | undefined, opts: Dstc2RulesOptions = {}): Dstc2RulesBot {
  if (!train || train.length === 0) {
    throw new ConfigError(errorText`model 'rules-dstc2' learns its response patterns from the task-6 training file: give ${optionName('train')} dialog-babi-task6-dstc2-trn.txt`);
  }
  return new Dstc2RulesBot(train, opts);
}
