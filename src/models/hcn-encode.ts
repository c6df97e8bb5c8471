/**
 * A dialog history as HCN steps: one step before every bot turn of the history (teacher forcing:
 * its target is that turn's template) and a final pending step for the response to predict.
 */
import type { Turn } from '../core/dialog.js';
import { emptyTracker, trackTurn, type HcnLexicon, type TrackerState } from './hcn-entities.js';
import type { Featurizer } from './hcn-features.js';
import type { CommitModel } from './hcn-commit.js';
import { delexicaliseBot, type TemplateSet } from './hcn-templates.js';

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
}

export interface HcnEncoder {
  readonly lexicon: HcnLexicon;
  /** Learned mention filter of the tracker (absent: every mention sets its slot). */
  readonly commit?: CommitModel | undefined;
  readonly templates: TemplateSet;
  readonly featurizer: Featurizer;
}

function makeStep(enc: HcnEncoder, st: TrackerState, turn: number, prev: number, target: number, targetTemplate: string): HcnStep {
  const { mask, fills } = enc.templates.mask(st);
  const x = enc.featurizer.featurize(st, enc.lexicon, prev, mask);
  return { turn, x, mask, fills, target, targetTemplate, focus: st.current, slots: new Map(st.slots) };
}

/** The steps of a history; `pending` adds the step predicting the next bot turn. */
export function encodeHistory(enc: HcnEncoder, history: readonly Turn[], pending = true): { steps: HcnStep[]; state: TrackerState } {
  const st = emptyTracker();
  const steps: HcnStep[] = [];
  let prev = -1;
  history.forEach((turn, i) => {
    if (turn.speaker === 'bot') {
      const tpl = delexicaliseBot(turn.text, enc.lexicon, st);
      const target = enc.templates.id(tpl);
      steps.push(makeStep(enc, st, i, prev, target, tpl));
      prev = target;
    }
    trackTurn(st, enc.lexicon, turn, enc.commit?.keep);
  });
  if (pending) steps.push(makeStep(enc, st, history.length, prev, -1, ''));
  return { steps, state: st };
}
