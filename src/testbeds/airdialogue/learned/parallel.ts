/**
 * The learned AirDialogue models' batches on several threads (`BatchRunner`): a batch is cut into
 * parts of `PART_DIALOGUES` dialogues; each part's gradient is computed alone from zero, on the
 * main thread or on a worker (train-worker.ts), into its own buffer, and the batch's gradient is
 * the sum of the parts' in part order (nn/param-buffers.ts). The parts do not depend on the number
 * of threads, so neither do the gradients, the weights or the losses: 1 thread and 4 give the same
 * bits. The workers' replicas view the parameters' values in shared memory (nothing is copied per
 * step); each step sends a worker only its parts' examples.
 */
import { DialogymError } from '../../../core/errors.js';
import { Pool } from '../../../core/pool.js';
import { paramSize, sumParts, viewParams, type Param } from '../../../nn/index.js';
import type { LearnedExample } from './data.js';
import { countOwn, prepare, type DialogueModel, type ModelSizes } from './model.js';
import type { Vocab } from './tokens.js';

/** Dialogues per part of a batch: the unit of work of a thread (measured: parts of 2 cost the same CPU as one batch of 8). */
export const PART_DIALOGUES = 2;

/** A dialogue's losses: the LM loss of both models (summed over their own tokens), their tokens, the state loss. */
export interface DialogueLoss {
  readonly lm: number;
  readonly tokens: number;
  readonly state: number;
}

/** The two models of `AirModels` (structurally: what a part needs). */
export interface PartModels {
  readonly vocab: Vocab;
  readonly customer: DialogueModel;
  readonly agent: DialogueModel;
}

/**
 * Losses of `examples` through both models as one batch; with `backward`, their gradients added
 * to the models' gradient buffers, each dialogue's LM loss scaled by 1/(`batch` · its own tokens)
 * (the trainer's per-token mean over an update of `batch` dialogues).
 */
export function partLosses(m: PartModels, examples: readonly LearnedExample[], backward: boolean, batch: number): DialogueLoss[] {
  const ps = examples.map((e) => prepare(e, m.vocab));
  const c = m.customer.lossBatch(ps, backward, ps.map((p) => 1 / batch / Math.max(1, countOwn(p, 0))));
  const a = m.agent.lossBatch(ps, backward, ps.map((p) => 1 / batch / Math.max(1, countOwn(p, 1))));
  return ps.map((_, k) => ({ lm: c[k]!.lm + a[k]!.lm, tokens: c[k]!.tokens + a[k]!.tokens, state: a[k]!.state }));
}

/** What a worker is given once. */
export interface WorkerSetup {
  readonly words: readonly string[];
  readonly sizes: ModelSizes;
  /** The parameters' values (both models, `airModelParams` order). */
  readonly values: SharedArrayBuffer;
  /** The gradient buffer of each part (index = part). */
  readonly grads: readonly SharedArrayBuffer[];
}

/** A worker's task: some parts of a batch (their examples without `source`). */
export interface PartsTask {
  readonly parts: readonly { readonly index: number; readonly examples: readonly LearnedExample[] }[];
  readonly backward: boolean;
  readonly batch: number;
}

/** Parts whose gradients are held at once (a batch of more parts runs in rounds of this many). */
const MAX_PARTS_HELD = 16;

/** How long a worker may take to pick up its first task before training gives up (a generous guard). */
const START_TIMEOUT_MS = 120_000;

/** Without `source` (the parsed example it came from): only what the models read crosses to a worker. */
function bare(e: LearnedExample): LearnedExample {
  const { source: _source, ...rest } = e;
  return rest;
}

/**
 * Runs the batches of both models on `threads` threads (the main one and threads − 1 workers;
 * module description). `params` are `m`'s parameters in `airModelParams` order; their values move
 * to shared memory while the runner is open and back to ordinary memory at `close()`.
 */
export class BatchRunner {
  private readonly pool: Pool<PartsTask, DialogueLoss[][]> | null;
  private readonly grad: Float32Array;
  private readonly partGrads: Float32Array[];
  private readonly workers: number;

  constructor(
    private readonly m: PartModels & { readonly sizes: ModelSizes },
    private readonly params: readonly Param[],
    threads: number,
    maxParts: number,
  ) {
    const n = paramSize(params);
    this.workers = Math.max(0, Math.min(threads, maxParts) - 1);
    const shared = this.workers > 0;
    const buffer = (): ArrayBufferLike => (shared ? new SharedArrayBuffer(4 * n) : new ArrayBuffer(4 * n));
    this.grad = viewParams(params, 'grad', new ArrayBuffer(4 * n), true);
    // each part into its own buffer, at most MAX_PARTS_HELD held (a batch of more parts runs in rounds): memory bounded for any batch
    this.partGrads = Array.from({ length: Math.min(maxParts, MAX_PARTS_HELD) }, () => new Float32Array(buffer(), 0, n));
    if (!shared) {
      this.pool = null;
      return;
    }
    const values = new SharedArrayBuffer(4 * n);
    viewParams(params, 'data', values, true);
    const setup: WorkerSetup = { words: m.vocab.words, sizes: m.sizes, values, grads: this.partGrads.map((g) => g.buffer as SharedArrayBuffer) };
    // Many tasks per thread: the trainer never runs its event loop, so the pool never hears that one ended.
    // The answer (three numbers a dialogue, v8-serialized: under 60 bytes each) comes through shared memory of this size.
    this.pool = new Pool({ file: new URL('./train-worker.js', import.meta.url), threads: this.workers, workerData: setup, label: 'AirDialogue training worker', tasksPerThread: 1 << 30, syncBytes: 4096 + 128 * PART_DIALOGUES * this.partGrads.length });
  }

  /**
   * Losses of the dialogues of `parts`, in order; with `backward`, the models' gradients become
   * those of the parts summed in part order (the gradient buffers are overwritten, not added to).
   */
  run(parts: readonly (readonly LearnedExample[])[], backward: boolean, batch: number): DialogueLoss[] {
    const losses: DialogueLoss[][] = new Array(parts.length);
    // at most partGrads.length parts at once; the sum runs in part order across the rounds (the same bits as one round)
    for (let a = 0; a < parts.length; a += this.partGrads.length) {
      const round = parts.slice(a, a + this.partGrads.length);
      const threads = Math.min(this.workers + 1, round.length);
      // thread j computes parts [cut(j), cut(j + 1)) of the round: contiguous, the main thread the first
      const cut = (j: number): number => Math.floor((j * round.length) / threads);
      const joins: { from: number; join: () => DialogueLoss[][] | undefined }[] = [];
      for (let j = 1; j < threads; j++) {
        const task: PartsTask = { parts: round.slice(cut(j), cut(j + 1)).map((ex, i) => ({ index: cut(j) + i, examples: ex.map(bare) })), backward, batch };
        joins.push({ from: cut(j), join: (this.pool as Pool<PartsTask, DialogueLoss[][]>).runSync(task, START_TIMEOUT_MS) });
      }
      for (let k = 0; k < cut(1); k++) losses[a + k] = this.part(k, round[k]!, backward, batch);
      for (const { from, join } of joins) {
        const got = join();
        if (!got) throw new DialogymError(`AirDialogue training: a worker thread did not start within ${START_TIMEOUT_MS / 1000} s${this.pool?.failure ? ` (${this.pool.failure.message})` : ''}`);
        got.forEach((l, i) => (losses[a + from + i] = l));
      }
      if (backward) {
        if (a === 0) sumParts(this.grad, this.partGrads, round.length);
        else sumParts(this.grad, [this.grad, ...this.partGrads], round.length + 1);
      }
    }
    if (backward) viewParams(this.params, 'grad', this.grad.buffer);
    return losses.flat();
  }

  /** Part k on this thread, its gradient into its buffer (left bound to it). */
  private part(k: number, examples: readonly LearnedExample[], backward: boolean, batch: number): DialogueLoss[] {
    if (backward) {
      const g = this.partGrads[k]!;
      viewParams(this.params, 'grad', g.buffer);
      g.fill(0);
    }
    return partLosses(this.m, examples, backward, batch);
  }

  /** Stops the workers; the parameters' values and gradients go back to ordinary memory. */
  close(): void {
    if (!this.pool) return;
    const n = paramSize(this.params);
    viewParams(this.params, 'data', new ArrayBuffer(4 * n), true);
    void this.pool.destroy();
  }
}

/** The worker side: a replica of both models over the shared values (train-worker.ts). */
export function workerReplica(setup: WorkerSetup, build: (words: readonly string[], sizes: ModelSizes) => PartModels): (task: PartsTask) => DialogueLoss[][] {
  const m = build(setup.words, setup.sizes);
  const params = [...m.customer.params, ...m.agent.params];
  viewParams(params, 'data', setup.values);
  return (task) =>
    task.parts.map(({ index, examples }) => {
      if (task.backward) {
        const g = viewParams(params, 'grad', setup.grads[index]!);
        g.fill(0);
      }
      return partLosses(m, examples, task.backward, task.batch);
    });
}
