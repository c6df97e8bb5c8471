/**
 * Slots the training dialogs never showed (DSTC6 Track 1 test sets 3 and 4: "the same KB as for
 * the train dialogs, but one additional slot for the queries", `R_restrictions`; the task
 * description in `dstc6-track1/docs/`). The challenge trained on dialogs without it and gave both
 * KBs; the slot inventory is therefore read from the KB given at run time, and two general rules
 * let the learned policy use a slot it never saw:
 *
 * - **Extended actions.** A candidate that, once the placeholders of unseen slots are taken out,
 *   is a learned template's filled text, and whose unseen-slot values are the ones the dialog
 *   gave (tracked user mentions, or the last api_call of the history), is that action over the
 *   whole request: it scores as the template, a little above its unextended form
 *   (`api_call french rome eight cheap romantic vegan` for `api_call <cuisine> … <atmosphere>`).
 * - **Asking for an uncovered slot.** When the policy would act on a complete request (its best
 *   action among the candidates, or its own choice with no candidates as input, is a template the
 *   training dialogs only took once every trained slot was known, such as `ok let me look into
 *   some options for you` or an api_call) but an
 *   unseen slot of the KB has no value yet, a candidate asking for that slot (it says the
 *   attribute's name, `do you have any dietary restrictions` for `R_restrictions`, and no entity)
 *   comes first. The new slot is thereby asked after the known ones, as its api_call argument
 *   comes after theirs.
 *
 * Only in DSTC6 mode (an entry's few candidates); a task-wide candidate list is left alone.
 */
import type { Dialog, Turn } from '../../../core/dialog.js';
import type { CommitModel } from './commit.js';
import { callValues } from './commit.js';
import { emptyTracker, trackTurn, type HcnLexicon, type TrackerState } from './entities.js';
import { delexicaliseBot, type TemplateSet } from './templates.js';

/** Share of a template's training steps that may have an incomplete request and still count as "complete only". */
const COMPLETE_TOLERANCE = 0.01;
/** How much an extended action scores above its unextended form. */
const EXTENDED_BONUS = 1e-3;
/** Score of a question for an uncovered slot (above any template match, which scores ≤ 2). */
const ASK_SCORE = 3;

/** Values of the request slots known before a step: tracked user values, else the last api_call's. */
function knownValues(st: TrackerState, lastCall: ReadonlyMap<string, string>, type: string): string | undefined {
  return st.slots.get(type) ?? lastCall.get(type);
}

/**
 * Templates the training dialogs took only when every slot of `slotTypes` had a value (from the
 * user, or the last api_call): the actions of a complete request.
 */
export function completeOnlyTemplates(train: readonly Dialog[], lexicon: HcnLexicon, templates: TemplateSet, slotTypes: readonly string[], commit?: CommitModel): number[] {
  const seen = new Map<number, number>();
  const incomplete = new Map<number, number>();
  for (const d of train) {
    const st = emptyTracker();
    let lastCall = new Map<string, string>();
    for (const t of d.turns) {
      if (t.speaker === 'bot') {
        const id = templates.id(delexicaliseBot(t.text, lexicon, st));
        if (id >= 0) {
          seen.set(id, (seen.get(id) ?? 0) + 1);
          if (!slotTypes.every((ty) => knownValues(st, lastCall, ty) !== undefined)) incomplete.set(id, (incomplete.get(id) ?? 0) + 1);
        }
        if (t.text.startsWith('api_call ')) lastCall = callValues(t.text, lexicon);
      }
      trackTurn(st, lexicon, t, commit?.keep);
    }
  }
  return [...seen]
    .filter(([id, n]) => (incomplete.get(id) ?? 0) <= COMPLETE_TOLERANCE * n)
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

/** The KB's request slots (`HcnLexicon.sharedTypes`) that the model never tracked in training. */
export function unseenSlots(lexicon: HcnLexicon, trained: readonly string[]): string[] {
  return lexicon.sharedTypes().filter((t) => !trained.includes(t));
}

/** Whether a bot utterance asks for an attribute: it says the attribute's name (or its singular/plural) and no entity. */
export function asksFor(text: string, type: string, lexicon: HcnLexicon): boolean {
  const words = text.split(' ');
  if (words.some((w) => lexicon.type(w) !== undefined)) return false;
  const names = new Set([type, `${type}s`, type.replace(/s$/, '')]);
  return words.some((w) => names.has(w));
}

/** What `extendScores` needs of the model and of its prediction for the pending step. */
export interface UnseenSlotInput {
  readonly lexicon: HcnLexicon;
  /** Unseen slots (`unseenSlots`); nothing happens without any. */
  readonly slots: readonly string[];
  /** Template ids by base template (name sources dropped). */
  readonly byBase: ReadonlyMap<string, readonly number[]>;
  /** Templates of a complete request (`completeOnlyTemplates`). */
  readonly completeOnly: ReadonlySet<number>;
  readonly history: readonly Turn[];
  readonly state: TrackerState;
  readonly probs: Float32Array;
  readonly mask: Uint8Array;
  readonly fills: readonly (string | undefined)[];
  /** Template ids each candidate delexicalises to (empty: none). */
  readonly candidateTemplates: readonly (readonly number[])[];
  /** The policy's choice for the step without the candidates as input (−1: none); asked only when needed. */
  readonly policyChoice?: () => number;
}

/** The values of the last api_call in a history, by type. */
function lastCallValues(history: readonly Turn[], lexicon: HcnLexicon): Map<string, string> {
  for (let i = history.length - 1; i >= 0; i--) {
    const t = history[i] as Turn;
    if (t.speaker === 'bot' && t.text.startsWith('api_call ')) return callValues(t.text, lexicon);
  }
  return new Map();
}

/** Applies the two rules of the module description to `scores` (one per candidate, in place). */
export function extendScores(scores: Float32Array, candidates: readonly string[], u: UnseenSlotInput): void {
  if (u.slots.length === 0) return;
  const lastCall = lastCallValues(u.history, u.lexicon);
  const value = new Map<string, string>();
  for (const s of u.slots) {
    const v = knownValues(u.state, lastCall, s);
    if (v !== undefined) value.set(s, v);
  }
  const unseen = new Set(u.slots.map((s) => `<${s}>`));
  candidates.forEach((c, i) => {
    const words = c.split(' ');
    const delex = delexicaliseBot(c, u.lexicon).split(' ');
    const extra = delex.flatMap((d, j) => (unseen.has(d) ? [j] : []));
    if (extra.length === 0 || extra.length === words.length) return;
    if (!extra.every((j) => value.get((delex[j] as string).slice(1, -1)) === words[j])) return;
    const base = delex.filter((_, j) => !extra.includes(j)).join(' ');
    const text = words.filter((_, j) => !extra.includes(j)).join(' ');
    for (const t of u.byBase.get(base) ?? []) {
      if (u.mask[t] && u.fills[t] === text) scores[i] = Math.max(scores[i] as number, 1 + (u.probs[t] as number) + EXTENDED_BONUS);
    }
  });
  const missing = u.slots.filter((s) => !value.has(s));
  if (missing.length === 0) return;
  // The policy's best action among the candidates' templates, or its own choice without them (an
  // entry need not offer any complete-request action beside the question).
  let top = -1;
  for (const ts of u.candidateTemplates) for (const t of ts) if (u.mask[t] && (top < 0 || (u.probs[t] as number) > (u.probs[top] as number))) top = t;
  if (!u.completeOnly.has(top) && !u.completeOnly.has(u.policyChoice?.() ?? -1)) return;
  const said = new Set(u.history.filter((t) => t.speaker === 'user').map((t) => t.text));
  for (const s of missing) {
    const q = candidates.findIndex((c) => !said.has(c) && asksFor(c, s, u.lexicon));
    if (q < 0) continue;
    candidates.forEach((c, i) => {
      if (c === candidates[q]) scores[i] = ASK_SCORE;
    });
    return;
  }
}
