/**
 * RL fine-tuning's updates on several threads (`RlRunner`), the way `airdialogue train` batches
 * run (parallel.ts): an update is cut into parts — one self-play episode each for a REINFORCE
 * update, `PART_DIALOGUES` dialogues each for a supervised one; each part's gradient is computed
 * alone from zero, on the main thread or on a worker (rl-worker.ts), into its own buffer, and the
 * update's gradient is the sum of the parts' in part order. The parts do not depend on the number
 * of threads, so neither do the episodes, the gradients or the weights: 1 thread and 2 give the
 * same bits. An episode depends only on its seed and the weights, so a worker plays it on its own
 * replica of the models (the parameters' values in shared memory) and computes its loss there.
 */
import { DialogymError } from '../../../core/errors.js';
import { Pool } from '../../../core/pool.js';
import type { Rng } from '../../../core/rng.js';
import type { AirExample, KbLine } from '../../../formats/airdialogue.js';
import { Linear, paramSize, sumParts, viewParams, type Param } from '../../../nn/index.js';
import { AirDialogueEnv, episodeSeed, selfPlayEpisode, type Episode } from '../env.js';
import { oodContext, toLearned, type LearnedExample, type OodSetting } from './data.js';
import { countOwn, prepare, type DialogueModel, type ModelSizes, type Prepared } from './model.js';
import { PART_DIALOGUES } from './parallel.js';
import { learnedAgent, learnedCustomer, type LearnedAgentSession } from './policy.js';
import type { AirModels } from './train.js';
import type { Vocab } from './tokens.js';

/** What a thread of RL fine-tuning reads: both dialogue models, their vocabulary and the value layer (the baseline). */
export interface RlModels {
  readonly vocab: Vocab;
  readonly sizes: ModelSizes;
  readonly customer: DialogueModel;
  readonly agent: DialogueModel;
  readonly value: Linear;
}

/** The episodes' settings, the same on every thread. */
export interface RlEpisodeSettings {
  readonly seed: number;
  readonly ood: OodSetting;
  readonly maxTurns?: number;
}

/** One episode's reward and the baseline's value for it. */
export interface RlEpisodeResult {
  readonly reward: number;
  readonly value: number;
}

/** The value layer of the baseline (a linear value of the agent's context encoding). */
export function valueLayer(hidden: number): Linear {
  return new Linear(hidden, 1, 'agent.value');
}

function episodeExample(e: Episode): AirExample {
  const dialogue = e.dialogue.map((t) => `${t.speaker === 'user' ? 'customer' : 'agent'}: ${t.text}`);
  const none = { status: '', name: '', flight: [] as number[] };
  return {
    line: 0,
    data: { intent: e.context.intent, action: e.action ?? none, expected_action: e.context.expected, dialogue, timestamps: [], correct_sample: false },
    kb: e.context.kb,
  };
}

const sameInts = (a: Int32Array, b: Int32Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether two prepared examples have the same agent context (the flights and the reservation flag: what the agent's encoding reads). */
function sameContext(a: Prepared, b: Prepared): boolean {
  return a.resId === b.resId && a.resField === b.resField && sameInts(a.flightIds, b.flightIds) && sameInts(a.flightFields, b.flightFields);
}

/**
 * One thread's RL work on models `m` (the main thread's or a worker's replica): self-play
 * episodes and their REINFORCE gradients, supervised dialogues' gradients, all added to the
 * parameters' gradient buffers as they are bound.
 */
export class RlThread {
  private readonly env: AirDialogueEnv;
  private readonly agentKernels: ReturnType<DialogueModel['decodeKernels']>;
  private readonly play: (context: KbLine, rng: Rng) => LearnedAgentSession;
  private session: LearnedAgentSession | null = null;

  constructor(
    private readonly m: RlModels,
    private readonly s: RlEpisodeSettings,
  ) {
    const models: AirModels = { vocab: m.vocab, sizes: m.sizes, customer: m.customer, agent: m.agent, meta: {} };
    // decoding kernels made once: the customer's weights never change; the agent's are reloaded before each update's episodes
    this.env = new AirDialogueEnv({ customer: learnedCustomer(models, { kernels: m.customer.decodeKernels() }), context: oodContext(s.ood), ...(s.maxTurns !== undefined ? { maxTurns: s.maxTurns } : {}) });
    this.agentKernels = m.agent.decodeKernels();
    this.play = learnedAgent(models, { sample: true, kernels: this.agentKernels });
  }

  /** After the weights changed: the agent's decoding kernels hold them. */
  reload(): void {
    this.m.agent.decodeKernels(this.agentKernels);
  }

  /**
   * Plays episode `i` (its seed: `episodeSeed(seed, i)`) and adds the gradient of its
   * REINFORCE loss, (R − V)·NLL of the sampled turns and action, and of the baseline's squared
   * error, each divided by `n` (the update's episodes).
   */
  episode(i: number, n: number): RlEpisodeResult {
    const { m } = this;
    this.session = null;
    const e = selfPlayEpisode(this.env, (context, rng) => (this.session = this.play(context, rng)), episodeSeed(this.s.seed, i));
    const p = prepare(toLearned(episodeExample(e)), m.vocab);
    // the loss reads the encoding the episode's session made (same weights, same context)
    const s = this.session as LearnedAgentSession | null;
    const enc = s && sameContext(s.context, p) ? s.encoding : m.agent.encode(p);
    const v = m.value.forward(enc.h0)[0]!;
    const r = e.score.total;
    const adv = r - v;
    m.agent.loss(p, true, adv / n / Math.max(1, countOwn(p, 1)), e.action ? adv / n : 0, enc);
    m.value.backward(enc.h0, new Float32Array([(2 * (v - r)) / n]));
    return { reward: r, value: v };
  }

  /** Adds the agent's supervised gradient of `examples` (each dialogue's loss divided by `b`, its LM loss per own token). */
  supervised(examples: readonly LearnedExample[], b: number): void {
    for (const ex of examples) {
      const p = prepare(ex, this.m.vocab);
      this.m.agent.loss(p, true, 1 / b / Math.max(1, countOwn(p, 1)), 1 / b);
    }
  }
}

/** What a worker is given once. */
export interface RlWorkerSetup {
  readonly words: readonly string[];
  readonly sizes: ModelSizes;
  readonly settings: RlEpisodeSettings;
  /** The parameters' values: the agent's, the value layer's, then the customer's. */
  readonly values: SharedArrayBuffer;
  /** The gradient buffer of each part (index = part): the agent's and the value layer's parameters. */
  readonly grads: readonly SharedArrayBuffer[];
}

/** A worker's task: some parts of an update — episodes (one a part) or supervised dialogues (without `source`). */
export type RlTask = { readonly kind: 'rl'; readonly n: number; readonly parts: readonly { readonly index: number; readonly episode: number }[] } | { readonly kind: 'supervised'; readonly b: number; readonly parts: readonly { readonly index: number; readonly examples: readonly LearnedExample[] }[] };

/** Parts whose gradients are held at once (an update of more parts runs in rounds of this many). */
const MAX_PARTS_HELD = 16;

/** How long a worker may take to pick up its first task before training gives up (a generous guard). */
const START_TIMEOUT_MS = 120_000;

/** The trained parameters (the agent's, then the value layer's) and all of them (then the customer's). */
function paramLists(m: RlModels): { trained: Param[]; all: Param[] } {
  const trained = [...m.agent.params, ...m.value.params];
  return { trained, all: [...trained, ...m.customer.params] };
}

/** Without `source` (the parsed example it came from): only what the models read crosses to a worker. */
function bare(e: LearnedExample): LearnedExample {
  const { source: _source, ...rest } = e;
  return rest;
}

/**
 * The updates of RL fine-tuning on `threads` threads (the main one and threads − 1 workers;
 * module description). While it is open the parameters' values live in shared memory (with
 * workers) and their gradients in the runner's buffers; `close()` gives them ordinary memory back.
 */
export class RlRunner {
  private readonly pool: Pool<RlTask, unknown[]> | null;
  private readonly grad: Float32Array;
  private readonly partGrads: Float32Array[];
  private readonly workers: number;
  private readonly thread: RlThread;
  private readonly trained: Param[];
  private readonly all: Param[];

  constructor(
    m: RlModels,
    settings: RlEpisodeSettings,
    threads: number,
    maxParts: number,
  ) {
    ({ trained: this.trained, all: this.all } = paramLists(m));
    const n = paramSize(this.trained);
    this.workers = Math.max(0, Math.min(threads, maxParts) - 1);
    const shared = this.workers > 0;
    const buffer = (): ArrayBufferLike => (shared ? new SharedArrayBuffer(4 * n) : new ArrayBuffer(4 * n));
    this.grad = viewParams(this.trained, 'grad', new ArrayBuffer(4 * n), true);
    this.partGrads = Array.from({ length: Math.min(maxParts, MAX_PARTS_HELD) }, () => new Float32Array(buffer(), 0, n));
    this.thread = new RlThread(m, settings);
    if (!shared) {
      this.pool = null;
      return;
    }
    const values = new SharedArrayBuffer(4 * paramSize(this.all));
    viewParams(this.all, 'data', values, true);
    const setup: RlWorkerSetup = { words: m.vocab.words, sizes: m.sizes, settings, values, grads: this.partGrads.map((g) => g.buffer as SharedArrayBuffer) };
    // Many tasks per thread: the trainer never runs its event loop, so the pool never hears that one ended.
    this.pool = new Pool({ file: new URL('./rl-worker.js', import.meta.url), threads: this.workers, workerData: setup, label: 'AirDialogue RL worker', tasksPerThread: 1 << 30, syncBytes: 4096 + 64 * this.partGrads.length });
  }

  /** The parameters trained by REINFORCE (the agent's, then the value layer's): their gradients are the runner's. */
  get params(): readonly Param[] {
    return this.trained;
  }

  /** Episodes first … first + n − 1, one part each: the gradient becomes the sum of theirs (overwritten, not added to). */
  episodes(first: number, n: number): RlEpisodeResult[] {
    this.thread.reload();
    const parts = Array.from({ length: n }, (_, k) => first + k);
    return this.run(
      parts,
      (episode) => this.thread.episode(episode, n),
      (ps) => ({ kind: 'rl', n, parts: ps.map(({ index, part }) => ({ index, episode: part })) }),
    ) as RlEpisodeResult[];
  }

  /** A supervised update's dialogues in parts of `PART_DIALOGUES`: the gradient becomes their sum (overwritten). */
  supervised(examples: readonly LearnedExample[]): void {
    const b = examples.length;
    const parts: LearnedExample[][] = [];
    for (let i = 0; i < b; i += PART_DIALOGUES) parts.push(examples.slice(i, i + PART_DIALOGUES));
    this.run(
      parts,
      (ex) => this.thread.supervised(ex, b),
      (ps) => ({ kind: 'supervised', b, parts: ps.map(({ index, part }) => ({ index, examples: part.map(bare) })) }),
    );
  }

  /** Parts on the threads (contiguous runs, the main thread the first), each from zero into its buffer; their sum into the gradient. */
  private run<P, R>(parts: readonly P[], here: (part: P) => R, task: (parts: { index: number; part: P }[]) => RlTask): R[] {
    const out: R[] = new Array(parts.length);
    // at most partGrads.length parts at once (the buffers held: bounded for any batch); the sum runs in part order across the rounds
    for (let a = 0; a < parts.length; a += this.partGrads.length) {
      const round = parts.slice(a, a + this.partGrads.length);
      const threads = Math.min(this.workers + 1, round.length);
      const cut = (j: number): number => Math.floor((j * round.length) / threads);
      const joins: { from: number; join: () => unknown[] | undefined }[] = [];
      for (let j = 1; j < threads; j++) {
        const mine = round.slice(cut(j), cut(j + 1)).map((part, i) => ({ index: cut(j) + i, part }));
        joins.push({ from: cut(j), join: (this.pool as Pool<RlTask, unknown[]>).runSync(task(mine), START_TIMEOUT_MS) });
      }
      for (let k = 0; k < cut(1); k++) {
        const g = this.partGrads[k]!;
        viewParams(this.trained, 'grad', g.buffer);
        g.fill(0);
        out[a + k] = here(round[k]!);
      }
      for (const { from, join } of joins) {
        const got = join();
        if (!got) throw new DialogymError(`AirDialogue RL: a worker thread did not start within ${START_TIMEOUT_MS / 1000} s${this.pool?.failure ? ` (${this.pool.failure.message})` : ''}`);
        got.forEach((r, i) => (out[a + from + i] = r as R));
      }
      if (a === 0) sumParts(this.grad, this.partGrads, round.length);
      else sumParts(this.grad, [this.grad, ...this.partGrads], round.length + 1);
    }
    viewParams(this.trained, 'grad', this.grad.buffer);
    return out;
  }

  /** Stops the workers; the parameters' values go back to ordinary memory. */
  close(): void {
    if (!this.pool) return;
    viewParams(this.all, 'data', new ArrayBuffer(4 * paramSize(this.all)), true);
    void this.pool.destroy();
  }
}

/** The worker side: a replica of the models over the shared values (rl-worker.ts). */
export function rlWorkerReplica(setup: RlWorkerSetup, build: (words: readonly string[], sizes: ModelSizes) => RlModels): (task: RlTask) => unknown[] {
  const m = build(setup.words, setup.sizes);
  const { trained, all } = paramLists(m);
  viewParams(all, 'data', setup.values);
  const thread = new RlThread(m, setup.settings);
  const into = (index: number): void => {
    viewParams(trained, 'grad', setup.grads[index]!).fill(0);
  };
  return (task) => {
    if (task.kind === 'rl') {
      thread.reload();
      return task.parts.map(({ index, episode }) => {
        into(index);
        return thread.episode(episode, task.n);
      });
    }
    return task.parts.map(({ index, examples }) => {
      into(index);
      thread.supervised(examples, task.b);
      return null;
    });
  };
}
