/**
 * Full DSTC6 Track 1 dialogs (tasks 1–5), before they are cut into entries. The user is random
 * (patterns and distributions of patterns-dstc6.ts); the bot is a deterministic function of the
 * history: it greets, says "i'm on it", asks missing slots in the order atmosphere → cuisine →
 * location → number → price → restrictions, waits ("whenever you're ready") when the user
 * hesitates, announces the search, issues the api_call, confirms updates, proposes the results by
 * decreasing rating, repeats an earlier option on request, apologises for out-of-scope questions
 * and gives phone numbers and addresses.
 *
 * Structure per task (as in the real files):
 * 1. greeting, request with 0–4 slots, questions, api_call.
 * 2. greeting, request with every slot, api_call, 1–n updates of distinct slots, "no", new api_call.
 * 3. KB results (≤ 4 restaurants of a call with ≥ 3, shuffled), request with every slot, proposals
 *    until the user accepts.
 * 4. the restaurant's 9 facts, "book a table at <name>", phone and/or address.
 * 5. task 1 + the updates of task 2 + KB results (≤ 4 of a call with ≥ 1) + proposals + task 4's
 *    questions + thanks / "is there anything i can help you with" / "no thanks".
 */
import type { Turn } from '../../core/dialog.js';
import type { Rng } from '../../core/rng.js';
import { hashString } from '../../core/rng.js';
import { ConfigError, InternalError } from '../../core/errors.js';
import { MemoryKbStore, type ApiCall, type KbStore, type Restaurant } from '../restaurant/kb.js';
import { DSTC6_KB, byRating, resultLines } from '../restaurant/kb-dialects.js';
import { callKey, formatExtApiCall, slotValues, type ExtSlot, type KbId } from './extended-kb.js';
import { drawInfo } from '../restaurant/patterns.js';
import {
  ACCEPTS,
  ACCEPT_NEWEST,
  ACCEPT_RECALLED,
  ANSWERS,
  ASK_ADDRESS,
  ASK_INFO_FRIEND,
  ASK_ORDER,
  ASK_PHONE,
  BOT6,
  CONFIRM_INFO,
  CONSULT_INFO,
  DSTC6_DIST,
  FRIEND_PREFIXES,
  GREETINGS,
  HESITANT_SLOTS,
  HESITATIONS,
  NO_MORE_UPDATES,
  NO_THANKS,
  OUT_OF_SCOPE,
  RECALL_FIRST,
  RECALL_PREVIOUS,
  REJECTS,
  REJECTS_AGAIN,
  REQUEST_OPENERS,
  SLOT_PHRASES,
  THANKS,
  UPDATE_OPENERS,
  fillPattern,
  hereItIs6,
  propose6,
  recall6,
  type AnswerPattern,
} from './patterns-dstc6.js';

/**
 * A DSTC6 Track 1 task: 1 issuing API calls, 2 updating them, 3 displaying options, 4 providing
 * extra information, 5 full dialogs (the bAbI tasks on the extended KBs).
 *
 * @example
 * ```ts
 * import { DSTC6_TASK_NAMES, type Dstc6Task } from 'dialogym/dstc6';
 * const task: Dstc6Task = 3;
 * DSTC6_TASK_NAMES[task]; // 'task3OPTIONS'
 * ```
 */
export type Dstc6Task = 1 | 2 | 3 | 4 | 5;
/**
 * The five tasks, in order.
 *
 * @example
 * ```ts
 * import { DSTC6_TASKS, dstc6FileName } from 'dialogym/dstc6';
 * const names = DSTC6_TASKS.map((t) => dstc6FileName(t, 'tst1'));
 * ```
 */
export const DSTC6_TASKS: readonly Dstc6Task[] = [1, 2, 3, 4, 5];
export const SILENCE6 = '<silence>';

/**
 * What a dialog is generated against: one KB, the api_call slots of the set, and the goal half.
 * Make one with `makeSimContext`.
 *
 * @example
 * ```ts
 * import { makeSimContext, type SimContext } from 'dialogym/dstc6';
 * import { DSTC6_KB, readKb } from 'dialogym/restaurant';
 * const ctx: SimContext = makeSimContext(readKb('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb1.txt', DSTC6_KB).restaurants, 1, false, 1);
 * ctx.slots; // ['cuisine', 'location', 'number', 'price', 'atmosphere']
 * ```
 */
export interface SimContext {
  readonly kb: KbId;
  readonly slots: readonly ExtSlot[];
  readonly store: KbStore;
  /** The KB's restaurants, in KB order. */
  readonly restaurants: readonly Restaurant[];
  /** Goals (api_calls / restaurants) are split in two halves by a hash of the call: 0 = training, 1 = test. */
  readonly half: 0 | 1;
}

/**
 * A simulation context over `restaurants` (KB `kb`): api_call slots cuisine, location,
 * number, price, atmosphere (+ restrictions when `restrictions`), and the goal half (0 for
 * training, 1 for test goals). Does not check that the restaurants use KB `kb`'s vocabulary.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKb, makeSimContext } from 'dialogym/dstc6';
 * const ctx = makeSimContext(generateExtendedKb(createRng(1), 2), 2, true, 1); // tst4-like
 * ```
 */
export function makeSimContext(restaurants: readonly Restaurant[], kb: KbId, restrictions: boolean, half: 0 | 1): SimContext {
  const slots: ExtSlot[] = ['cuisine', 'location', 'number', 'price', 'atmosphere'];
  if (restrictions) slots.push('restrictions');
  return { kb, slots, store: new MemoryKbStore(restaurants), restaurants, half };
}

/** The half a call belongs to (seed-independent, so training and test goals never meet). */
export function goalHalf(call: Partial<ApiCall>, slots: readonly ExtSlot[]): 0 | 1 {
  return (hashString(callKey(call, slots)) & 1) as 0 | 1;
}

class Builder {
  readonly turns: Turn[] = [];
  user(text: string): void {
    this.turns.push({ speaker: 'user', text });
  }
  bot(text: string): void {
    this.turns.push({ speaker: 'bot', text });
  }
  kb(lines: readonly string[]): void {
    for (const text of lines) this.turns.push({ speaker: 'kb', text });
  }
}

function pickWeighted(rng: Rng, xs: readonly AnswerPattern[]): string {
  return (xs[rng.weighted(xs.map((x) => x.weight ?? 1))] as AnswerPattern).text;
}

function other(rng: Rng, values: readonly string[], not: string): string {
  return rng.pick(values.filter((v) => v !== not));
}

function slotPhrase(rng: Rng, slot: ExtSlot, value: string): string {
  return fillPattern(rng.pick(SLOT_PHRASES[slot]), { X: value });
}

/**
 * The DSTC6 user's turns from the patterns of patterns-dstc6.ts: what the generated dialogs say
 * and what the online `-v1` user says (online.ts). Each draws from `rng` in the order the
 * generated files were made with.
 */
export const DSTC6_USER = {
  greeting: (rng: Rng): string => rng.pick(GREETINGS),
  /** The opening request giving `slots` of `goal`. */
  request: (rng: Rng, goal: ApiCall, slots: readonly ExtSlot[]): string => [rng.pick(REQUEST_OPENERS), ...slots.map((s) => slotPhrase(rng, s, goal[s] as string))].join(' '),
  bookAt: (rng: Rng, name: string): string => `${rng.pick(REQUEST_OPENERS)} at ${name}`,
  /** Her hesitation about `slot` over KB `kb`, if she hesitates (only cuisine, location, price; with probability `DSTC6_DIST.hesitation`). */
  hesitation(rng: Rng, kb: KbId, slot: ExtSlot): string | undefined {
    if (!HESITANT_SLOTS.includes(slot) || !rng.chance(DSTC6_DIST.hesitation)) return undefined;
    const [a, b] = rng.sample(slotValues(slot, kb), 2) as [string, string];
    return fillPattern(pickWeighted(rng, HESITATIONS[slot] ?? []), { A: a, B: b, F: rng.pick(FRIEND_PREFIXES) });
  },
  update: (rng: Rng, slot: ExtSlot, value: string): string => `${fillPattern(pickWeighted(rng, UPDATE_OPENERS), { F: rng.pick(FRIEND_PREFIXES) })} ${slotPhrase(rng, slot, value)}`,
  accept: (rng: Rng): string => rng.pick(ACCEPTS),
  /** A question for the phone or the address: with probability `DSTC6_DIST.hesitation` a friend consultation (the distractor) and a confirmation, else a direct question or one through a friend. */
  askInfo(rng: Rng, kind: 'phone' | 'address'): { distractor?: string; text: string } {
    const F = rng.pick(FRIEND_PREFIXES);
    if (rng.chance(DSTC6_DIST.hesitation)) return { distractor: fillPattern(CONSULT_INFO[kind], { F }), text: CONFIRM_INFO };
    const direct = kind === 'phone' ? ASK_PHONE : ASK_ADDRESS;
    const k = rng.int(direct.length + 1);
    return { text: k < direct.length ? (direct[k] as string) : fillPattern(ASK_INFO_FRIEND[kind], { F }) };
  },
  thanks: (rng: Rng): string => rng.pick(THANKS),
  noThanks: (rng: Rng): string => rng.pick(NO_THANKS),
};

/** The user's committing answer for `slot` = `value`. */
function answer(rng: Rng, ctx: SimContext, slot: ExtSlot, value: string): string {
  return fillPattern(rng.pick(ANSWERS[slot]), { X: value, Y: other(rng, slotValues(slot, ctx.kb), value), F: rng.pick(FRIEND_PREFIXES) });
}

function maybeHesitate(rng: Rng, b: Builder, ctx: SimContext, slot: ExtSlot): void {
  const h = DSTC6_USER.hesitation(rng, ctx.kb, slot);
  if (h !== undefined) {
    b.user(h);
    b.bot(BOT6.wait);
  }
}

/** Greeting, request naming `nSlots` slots, questions for the others, ending with the bot's "ok let me look into some options for you". */
function requestPhase(rng: Rng, b: Builder, ctx: SimContext, goal: ApiCall, nSlots: number): void {
  b.user(DSTC6_USER.greeting(rng));
  b.bot(BOT6.greet);
  const given = rng.sample(ctx.slots, nSlots);
  b.user(DSTC6_USER.request(rng, goal, given));
  b.bot(BOT6.onIt);
  b.user(SILENCE6);
  for (const s of ASK_ORDER) {
    if (!ctx.slots.includes(s) || given.includes(s)) continue;
    b.bot(BOT6.ask[s]);
    maybeHesitate(rng, b, ctx, s);
    b.user(answer(rng, ctx, s, goal[s] as string));
  }
  b.bot(BOT6.lookInto);
}

/** Updates of `fields` (distinct) to the values of `next`, "no", and the new api_call. */
function updatePhase(rng: Rng, b: Builder, ctx: SimContext, fields: readonly ExtSlot[], next: ApiCall): void {
  fields.forEach((f, i) => {
    if (i > 0) maybeHesitate(rng, b, ctx, f);
    b.user(DSTC6_USER.update(rng, f, next[f] as string));
    b.bot(BOT6.updated);
  });
  b.user(NO_MORE_UPDATES);
  b.bot(BOT6.lookInto);
  b.user(SILENCE6);
  b.bot(formatExtApiCall(next, ctx.slots));
}

/** At most `maxResults` of the call's restaurants, in random order (the KB lines shown). */
export function shownResults(rng: Rng, results: readonly Restaurant[]): Restaurant[] {
  const n = Math.min(results.length, DSTC6_DIST.maxResults);
  return rng.sample(results, n);
}

/** Proposals by decreasing rating until the user accepts; returns the accepted restaurant. Starts with the user's silence. */
function proposalPhase(rng: Rng, b: Builder, results: readonly Restaurant[], acceptP: number): Restaurant {
  const ranked = byRating(results);
  b.user(SILENCE6);
  for (let i = 0; i < ranked.length; i++) {
    const r = ranked[i] as Restaurant;
    b.bot(propose6(r.name));
    if (i === ranked.length - 1) {
      b.user(DSTC6_USER.accept(rng));
      b.bot(BOT6.reserve);
      return r;
    }
    if (rng.chance(DSTC6_DIST.outOfScope)) {
      b.user(rng.pick(OUT_OF_SCOPE));
      b.bot(BOT6.sorry);
    }
    if (rng.chance(acceptP)) {
      b.user(DSTC6_USER.accept(rng));
      b.bot(BOT6.reserve);
      return r;
    }
    if (i > 0 && rng.chance(DSTC6_DIST.recall)) {
      const first = rng.chance(0.5);
      const recalled = first ? (ranked[0] as Restaurant) : (ranked[i - 1] as Restaurant);
      b.user(rng.pick(first ? RECALL_FIRST : RECALL_PREVIOUS));
      b.bot(recall6(recalled.name));
      const d = rng.weighted(DSTC6_DIST.afterRecall);
      if (d === 0 || d === 1) {
        b.user(rng.pick(d === 0 ? ACCEPT_RECALLED : ACCEPT_NEWEST));
        b.bot(BOT6.reserve);
        return d === 0 ? recalled : r;
      }
      b.user(rng.pick(rng.chance(DSTC6_DIST.rejectAgain) ? REJECTS_AGAIN : REJECTS));
    } else {
      b.user(rng.pick(REJECTS));
    }
    b.bot(BOT6.another);
    b.user(SILENCE6);
  }
  throw new InternalError('proposalPhase: no result to propose');
}

/** Phone only / address only / both; each question is a friend consultation (the distractor) with probability 0.5. */
function infoPhase(rng: Rng, b: Builder, r: Restaurant): void {
  for (const a of drawInfo(rng, DSTC6_DIST.infoWeights)) {
    const q = DSTC6_USER.askInfo(rng, a);
    if (q.distractor !== undefined) {
      b.user(q.distractor);
      b.bot(BOT6.wait);
    }
    b.user(q.text);
    b.bot(hereItIs6(r[a]));
  }
}

/** A random call in the context's goal half. */
export function randomCall(rng: Rng, ctx: SimContext): ApiCall {
  for (;;) {
    const call: Partial<ApiCall> = {};
    for (const s of ctx.slots) call[s] = rng.pick(slotValues(s, ctx.kb));
    if (goalHalf(call, ctx.slots) === ctx.half) return call as ApiCall;
  }
}

/**
 * Goal pools that depend on the KB, computed once per context (`goalPools`) and handed to
 * `generateDialog`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKb, makeSimContext, goalPools, type GoalPools } from 'dialogym/dstc6';
 * const pools: GoalPools = goalPools(makeSimContext(generateExtendedKb(createRng(1), 1), 1, false, 0));
 * pools.task3Calls.length > 0; // true
 * ```
 */
export interface GoalPools {
  /** Calls of the half with ≥ 3 results (task 3). */
  readonly task3Calls: readonly ApiCall[];
  /** Restaurants whose call lies in the half (task 4). */
  readonly task4Restaurants: readonly Restaurant[];
}

/**
 * The goal pools of a context: the calls of its half with at least 3 results (task 3) and the
 * restaurants whose call lies in the half (task 4).
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateDialog, generateExtendedKb, goalPools, makeSimContext } from 'dialogym/dstc6';
 * const ctx = makeSimContext(generateExtendedKb(createRng(1), 1), 1, false, 0);
 * const turns = generateDialog(5, createRng(2), ctx, goalPools(ctx));
 * ```
 */
export function goalPools(ctx: SimContext): GoalPools {
  const seen = new Map<string, ApiCall>();
  const rs: Restaurant[] = [];
  for (const r of ctx.restaurants) {
    if (goalHalf(r, ctx.slots) !== ctx.half) continue;
    rs.push(r);
    const k = callKey(r, ctx.slots);
    if (seen.has(k)) continue;
    const call: Partial<ApiCall> = {};
    for (const s of ctx.slots) call[s] = r[s];
    if (ctx.store.query(call as ApiCall).length >= DSTC6_DIST.minResults[3]) seen.set(k, call as ApiCall);
  }
  const task3Calls = [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]);
  return { task3Calls, task4Restaurants: rs };
}

export function task1Dialog(rng: Rng, ctx: SimContext): Turn[] {
  const b = new Builder();
  const goal = randomCall(rng, ctx);
  requestPhase(rng, b, ctx, goal, rng.range(...DSTC6_DIST.requestSlots[1]));
  b.user(SILENCE6);
  b.bot(formatExtApiCall(goal, ctx.slots));
  return b.turns;
}

/** k distinct slots of the context set to other values than in `first`. */
export function updatedCall(rng: Rng, ctx: SimContext, first: ApiCall, k: number): { fields: ExtSlot[]; next: ApiCall } {
  const fields = rng.sample(ctx.slots, k);
  const next: ApiCall = { ...first };
  for (const f of fields) next[f] = other(rng, slotValues(f, ctx.kb), first[f] as string);
  return { fields, next };
}

export function task2Dialog(rng: Rng, ctx: SimContext): Turn[] {
  const b = new Builder();
  const goal = randomCall(rng, ctx);
  requestPhase(rng, b, ctx, goal, ctx.slots.length);
  b.user(SILENCE6);
  b.bot(formatExtApiCall(goal, ctx.slots));
  const { fields, next } = updatedCall(rng, ctx, goal, rng.range(1, ctx.slots.length));
  updatePhase(rng, b, ctx, fields, next);
  return b.turns;
}

export function task3Dialog(rng: Rng, ctx: SimContext, pools: GoalPools): Turn[] {
  if (pools.task3Calls.length === 0) throw new ConfigError(`task 3: the KB has no api_call with ≥ ${DSTC6_DIST.minResults[3]} results in this half`);
  const goal = rng.pick(pools.task3Calls);
  const shown = shownResults(rng, ctx.store.query(goal));
  const b = new Builder();
  b.kb(shown.flatMap((r) => resultLines(r, DSTC6_KB)));
  requestPhase(rng, b, ctx, goal, ctx.slots.length);
  proposalPhase(rng, b, shown, DSTC6_DIST.accept[3]);
  return b.turns;
}

export function task4Dialog(rng: Rng, pools: GoalPools): Turn[] {
  if (pools.task4Restaurants.length === 0) throw new ConfigError('task 4: the KB has no restaurant in this half');
  const r = rng.pick(pools.task4Restaurants);
  const b = new Builder();
  b.kb(resultLines(r, DSTC6_KB));
  b.user(DSTC6_USER.greeting(rng));
  b.bot(BOT6.greet);
  b.user(DSTC6_USER.bookAt(rng, r.name));
  b.bot(BOT6.reserve);
  infoPhase(rng, b, r);
  return b.turns;
}

export function task5Dialog(rng: Rng, ctx: SimContext): Turn[] {
  const first = randomCall(rng, ctx);
  const k = rng.range(1, ctx.slots.length);
  // The final call must return at least one restaurant: redraw the updates (rarely needed).
  let upd = updatedCall(rng, ctx, first, k);
  for (let attempt = 0; ctx.store.query(upd.next).length < DSTC6_DIST.minResults[5]; attempt++) {
    if (attempt > 10_000) throw new ConfigError('task 5: no updated api_call with results (is the KB empty?)');
    upd = updatedCall(rng, ctx, first, k);
  }
  const b = new Builder();
  requestPhase(rng, b, ctx, first, rng.range(...DSTC6_DIST.requestSlots[5]));
  b.user(SILENCE6);
  b.bot(formatExtApiCall(first, ctx.slots));
  updatePhase(rng, b, ctx, upd.fields, upd.next);
  const shown = shownResults(rng, ctx.store.query(upd.next));
  b.kb(shown.flatMap((r) => resultLines(r, DSTC6_KB)));
  const accepted = proposalPhase(rng, b, shown, DSTC6_DIST.accept[5]);
  infoPhase(rng, b, accepted);
  b.user(DSTC6_USER.thanks(rng));
  b.bot(BOT6.anythingElse);
  b.user(DSTC6_USER.noThanks(rng));
  b.bot(BOT6.welcome);
  return b.turns;
}

/**
 * Simulates one full dialog of `task` against `ctx` (user and bot turns, `kb` turns for API
 * results; the silent user turn is `<silence>`). `pools` holds the goal pools of tasks 3 and 4,
 * computed by `goalPools`, which `dialogym/dstc6` does not export: outside the package, use
 * `generateSet`, or tasks 1, 2 and 5 with empty pools as below.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKb, makeSimContext, generateDialog } from 'dialogym/dstc6';
 * const ctx = makeSimContext(generateExtendedKb(createRng(1), 1), 1, false, 0);
 * const turns = generateDialog(1, createRng(5), ctx, { task3Calls: [], task4Restaurants: [] });
 * ```
 */
export function generateDialog(task: Dstc6Task, rng: Rng, ctx: SimContext, pools: GoalPools): Turn[] {
  switch (task) {
    case 1:
      return task1Dialog(rng, ctx);
    case 2:
      return task2Dialog(rng, ctx);
    case 3:
      return task3Dialog(rng, ctx, pools);
    case 4:
      return task4Dialog(rng, pools);
    case 5:
      return task5Dialog(rng, ctx);
  }
}
