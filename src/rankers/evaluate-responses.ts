/** Response-prediction evaluation: every bot turn of every dialog is predicted from its history. */
import type { Dialog } from '../core/dialog.js';
import { accuracy, type AccuracyState } from '../metrics/ranking.js';
import { argmax, isResponder, type Ranker, type ResponseModel } from './ranker.js';
import { MemN2N } from './memn2n.js';
import { memn2nConversation } from './memn2n-attention.js';
import { ConfigError, StateError, errorText, optionName } from '../core/errors.js';
import { Pool, WorkerStartError } from '../core/pool.js';
import { encodeModelFile, type ModelFileContent } from '../formats/model-file.js';

/**
 * One predicted bot turn, as `evaluateDialogs` reports it to `onPrediction`.
 *
 * @example
 * ```ts
 * import type { Prediction } from 'dialogym';
 * const p: Prediction = { dialog: 0, turn: 2, prediction: 'where should it be', truth: 'where should it be' };
 * const correct = p.prediction === p.truth;
 * ```
 */
export interface Prediction {
  /** 0-based index of the dialog in its file. */
  readonly dialog: number;
  /** 0-based index of the bot turn among the bot turns of its dialog (not an index into `turns`). */
  readonly turn: number;
  /** The model's response (for a ranker, its best-scoring candidate). */
  readonly prediction: string;
  /** The bot's actual response. */
  readonly truth: string;
}

/**
 * Options of `evaluateDialogs`.
 *
 * @example
 * ```ts
 * import type { EvaluateOptions } from 'dialogym';
 * const errors: string[] = [];
 * const opts: EvaluateOptions = {
 *   candidates: ['hello what can i help you with today', "i'm on it"],
 *   onPrediction: (p) => { if (p.prediction !== p.truth) errors.push(`${p.dialog}/${p.turn}`); },
 * };
 * ```
 */
export interface EvaluateOptions {
  /** Candidate responses, needed by rankers (ignored by responders). */
  readonly candidates?: readonly string[];
  /** Called for each prediction, in order. */
  readonly onPrediction?: (p: Prediction) => void;
  /** Called after each dialog with (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Response-prediction evaluation: every bot turn of every dialog is predicted from the turns
 * before it (a responder's response, or a ranker's best candidate) and compared with the real
 * one by exact string equality. Returns the per-response / per-dialog accuracy counts (read them
 * with `accuracy.perResponse` / `accuracy.perDialog`). Throws a ConfigError when a ranker is
 * given no candidates.
 *
 * @example
 * ```ts
 * import { evaluateDialogs, createModel, readBabiDialogs, accuracy } from 'dialogym';
 * const { dialogs } = readBabiDialogs('data/dialog-bAbI-tasks/dialog-babi-task1-API-calls-tst.txt');
 * const state = evaluateDialogs(createModel('rules'), dialogs);
 * console.log(accuracy.perResponse(state), accuracy.perDialog(state)); // 1 1
 * ```
 */
export function evaluateDialogs(model: ResponseModel, dialogs: readonly Dialog[], opts: EvaluateOptions = {}): AccuracyState {
  const cands = opts.candidates;
  if (!isResponder(model) && !cands) throw new ConfigError(errorText`model '${model.name}' ranks candidates: give a candidates file with ${optionName('candidates')}`);
  let state = accuracy.empty();
  // MemN2N scores a dialog turn by turn with its memories embedded once (the same scores as `rank`).
  const conversational = model instanceof MemN2N ? model : undefined;
  dialogs.forEach((d, di) => {
    const marks: boolean[] = [];
    let j = 0;
    const conv = conversational ? memn2nConversation(conversational) : undefined;
    d.turns.forEach((t, ti) => {
      if (t.speaker !== 'bot') return;
      const history = d.turns.slice(0, ti);
      const scores = (): Float32Array => (conv ? conv.rankWithAttention(history, cands as readonly string[]).scores : (model as Ranker).rank(history, cands as readonly string[]));
      const prediction = isResponder(model) ? model.respond(history) : (cands as readonly string[])[argmax(scores())] ?? '';
      marks.push(prediction === t.text);
      opts.onPrediction?.({ dialog: di, turn: j++, prediction, truth: t.text });
    });
    state = accuracy.addDialog(state, marks);
    opts.onProgress?.(di + 1, dialogs.length);
  });
  return state;
}

/**
 * Dev evaluation on a second core: `start(model)` hands a snapshot of the model (its model file)
 * to a worker thread (core/pool, `runSync`) and returns at once; the returned `join()` blocks
 * (Atomics.wait, no event loop needed) until the worker's per-response accuracy is in. The worker
 * scores exactly what `evaluateDialogs` on the same weights scores, so training results do not
 * change, only overlap.
 */
export class BackgroundEvaluator {
  private readonly pool: Pool<Uint8Array, number>;
  private pending = false;
  /** Set when the worker did not start (e.g. its module failed to load): results are NaN then. */
  private dead = false;

  constructor(
    dev: readonly Dialog[],
    candidates: readonly string[],
    private readonly startTimeoutMs = 30_000,
    /** The worker's module (tests point it elsewhere). */
    workerFile: URL = new URL('./evaluate-responses-worker.js', import.meta.url),
  ) {
    // Many tasks per thread: the trainer never runs its event loop, so the pool never hears that the last one ended.
    this.pool = new Pool({ file: workerFile, threads: 1, workerData: { dev, candidates }, label: 'dev evaluation failed', tasksPerThread: 1 << 30 });
  }

  /** False once the worker failed to start (every later `start` gives NaN at once). */
  get available(): boolean {
    return !this.dead && this.pool.failure === undefined;
  }

  /**
   * Starts evaluating `model` as it is now; call the returned function for its accuracy. That is
   * NaN when the worker could not start (its module failed to load: at once; a thread that died
   * without a word: after `startTimeoutMs`): evaluate in line then.
   */
  start(model: { toModelFile(): ModelFileContent }): () => number {
    if (!this.available) return () => NaN;
    if (this.pending) throw new StateError('BackgroundEvaluator: one evaluation at a time');
    this.pending = true;
    const join = this.pool.runSync(encodeModelFile(model.toModelFile()), this.startTimeoutMs);
    return () => {
      try {
        let v: number | undefined;
        try {
          v = join();
        } catch (e) {
          if (!(e instanceof WorkerStartError)) throw e;
        }
        if (v === undefined) {
          this.dead = true;
          this.close();
          return NaN;
        }
        return v;
      } finally {
        this.pending = false;
      }
    };
  }

  /** Stops the worker (pending results are dropped). */
  close(): void {
    void this.pool.destroy();
  }
}
