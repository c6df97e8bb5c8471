/**
 * Training work cut into parts on several threads, the same bits for any number of threads
 * (`PartRunner`). A step's work — a batch's dialogues, an update's episodes — is cut into parts
 * that do not depend on the number of threads; each part's gradient is computed alone from zero,
 * on the main thread or on a worker, into its own buffer, and the step's gradient is the sum of
 * the parts' in part order (nn/param-buffers.ts: `sumParts`). So 1 thread and 4 give the same
 * gradients, weights and losses. At most `MAX_PARTS_HELD` part buffers are held: a step of more
 * parts runs in rounds of that many, its sum still in part order.
 *
 * While the runner is open with workers, the parameters' values live in one `SharedArrayBuffer`
 * that every worker's replica views (nothing is copied per step: an optimizer's step in place is
 * seen by all); each task sends a worker only its parts. `close()` gives the values ordinary
 * memory back.
 *
 * A user supplies what differs: the work of one thread (`PartWork`: the parameters, and for a
 * task's settings the function of one part), built once on the main thread from its models and
 * once in each worker from the `setup` payload. The worker module is
 * `export default poolTask(partsWorker(workerData, (setup) => work))` (core/pool-worker.ts).
 *
 * @example
 * ```ts
 * // main thread
 * const runner = new PartRunner(work, { threads: 2, maxParts: 4, worker: new URL('./my-worker.js', import.meta.url), setup, label: 'my training', answerBytes: 64 });
 * try {
 *   const losses = runner.run({ scale: 1 }, parts); // work.trained's gradients: the sum of the parts', in part order
 * } finally {
 *   runner.close();
 * }
 * // my-worker.ts
 * export default poolTask(partsWorker(workerData as PartsWorkerData<Setup>, (setup) => buildWork(setup)));
 * ```
 */
import { DialogymError, InternalError } from '../core/errors.js';
import { Pool, WorkerStartError } from '../core/pool.js';
import { paramSize, sumParts, viewParams } from '../nn/param-buffers.js';
import type { Param } from '../nn/params.js';

/** Parts whose gradients are held at once (a step of more parts runs in rounds of this many). */
export const MAX_PARTS_HELD = 16;

/**
 * How long a worker may take to pick up its first task before training gives up (a generous guard).
 * A worker whose module fails to load says why at once (`WorkerStartError`); this bounds the wait for
 * one that died without a word (out of memory, `process.exit` at import).
 */
const START_TIMEOUT_MS = 120_000;

/**
 * One thread's work: the main thread's models or a worker's replica of them.
 * `C`: a task's settings, the same for all its parts; `P`: a part; `R`: a part's result.
 */
export interface PartWork<C, P, R> {
  /** The parameters whose gradients the parts compute. */
  readonly trained: readonly Param[];
  /** Every parameter a part reads (`trained` among them), in an order the same on every thread: shared with the workers. */
  readonly values: readonly Param[];
  /**
   * The function of one part under `common` (called once before a task's parts; in a worker, only
   * once the replica views the shared values: what reads the weights is made here, not when the
   * work is built, e.g. decoding kernels made from them); with `gradients`,
   * it adds the part's gradient to `trained`'s gradient buffers as they are bound (the runner binds
   * each part's own buffer, zeroed, before calling it).
   */
  task(common: C, gradients: boolean): (part: P) => R;
}

/** A worker's task: some parts of a step, each with its index (its gradient buffer). */
export interface PartsTask<C, P> {
  readonly common: C;
  readonly gradients: boolean;
  readonly parts: readonly { readonly index: number; readonly part: P }[];
}

/** What a worker is given once (its `workerData`). */
export interface PartsWorkerData<S> {
  /** The user's payload: what the worker builds its replica from. */
  readonly setup: S;
  /** The values of `PartWork.values`, in that order. */
  readonly values: SharedArrayBuffer;
  /** The gradient buffer of each part of a round (index = part in the round): `PartWork.trained`'s. */
  readonly grads: readonly SharedArrayBuffer[];
}

export interface PartRunnerOptions<S, P> {
  /** Threads: the main one and `threads − 1` workers (no more workers than `maxParts − 1`). */
  readonly threads: number;
  /** The most parts a step of this runner has (bounds the buffers held: at most `MAX_PARTS_HELD`). */
  readonly maxParts: number;
  /** The worker module (`export default poolTask(partsWorker(…))`). */
  readonly worker: URL;
  /** Given to every worker once, to build its replica from. */
  readonly setup: S;
  /** Names the work in errors, e.g. 'AirDialogue training'. */
  readonly label: string;
  /** Bytes of a part's result as it comes back from a worker (v8-serialized), at most. */
  readonly answerBytes: number;
  /** A part as it is sent to a worker (e.g. without what only the main thread reads); default: as it is. */
  readonly wire?: (part: P) => P;
  /** How long a worker may take to pick up its first task (default 120 s, a generous guard). */
  readonly startTimeoutMs?: number;
}

/**
 * Runs the steps of `work` on `threads` threads (module description). The parameters' gradients
 * are the runner's buffers while it is open; with workers, their values are in shared memory
 * until `close()`.
 */
export class PartRunner<S, C, P, R> {
  private readonly pool: Pool<PartsTask<C, P>, R[]> | null;
  private readonly grad: Float32Array;
  private readonly partGrads: Float32Array[];
  private readonly workers: number;
  private readonly label: string;
  private readonly wire: (part: P) => P;
  private readonly startTimeoutMs: number;

  constructor(
    private readonly work: PartWork<C, P, R>,
    o: PartRunnerOptions<S, P>,
  ) {
    if (!Number.isInteger(o.maxParts) || o.maxParts < 1) throw new InternalError(`PartRunner: maxParts ${o.maxParts}`);
    const n = paramSize(work.trained);
    this.label = o.label;
    this.wire = o.wire ?? ((p) => p);
    this.startTimeoutMs = o.startTimeoutMs ?? START_TIMEOUT_MS;
    this.workers = Math.max(0, Math.min(o.threads, o.maxParts) - 1);
    const shared = this.workers > 0;
    const buffer = (): ArrayBufferLike => (shared ? new SharedArrayBuffer(4 * n) : new ArrayBuffer(4 * n));
    this.grad = viewParams(work.trained, 'grad', new ArrayBuffer(4 * n), true);
    // each part into its own buffer, at most MAX_PARTS_HELD held (a step of more parts runs in rounds): memory bounded for any step
    this.partGrads = Array.from({ length: Math.min(o.maxParts, MAX_PARTS_HELD) }, () => new Float32Array(buffer(), 0, n));
    if (!shared) {
      this.pool = null;
      return;
    }
    const values = new SharedArrayBuffer(4 * paramSize(work.values));
    viewParams(work.values, 'data', values, true);
    const data: PartsWorkerData<S> = { setup: o.setup, values, grads: this.partGrads.map((g) => g.buffer as SharedArrayBuffer) };
    // Many tasks per thread: the trainer never runs its event loop, so the pool never hears that one ended.
    // The answer (the results of at most partGrads.length parts) comes through shared memory of this size.
    this.pool = new Pool({ file: o.worker, threads: this.workers, workerData: data, label: `${o.label} worker`, tasksPerThread: 1 << 30, syncBytes: 4096 + o.answerBytes * this.partGrads.length });
  }

  /** The parameters whose gradients the runner computes. */
  get params(): readonly Param[] {
    return this.work.trained;
  }

  /**
   * The results of `parts` under `common`, in order; with `gradients`, the gradients of
   * `params` become those of the parts summed in part order (overwritten, not added to).
   */
  run(common: C, parts: readonly P[], gradients = true): R[] {
    const out: R[] = new Array(parts.length);
    const here = this.work.task(common, gradients);
    // at most partGrads.length parts at once; the sum runs in part order across the rounds (the same bits as one round)
    for (let a = 0; a < parts.length; a += this.partGrads.length) {
      const round = parts.slice(a, a + this.partGrads.length);
      const threads = Math.min(this.workers + 1, round.length);
      // thread j computes parts [cut(j), cut(j + 1)) of the round: contiguous, the main thread the first
      const cut = (j: number): number => Math.floor((j * round.length) / threads);
      const joins: { from: number; join: () => R[] | undefined }[] = [];
      for (let j = 1; j < threads; j++) {
        const task: PartsTask<C, P> = { common, gradients, parts: round.slice(cut(j), cut(j + 1)).map((part, i) => ({ index: cut(j) + i, part: this.wire(part) })) };
        joins.push({ from: cut(j), join: (this.pool as Pool<PartsTask<C, P>, R[]>).runSync(task, this.startTimeoutMs) });
      }
      for (let k = 0; k < cut(1); k++) {
        if (gradients) bindZeroed(this.work.trained, this.partGrads[k]!.buffer);
        out[a + k] = here(round[k]!);
      }
      for (const { from, join } of joins) {
        const got = this.joined(join);
        if (!got) throw new DialogymError(`${this.label}: a worker thread did not start within ${this.startTimeoutMs / 1000} s${this.pool?.failure ? ` (${this.pool.failure.message})` : ''}`);
        got.forEach((r, i) => (out[a + from + i] = r));
      }
      if (gradients) {
        if (a === 0) sumParts(this.grad, this.partGrads, round.length);
        else sumParts(this.grad, [this.grad, ...this.partGrads], round.length + 1);
      }
    }
    if (gradients) {
      if (parts.length === 0) this.grad.fill(0); // the sum of no parts
      viewParams(this.work.trained, 'grad', this.grad.buffer);
    }
    return out;
  }

  /** A worker's answer; a worker whose module did not load says so under the runner's label (`<label>: a worker thread did not start: <why>`). */
  private joined(join: () => R[] | undefined): R[] | undefined {
    try {
      return join();
    } catch (e) {
      throw e instanceof WorkerStartError ? new WorkerStartError(this.label, e.reason) : e;
    }
  }

  /** Stops the workers; the parameters' values go back to ordinary memory. */
  close(): void {
    if (!this.pool) return;
    viewParams(this.work.values, 'data', new ArrayBuffer(4 * paramSize(this.work.values)), true);
    void this.pool.destroy();
  }
}

/** Binds the gradients of `ps` to `buffer`, zeroed: a part's gradient computed alone from zero. */
function bindZeroed(ps: readonly Param[], buffer: ArrayBufferLike): void {
  viewParams(ps, 'grad', buffer).fill(0);
}

/**
 * The worker side: the replica `build` makes from the setup, over the shared values; a task's
 * parts each into its own gradient buffer. A worker module exports
 * `default poolTask(partsWorker(workerData, build))`.
 */
export function partsWorker<S, C, P, R>(data: PartsWorkerData<S>, build: (setup: S) => PartWork<C, P, R>): (task: PartsTask<C, P>) => R[] {
  const work = build(data.setup);
  viewParams(work.values, 'data', data.values);
  return (task) => {
    const one = work.task(task.common, task.gradients);
    return task.parts.map(({ index, part }) => {
      if (task.gradients) bindZeroed(work.trained, data.grads[index]!);
      return one(part);
    });
  };
}
