/**
 * The learned AirDialogue models' batches on several threads (`batchRunner`): a batch is cut into
 * parts of `PART_DIALOGUES` dialogues, run by the generic `PartRunner` (train/parts.ts: each part's
 * gradient alone from zero, on the main thread or on a worker (train-worker.ts), summed in part
 * order; the same bits for any number of threads). What is AirDialogue's: a part's work (both
 * models' losses of its dialogues, `partLosses`) and what a worker builds its replica from.
 */
import type { Param } from '../../../nn/index.js';
import { PartRunner, type PartWork } from '../../../train/parts.js';
import type { LearnedExample } from './data.js';
import { countOwn, DialogueModel, prepare, type ModelSizes } from './model.js';
import { Vocab } from './tokens.js';

/** Dialogues per part of a batch: the unit of work of a thread (measured: parts of 2 cost the same CPU as one batch of 8). */
export const PART_DIALOGUES = 2;

/** `dialogues` cut into parts of `PART_DIALOGUES`, in order (the last may be shorter). */
export function dialogueParts<T>(dialogues: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < dialogues.length; i += PART_DIALOGUES) parts.push(dialogues.slice(i, i + PART_DIALOGUES));
  return parts;
}

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

/** What a worker builds its replica of both models from. */
export interface ModelsSetup {
  readonly words: readonly string[];
  readonly sizes: ModelSizes;
}

/** Both models of `setup`, their parameters left for the caller to fill (a worker's replica views the shared values). */
export function replicaModels({ words, sizes }: ModelsSetup): PartModels & { readonly sizes: ModelSizes } {
  const vocab = new Vocab(words);
  return { vocab, sizes, customer: new DialogueModel('customer', vocab, sizes), agent: new DialogueModel('agent', vocab, sizes) };
}

/** A batch's settings: its dialogues (the LM loss of each is scaled by 1/`batch`). */
export interface BatchCommon {
  readonly batch: number;
}

/** A v8-serialized dialogue's losses (three numbers) come back in under this many bytes. */
const LOSS_BYTES = 128;

/** Both models' parameters, in `airModelParams` order (the customer's, then the agent's). */
function modelParams(m: PartModels): Param[] {
  return [...m.customer.params, ...m.agent.params];
}

/** One thread's work: the losses of a part's dialogues through both models (`partLosses`). */
export function batchWork(m: PartModels): PartWork<BatchCommon, readonly LearnedExample[], DialogueLoss[]> {
  const params = modelParams(m);
  return { trained: params, values: params, task: ({ batch }, backward) => (examples) => partLosses(m, examples, backward, batch) };
}

/** Without `source` (the parsed example it came from): only what the models read crosses to a worker. */
export function bare(e: LearnedExample): LearnedExample {
  const { source: _source, ...rest } = e;
  return rest;
}

/** The runner of a batch's parts, a batch at most `maxParts` parts, on `threads` threads (the main one and threads − 1 workers). */
export type BatchRunner = PartRunner<ModelsSetup, BatchCommon, readonly LearnedExample[], DialogueLoss[]>;

/**
 * Runs the batches of both models of `m` on `threads` threads (module description): the
 * parameters' values move to shared memory while the runner is open and back to ordinary memory
 * at `close()`. `runner.run({ batch }, parts, backward)`: each part's dialogues' losses, in
 * order; with `backward`, the models' gradients become those of the parts summed in part order.
 */
export function batchRunner(m: PartModels & { readonly sizes: ModelSizes }, threads: number, maxParts: number): BatchRunner {
  return new PartRunner(batchWork(m), {
    threads,
    maxParts,
    worker: new URL('./train-worker.js', import.meta.url),
    setup: { words: m.vocab.words, sizes: m.sizes } satisfies ModelsSetup,
    label: 'AirDialogue training',
    answerBytes: LOSS_BYTES * PART_DIALOGUES,
    wire: (examples) => examples.map(bare),
  });
}
