/**
 * Neural belief tracker of KB-InfoBot (paper §3.4, eqs. 6–7): one GRU per slot j reads, turn by turn,
 * the bag of n-grams of the user utterance (n ≤ 2, `ngrams.ts`) and gives
 *   p_j^t = softmax(W_j^p s_j^t + b_j^p)   over slot j's values                         (6)
 *   q_j^t = σ(w_j^Φ · s_j^t + b_j^Φ)       the probability that the user knows slot j   (7)
 * (1 − q_j is the "don't know" probability). The bag of n-grams enters as a sum of learned n-gram
 * embeddings (a factorised input layer shared by the slots: the GRUs' input weights on the bag vector
 * would be M × 3H × |vocab|), concatenated with the one-hot of the slot the agent requested last turn.
 * The value logits add to W_j^p s_j a term tied to the input embeddings: value v's n-grams (its words
 * and word pairs) sum to an embedding e_v, and logit_j(v) += e_v · (A_j s_j) — W_j^p factorised through
 * the n-gram embeddings (A_j [embed × H]), so that a value heard once is recognised through its words.
 * Residual option (`residual`, dialogym's, not the paper's): the tracker also reads the hand-crafted
 * tracker's beliefs of the same turn (eqs. 4–5) and adds them to its logits with a learned weight per
 * slot, logit_j(v) += λ_j log p̂_j(v) and logit(q_j) += μ_j logit(q̂_j); it starts as the hand-crafted
 * tracker (λ = μ = 1, zero biases) and learns corrections end to end.
 * Forward per turn; backward by BPTT over an episode from per-turn gradients of the logits.
 */
import type { Rng } from '../../../core/rng.js';
import { Gru, type GruCache } from '../../../nn/gru.js';
import { GruRunner } from '../../../nn/gru-infer.js';
import { GruBackprop, RowsBackprop } from '../../../nn/gru-backprop.js';
import { GruStepper, RowSums } from '../../../nn/row-sums.js';
import { initNormal, param, type Param } from '../../../nn/params.js';
import { M } from '../slots.js';
import { InternalError, ModelFileError } from '../../../core/errors.js';

/**
 * The sizes (and options) of a `NeuralTracker`.
 *
 * @example
 * ```ts
 * import { splitKbs, type NeuralTrackerSizes } from 'dialogym/infobot';
 * const { full } = splitKbs('small', 1);
 * const sizes: NeuralTrackerSizes = { vocab: 500, values: full.vocab.map((v) => v.length), embed: 32, hidden: 48 };
 * ```
 */
export interface NeuralTrackerSizes {
  /** n-gram vocabulary size. */
  vocab: number;
  /** Values per slot V_j. */
  values: readonly number[];
  /** n-gram embedding size (default 32). */
  embed?: number;
  /** GRU state size per slot (default 48). */
  hidden?: number;
  /** Per slot, per value: the vocabulary ids of the value's n-grams (tied output term; none if omitted). */
  valueNgrams?: readonly (readonly Int32Array[])[];
  /** Add the hand-crafted tracker's log-beliefs to the logits with learned weights (see above). */
  residual?: boolean;
}

/** The hand-crafted tracker's beliefs of a turn as logit terms: log p̂_j(v) per slot, logit(q̂_j).
 *
 * @example
 * ```ts
 * import { handInput, splitKbs, HandCraftedTracker, ValueIndex, type HandInput } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const hand: HandInput = handInput(new HandCraftedTracker(kb, new ValueIndex(kb.vocab)).beliefs);
 * ```
 */
export interface HandInput {
  readonly lp: readonly Float32Array[];
  readonly lq: Float32Array;
}

const HAND_P_FLOOR = 1e-6;
const HAND_Q_CLIP = 0.02;

/** Writes the logit terms of hand-crafted beliefs into `out` (allocated when absent).
 *
 * @example
 * ```ts
 * import { handInput } from 'dialogym/infobot';
 * const h = handInput({ p: [[0.5, 0.5], [1], [1], [1], [1], [1]], q: [1, 1, 1, 1, 1, 0] });
 * h.lq[5]; // logit(0.02): q is clipped to [0.02, 0.98]
 * ```
 */
export function handInput(beliefs: { readonly p: readonly ArrayLike<number>[]; readonly q: ArrayLike<number> }, out?: HandInput): HandInput {
  const r: HandInput = out ?? { lp: beliefs.p.map((p) => new Float32Array(p.length)), lq: new Float32Array(M) };
  for (let j = 0; j < M; j++) {
    const p = beliefs.p[j] as ArrayLike<number>;
    const lp = r.lp[j] as Float32Array;
    for (let v = 0; v < p.length; v++) lp[v] = Math.log(Math.max(HAND_P_FLOOR, p[v] as number));
    const q = Math.min(1 - HAND_Q_CLIP, Math.max(HAND_Q_CLIP, beliefs.q[j] as number));
    r.lq[j] = Math.log(q / (1 - q));
  }
  return r;
}

/**
 * One turn of a `NeuralTracker` (`step`): the n-gram ids read, the GRU caches, and the beliefs
 * p_j, q_j, kept for backpropagation.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { NeuralTracker, type TrackerStep } from 'dialogym/infobot';
 * const t = new NeuralTracker({ vocab: 10, values: [3, 3, 3, 3, 3, 3] }).init(createRng(1));
 * const s: TrackerStep = t.step(Int32Array.from([1, 4]), null, t.initialState());
 * s.q; // six probabilities
 * ```
 */
export interface TrackerStep {
  readonly ids: Int32Array;
  readonly caches: readonly GruCache[];
  /** p_j per slot. */
  readonly p: readonly Float32Array[];
  /** q_j per slot. */
  readonly q: Float32Array;
  /** The hand-crafted input of the turn (residual trackers). */
  readonly hand?: HandInput;
}

/** A copy of `hand` in one backing store. */
function copyHand(hand: HandInput): HandInput {
  let n = hand.lq.length;
  for (const x of hand.lp) n += x.length;
  const buf = new Float32Array(n);
  let at = 0;
  const take = (x: Float32Array): Float32Array => {
    const v = buf.subarray(at, at + x.length);
    v.set(x);
    at += x.length;
    return v;
  };
  const lp = hand.lp.map(take);
  return { lp, lq: take(hand.lq) };
}

function softmaxInto(logits: Float32Array, out: Float32Array): void {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if ((logits[i] as number) > max) max = logits[i] as number;
  let z = 0;
  for (let i = 0; i < logits.length; i++) {
    const e = Math.exp((logits[i] as number) - max);
    out[i] = e;
    z += e;
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / z;
}

/**
 * The neural belief tracker of KB-InfoBot (module description above): `step` reads one turn and
 * keeps caches, `stepInPlace` runs inference without allocating, `backward` accumulates gradients
 * over an episode. Parameters are zero until `init`. The constructor throws a ModelFileError for
 * sizes that do not fit the six slots; a residual tracker without its hand input an InternalError.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { NeuralTracker, NgramVocab, splitKbs } from 'dialogym/infobot';
 * const { full } = splitKbs('small', 1);
 * const vocab = NgramVocab.build(full.vocab, ['i am looking for a comedy']);
 * const tracker = new NeuralTracker({ vocab: vocab.size, values: full.vocab.map((v) => v.length) }).init(createRng(1), full.priors);
 * const turn = tracker.step(vocab.featurize('a comedy'), null, tracker.initialState());
 * turn.p[2]; // beliefs over the genres
 * ```
 */
export class NeuralTracker {
  readonly embed: number;
  readonly hidden: number;
  readonly inputSize: number;
  /** n-gram embeddings [vocab × embed]. */
  readonly E: Param;
  readonly grus: readonly Gru[];
  /** Per slot: W_j^p [V_j × H], b_j^p [V_j]. */
  readonly Wp: readonly Param[];
  readonly bp: readonly Param[];
  /** w^Φ for all slots [M × H], b^Φ [M]. */
  readonly Wq: Param;
  readonly bq: Param;
  /** Per slot: A_j [embed × H] of the tied value term. */
  readonly A: readonly Param[];
  /** Residual trackers: [λ_1..λ_M, μ_1..μ_M]; otherwise null. */
  readonly mix: Param | null;
  readonly params: Param[];
  private readonly valueNgrams: readonly (readonly Int32Array[])[] | null;
  /** `step`'s value logits per slot (reused). */
  private stepLogits: Float32Array[] | null = null;
  private infer: { runners: GruRunner[]; logits: Float32Array[]; probs: Float32Array[]; x: Float32Array } | null = null;
  /** The weights held by `hold` (WebAssembly kernels, bit for bit the JS loops), or null. */
  private held: { grus: GruStepper[]; values: RowSums[] } | null = null;
  /** Each slot GRU's backpropagation on WebAssembly (bit for bit `Gru.backward`); null without it. */
  private backprops: (GruBackprop | undefined)[] | null = null;
  /** Each slot's W_j^p backward on WebAssembly (bit for bit); null until first used. */
  private valueBackprops: (RowsBackprop | undefined)[] | null = null;

  constructor(readonly sizes: NeuralTrackerSizes) {
    if (sizes.values.length !== M) throw new ModelFileError(`neural tracker: ${M} slot sizes expected`);
    this.embed = sizes.embed ?? 32;
    this.hidden = sizes.hidden ?? 48;
    this.inputSize = this.embed + M;
    const H = this.hidden;
    this.E = param('tracker.embed', [sizes.vocab, this.embed]);
    this.grus = sizes.values.map((_, j) => new Gru(this.inputSize, H, `tracker.gru${j}`));
    this.Wp = sizes.values.map((v, j) => param(`tracker.p${j}.W`, [v, H]));
    this.bp = sizes.values.map((v, j) => param(`tracker.p${j}.b`, [v]));
    this.Wq = param('tracker.q.W', [M, H]);
    this.bq = param('tracker.q.b', [M]);
    this.valueNgrams = sizes.valueNgrams ?? null;
    if (this.valueNgrams && (this.valueNgrams.length !== M || this.valueNgrams.some((v, j) => v.length !== sizes.values[j]))) throw new ModelFileError('neural tracker: value n-grams do not match the slot sizes');
    this.A = this.valueNgrams ? sizes.values.map((_, j) => param(`tracker.a${j}`, [this.embed, H])) : [];
    this.mix = sizes.residual ? param('tracker.mix', [2 * M]) : null;
    this.params = [this.E, ...this.grus.flatMap((g) => g.params), ...this.Wp, ...this.bp, this.Wq, this.bq, ...this.A, ...(this.mix ? [this.mix] : [])];
  }

  /**
   * Holds the weights as they are now in WebAssembly kernels (`GruStepper`, `RowSums`: the same
   * numbers, bit for bit), which `step` and `stepInPlace` then use until `release`: for a trainer
   * that plays many turns between two updates. Call it again after every change of the weights
   * (an optimizer step, a restore). Without WebAssembly SIMD it does nothing.
   */
  hold(): void {
    if (this.held) {
      this.grus.forEach((g, j) => this.held?.grus[j]?.reload(g));
      this.Wp.forEach((w, j) => this.held?.values[j]?.load(w.data));
      return;
    }
    const grus = this.grus.map((g) => GruStepper.create(g));
    const values = this.Wp.map((w, j) => RowSums.create(w.data, (this.sizes.values[j] as number), this.hidden));
    if (grus.every((g) => g) && values.every((v) => v)) this.held = { grus: grus as GruStepper[], values: values as RowSums[] };
  }

  /** Back to the weights as they are (`hold`'s kernels dropped). */
  release(): void {
    this.held = null;
  }

  /** Slot j's value logits b_j + W_j h (+ tied term, + residual term) into `logits` (float32). */
  private valueLogits(j: number, h: Float32Array, logits: Float32Array, hand: HandInput | undefined): void {
    const W = (this.Wp[j] as Param).data;
    const b = (this.bp[j] as Param).data;
    const H = this.hidden;
    const mix = this.mix?.data;
    const u = this.tiedProjection(j, h);
    const rs = this.held?.values[j];
    if (rs) {
      rs.start(b);
      rs.add(h);
    }
    const sums = rs?.sums;
    for (let v = 0; v < b.length; v++) {
      let s: number;
      if (sums) s = sums[v] as number;
      else {
        s = b[v] as number;
        const o = v * H;
        for (let k = 0; k < H; k++) s += (W[o + k] as number) * (h[k] as number);
      }
      if (u) s += this.tiedDot(j, v, u);
      if (mix) s += (mix[j] as number) * ((hand as HandInput).lp[j] as Float32Array)[v]!;
      logits[v] = s;
    }
  }

  get residual(): boolean {
    return this.mix !== null;
  }

  private needHand(hand: HandInput | undefined): void {
    if (this.mix && !hand) throw new InternalError('a residual tracker needs the hand-crafted beliefs of the turn');
  }

  /** Random weights; the value biases start at log `priors` (so p_j starts at the KB prior), q at σ(2). */
  init(rng: Rng, priors?: readonly ArrayLike<number>[]): this {
    initNormal(this.E, rng.fork('embed'), 0.3);
    this.grus.forEach((g, j) => g.init(rng.fork(`gru${j}`)));
    this.Wp.forEach((w, j) => initNormal(w, rng.fork(`p${j}`), 0.1 / Math.sqrt(this.hidden)));
    this.bp.forEach((b, j) => {
      const pr = this.mix ? undefined : priors?.[j];
      for (let v = 0; v < b.data.length; v++) b.data[v] = pr ? Math.log(Math.max(1e-6, pr[v] as number)) : 0;
    });
    initNormal(this.Wq, rng.fork('q'), 0.1 / Math.sqrt(this.hidden));
    this.A.forEach((a, j) => initNormal(a, rng.fork(`a${j}`), 0.3 / Math.sqrt(this.hidden)));
    this.bq.data.fill(this.mix ? 0 : 2);
    this.mix?.data.fill(1);
    return this;
  }

  /** The state before the first utterance (one zero vector per slot). */
  initialState(): Float32Array[] {
    return Array.from({ length: M }, () => new Float32Array(this.hidden));
  }

  /** The GRU input of a turn: Σ of the n-gram embeddings, then the one-hot of the last request. */
  input(ids: Int32Array, lastRequest: number | null): Float32Array {
    const e = this.embed;
    const x = new Float32Array(this.inputSize);
    const E = this.E.data;
    for (let k = 0; k < ids.length; k++) {
      const o = (ids[k] as number) * e;
      for (let c = 0; c < e; c++) x[c] = (x[c] as number) + (E[o + c] as number);
    }
    if (lastRequest !== null) x[e + lastRequest] = 1;
    return x;
  }

  /** A_j s (embed entries), or null without the tied term. */
  private tiedProjection(j: number, h: Float32Array): Float32Array | null {
    if (!this.valueNgrams) return null;
    const e = this.embed;
    const H = this.hidden;
    const A = (this.A[j] as Param).data;
    const u = new Float32Array(e);
    for (let r = 0; r < e; r++) {
      let s = 0;
      for (let k = 0; k < H; k++) s += (A[r * H + k] as number) * (h[k] as number);
      u[r] = s;
    }
    return u;
  }

  /** e_v · u for value v of slot j. */
  private tiedDot(j: number, v: number, u: Float32Array): number {
    const ids = (this.valueNgrams as readonly (readonly Int32Array[])[])[j]?.[v] as Int32Array;
    const E = this.E.data;
    const e = this.embed;
    let s = 0;
    for (let k = 0; k < ids.length; k++) {
      const o = (ids[k] as number) * e;
      for (let c = 0; c < e; c++) s += (E[o + c] as number) * (u[c] as number);
    }
    return s;
  }

  /** One turn: reads the n-grams `ids` given the previous per-slot states. */
  step(ids: Int32Array, lastRequest: number | null, prev: readonly Float32Array[], hand?: HandInput): TrackerStep {
    this.needHand(hand);
    const x = this.input(ids, lastRequest);
    const mix = this.mix?.data;
    const H = this.hidden;
    const caches: GruCache[] = [];
    const p: Float32Array[] = [];
    const q = new Float32Array(M);
    for (let j = 0; j < M; j++) {
      const held = this.held?.grus[j];
      const c = held ? held.stepCache(x, prev[j] as Float32Array) : (this.grus[j] as Gru).step(x, prev[j] as Float32Array);
      caches.push(c);
      const V = (this.bp[j] as Param).data.length;
      const logits = ((this.stepLogits ??= this.bp.map((b) => new Float32Array(b.data.length)))[j] as Float32Array);
      this.valueLogits(j, c.h, logits, hand);
      const pj = new Float32Array(V);
      softmaxInto(logits, pj);
      p.push(pj);
      let s = this.bq.data[j] as number;
      for (let k = 0; k < H; k++) s += (this.Wq.data[j * H + k] as number) * (c.h[k] as number);
      if (mix) s += (mix[M + j] as number) * ((hand as HandInput).lq[j] as number);
      q[j] = s >= 0 ? 1 / (1 + Math.exp(-s)) : Math.exp(s) / (1 + Math.exp(s));
    }
    return hand ? { ids, caches, p, q, hand: copyHand(hand) } : { ids, caches, p, q };
  }

  /** Backward of the tied term of slot j at one turn: grads of A_j and E, and ∂/∂h into `dh`. */
  private tiedBackward(j: number, h: Float32Array, dz: Float32Array, dh: Float32Array): void {
    const e = this.embed;
    const H = this.hidden;
    const E = this.E.data;
    const gE = this.E.grad;
    const A = (this.A[j] as Param).data;
    const gA = (this.A[j] as Param).grad;
    const u = this.tiedProjection(j, h) as Float32Array;
    const du = new Float32Array(e);
    const ngrams = (this.valueNgrams as readonly (readonly Int32Array[])[])[j] as readonly Int32Array[];
    for (let v = 0; v < dz.length; v++) {
      const g = dz[v] as number;
      if (g === 0) continue;
      const ids = ngrams[v] as Int32Array;
      for (let k = 0; k < ids.length; k++) {
        const o = (ids[k] as number) * e;
        for (let c = 0; c < e; c++) {
          du[c] = (du[c] as number) + g * (E[o + c] as number);
          gE[o + c] = (gE[o + c] as number) + g * (u[c] as number);
        }
      }
    }
    for (let r = 0; r < e; r++) {
      const g = du[r] as number;
      if (g === 0) continue;
      for (let k = 0; k < H; k++) {
        gA[r * H + k] = (gA[r * H + k] as number) + g * (h[k] as number);
        dh[k] = (dh[k] as number) + g * (A[r * H + k] as number);
      }
    }
  }

  /**
   * Inference step without backpropagation caches or allocation: updates the per-slot `state` in
   * place and writes p_j and q_j (the same numbers as `step`).
   */
  stepInPlace(ids: Int32Array, lastRequest: number | null, state: readonly Float32Array[], p: readonly Float64Array[], q: Float64Array, hand?: HandInput): void {
    this.needHand(hand);
    const mix = this.mix?.data;
    const f = (this.infer ??= {
      runners: this.grus.map((g) => new GruRunner(g)),
      logits: this.bp.map((b) => new Float32Array(b.data.length)),
      probs: this.bp.map((b) => new Float32Array(b.data.length)),
      x: new Float32Array(this.inputSize),
    });
    const e = this.embed;
    const x = f.x;
    x.fill(0);
    const E = this.E.data;
    for (let k = 0; k < ids.length; k++) {
      const o = (ids[k] as number) * e;
      for (let c = 0; c < e; c++) x[c] = (x[c] as number) + (E[o + c] as number);
    }
    if (lastRequest !== null) x[e + lastRequest] = 1;
    const H = this.hidden;
    for (let j = 0; j < M; j++) {
      const h = state[j] as Float32Array;
      const held = this.held?.grus[j];
      if (held) h.set(held.step(x, h));
      else (f.runners[j] as GruRunner).step(x, h);
      const logits = f.logits[j] as Float32Array;
      this.valueLogits(j, h, logits, hand);
      const pj = f.probs[j] as Float32Array;
      softmaxInto(logits, pj);
      (p[j] as Float64Array).set(pj);
      let s = this.bq.data[j] as number;
      for (let k = 0; k < H; k++) s += (this.Wq.data[j * H + k] as number) * (h[k] as number);
      if (mix) s += (mix[M + j] as number) * ((hand as HandInput).lq[j] as number);
      q[j] = Math.fround(s >= 0 ? 1 / (1 + Math.exp(-s)) : Math.exp(s) / (1 + Math.exp(s)));
    }
  }

  /**
   * Accumulates parameter gradients for an episode. `dp[t][j]` is ∂L/∂(value logits of slot j at turn
   * t) (undefined: none), `dq[t][j]` ∂L/∂(q logit of slot j at turn t) (undefined row: none).
   */
  backward(steps: readonly TrackerStep[], dp: readonly (readonly (Float32Array | undefined)[] | undefined)[], dq: readonly (Float32Array | undefined)[]): void {
    const H = this.hidden;
    const T = steps.length;
    const dxs = Array.from({ length: T }, () => new Float32Array(this.inputSize));
    const gWq = this.Wq.grad;
    const Wq = this.Wq.data;
    for (let j = 0; j < M; j++) {
      const W = (this.Wp[j] as Param).data;
      const gW = (this.Wp[j] as Param).grad;
      const gb = (this.bp[j] as Param).grad;
      const V = gb.length;
      const dhs: (Float32Array | undefined)[] = [];
      let any = false;
      // W_j^p's backward on WebAssembly (bit for bit the loop below), its gradient copied in once per episode
      this.valueBackprops ??= this.Wp.map((_, j) => RowsBackprop.create(this.sizes.values[j] as number, H));
      const rows = this.valueBackprops[j];
      let begun = false;
      for (let t = 0; t < T; t++) {
        const h = ((steps[t] as TrackerStep).caches[j] as GruCache).h;
        const dz = dp[t]?.[j];
        const dy = dq[t]?.[j] ?? 0;
        if (!dz && dy === 0) {
          dhs.push(undefined);
          continue;
        }
        any = true;
        const dh = new Float32Array(H);
        const hand = (steps[t] as TrackerStep).hand;
        if (this.mix && hand) {
          const g = this.mix.grad;
          if (dz) {
            const lp = hand.lp[j] as Float32Array;
            let sum = 0;
            for (let v = 0; v < V; v++) sum += (dz[v] as number) * (lp[v] as number);
            g[j] = (g[j] as number) + sum;
          }
          g[M + j] = (g[M + j] as number) + dy * (hand.lq[j] as number);
        }
        if (dz && this.valueNgrams) this.tiedBackward(j, h, dz, dh);
        if (dz && rows) {
          if (!begun) rows.begin(W, gW);
          begun = true;
          rows.backward(h, dz, dh, gb);
        } else if (dz) {
          for (let v = 0; v < V; v++) {
            const g = dz[v] as number;
            if (g === 0) continue;
            gb[v] = (gb[v] as number) + g;
            const o = v * H;
            for (let k = 0; k < H; k++) {
              gW[o + k] = (gW[o + k] as number) + g * (h[k] as number);
              dh[k] = (dh[k] as number) + g * (W[o + k] as number);
            }
          }
        }
        if (dy !== 0) {
          this.bq.grad[j] = (this.bq.grad[j] as number) + dy;
          for (let k = 0; k < H; k++) {
            gWq[j * H + k] = (gWq[j * H + k] as number) + dy * (h[k] as number);
            dh[k] = (dh[k] as number) + dy * (Wq[j * H + k] as number);
          }
        }
        dhs.push(dh);
      }
      if (begun) rows?.end();
      if (!any) continue;
      this.backprops ??= this.grus.map((g) => GruBackprop.create(g));
      (this.backprops[j] ?? (this.grus[j] as Gru)).backward(
        steps.map((s) => s.caches[j] as GruCache),
        dhs,
        dxs,
      );
    }
    const e = this.embed;
    const gE = this.E.grad;
    for (let t = 0; t < T; t++) {
      const ids = (steps[t] as TrackerStep).ids;
      const dx = dxs[t] as Float32Array;
      for (let k = 0; k < ids.length; k++) {
        const o = (ids[k] as number) * e;
        for (let c = 0; c < e; c++) gE[o + c] = (gE[o + c] as number) + (dx[c] as number);
      }
    }
  }
}
