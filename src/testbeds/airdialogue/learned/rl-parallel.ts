/**
 * RL fine-tuning's updates on several threads (`RlRunner`), on the generic `PartRunner` like
 * `airdialogue train` batches (train/parts.ts): an update is cut into parts — one self-play
 * episode each for a REINFORCE update, `PART_DIALOGUES` dialogues each for a supervised one; each
 * part's gradient is computed alone from zero, on the main thread or on a worker (rl-worker.ts),
 * into its own buffer, and the update's gradient is the sum of the parts' in part order. The parts
 * do not depend on the number of threads, so neither do the episodes, the gradients or the
 * weights: 1 thread and 2 give the same bits. An episode depends only on its seed and the
 * weights, so a worker plays it on its own replica of the models (the parameters' values in
 * shared memory) and computes its loss there.
 */
import type { Rng } from '../../../core/rng.js';
import type { AirExample, KbLine } from '../../../formats/airdialogue.js';
import { Linear, type Param } from '../../../nn/index.js';
import { PartRunner, type PartWork } from '../../../train/parts.js';
import { AirDialogueEnv, episodeSeed, selfPlayEpisode, type Episode } from '../env.js';
import { oodContext, toLearned, type LearnedExample, type OodSetting } from './data.js';
import { countOwn, prepare, type DialogueModel, type Prepared } from './model.js';
import { bare, dialogueParts, type ModelsSetup } from './parallel.js';
import { learnedAgent, learnedCustomer, type LearnedAgentSession } from './policy.js';
import type { AirModels } from './train.js';

/** What a thread of RL fine-tuning reads: both dialogue models, their vocabulary and the value layer (the baseline). */
export interface RlModels extends Omit<AirModels, 'meta'> {
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

/** What a worker builds its replica from: both models' and the episodes' settings. */
export interface RlSetup extends ModelsSetup {
  readonly settings: RlEpisodeSettings;
}

/** An update's settings: `n` episodes (one a part) or supervised dialogues, `b` in all (in parts). */
export type RlCommon = { readonly kind: 'rl'; readonly n: number } | { readonly kind: 'supervised'; readonly b: number };

/** A part: an episode's index, or supervised dialogues. */
export type RlPart = number | readonly LearnedExample[];

/** A v8-serialized part's result (an episode's reward and value, or null) comes back in under this many bytes. */
const RESULT_BYTES = 64;

/**
 * One thread's RL work on models `m`: the trained parameters are the agent's, then the value
 * layer's; the values shared are those, then the customer's.
 */
export function rlWork(m: RlModels, settings: RlEpisodeSettings): PartWork<RlCommon, RlPart, RlEpisodeResult | null> {
  const trained = [...m.agent.params, ...m.value.params];
  // made at the first task: it reads the weights (the customer's decoding kernels), which a worker's replica views only once built
  let made: RlThread | undefined;
  const thread = (): RlThread => (made ??= new RlThread(m, settings));
  return {
    trained,
    values: [...trained, ...m.customer.params],
    task: (c) => {
      if (c.kind === 'supervised') {
        return (examples) => {
          thread().supervised(examples as readonly LearnedExample[], c.b);
          return null;
        };
      }
      // the weights changed since the last update: the agent's decoding kernels read them again
      const t = thread();
      t.reload();
      return (episode) => t.episode(episode as number, c.n);
    },
  };
}

/**
 * The updates of RL fine-tuning on `threads` threads (the main one and threads − 1 workers;
 * module description). While it is open the parameters' values live in shared memory (with
 * workers) and their gradients in the runner's buffers; `close()` gives them ordinary memory back.
 */
export class RlRunner {
  private readonly runner: PartRunner<RlSetup, RlCommon, RlPart, RlEpisodeResult | null>;

  constructor(m: RlModels, settings: RlEpisodeSettings, threads: number, maxParts: number) {
    this.runner = new PartRunner(rlWork(m, settings), {
      threads,
      maxParts,
      worker: new URL('./rl-worker.js', import.meta.url),
      setup: { words: m.vocab.words, sizes: m.sizes, settings } satisfies RlSetup,
      label: 'AirDialogue RL',
      answerBytes: RESULT_BYTES,
      wire: (p) => (typeof p === 'number' ? p : p.map(bare)),
    });
  }

  /** The parameters trained by REINFORCE (the agent's, then the value layer's): their gradients are the runner's. */
  get params(): readonly Param[] {
    return this.runner.params;
  }

  /** Episodes first … first + n − 1, one part each: the gradient becomes the sum of theirs (overwritten, not added to). */
  episodes(first: number, n: number): RlEpisodeResult[] {
    return this.runner.run({ kind: 'rl', n }, Array.from({ length: n }, (_, k) => first + k)) as RlEpisodeResult[];
  }

  /** A supervised update's dialogues in parts of `PART_DIALOGUES`: the gradient becomes their sum (overwritten). */
  supervised(examples: readonly LearnedExample[]): void {
    this.runner.run({ kind: 'supervised', b: examples.length }, dialogueParts(examples));
  }

  /** Stops the workers; the parameters' values go back to ordinary memory. */
  close(): void {
    this.runner.close();
  }
}
