/**
 * A dialog history as HCN steps: one step before every bot turn of the history (teacher forcing:
 * its target is that turn's template) and a final pending step for the response to predict.
 */
import type { Turn } from '../../../core/dialog.js';
import { emptyTracker, trackTurn, type HcnLexicon, type TrackerState } from './entities.js';
import type { Featurizer } from './features.js';
import type { CommitModel } from './commit.js';
import { advisedTemplates, type HcnAdvisor } from './advice.js';
import { delexicaliseBot, type TemplateSet } from './templates.js';

export interface HcnStep {
  /** Index in the history of the bot turn this step predicts (history.length for the pending step). */
  readonly turn: number;
  readonly x: Float32Array;
  readonly mask: Uint8Array;
  /** Filled text per template (undefined where masked). */
  readonly fills: readonly (string | undefined)[];
  /** Template id of the actual bot turn (−1: unknown template, or the pending step). */
  readonly target: number;
  /** The delexicalised actual bot turn ('' for the pending step). */
  readonly targetTemplate: string;
  /** Tracker snapshot before this step (for explanations). */
  readonly focus: string | undefined;
  readonly slots: ReadonlyMap<string, string>;
  /** The advisor's response to the history before this step (with an advisor). */
  readonly advice?: string;
}

export interface HcnEncoder {
  readonly lexicon: HcnLexicon;
  /** Learned mention filter of the tracker (absent: every mention sets its slot). */
  readonly commit?: CommitModel | undefined;
  readonly templates: TemplateSet;
  readonly featurizer: Featurizer;
  /** Domain rules whose response is an input of every step (`hcn+rules`; absent for `hcn`). */
  readonly advisor?: HcnAdvisor | undefined;
}

function makeStep(enc: HcnEncoder, st: TrackerState, turn: number, prev: number, done: ReadonlySet<number>, target: number, targetTemplate: string, cands?: Uint8Array, history?: readonly Turn[]): HcnStep {
  const { mask, fills } = enc.templates.mask(st);
  const advice = enc.advisor && history ? enc.advisor.advise(history) : undefined;
  const x = enc.featurizer.featurize(st, enc.lexicon, prev, mask, cands, done, advice !== undefined ? advisedTemplates(advice, fills) : undefined);
  return { turn, x, mask, fills, target, targetTemplate, focus: st.current, slots: new Map(st.slots), ...(advice !== undefined ? { advice } : {}) };
}

/**
 * Incremental encoding: turns are pushed one by one; every bot turn adds its step. A model keeps
 * one encoder per dialog and pushes only the turns a longer history adds (evaluation asks for
 * every prefix of a dialog in turn).
 */
export class StepEncoder {
  readonly state: TrackerState = emptyTracker();
  readonly steps: HcnStep[] = [];
  /** Turns pushed so far. */
  length = 0;
  private prev = -1;
  /** Templates of the bot turns so far. */
  private readonly done = new Set<number>();
  /** The turns pushed so far (kept only for an advisor, which reads the history). */
  private readonly turns: Turn[] = [];

  constructor(private readonly enc: HcnEncoder) {}

  /** Adds a turn; `cands` (templates among the candidates) for the step of a bot turn being trained on. */
  push(turn: Turn, cands?: Uint8Array): void {
    const st = this.state;
    if (turn.speaker === 'bot') {
      const tpl = delexicaliseBot(turn.text, this.enc.lexicon, st);
      const target = this.enc.templates.id(tpl);
      this.steps.push(makeStep(this.enc, st, this.length, this.prev, this.done, target, tpl, cands, this.turns));
      this.prev = target;
      if (target >= 0) this.done.add(target);
    }
    trackTurn(st, this.enc.lexicon, turn, this.enc.commit?.keep);
    if (this.enc.advisor) this.turns.push(turn);
    this.length++;
  }

  /** The step predicting the next bot turn (`cands`: templates among its candidates, DSTC6 mode). */
  pending(cands?: Uint8Array): HcnStep {
    return makeStep(this.enc, this.state, this.length, this.prev, this.done, -1, '', cands, this.turns);
  }
}

/**
 * The steps of a history; `pending` adds the step predicting the next bot turn. `lastCands`: the
 * templates among the candidates of the last step (the pending one, or the last bot turn).
 */
export function encodeHistory(enc: HcnEncoder, history: readonly Turn[], pending = true, lastCands?: Uint8Array): { steps: HcnStep[]; state: TrackerState } {
  const e = new StepEncoder(enc);
  history.forEach((t, i) => e.push(t, !pending && i === history.length - 1 ? lastCands : undefined));
  const steps = [...e.steps];
  if (pending) steps.push(e.pending(lastCands));
  return { steps, state: e.state };
}
