/** Response-prediction evaluation: every bot turn of every dialog is predicted from its history. */
import type { Dialog } from '../core/dialog.js';
import { accuracy, type AccuracyState } from '../metrics/ranking.js';
import { argmax, isResponder, type ResponseModel } from './ranker.js';
import { ConfigError } from '../core/errors.js';

export interface Prediction {
  /** 0-based index of the dialog in its file. */
  readonly dialog: number;
  /** 0-based index of the bot turn within its dialog. */
  readonly turn: number;
  readonly prediction: string;
  readonly truth: string;
}

export interface EvaluateOptions {
  /** Candidate responses, needed by rankers (ignored by responders). */
  readonly candidates?: readonly string[];
  /** Called for each prediction, in order. */
  readonly onPrediction?: (p: Prediction) => void;
  /** Called after each dialog with (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
}

export function evaluateDialogs(model: ResponseModel, dialogs: readonly Dialog[], opts: EvaluateOptions = {}): AccuracyState {
  const cands = opts.candidates;
  if (!isResponder(model) && !cands) throw new ConfigError(`model '${model.name}' ranks candidates: give a candidates file`);
  let state = accuracy.empty();
  dialogs.forEach((d, di) => {
    const marks: boolean[] = [];
    let j = 0;
    d.turns.forEach((t, ti) => {
      if (t.speaker !== 'bot') return;
      const history = d.turns.slice(0, ti);
      const prediction = isResponder(model) ? model.respond(history) : (cands as readonly string[])[argmax(model.rank(history, cands as readonly string[]))] ?? '';
      marks.push(prediction === t.text);
      opts.onPrediction?.({ dialog: di, turn: j++, prediction, truth: t.text });
    });
    state = accuracy.addDialog(state, marks);
    opts.onProgress?.(di + 1, dialogs.length);
  });
  return state;
}
