/**
 * Simulator of the bAbI dialog tasks 1-5 (Bordes, Boureau & Weston 2017, §3.1.1), rebuilt from the
 * original files (see patterns.ts for the measured distributions).
 *
 * The user is random (patterns, slots, updates, accept/reject, questions); the bot is a
 * deterministic function of the history, exactly like the originals' bot: it greets, says
 * "i'm on it" after the request, asks missing fields in the fixed order cuisine → location →
 * number → price, announces the search, issues the api_call, confirms updates, proposes
 * restaurants by decreasing rating and answers phone/address questions.
 *
 * Splits: the goal space of each task (api_calls for tasks 1, 2 and 5 — the first call of 5 —,
 * result sets of valid calls for task 3, restaurants for task 4) is shuffled and cut in two halves
 * per vocabulary: trn draws from one half, dev and tst from the other, so no test dialog shares its
 * user goal with a training dialog (this is what the originals do: their first api_calls / result
 * sets / restaurants are disjoint between trn and dev/tst, while dev and tst share one pool; the
 * opening *utterance* does repeat, e.g. "may i have a table" with no slot). tst-OOV draws from the
 * second half of the OOV vocabulary's goal space.
 */
import type { Dialog, Turn } from '../../core/dialog.js';
import { SILENCE } from '../../formats/babi.js';
import type { Rng } from '../../core/rng.js';
import { ConfigError, DialogymError, InternalError } from '../../core/errors.js';
import { FIELDS, allApiCalls, fieldValues, formatApiCall, type ApiCall, type Field, type KbStore, type Restaurant, type VocabHalf, vocabOf } from './kb.js';
import { BABI_KB, resultLines as kbResultLines } from './kb-dialects.js';
import { BABI_USER, BOT, DISTRIBUTIONS, NO_MORE_UPDATES, botHereItIs, botPropose, drawInfo } from './patterns.js';

/**
 * A bAbI dialog task the simulator generates: 1 issuing API calls, 2 updating API calls,
 * 3 displaying options, 4 providing extra information, 5 full dialogs.
 *
 * @example
 * ```ts
 * import { TASK_FILE_STEMS, type TaskId } from 'dialogym/restaurant';
 * const task: TaskId = 4;
 * TASK_FILE_STEMS[task]; // 'dialog-babi-task4-phone-address'
 * ```
 */
export type TaskId = 1 | 2 | 3 | 4 | 5;
/**
 * The five generated tasks, in order.
 *
 * @example
 * ```ts
 * import { TASKS, generateRestaurantDataset } from 'dialogym/restaurant';
 * generateRestaurantDataset({ seed: 1, tasks: TASKS, dialogs: 10 });
 * ```
 */
export const TASKS: readonly TaskId[] = [1, 2, 3, 4, 5];
/**
 * A split of a task: training, development, test, and the out-of-vocabulary test set.
 *
 * @example
 * ```ts
 * import { splitVocab, type Split } from 'dialogym/restaurant';
 * const split: Split = 'tst-OOV';
 * splitVocab(split); // 'oov'
 * ```
 */
export type Split = 'trn' | 'dev' | 'tst' | 'tst-OOV';
/**
 * The four splits, in file order.
 *
 * @example
 * ```ts
 * import { SPLITS, dialogFileName } from 'dialogym/restaurant';
 * SPLITS.map((s) => dialogFileName(1, s));
 * ```
 */
export const SPLITS: readonly Split[] = ['trn', 'dev', 'tst', 'tst-OOV'];

/**
 * File-name stems of the original release, per task (add `-<split>.txt`).
 *
 * @example
 * ```ts
 * import { TASK_FILE_STEMS } from 'dialogym/restaurant';
 * `${TASK_FILE_STEMS[1]}-trn.txt`; // 'dialog-babi-task1-API-calls-trn.txt'
 * ```
 */
export const TASK_FILE_STEMS: Readonly<Record<TaskId, string>> = {
  1: 'dialog-babi-task1-API-calls',
  2: 'dialog-babi-task2-API-refine',
  3: 'dialog-babi-task3-options',
  4: 'dialog-babi-task4-phone-address',
  5: 'dialog-babi-task5-full-dialogs',
};

/**
 * The vocabulary half a split's dialogs use: `oov` for tst-OOV, `iv` for the others.
 *
 * @example
 * ```ts
 * import { splitVocab } from 'dialogym/restaurant';
 * splitVocab('dev'); // 'iv'
 * ```
 */
export function splitVocab(split: Split): VocabHalf {
  return split === 'tst-OOV' ? 'oov' : 'iv';
}

/**
 * Order of the KB-result lines of one call. The originals list a call's restaurants in no single
 * order (the same result set appears in several orders). Over the 3-result sets of the task 3 and 5
 * files (rating ranks 0 = best): decreasing rating 33–42%, increasing rating (the KB file's order)
 * 15–24%, each other order 6–13%. We cannot recover the original mechanism, so: decreasing rating
 * with probability 0.27, increasing with 0.08, otherwise a uniform shuffle (for 3 results: 37.8% /
 * 18.8% / 10.8% each). The draws are made so that the random stream is the same as with the former
 * 0.22-sorted-else-shuffled rule (only the order of some result lists differs from that rule's).
 */
export const SORTED_RESULTS_PROBABILITY = 0.27;
export const ASCENDING_RESULTS_PROBABILITY = 0.08;
const FIRST_SORTED = 0.22;

export function orderResults(rng: Rng, results: readonly Restaurant[]): Restaurant[] {
  const u = rng.next();
  if (u < FIRST_SORTED) return byDecreasingRating(results);
  const shuffled = rng.shuffle(results);
  if (u < SORTED_RESULTS_PROBABILITY) return byDecreasingRating(results);
  if (u < SORTED_RESULTS_PROBABILITY + ASCENDING_RESULTS_PROBABILITY) return byDecreasingRating(results).reverse();
  return shuffled;
}

export function byDecreasingRating(results: readonly Restaurant[]): Restaurant[] {
  return results.slice().sort((a, b) => b.rating - a.rating || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

class DialogBuilder {
  readonly turns: Turn[] = [];
  turn(user: string, bot: string): void {
    this.turns.push({ speaker: 'user', text: user }, { speaker: 'bot', text: bot });
  }
  kb(lines: readonly string[]): void {
    for (const text of lines) this.turns.push({ speaker: 'kb', text });
  }
}

/** Greeting, request with `nSlots` of the goal's fields, the bot's questions, ending with the bot's "ok let me look into some options for you". */
function requestPhase(rng: Rng, b: DialogBuilder, goal: ApiCall, nSlots: number): void {
  b.turn(BABI_USER.greeting(rng), BOT.greet);
  const given = rng.sample(FIELDS, nSlots);
  b.turn(BABI_USER.request(rng, goal, given), BOT.onIt);
  let user = SILENCE;
  for (const f of FIELDS) {
    if (given.includes(f)) continue;
    b.turn(user, BOT.ask[f]);
    user = BABI_USER.answer(rng, f, goal[f]);
  }
  b.turn(user, BOT.lookInto);
}

/** The user's updates after an api_call, "no", and the bot's new api_call. */
function updatePhase(rng: Rng, b: DialogBuilder, fields: readonly Field[], goal: ApiCall): void {
  for (const f of fields) b.turn(BABI_USER.update(rng, f, goal[f]), BOT.anythingElseToUpdate);
  b.turn(NO_MORE_UPDATES, BOT.lookInto);
  b.turn(SILENCE, formatApiCall(goal));
}

/** Proposals by decreasing rating until the user accepts (probability 1/4 each, always the last). Returns the accepted one. */
function proposalPhase(rng: Rng, b: DialogBuilder, results: readonly Restaurant[]): Restaurant {
  const ranked = byDecreasingRating(results);
  for (let i = 0; i < ranked.length; i++) {
    const r = ranked[i] as Restaurant;
    b.turn(SILENCE, botPropose(r.name));
    if (i === ranked.length - 1 || rng.chance(DISTRIBUTIONS.acceptProbability)) {
      b.turn(BABI_USER.accept(rng), BOT.reserve);
      return r;
    }
    b.turn(BABI_USER.reject(rng), BOT.findOther);
  }
  throw new InternalError('proposalPhase: no result to propose');
}

/** Phone only (25%), address only (25%) or both in random order (50%). */
function infoPhase(rng: Rng, b: DialogBuilder, r: Restaurant): void {
  for (const a of drawInfo(rng, DISTRIBUTIONS.infoWeights)) b.turn(BABI_USER.askInfo(rng, a), botHereItIs(r[a]));
}

function resultLines(rng: Rng, results: readonly Restaurant[]): string[] {
  return orderResults(rng, results).flatMap((r) => kbResultLines(r, BABI_KB));
}

/** A different value of `field` than `current`. */
function otherValue(rng: Rng, field: Field, current: string, vocab: VocabHalf): string {
  return rng.pick(fieldValues(field, vocab).filter((v) => v !== current));
}

/** The fields in which two calls differ. */
export function hamming(a: ApiCall, b: ApiCall): Field[] {
  return FIELDS.filter((f) => a[f] !== b[f]);
}

// ---------------------------------------------------------------------------------------------
// Goal spaces and pools

/** Calls of a vocabulary half with at least `min` results, in a fixed order. */
export function validCalls(kb: KbStore, vocab: VocabHalf, min: number): ApiCall[] {
  return allApiCalls(vocab).filter((c) => kb.query(c).length >= min);
}

/** A goal space cut in two: `trn` for training, `test` for dev and tst (and tst-OOV in the OOV half). */
export interface GoalPool<G> {
  readonly trn: readonly G[];
  readonly test: readonly G[];
}

/** Shuffles `space` and cuts it in two halves (training gets the larger half when odd). */
export function splitPool<G>(rng: Rng, space: readonly G[]): GoalPool<G> {
  const s = rng.shuffle(space);
  const cut = Math.ceil(s.length / 2);
  return { trn: s.slice(0, cut), test: s.slice(cut) };
}

/**
 * Like splitPool, but stratified by `weight` (task 3: the number of results of a call): the
 * shuffled space is sorted by weight and dealt alternately, so both halves hold calls with the
 * same spread of result counts. A plain random cut of the ~95 valid calls leaves the halves'
 * mean result count several percent apart by chance, which shows directly in KB lines per dialog.
 */
export function splitPoolStratified<G>(rng: Rng, space: readonly G[], weight: (g: G) => number): GoalPool<G> {
  const s = rng.shuffle(space);
  const order = s.map((g, i) => ({ g, w: weight(g), i })).sort((a, b) => a.w - b.w || a.i - b.i);
  const trn: G[] = [];
  const test: G[] = [];
  const first = rng.int(2);
  order.forEach((x, i) => ((i + first) % 2 === 0 ? trn : test).push(x.g));
  return { trn, test };
}

export function poolFor<G>(pool: GoalPool<G>, split: Split): readonly G[] {
  return split === 'trn' ? pool.trn : pool.test;
}

// ---------------------------------------------------------------------------------------------
// One dialog per task

export function task1Dialog(rng: Rng, goal: ApiCall, slots = rng.range(...DISTRIBUTIONS.requestSlots[1])): Turn[] {
  const b = new DialogBuilder();
  requestPhase(rng, b, goal, slots);
  b.turn(SILENCE, formatApiCall(goal));
  return b.turns;
}

export function task2Dialog(rng: Rng, goal: ApiCall, vocab: VocabHalf): Turn[] {
  const b = new DialogBuilder();
  requestPhase(rng, b, goal, rng.range(...DISTRIBUTIONS.requestSlots[2]));
  b.turn(SILENCE, formatApiCall(goal));
  const fields = rng.sample(FIELDS, rng.range(...DISTRIBUTIONS.updates[2]));
  const next: ApiCall = { ...goal };
  for (const f of fields) next[f] = otherValue(rng, f, goal[f], vocab);
  updatePhase(rng, b, fields, next);
  b.turn(BABI_USER.thanks(rng), BOT.welcome);
  return b.turns;
}

/** Task 3: the call's results first, then the task 1 exchange without the api_call, then proposals. */
export function task3Dialog(rng: Rng, goal: ApiCall, kb: KbStore): Turn[] {
  const results = kb.query(goal);
  if (results.length === 0) throw new DialogymError(`task 3: ${formatApiCall(goal)} has no result`);
  const b = new DialogBuilder();
  b.kb(resultLines(rng, results));
  requestPhase(rng, b, goal, rng.range(...DISTRIBUTIONS.requestSlots[3]));
  proposalPhase(rng, b, results);
  return b.turns;
}

/** Task 4: the restaurant's facts, then a booking at it as if it had been accepted, then phone/address. */
export function task4Dialog(rng: Rng, r: Restaurant): Turn[] {
  const b = new DialogBuilder();
  b.kb(kbResultLines(r, BABI_KB));
  b.turn(BABI_USER.greeting(rng), BOT.greet);
  b.turn(BABI_USER.bookAt(rng, r.name), BOT.reserve);
  infoPhase(rng, b, r);
  return b.turns;
}

/**
 * Task 5 with a first call `first`, `k` updates leading to `final` (which must have results).
 */
export function task5Dialog(rng: Rng, first: ApiCall, final: ApiCall, kb: KbStore): Turn[] {
  const results = kb.query(final);
  if (results.length === 0) throw new DialogymError(`task 5: ${formatApiCall(final)} has no result`);
  const b = new DialogBuilder();
  requestPhase(rng, b, first, rng.range(...DISTRIBUTIONS.requestSlots[5]));
  b.turn(SILENCE, formatApiCall(first));
  updatePhase(rng, b, rng.shuffle(hamming(first, final)), final);
  b.kb(resultLines(rng, results));
  const accepted = proposalPhase(rng, b, results);
  infoPhase(rng, b, accepted);
  b.turn(BABI_USER.thanks(rng), BOT.anythingElse);
  b.turn(BABI_USER.noThanks(rng), BOT.welcome);
  return b.turns;
}

// ---------------------------------------------------------------------------------------------
// A whole split

/**
 * Options of `generateSplit`.
 *
 * @example
 * ```ts
 * import type { SplitOptions } from 'dialogym/restaurant';
 * const opts: SplitOptions = { dialogs: 100, onDialog: (done, total) => { if (done === total) console.log('done'); } };
 * ```
 */
export interface SplitOptions {
  /** Number of dialogs (default 1000, as in the originals). */
  dialogs?: number;
  /** Called after each dialog. */
  onDialog?: (done: number, total: number) => void;
}

/**
 * Generates one split of one task. `taskRng` is the task's stream (the same for all splits of the
 * task: it fixes the goal pools); each split draws its dialogs from `taskRng.fork(split)`.
 * `kb` must hold the restaurants of both halves needed (the IV half for trn/dev/tst, OOV for tst-OOV).
 * Throws a ConfigError for a bad `dialogs` count or a KB with nothing to build the split from.
 * Dialog ids are 1-based (`'1'`, `'2'`, …), unlike `parseBabiDialogs`' 0-based ones.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateSplit, generateRestaurants, MemoryKbStore } from 'dialogym/restaurant';
 * const kb = new MemoryKbStore(generateRestaurants(createRng(1).fork('kb')));
 * const dialogs = generateSplit(3, 'tst', kb, createRng(1).fork('task3'), { dialogs: 20 }); // ids '1', '2', …
 * ```
 */
export function generateSplit(task: TaskId, split: Split, kb: KbStore, taskRng: Rng, opts: SplitOptions = {}): Dialog[] {
  const n = opts.dialogs ?? 1000;
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`dialogs must be a non-negative integer, got ${n}`);
  const vocab = splitVocab(split);
  const poolRng = taskRng.fork('pools').fork(vocab);
  const rng = taskRng.fork(split);
  const minResults = DISTRIBUTIONS.minResults;
  const out: Dialog[] = [];
  const emit = (turns: Turn[]): void => {
    out.push({ id: String(out.length + 1), turns });
    opts.onDialog?.(out.length, n);
  };
  const need = <G>(pool: readonly G[], what: string): readonly G[] => {
    if (pool.length === 0 && n > 0) throw new ConfigError(`task ${task} ${split}: the KB has no ${what} for this split`);
    return pool;
  };
  switch (task) {
    case 1:
    case 2: {
      const pool = need(poolFor(splitPool(poolRng, allApiCalls(vocab)), split), 'api_call');
      for (let i = 0; i < n; i++) emit(task === 1 ? task1Dialog(rng, rng.pick(pool)) : task2Dialog(rng, rng.pick(pool), vocab));
      break;
    }
    case 3: {
      const pool = need(poolFor(splitPoolStratified(poolRng, validCalls(kb, vocab, minResults), (c) => kb.query(c).length), split), `api_call with ≥ ${minResults} results`);
      for (let i = 0; i < n; i++) emit(task3Dialog(rng, rng.pick(pool), kb));
      break;
    }
    case 4: {
      const pool = need(poolFor(splitPool(poolRng, kb.all().filter((r) => vocabOf(r) === vocab)), split), 'restaurant');
      for (let i = 0; i < n; i++) emit(task4Dialog(rng, rng.pick(pool)));
      break;
    }
    case 5: {
      const pool = need(poolFor(splitPool(poolRng, allApiCalls(vocab)), split), 'api_call');
      const finals = need(validCalls(kb, vocab, minResults), `api_call with ≥ ${minResults} results`);
      const [lo, hi] = DISTRIBUTIONS.updates[5];
      for (let i = 0; i < n; i++) {
        const k = rng.range(lo, hi);
        // A first call from the pool, then a final call with results at exactly k changed fields;
        // when no valid call is k fields away (rare), another first call is drawn.
        for (let attempt = 0; ; attempt++) {
          const first = rng.pick(pool);
          const reach = finals.filter((c) => hamming(first, c).length === k);
          if (reach.length > 0) {
            emit(task5Dialog(rng, first, rng.pick(reach), kb));
            break;
          }
          if (attempt > 10_000) throw new ConfigError(`task 5 ${split}: no call with ≥ ${minResults} results is ${k} fields away from any first call`);
        }
      }
      break;
    }
  }
  return out;
}
