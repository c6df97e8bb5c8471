/**
 * Cutting a full dialog into a DSTC6 entry and drawing its candidates, as measured on the real
 * test files:
 * - one entry per dialog: the context is the dialog up to a bot turn drawn uniformly among the
 *   bot turns, the first two excluded in tasks 1, 2 and 5 (their contexts start at 5 utterances;
 *   tasks 3 and 4 may ask for the greeting itself);
 * - candidates = the answer, 3 utterances drawn (without replacement) from the context, never with
 *   the answer's text (KB lines and `<silence>` included), and
 *   - for an api_call answer: 3 random variants of the call (1, 2 or 3 slots changed, 48/47/5%)
 *     plus one variant per value mentioned in the context but absent from the answer, at most 3
 *     (so 7–10 candidates: the real counts are exactly 7 + min(3, mentioned values));
 *   - otherwise the 3 "hard" distractors fixed for the answer's template in this file (drawn once
 *     per file among the task's bot templates; entity templates are refilled per entry with other
 *     restaurants, api_calls are filled once per file);
 * - candidates are shuffled and get random UUIDs, as does the entry.
 */
import type { Turn } from '../../core/dialog.js';
import type { Rng } from '../../core/rng.js';
import type { Dstc6Candidate, Dstc6Entry, Dstc6Result } from '../../formats/dstc6.js';
import type { ApiCall, Restaurant } from '../restaurant/kb.js';
import { formatExtApiCall, slotValues, type ExtSlot } from './extended-kb.js';
import { ASK_ORDER, BOT6, hereItIs6, propose6, recall6 } from './patterns-dstc6.js';
import { ENTITY_TEMPLATES, templateOf, type BotTemplate } from '../restaurant/patterns.js';
import type { Dstc6Task, SimContext } from './sim-dialog.js';
import { InternalError } from '../../core/errors.js';

/**
 * A random version-4 UUID (lower-case, `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`) drawn from
 * `rng`: the dialog and candidate ids of generated files.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { uuid4 } from 'dialogym/dstc6';
 * const id = uuid4(createRng(1)); // the same id for seed 1 every time
 * ```
 */
export function uuid4(rng: Rng): string {
  const hex = (n: number, digits: number): string => n.toString(16).padStart(digits, '0');
  const w = (): number => rng.int(0x10000);
  const a = hex(w(), 4) + hex(w(), 4);
  const b = hex(w(), 4);
  const c = hex(0x4000 | (w() & 0x0fff), 4);
  const d = hex(0x8000 | (w() & 0x3fff), 4);
  const e = hex(w(), 4) + hex(w(), 4) + hex(w(), 4);
  return `${a}-${b}-${c}-${d}-${e}`;
}

/** Index of the first bot turn that may be predicted, per task. */
export const FIRST_PREDICTED_BOT_TURN: Readonly<Record<Dstc6Task, number>> = { 1: 2, 2: 2, 3: 0, 4: 0, 5: 2 };

/** Bot utterance templates; entity templates carry a restaurant (or a whole call). */
/** The bot templates a task's bot can say (pool of the per-file hard distractors). */
export function taskTemplates(task: Dstc6Task, slots: readonly ExtSlot[]): BotTemplate[] {
  const asks = ASK_ORDER.filter((s) => slots.includes(s)).map((s) => BOT6.ask[s]);
  switch (task) {
    case 1:
      return [BOT6.greet, BOT6.onIt, ...asks, BOT6.lookInto, BOT6.wait, '<api_call>'];
    case 2:
      return [BOT6.greet, BOT6.onIt, BOT6.lookInto, '<api_call>', BOT6.updated, BOT6.wait];
    case 3:
      return [BOT6.greet, BOT6.onIt, BOT6.lookInto, '<propose>', BOT6.another, BOT6.sorry, '<recall>', BOT6.reserve];
    case 4:
      return [BOT6.greet, BOT6.reserve, '<phone>', '<address>', BOT6.wait];
    case 5:
      return [BOT6.greet, BOT6.onIt, ...asks, BOT6.wait, BOT6.lookInto, '<api_call>', BOT6.updated, '<propose>', BOT6.another, BOT6.sorry, '<recall>', BOT6.reserve, '<phone>', '<address>', BOT6.anythingElse, BOT6.welcome];
  }
}

/** A distractor slot of the per-file map: a template, and for api_calls the call fixed for the file. */
interface MapItem {
  readonly template: BotTemplate;
  readonly text?: string;
}

/**
 * The per-file map template → 3 hard distractors (drawn once per file by `drawDistractorMap`).
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { drawDistractorMap, generateExtendedKb, makeSimContext, type DistractorMap } from 'dialogym/dstc6';
 * const map: DistractorMap = drawDistractorMap(createRng(1), 1, makeSimContext(generateExtendedKb(createRng(1), 1), 1, false, 1));
 * map.size; // the number of bot templates of task 1
 * ```
 */
export type DistractorMap = ReadonlyMap<BotTemplate, readonly MapItem[]>;

function randomCallText(rng: Rng, ctx: SimContext): string {
  const call: Partial<ApiCall> = {};
  for (const s of ctx.slots) call[s] = rng.pick(slotValues(s, ctx.kb));
  return formatExtApiCall(call, ctx.slots);
}

/**
 * Draws the file's hard-distractor map: entity templates map to themselves (×3), others to 3
 * other templates (entity ones may repeat).
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { drawDistractorMap, generateExtendedKb, makeSimContext } from 'dialogym/dstc6';
 * const ctx = makeSimContext(generateExtendedKb(createRng(1), 1), 1, false, 1);
 * const map = drawDistractorMap(createRng(1).fork('map'), 5, ctx);
 * ```
 */
export function drawDistractorMap(rng: Rng, task: Dstc6Task, ctx: SimContext): DistractorMap {
  const templates = taskTemplates(task, ctx.slots);
  const map = new Map<BotTemplate, MapItem[]>();
  for (const t of templates) {
    const items: MapItem[] = [];
    if (t === '<api_call>') {
      // api_call answers use variants of the call instead.
    } else if (ENTITY_TEMPLATES.has(t)) {
      for (let i = 0; i < 3; i++) items.push({ template: t });
    } else {
      const used = new Set<string>([t]);
      while (items.length < 3) {
        const pool = templates.filter((x) => !used.has(x));
        if (pool.length === 0) break;
        const x = rng.pick(pool);
        if (!ENTITY_TEMPLATES.has(x)) used.add(x);
        items.push(x === '<api_call>' ? { template: x, text: randomCallText(rng, ctx) } : { template: x });
      }
    }
    map.set(t, items);
  }
  return map;
}

function otherRestaurant(rng: Rng, restaurants: readonly Restaurant[], answer: string): Restaurant {
  for (;;) {
    const r = rng.pick(restaurants);
    if (!answer.includes(r.name)) return r;
  }
}

function fillItem(rng: Rng, item: MapItem, ctx: SimContext, answer: string): string {
  if (item.text !== undefined) return item.text;
  const rs = ctx.restaurants;
  switch (item.template) {
    case '<api_call>':
      return randomCallText(rng, ctx);
    case '<propose>':
      return propose6(otherRestaurant(rng, rs, answer).name);
    case '<recall>':
      return recall6(otherRestaurant(rng, rs, answer).name);
    case '<phone>':
      return hereItIs6(otherRestaurant(rng, rs, answer).phone);
    case '<address>':
      return hereItIs6(otherRestaurant(rng, rs, answer).address);
    default:
      return item.template;
  }
}

/** Weights of the number of slots a random api_call variant changes (1, 2, 3). */
export const VARIANT_CHANGES = [0.48, 0.47, 0.05] as const;

function parseCall(text: string, slots: readonly ExtSlot[]): Partial<ApiCall> {
  const args = text.split(' ').slice(1);
  const call: Partial<ApiCall> = {};
  slots.forEach((s, i) => (call[s] = args[i] ?? ''));
  return call;
}

/** Slot values mentioned in the context's user and bot utterances but absent from the answer call, in order of appearance. */
export function mentionedValues(context: readonly Turn[], answerCall: Partial<ApiCall>, ctx: SimContext): Array<{ slot: ExtSlot; value: string }> {
  const valueSlot = new Map<string, ExtSlot>();
  for (const s of ctx.slots) for (const v of slotValues(s, ctx.kb)) valueSlot.set(v, s);
  const inAnswer = new Set(ctx.slots.map((s) => answerCall[s]));
  const seen = new Set<string>();
  const out: Array<{ slot: ExtSlot; value: string }> = [];
  for (const t of context) {
    if (t.speaker === 'kb') continue;
    for (const w of t.text.split(/[ ,.]+/)) {
      const slot = valueSlot.get(w);
      if (slot === undefined || inAnswer.has(w) || seen.has(w)) continue;
      seen.add(w);
      out.push({ slot, value: w });
    }
  }
  return out;
}

function callVariants(rng: Rng, answer: string, context: readonly Turn[], ctx: SimContext): string[] {
  const call = parseCall(answer, ctx.slots);
  const out = new Set<string>();
  const add = (c: Partial<ApiCall>): boolean => {
    const text = formatExtApiCall(c, ctx.slots);
    if (text === answer || out.has(text)) return false;
    out.add(text);
    return true;
  };
  const mentioned = mentionedValues(context, call, ctx);
  for (const m of rng.sample(mentioned, Math.min(3, mentioned.length))) add({ ...call, [m.slot]: m.value });
  for (let made = 0, attempt = 0; made < 3 && attempt < 1000; attempt++) {
    const k = Math.min(ctx.slots.length, 1 + rng.weighted(VARIANT_CHANGES));
    const v: Partial<ApiCall> = { ...call };
    for (const s of rng.sample(ctx.slots, k)) v[s] = rng.pick(slotValues(s, ctx.kb).filter((x) => x !== call[s]));
    if (add(v)) made++;
  }
  return [...out];
}

/** Number of context utterances drawn as candidates. */
export const CONTEXT_CANDIDATES = 3;

/**
 * How `makeEntry` cuts a dialog: `withAnswer` attaches the answer to the entry (training files).
 *
 * @example
 * ```ts
 * import type { CutOptions } from 'dialogym/dstc6';
 * const training: CutOptions = { withAnswer: true };
 * ```
 */
export interface CutOptions {
  /** Attach `answer` to the entry (training files). */
  withAnswer: boolean;
}

/**
 * Cuts `turns` at a random eligible bot turn and builds the entry (context, the answer among
 * shuffled candidates: hard distractors from `map`, variants of an api_call, up to 3 context
 * utterances) and its answer record. `map` comes from `drawDistractorMap`, which
 * `dialogym/dstc6` does not export (an empty map gives no hard distractors). Throws an
 * InternalError for a dialog with no bot turn to predict.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKb, makeSimContext, generateDialog, makeEntry } from 'dialogym/dstc6';
 * const ctx = makeSimContext(generateExtendedKb(createRng(1), 1), 1, false, 1);
 * const turns = generateDialog(1, createRng(2), ctx, { task3Calls: [], task4Restaurants: [] });
 * const { entry, answer } = makeEntry(createRng(3), 1, turns, ctx, new Map(), { withAnswer: false });
 * ```
 */
export function makeEntry(rng: Rng, task: Dstc6Task, turns: readonly Turn[], ctx: SimContext, map: DistractorMap, opts: CutOptions): { entry: Dstc6Entry; answer: Dstc6Result } {
  const botIdx: number[] = [];
  turns.forEach((t, i) => {
    if (t.speaker === 'bot') botIdx.push(i);
  });
  const eligible = botIdx.slice(FIRST_PREDICTED_BOT_TURN[task]);
  if (eligible.length === 0) throw new InternalError(`task ${task}: dialog has no bot turn to predict`);
  return entryAt(rng, turns, rng.pick(eligible), ctx, map, opts);
}

/**
 * The entry of `turns` cut at bot turn `cut` (an index into `turns`): the context before it, the
 * answer among shuffled candidates drawn as `makeEntry` draws them (which picks `cut` at random
 * and calls this). Collected dialogs (`export.ts`) are cut at every bot turn.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateExtendedKb, makeSimContext, generateDialog, entryAt } from 'dialogym/dstc6';
 * const ctx = makeSimContext(generateExtendedKb(createRng(1), 1), 1, false, 1);
 * const turns = generateDialog(1, createRng(2), ctx, { task3Calls: [], task4Restaurants: [] });
 * const { entry } = entryAt(createRng(3), turns, 1, ctx, new Map(), { withAnswer: true });
 * ```
 */
export function entryAt(rng: Rng, turns: readonly Turn[], cut: number, ctx: SimContext, map: DistractorMap, opts: CutOptions): { entry: Dstc6Entry; answer: Dstc6Result } {
  const context = turns.slice(0, cut);
  const answer = (turns[cut] as Turn).text;
  const utterances = context.map((t) => t.text);

  const distractors: string[] = [];
  const template = templateOf(answer);
  if (template === '<api_call>') distractors.push(...callVariants(rng, answer, context, ctx));
  else for (const item of map.get(template) ?? []) distractors.push(fillItem(rng, item, ctx, answer));
  const fromContext = utterances.filter((u) => u !== answer);
  distractors.push(...rng.sample(fromContext, Math.min(CONTEXT_CANDIDATES, fromContext.length)));

  const dialogId = uuid4(rng);
  const answerCand: Dstc6Candidate = { candidate_id: uuid4(rng), utterance: answer };
  const candidates = rng.shuffle([answerCand, ...distractors.map((utterance) => ({ candidate_id: uuid4(rng), utterance }))]);
  const entry: Dstc6Entry = opts.withAnswer ? { dialog_id: dialogId, utterances, candidates, answer: answerCand } : { dialog_id: dialogId, utterances, candidates };
  return { entry, answer: { dialog_id: dialogId, lst_candidate_id: [{ candidate_id: answerCand.candidate_id, rank: 1 }] } };
}
