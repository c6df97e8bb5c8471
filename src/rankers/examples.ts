/** Training examples for response ranking: every bot turn, with its history and candidate index. */
import type { Dialog, Turn } from '../core/dialog.js';
import { ConfigError } from '../core/errors.js';

export interface Example {
  readonly dialog: Dialog;
  /** Index of the bot turn in `dialog.turns` (its history is every turn before). */
  readonly turn: number;
  /** Index of the bot turn's text in the candidate list. */
  readonly target: number;
}

export function historyOf(ex: Example): readonly Turn[] {
  return ex.dialog.turns.slice(0, ex.turn);
}

/**
 * One example per bot turn whose text is a candidate; `missing` counts bot turns that are not
 * (they cannot be learnt by ranking).
 */
export function responseExamples(dialogs: readonly Dialog[], indexOf: (text: string) => number): { examples: Example[]; missing: number } {
  const examples: Example[] = [];
  let missing = 0;
  for (const d of dialogs) {
    d.turns.forEach((t, i) => {
      if (t.speaker !== 'bot') return;
      const target = indexOf(t.text);
      if (target < 0) missing++;
      else examples.push({ dialog: d, turn: i, target });
    });
  }
  return { examples, missing };
}

/** `responseExamples` of a training file: a ConfigError when none of its bot turns is a candidate (nothing to learn). */
export function trainingExamples(train: readonly Dialog[], indexOf: (text: string) => number): { examples: Example[]; missing: number } {
  const r = responseExamples(train, indexOf);
  if (r.examples.length === 0) throw new ConfigError('no training example: no bot turn of the training file is among the candidates');
  return r;
}
