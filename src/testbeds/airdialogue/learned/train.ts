/**
 * Supervised training of the learned AirDialogue agents, their model file and their evaluation
 * (the paper's Table 8: perplexity, BLEU, state accuracy given the true dialogue).
 *
 * Training: both models (customer and agent + state model) on the same examples, Adam on
 * mini-batches of dialogues with global-norm clipping (the original's `max_gradient_norm`,
 * model.py ≈l.180), the examples shuffled by the seeded Rng every epoch; after each epoch the
 * dev loss (language-model nats per token of both sides + state nats per dialogue) picks the
 * best epoch, whose weights are kept.
 */
import { createRng } from '../../../core/rng.js';
import { ModelFileError } from '../../../core/errors.js';
import type { AirExample } from '../../../formats/airdialogue.js';
import { ConfigError } from '../../../core/errors.js';
import { readModelFile, tensorOf, writeModelFile, type ModelFileContent } from '../../../formats/model-file.js';
import { adam, clipGradNorm, restore, snapshot, type Param } from '../../../nn/index.js';
import { nameExact, scoreAction } from '../scorer.js';
import { addBleuSegment, bleuOf, emptyBleuStats, mergeBleuStats, type BleuStats } from './bleu.js';
import { learnedSetOf, toLearned, type LearnedExample, type LearnedSet } from './data.js';
import { DialogueModel, prepare, type ModelSizes } from './model.js';
import { batchRunner, dialogueParts, PART_DIALOGUES, type BatchRunner } from './parallel.js';
import { Vocab } from './tokens.js';

import { LEARNED_MODEL_NAME } from './model-name.js';

export { LEARNED_MODEL_NAME };

/**
 * Customer model, agent model (with its state model) and their shared vocabulary, as
 * `trainAirModels` returns them and `loadAirModels` reads them.
 *
 * @example
 * ```ts
 * import { loadAirModels, type AirModels } from 'dialogym/airdialogue';
 * const m: AirModels = loadAirModels('out/air.dgm');
 * console.log(m.vocab.size, m.sizes.hidden, m.meta['bestEpoch']);
 * ```
 */
export interface AirModels {
  readonly vocab: Vocab;
  readonly sizes: ModelSizes;
  readonly customer: DialogueModel;
  readonly agent: DialogueModel;
  /** Training settings, stored in the model file. */
  readonly meta: Record<string, unknown>;
}

/**
 * Options of `trainAirModels` (every field has a default).
 *
 * @example
 * ```ts
 * import type { AirTrainOptions } from 'dialogym/airdialogue';
 * const o: AirTrainOptions = { epochs: 6, dim: 24, hidden: 48, minCount: 3, seed: 1 };
 * ```
 */
export interface AirTrainOptions {
  /** Word/field embedding size (default 24). */
  dim?: number;
  /** GRU state size (default 48). */
  hidden?: number;
  /** The agent's flight memory and flight pointer see which flight values the customer said (`ModelSizes.match`; default true). */
  match?: boolean;
  /** With `match`: the agent names flights by pointing only (`ModelSizes.point`; default false — measured worse in self-play, docs/notes/airdialogue-learned.md). */
  point?: boolean;
  /** With `match`: the departure/return flags follow the order they were said in (`ModelSizes.order`; default false). */
  order?: boolean;
  /** With `match`: the agent's flight memory, flight pointer and status head see the constraint features (`ModelSizes.constraints`, constraints.ts; default true). */
  constraints?: boolean;
  /** Epochs (default 8). */
  epochs?: number;
  /** The learning rate is multiplied by this after every epoch (default 1: constant). */
  lrDecay?: number;
  /** Dialogues per update (default 8). */
  batch?: number;
  /** Adam learning rate (default 0.01). */
  lr?: number;
  /** Words seen fewer times in training map to `<unk>` (default 1; the real data wants more). */
  minCount?: number;
  /** Gradient clipping norm (default 5). */
  clip?: number;
  seed?: number;
  /**
   * Threads computing each batch (default 1): the main one and `threads − 1` workers, each on
   * parts of 2 dialogues (parallel.ts). The results do not depend on it (same weights, same
   * losses, bit for bit); more threads than parts of a batch (batch / 2) are not used.
   */
  threads?: number;
  /** Called after each training dialogue. */
  onProgress?: (done: number, total: number, note: string) => void;
  /** Called after each update with its figures (a loss curve finer than the epoch's). */
  onBatch?: (p: BatchPoint) => void;
  /** Called after each epoch with its figures. */
  onEpoch?: (p: EpochPoint) => void;
  /** Called when an epoch is the best on dev so far, with the models at that epoch (to checkpoint them). */
  onBest?: (models: AirModels, epoch: number) => void;
}

/**
 * One epoch of training: train loss and dev figures (a point of the learning curve).
 *
 * @example
 * ```ts
 * import { synthesizeSplits, trainAirModels, type EpochPoint } from 'dialogym/airdialogue';
 * const s = synthesizeSplits({ train: 50, dev: 10, test: 0 });
 * const curve: EpochPoint[] = trainAirModels(s.train, s.dev, { epochs: 2 }).curve;
 * console.log(curve.map((p) => p.devLoss.toFixed(3)).join(' '));
 * ```
 */
export interface EpochPoint {
  readonly epoch: number;
  /** Mean training LM loss per token (both sides). */
  readonly trainLm: number;
  /** Dev LM loss per token (both sides) and state loss per dialogue. */
  readonly devLm: number;
  readonly devState: number;
  /** Dev selection criterion: devLm + devState. */
  readonly devLoss: number;
  readonly seconds: number;
}

/**
 * One update of training (`AirTrainOptions.onBatch`): its batch's LM loss and tokens (both
 * sides), its state loss, and the global norm of its gradient before clipping.
 *
 * @example
 * ```ts
 * import { synthesizeSplits, trainAirModels, type BatchPoint } from 'dialogym/airdialogue';
 * const s = synthesizeSplits({ train: 40, dev: 0, test: 0 });
 * const steps: BatchPoint[] = [];
 * trainAirModels(s.train, [], { epochs: 1, onBatch: (p) => steps.push(p) });
 * console.log(steps.map((p) => (p.lm / p.tokens).toFixed(3)).join(' '));
 * ```
 */
export interface BatchPoint {
  readonly epoch: number;
  /** Updates so far (1 for the first). */
  readonly step: number;
  /** LM loss of the batch summed over its tokens, and those tokens. */
  readonly lm: number;
  readonly tokens: number;
  /** State loss of the batch, summed over its dialogues. */
  readonly state: number;
  readonly dialogues: number;
  /** Global norm of the batch's gradient before clipping. */
  readonly gradNorm: number;
}

function buildVocab(train: LearnedSet, minCount: number): Vocab {
  // Context words are always kept (flight numbers, airports, names in the contexts): the
  // pointers and the attention need them. Dialogue words follow the cut-off. One pass over the
  // examples collects both.
  const ctx = new Set<string>();
  function* dialogues(): Generator<readonly string[]> {
    for (let i = 0; i < train.length; i++) {
      const e = train.get(i);
      for (const t of e.intent) ctx.add(t.word);
      for (const f of e.flights) for (const t of f) ctx.add(t.word);
      ctx.add(e.reservation.word);
      yield e.dialogue.tokens;
    }
  }
  const counts = Vocab.build(dialogues(), minCount).words;
  const seen = new Set(counts);
  return new Vocab([...counts, ...[...ctx].filter((w) => !seen.has(w)).sort()]);
}

/** New, initialised models for a vocabulary. */
export function createAirModels(vocab: Vocab, sizes: ModelSizes, seed = 0, meta: Record<string, unknown> = {}): AirModels {
  const rng = createRng(seed);
  const customer = new DialogueModel('customer', vocab, sizes);
  const agent = new DialogueModel('agent', vocab, sizes);
  customer.init(rng.fork('customer'));
  agent.init(rng.fork('agent'));
  return { vocab, sizes, customer, agent, meta };
}

/** All parameters of both models. */
export function airModelParams(m: AirModels): Param[] {
  return [...m.customer.params, ...m.agent.params];
}

/** The examples `ids` of `set`, in parts of `PART_DIALOGUES` (parallel.ts). */
function partsOf(set: LearnedSet, ids: readonly number[]): LearnedExample[][] {
  return dialogueParts(ids.map((i) => set.get(i)));
}

function devLoss(runner: BatchRunner, dev: LearnedSet, batch: number): { lm: number; state: number } {
  let lm = 0;
  let tokens = 0;
  let state = 0;
  // in batches (`lossBatch`: the same losses as one by one, bit for bit, however the batch is cut)
  for (let b = 0; b < dev.length; b += batch) {
    const ids = Array.from({ length: Math.min(batch, dev.length - b) }, (_, k) => b + k);
    for (const l of runner.run({ batch }, partsOf(dev, ids), false).flat()) {
      lm += l.lm;
      tokens += l.tokens;
      state += l.state;
    }
  }
  return { lm: lm / Math.max(1, tokens), state: state / Math.max(1, dev.length) };
}

/**
 * Trains customer and agent models on `train`, selecting the epoch by the loss on `dev`
 * (module description). Same data, options and seed → the same weights, whether the examples
 * come as an array or as a `LearnedStore` (which the trainer reads one example at a time: the
 * models' inputs are prepared per step, never all kept).
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { trainAirModels, saveAirModels } from 'dialogym/airdialogue';
 * const train = readAirDialogue('data/train_data.json', 'data/train_kb.json');
 * const dev = readAirDialogue('data/dev_data.json', 'data/dev_kb.json');
 * const { models, bestEpoch } = trainAirModels(train, dev, { epochs: 8, minCount: 3, seed: 1 });
 * saveAirModels('out/air.dgm', models);
 * ```
 */
export function trainAirModels(trainExamples: readonly AirExample[] | LearnedSet, devExamples: readonly AirExample[] | LearnedSet, o: AirTrainOptions = {}): { models: AirModels; curve: EpochPoint[]; bestEpoch: number } {
  const train = learnedSetOf(trainExamples);
  const dev = learnedSetOf(devExamples);
  const sizes: ModelSizes = { dim: o.dim ?? 24, hidden: o.hidden ?? 48, match: o.match ?? true, point: (o.match ?? true) && o.point === true, order: (o.match ?? true) && o.order === true, constraints: (o.match ?? true) && o.constraints !== false };
  const epochs = o.epochs ?? 8;
  const batch = o.batch ?? 8;
  const minCount = o.minCount ?? 1;
  const seed = o.seed ?? 0;
  const vocab = buildVocab(train, minCount);
  const models = createAirModels(vocab, sizes, seed, { epochs, batch, lr: o.lr ?? 0.01, ...(o.lrDecay !== undefined && o.lrDecay !== 1 ? { lrDecay: o.lrDecay } : {}), minCount, seed, trainDialogues: train.length });
  const params = airModelParams(models);
  const opt = adam(o.lr ?? 0.01);
  const rng = createRng(seed).fork('order');
  const curve: EpochPoint[] = [];
  let best = Infinity;
  let bestEpoch = 0;
  let bestWeights = snapshot(params);
  const total = epochs * train.length;
  const threads = o.threads ?? 1;
  for (const [name, v] of [['threads', threads], ['batch', batch]] as const) if (!Number.isInteger(v) || v < 1) throw new ConfigError(`${name} must be a positive integer, got ${v}`);
  const runner = batchRunner(models, threads, Math.ceil(batch / PART_DIALOGUES));
  let done = 0;
  let step = 0;
  try {
    for (let epoch = 1; epoch <= epochs; epoch++) {
      const t0 = Date.now();
      opt.lr = (o.lr ?? 0.01) * (o.lrDecay ?? 1) ** (epoch - 1);
      const order = rng.shuffle(Array.from({ length: train.length }, (_, i) => i));
      let lmSum = 0;
      let tokSum = 0;
      for (let b = 0; b < order.length; b += batch) {
        const ids = order.slice(b, b + batch);
        let lm = 0;
        let tokens = 0;
        let state = 0;
        // LM gradients per token: scale each dialogue's sum by 1/tokens of the batch (approximately: of this dialogue × batch);
        // the batch in parts of 2 dialogues, each part's dialogues through each model together (`lossBatch`: one packed GRU run)
        for (const l of runner.run({ batch: ids.length }, partsOf(train, ids), true).flat()) {
          lmSum += l.lm;
          tokSum += l.tokens;
          lm += l.lm;
          tokens += l.tokens;
          state += l.state;
          done++;
        }
        const gradNorm = clipGradNorm(params, o.clip ?? 5);
        opt.step(params);
        o.onBatch?.({ epoch, step: ++step, lm, tokens, state, dialogues: ids.length, gradNorm });
        o.onProgress?.(done, total, `epoch ${epoch}/${epochs} loss ${(lmSum / Math.max(1, tokSum)).toFixed(3)}`);
      }
      const d = devLoss(runner, dev, batch);
      const point: EpochPoint = { epoch, trainLm: lmSum / Math.max(1, tokSum), devLm: d.lm, devState: d.state, devLoss: d.lm + d.state, seconds: (Date.now() - t0) / 1000 };
      curve.push(point);
      o.onEpoch?.(point);
      if (point.devLoss < best) {
        best = point.devLoss;
        bestEpoch = epoch;
        bestWeights = snapshot(params);
        o.onBest?.({ ...models, meta: { ...models.meta, bestEpoch: epoch } }, epoch);
      }
    }
  } finally {
    runner.close();
  }
  restore(params, bestWeights);
  return { models: { ...models, meta: { ...models.meta, bestEpoch } }, curve, bestEpoch };
}

// ---------------------------------------------------------------------------------------------
// model file

/** The model file content of trained models. */
export function airModelsContent(m: AirModels): ModelFileContent {
  return {
    model: LEARNED_MODEL_NAME,
    meta: { version: 1, sizes: m.sizes, vocab: m.vocab.words.slice(5), ...m.meta },
    tensors: airModelParams(m).map((p) => ({ name: p.name, shape: p.shape, data: p.data })),
  };
}

/**
 * Writes trained models to a `.dgm` file (atomically: temp file, then rename).
 *
 * @example
 * ```ts
 * import { synthesizeSplits, trainAirModels, saveAirModels } from 'dialogym/airdialogue';
 * const s = synthesizeSplits({ train: 40, dev: 10, test: 0 });
 * saveAirModels('out/tiny.dgm', trainAirModels(s.train, s.dev, { epochs: 1 }).models);
 * ```
 */
export function saveAirModels(file: string, m: AirModels): void {
  writeModelFile(file, airModelsContent(m));
}

/** Models from a decoded model file; a file of another model or with missing/misshapen tensors throws a ModelFileError. */
export function airModelsFrom(c: ModelFileContent, file = '<model>'): AirModels {
  if (c.model !== LEARNED_MODEL_NAME) throw new ModelFileError(`${file}: holds a '${c.model}' model, not the learned AirDialogue models (${LEARNED_MODEL_NAME})`);
  const meta = c.meta as { sizes?: ModelSizes; vocab?: unknown };
  const sizes = meta?.sizes;
  if (!sizes || !Number.isInteger(sizes.dim) || !Number.isInteger(sizes.hidden) || !Array.isArray(meta.vocab) || meta.vocab.some((w) => typeof w !== 'string')) {
    throw new ModelFileError(`${file}: corrupt model file (bad sizes or vocabulary in the header)`);
  }
  const vocab = new Vocab(meta.vocab as string[]);
  const { sizes: _s, vocab: _v, ...rest } = meta as Record<string, unknown>;
  const m = createAirModels(vocab, sizes, 0, rest);
  for (const p of airModelParams(m)) p.data.set(tensorOf(c, p.name, p.shape, file));
  return m;
}

/**
 * Reads models written by `saveAirModels`. A missing, corrupt or foreign file throws a one-line
 * ModelFileError naming the file.
 *
 * @example
 * ```ts
 * import { loadAirModels } from 'dialogym/airdialogue';
 * const m = loadAirModels('out/air.dgm');
 * ```
 */
export function loadAirModels(file: string): AirModels {
  return airModelsFrom(readModelFile(file), file);
}

// ---------------------------------------------------------------------------------------------
// evaluation (Table 8)

/**
 * Table 8 figures of models on examples, given the true dialogue (`evaluateAirModels`).
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { loadAirModels, evaluateAirModels, type AirEvalReport } from 'dialogym/airdialogue';
 * const r: AirEvalReport = evaluateAirModels(loadAirModels('out/air.dgm'), readAirDialogue('data/test_data.json', 'data/test_kb.json'));
 * console.log(r.perplexity.both, r.bleu.both, r.accuracy.state);
 * ```
 */
export interface AirEvalReport {
  readonly dialogues: number;
  /** Perplexity of each model on its own turns, and of both together. */
  readonly perplexity: { readonly customer: number; readonly agent: number; readonly both: number };
  /** Corpus BLEU-4 (×100) of greedily decoded turns against the true ones. */
  readonly bleu: { readonly customer: number; readonly agent: number; readonly both: number };
  /** State accuracy: status, flight, name (both words exact, case-insensitive) and all three. */
  readonly accuracy: { readonly status: number; readonly flight: number; readonly name: number; readonly state: number };
  /** Mean official score of the predicted states against the data's expected actions. */
  readonly score: { readonly total: number; readonly exact: number };
}

/**
 * Options of `evaluateAirModels`.
 *
 * @example
 * ```ts
 * import type { AirEvalOptions } from 'dialogym/airdialogue';
 * const fast: AirEvalOptions = { bleu: false };
 * ```
 */
export interface AirEvalOptions {
  /** Skip BLEU (decoding every turn is the slow part). */
  bleu?: boolean;
  /** After each example: examples done and, for an array, their number (NaN for a stream). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Perplexity (per model, on its own turns), corpus BLEU-4 of greedily decoded turns (each from
 * the true history) and the state model's accuracy (status, flight, both name words, all three)
 * against each line's `action`, plus the official score against `expected_action`.
 *
 * @example
 * ```ts
 * import { synthesizeSplits, trainAirModels, evaluateAirModels } from 'dialogym/airdialogue';
 * const s = synthesizeSplits({ train: 60, dev: 10, test: 20 });
 * const { models } = trainAirModels(s.train, s.dev, { epochs: 2 });
 * console.log(evaluateAirModels(models, s.test).accuracy);
 * ```
 */
export function evaluateAirModels(m: AirModels, examples: Iterable<AirExample>, o: AirEvalOptions = {}): AirEvalReport {
  let cl = 0;
  let ct = 0;
  let al = 0;
  let at = 0;
  // BLEU from running sums (every turn of every dialogue is a segment): nothing per example is kept.
  const bleuStats = { customer: emptyBleuStats(), agent: emptyBleuStats() };
  let status = 0;
  let flight = 0;
  let name = 0;
  let state = 0;
  let total = 0;
  let exact = 0;
  let n = 0;
  const of = Array.isArray(examples) ? examples.length : Number.NaN;
  for (const ex of examples) {
    const p = prepare(toLearned(ex), m.vocab);
    const c = m.customer.loss(p);
    const a = m.agent.loss(p);
    cl += c.lm;
    ct += c.tokens;
    al += a.lm;
    at += a.tokens;
    if (o.bleu !== false) {
      for (const role of ['customer', 'agent'] as const) {
        const d = m[role].decodeTurns(p);
        d.generated.forEach((g, k) => addBleuSegment(bleuStats[role], [d.reference[k] ?? []], g));
      }
    }
    const pred = m.agent.predictState(p);
    const truth = ex.data.action;
    const okStatus = pred.status === truth.status;
    const okFlight = (pred.flight[0] ?? 0) === (truth.flight[0] ?? 0);
    const okName = nameExact(pred.name, truth.name) === 1;
    status += okStatus ? 1 : 0;
    flight += okFlight ? 1 : 0;
    name += okName ? 1 : 0;
    state += okStatus && okFlight && okName ? 1 : 0;
    const s = scoreAction(pred, ex.data.expected_action, ex.kb);
    total += s.total;
    exact += s.exact.total;
    n++;
    o.onProgress?.(n, of);
  }
  const d = Math.max(1, n);
  const bleu = (st: BleuStats) => 100 * bleuOf(st).bleu;
  return {
    dialogues: n,
    perplexity: { customer: Math.exp(cl / Math.max(1, ct)), agent: Math.exp(al / Math.max(1, at)), both: Math.exp((cl + al) / Math.max(1, ct + at)) },
    bleu: { customer: bleu(bleuStats.customer), agent: bleu(bleuStats.agent), both: bleu(mergeBleuStats(bleuStats.customer, bleuStats.agent)) },
    accuracy: { status: status / d, flight: flight / d, name: name / d, state: state / d },
    score: { total: total / d, exact: exact / d },
  };
}
