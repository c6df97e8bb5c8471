/**
 * The neural dialog policy of KB-InfoBot (paper §4.2, eq. 9–10): a GRU over the per-turn summary
 * vector, then a linear layer and a softmax over the M + 1 actions (request slot j, or inform).
 * Forward per turn (the state carries over the dialog); backward by BPTT over a whole episode with
 * per-turn gradients of the action logits (REINFORCE or imitation supply them).
 */
import type { Rng } from '../../../core/rng.js';
import { Gru, type GruCache } from '../../../nn/gru.js';
import { GruRunner } from '../../../nn/gru-infer.js';
import { GruBackprop } from '../../../nn/gru-backprop.js';
import { GruStepper } from '../../../nn/row-sums.js';
import { softmax } from '../../../nn/kernels.js';
import { initNormal, param, type Param } from '../../../nn/params.js';

/**
 * One forward step of a `PolicyNet`: the GRU cache (for backpropagation) and the action
 * probabilities.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { PolicyNet, FEATURE_SIZE, POLICY_ACTIONS, type PolicyStep } from 'dialogym/infobot';
 * const net = new PolicyNet(FEATURE_SIZE, 50, POLICY_ACTIONS).init(createRng(1));
 * const s: PolicyStep = net.step(new Float32Array(FEATURE_SIZE), net.initialState());
 * s.probs; // 7 probabilities summing to 1
 * ```
 */
export interface PolicyStep {
  readonly cache: GruCache;
  /** Action probabilities. */
  readonly probs: Float32Array;
}

/**
 * The KB-InfoBot neural policy (module description above): `step` runs one turn and keeps a cache,
 * `act` runs one turn without one (evaluation), `backward` accumulates the gradients of an
 * episode. Parameters start at zero: call `init(rng)`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { PolicyNet, FEATURE_SIZE, POLICY_ACTIONS } from 'dialogym/infobot';
 * const net = new PolicyNet(FEATURE_SIZE, 50, POLICY_ACTIONS).init(createRng(1));
 * const probs = new Float32Array(POLICY_ACTIONS);
 * net.act(new Float32Array(FEATURE_SIZE), net.initialState(), probs);
 * ```
 */
export class PolicyNet {
  readonly gru: Gru;
  /** Output layer [actions × hidden] and bias. */
  readonly Wo: Param;
  readonly bo: Param;
  readonly params: Param[];
  private runner: GruRunner | null = null;
  private logitsBuf: Float32Array | null = null;
  /** The GRU's weights held by `hold` (bit for bit `Gru.step`), or null. */
  private held: GruStepper | null = null;
  /** The GRU's backpropagation on WebAssembly (bit for bit `Gru.backward`); null: not made yet, undefined: none here. */
  private backprop: GruBackprop | undefined | null = null;

  constructor(
    readonly inputSize: number,
    readonly hiddenSize: number,
    readonly actions: number,
  ) {
    this.gru = new Gru(inputSize, hiddenSize, 'policy.gru');
    this.Wo = param('policy.out.W', [actions, hiddenSize]);
    this.bo = param('policy.out.b', [actions]);
    this.params = [...this.gru.params, this.Wo, this.bo];
  }

  init(rng: Rng): this {
    this.gru.init(rng.fork('gru'));
    initNormal(this.Wo, rng.fork('out'), 0.1 / Math.sqrt(this.hiddenSize));
    this.bo.data.fill(0);
    return this;
  }

  /** The initial recurrent state. */
  initialState(): Float32Array {
    return new Float32Array(this.hiddenSize);
  }

  /**
   * Holds the GRU's weights as they are now in a WebAssembly kernel (`GruStepper`: the same
   * numbers, bit for bit) that `step` and `act` use until `release`; call it again after every
   * change of the weights. Without WebAssembly SIMD it does nothing.
   */
  hold(): void {
    if (this.held) this.held.reload(this.gru);
    else this.held = GruStepper.create(this.gru) ?? null;
  }

  /** Back to the weights as they are (`hold`'s kernel dropped). */
  release(): void {
    this.held = null;
  }

  /** One turn: new state and action probabilities. */
  step(x: Float32Array, h: Float32Array): PolicyStep {
    const cache = this.held ? this.held.stepCache(x, h) : this.gru.step(x, h);
    const A = this.actions;
    const H = this.hiddenSize;
    const logits = new Float32Array(A);
    const W = this.Wo.data;
    for (let a = 0; a < A; a++) {
      let s = this.bo.data[a] as number;
      for (let k = 0; k < H; k++) s += (W[a * H + k] as number) * (cache.h[k] as number);
      logits[a] = s;
    }
    const probs = new Float32Array(A);
    softmax(logits, probs);
    return { cache, probs };
  }

  /**
   * Inference step without a backpropagation cache or allocation: updates `h` in place and writes the
   * action probabilities to `probs` (the same numbers as `step`).
   */
  act(x: Float32Array, h: Float32Array, probs: Float32Array): void {
    if (this.held) h.set(this.held.step(x, h));
    else (this.runner ??= new GruRunner(this.gru)).step(x, h);
    const A = this.actions;
    const H = this.hiddenSize;
    const logits = (this.logitsBuf ??= new Float32Array(A));
    const W = this.Wo.data;
    for (let a = 0; a < A; a++) {
      let s = this.bo.data[a] as number;
      for (let k = 0; k < H; k++) s += (W[a * H + k] as number) * (h[k] as number);
      logits[a] = s;
    }
    softmax(logits, probs);
  }

  /**
   * Accumulates parameter gradients for an episode: `dlogits[t]` is ∂L/∂logits at turn t.
   */
  backward(steps: readonly PolicyStep[], dlogits: readonly Float32Array[]): void {
    const A = this.actions;
    const H = this.hiddenSize;
    const W = this.Wo.data;
    const gW = this.Wo.grad;
    const gb = this.bo.grad;
    const dhs: Float32Array[] = [];
    for (let t = 0; t < steps.length; t++) {
      const h = (steps[t] as PolicyStep).cache.h;
      const dl = dlogits[t] as Float32Array;
      const dh = new Float32Array(H);
      for (let a = 0; a < A; a++) {
        const g = dl[a] as number;
        if (g === 0) continue;
        gb[a] = (gb[a] as number) + g;
        const o = a * H;
        for (let k = 0; k < H; k++) {
          gW[o + k] = (gW[o + k] as number) + g * (h[k] as number);
          dh[k] = (dh[k] as number) + g * (W[o + k] as number);
        }
      }
      dhs.push(dh);
    }
    if (this.backprop === null) this.backprop = GruBackprop.create(this.gru);
    (this.backprop ?? this.gru).backward(
      steps.map((s) => s.cache),
      dhs,
    );
  }
}
