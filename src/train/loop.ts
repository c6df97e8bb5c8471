/**
 * The training loop shared by the learned rankers: epochs, evaluation on dev after each, the best
 * epoch's weights kept (snapshot) and restored at the end, early stopping after `patience` epochs
 * without improvement, and a checkpoint hook called whenever dev improves.
 */
import { clipGradNorm, restore, snapshot, zeroGrads, type Optimizer, type Param } from '../nn/params.js';
import type { Rng } from '../core/rng.js';
import { DialogymError } from '../core/errors.js';

export interface FitOptions {
  readonly epochs: number;
  /** Stop after this many epochs without a dev improvement (0 = never stop early). */
  readonly patience: number;
}

/**
 * What the supervised loop reports after each epoch: training loss, dev score, the best so far
 * and timings (`dialogym train` prints one line per report).
 *
 * @example
 * ```ts
 * import { trainModel, type EpochReport } from 'dialogym';
 * declare const data: Parameters<typeof trainModel>[1];
 * trainModel('memn2n', data, { epochs: 5 }, { onEpoch: (r: EpochReport) => console.log(r.epoch, r.loss, r.dev) });
 * ```
 */
export interface EpochReport {
  readonly epoch: number;
  readonly epochs: number;
  readonly loss: number;
  readonly dev: number;
  readonly bestDev: number;
  readonly bestEpoch: number;
  readonly seconds: number;
  /** Of `seconds`, the time spent training (the rest is the dev evaluation). */
  readonly trainSeconds: number;
  /** Estimated seconds left for the remaining epochs. */
  readonly eta: number;
}

export interface Fittable {
  readonly params: readonly Param[];
  /** One pass over the training data; returns the mean training loss. */
  runEpoch(epoch: number): number;
  /** Dev score, higher is better (per-response accuracy). */
  evaluate(): number;
  /** Called after parameters were restored. */
  touch(): void;
  /**
   * Optional: starts evaluating the current weights elsewhere (e.g. a worker thread) and returns
   * a function that waits for the score. With it, `fit` trains epoch e+1 while epoch e is being
   * evaluated; the result is the same as evaluating in line (the same weights are scored and
   * selected), only one extra epoch may be trained and thrown away when training stops. A
   * NaN score means "not available": that epoch is then evaluated in line.
   */
  startEvaluate?(): () => number;
}

/**
 * Progress hooks of the supervised loop: `onEpoch` after every epoch, `onBest` whenever dev
 * improves (with the improved weights in place: write a checkpoint there).
 *
 * @example
 * ```ts
 * import { trainModel, saveModel, type FitHooks, type SavableRanker } from 'dialogym';
 * declare const data: Parameters<typeof trainModel>[1];
 * let current: SavableRanker | undefined;
 * const hooks: FitHooks = { onBest: (r) => current && saveModel('best.dgm', current) };
 * trainModel('embeddings', data, { epochs: 10 }, { ...hooks, onModel: (m) => (current = m) });
 * ```
 */
export interface FitHooks {
  onEpoch?(r: EpochReport): void;
  /** Called when dev improves, with the improved weights in place (write a checkpoint here). */
  onBest?(r: EpochReport): void;
}

export interface FitResult {
  readonly bestEpoch: number;
  readonly bestDev: number;
  readonly epochsRun: number;
  readonly history: EpochReport[];
  readonly seconds: number;
}

export function fit(f: Fittable, opts: FitOptions, hooks: FitHooks = {}): FitResult {
  if (f.startEvaluate) return fitOverlapped(f, f.startEvaluate.bind(f), opts, hooks);
  const t0 = performance.now();
  let best = -Infinity;
  let bestEpoch = 0;
  let snap: Float32Array[] | undefined;
  const history: EpochReport[] = [];
  let epoch = 0;
  while (epoch < opts.epochs) {
    epoch++;
    const te = performance.now();
    const loss = f.runEpoch(epoch);
    const trainSeconds = (performance.now() - te) / 1000;
    if (!Number.isFinite(loss)) throw new DialogymError(`training diverged at epoch ${epoch} (loss ${loss}); lower the learning rate`);
    const dev = f.evaluate();
    const improved = dev > best;
    if (improved) {
      best = dev;
      bestEpoch = epoch;
      snap = snapshot(f.params);
    }
    const seconds = (performance.now() - te) / 1000;
    const elapsed = (performance.now() - t0) / 1000;
    const r: EpochReport = { epoch, epochs: opts.epochs, loss, dev, bestDev: best, bestEpoch, seconds, trainSeconds, eta: (elapsed / epoch) * (opts.epochs - epoch) };
    history.push(r);
    hooks.onEpoch?.(r);
    if (improved) hooks.onBest?.(r);
    if (opts.patience > 0 && epoch - bestEpoch >= opts.patience) break;
    if (best >= 1) break; // perfect on dev: nothing left to select

  }
  if (snap) {
    restore(f.params, snap);
    f.touch();
  }
  return { bestEpoch, bestDev: best, epochsRun: epoch, history, seconds: (performance.now() - t0) / 1000 };
}

/**
 * `fit` with the evaluation of epoch e overlapping the training of epoch e+1. Same selection,
 * same best weights and the same reports (each one comes an epoch later); `onBest` is called with
 * the improved weights in place (they are swapped in for the call).
 */
function fitOverlapped(f: Fittable, startEvaluate: () => () => number, opts: FitOptions, hooks: FitHooks): FitResult {
  const t0 = performance.now();
  let best = -Infinity;
  let bestEpoch = 0;
  let snap: Float32Array[] | undefined;
  const history: EpochReport[] = [];
  interface Pending {
    epoch: number;
    loss: number;
    trainSeconds: number;
    weights: Float32Array[];
    join: () => number;
  }
  let pending: Pending | undefined;
  let lastSettle = t0;
  let epochsRun = 0;
  /** Takes the pending evaluation's score; returns true when training should stop. */
  const settle = (p: Pending): boolean => {
    let dev = p.join();
    if (Number.isNaN(dev)) {
      // No evaluator (its worker did not start): score the same weights in line.
      const current = snapshot(f.params);
      restore(f.params, p.weights);
      f.touch();
      dev = f.evaluate();
      restore(f.params, current);
      f.touch();
    }
    const improved = dev > best;
    if (improved) {
      best = dev;
      bestEpoch = p.epoch;
      snap = p.weights;
    }
    const now = performance.now();
    const elapsed = (now - t0) / 1000;
    const seconds = (now - lastSettle) / 1000;
    lastSettle = now;
    const r: EpochReport = {
      epoch: p.epoch,
      epochs: opts.epochs,
      loss: p.loss,
      dev,
      bestDev: best,
      bestEpoch,
      seconds,
      trainSeconds: p.trainSeconds,
      eta: (elapsed / p.epoch) * (opts.epochs - p.epoch),
    };
    history.push(r);
    hooks.onEpoch?.(r);
    if (improved && hooks.onBest) {
      const current = snapshot(f.params);
      restore(f.params, p.weights);
      f.touch();
      hooks.onBest(r);
      restore(f.params, current);
      f.touch();
    }
    return (opts.patience > 0 && p.epoch - bestEpoch >= opts.patience) || best >= 1;
  };
  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    const te = performance.now();
    const loss = f.runEpoch(epoch);
    const trainSeconds = (performance.now() - te) / 1000;
    if (pending && settle(pending)) {
      // Epoch `epoch` was trained ahead and is thrown away: the in-line loop would have stopped before it.
      epochsRun = pending.epoch;
      pending = undefined;
      break;
    }
    if (!Number.isFinite(loss)) throw new DialogymError(`training diverged at epoch ${epoch} (loss ${loss}); lower the learning rate`);
    pending = { epoch, loss, trainSeconds, weights: snapshot(f.params), join: startEvaluate() };
  }
  if (pending) {
    settle(pending);
    epochsRun = pending.epoch;
  }
  if (snap) {
    restore(f.params, snap);
    f.touch();
  }
  return { bestEpoch, bestDev: best, epochsRun, history, seconds: (performance.now() - t0) / 1000 };
}

/** One epoch of mini-batch training, shared by the trainers. */
export interface MiniBatchEpoch {
  /** The epoch's stream: it shuffles `order` first, then is handed to `example` (e.g. for negatives). */
  readonly rng: Rng;
  /** Example indices to visit (shuffled each epoch). */
  readonly order: readonly number[];
  readonly batchSize: number;
  readonly params: readonly Param[];
  readonly optimizer: Optimizer;
  readonly maxGradNorm: number;
  /** Loss of example `k`; adds its gradients to the params. */
  example(k: number, rng: Rng): number;
  /** Before the examples of each batch (after the gradients are zeroed), with the batch's example indices. */
  beforeBatch?(batch: readonly number[], rng: Rng): void;
  /**
   * Sparse updates (e.g. `SparseSgd` of nn/sparse-rows): when given, it zeroes, clips and steps
   * instead of `zeroGrads` / `clipGradNorm` / `optimizer.step` over every parameter.
   */
  readonly sparse?: { zero(): void; clipAndStep(maxNorm: number): number };
  /** After the examples of each batch, before clipping (e.g. backpropagation into shared caches). */
  afterExamples?(): void;
  /** After each optimizer step (e.g. invalidating caches of the weights). */
  afterStep?(): void;
  onBatch?(done: number, total: number): void;
}

/** Runs one epoch: shuffle, then per batch zero → examples → clip → step. Returns the summed loss. */
export function miniBatchEpoch(e: MiniBatchEpoch): number {
  const perm = e.rng.shuffle(e.order);
  let total = 0;
  const batches = Math.ceil(perm.length / e.batchSize);
  for (let b = 0; b < batches; b++) {
    if (e.sparse) e.sparse.zero();
    else zeroGrads(e.params);
    const batch = perm.slice(b * e.batchSize, Math.min(perm.length, (b + 1) * e.batchSize));
    e.beforeBatch?.(batch, e.rng);
    for (const k of batch) total += e.example(k, e.rng);
    e.afterExamples?.();
    if (e.sparse) e.sparse.clipAndStep(e.maxGradNorm);
    else {
      clipGradNorm(e.params, e.maxGradNorm);
      e.optimizer.step(e.params);
    }
    e.afterStep?.();
    e.onBatch?.(b + 1, batches);
  }
  return total;
}

/**
 * A supervised trainer as the generic loop sees it: mini-batch epochs (`miniBatchEpoch`, epoch
 * `e` drawing from `rng.fork('epoch<e>')`) inside `fit` (dev selection, early stopping).
 */
export interface MiniBatchTraining extends Omit<MiniBatchEpoch, 'rng' | 'onBatch'> {
  /** The training stream; each epoch forks its own. */
  readonly rng: Rng;
  /** Mean epoch loss from the summed loss (default: divided by the number of examples). */
  epochLoss?(total: number): number;
  /** After each epoch's batches (e.g. refreshing caches of the weights). */
  afterEpoch?(): void;
  /** Dev score, higher is better. */
  evaluate(): number;
  /** Called after parameters were restored. */
  touch(): void;
  /** See `Fittable.startEvaluate`. */
  startEvaluate?(): () => number;
}

/**
 * The part of a `MiniBatchTraining` every trainer of one model sets the same way: its `count`
 * examples visited by index (shuffled each epoch from `rng`), the model's parameters, the batch
 * size and gradient clip of its options, `optimizer`, and the model's `touch` after a restore.
 */
export function miniBatchBasics(
  model: { readonly params: readonly Param[]; touch(): void },
  rng: Rng,
  count: number,
  o: { readonly batchSize: number; readonly maxGradNorm: number },
  optimizer: Optimizer,
): Pick<MiniBatchTraining, 'rng' | 'order' | 'batchSize' | 'params' | 'optimizer' | 'maxGradNorm' | 'touch'> {
  return {
    rng,
    order: Array.from({ length: count }, (_, i) => i),
    batchSize: o.batchSize,
    params: model.params,
    optimizer,
    maxGradNorm: o.maxGradNorm,
    touch: () => model.touch(),
  };
}

/**
 * Trains with mini-batch epochs and keeps the best epoch on dev: the loop every supervised model
 * (embeddings, MemN2N, HCN) shares; the trainer gives only its example loss and its hooks.
 */
export function fitMiniBatches(t: MiniBatchTraining, opts: FitOptions, hooks: FitHooks & { onBatch?(done: number, total: number): void } = {}): FitResult {
  return fit(
    {
      params: t.params,
      runEpoch(e) {
        const total = miniBatchEpoch({ ...t, rng: t.rng.fork(`epoch${e}`), onBatch: hooks.onBatch });
        t.afterEpoch?.();
        return t.epochLoss ? t.epochLoss(total) : total / t.order.length;
      },
      evaluate: () => t.evaluate(),
      touch: () => t.touch(),
      ...(t.startEvaluate ? { startEvaluate: t.startEvaluate } : {}),
    },
    opts,
    hooks,
  );
}
