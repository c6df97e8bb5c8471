/**
 * MemN2N training with sampled negatives, as the paper trained it (Bordes et al. 2017, appendix
 * Tables 8/9: 100 negative candidates per example): each mini-batch draws N negatives uniformly
 * from the candidate list, and every example of the batch is scored by a softmax over its batch's
 * candidates — its own response, the other examples' responses and the N negatives — instead of
 * over all candidates (4,212 in bAbI). The batch's candidate embeddings W·Φ(y) are computed once
 * per batch; gradients reach only the rows of A and W that the batch used (`SparseSgd`).
 *
 * Uniform negatives alone are too easy for bAbI: a response competes with the few candidates
 * naming the restaurants, cuisines and places of its own dialog, which 100 uniform draws out of
 * 4,212 rarely include (task 5 + match type: dev 91.1% after 12 epochs, against 95.3% with the
 * full softmax). Each example therefore also scores its *context negatives*: the candidates that
 * share a rare word (in at most `contextDf` candidates) with its dialog so far — ~140 on task 5.
 * Dev selection still ranks all candidates (the trainer's `evaluate`).
 */
import type { Rng } from '../core/rng.js';
import type { Encoded, HopsWorkspace, MemN2N } from './memn2n.js';
import type { CandidateIndex } from './candidates.js';
import type { Example } from './examples.js';
import { axpy, bagSum, bagSumBackward, dot, matVec, matVecRows, matVecRowsBackward } from '../nn/kernels.js';
import { softmaxCrossEntropy } from '../nn/losses.js';
import { InternalError } from '../core/errors.js';
import { SparseAdam, SparseSgd, TouchedRows } from '../nn/sparse-rows.js';

/** One example: its encoding, its response's candidate index and its match-type rows per candidate. */
export interface SampledExample {
  readonly x: Encoded;
  readonly target: number;
  /** Distinct word ids of the dialog so far (match types, context negatives). */
  readonly words: Int32Array;
  /** Context negatives (see the module comment), without the target. */
  readonly context: Int32Array;
}

/**
 * The distinct word ids of each example's history (`encode` gives a text's ids). Examples of a
 * dialog come in turn order (as `responseExamples` gives them), so each dialog is read once.
 */
export function historyWords(examples: readonly Example[], encode: (text: string) => ArrayLike<number>): Int32Array[] {
  const out: Int32Array[] = [];
  let dialog: Example['dialog'] | undefined;
  let seen = new Set<number>();
  let list: number[] = [];
  let upto = 0;
  for (const e of examples) {
    if (e.dialog !== dialog || e.turn < upto) {
      dialog = e.dialog;
      seen = new Set();
      list = [];
      upto = 0;
    }
    for (; upto < e.turn; upto++) {
      const ids = encode((e.dialog.turns[upto] as { text: string }).text);
      for (let i = 0; i < ids.length; i++) {
        const w = ids[i] as number;
        if (w >= 0 && !seen.has(w)) {
          seen.add(w);
          list.push(w);
        }
      }
    }
    out.push(Int32Array.from(list));
  }
  return out;
}

/**
 * Candidates sharing a rare word with a dialog: word id → the candidates holding it, for words
 * in at most `maxDf` candidates.
 */
export class RareWordIndex {
  private readonly byWord = new Map<number, number[]>();
  /** Scratch: candidate → 1 while found, and the candidates found. */
  private readonly seen: Uint8Array;
  private readonly found: Int32Array;

  constructor(index: CandidateIndex, maxDf: number) {
    this.seen = new Uint8Array(index.size);
    this.found = new Int32Array(index.size);
    const all = new Map<number, number[]>();
    index.ids.forEach((ids, c) => {
      for (const w of new Set(ids)) {
        let l = all.get(w);
        if (!l) all.set(w, (l = []));
        l.push(c);
      }
    });
    for (const [w, l] of all) if (l.length <= maxDf) this.byWord.set(w, l);
  }

  /** The candidates (sorted, distinct, `exclude` left out) holding a rare word of `words`. */
  candidatesOf(words: Int32Array, exclude: number): Int32Array {
    const seen = this.seen;
    let n = 0;
    for (const w of words) {
      const l = this.byWord.get(w);
      if (!l) continue;
      for (const c of l) {
        if (c === exclude || seen[c] === 1) continue;
        seen[c] = 1;
        this.found[n++] = c;
      }
    }
    const out = this.found.slice(0, n).sort();
    for (const c of out) seen[c] = 0;
    return out;
  }
}

/** Settings of a `SampledBatch`. */
export interface SampledBatchOptions {
  /** Uniform negatives drawn per batch, shared by its examples. */
  readonly negatives: number;
  /** Context negatives scored per example at most (0 = all). */
  readonly contextMax: number;
  /**
   * Hard negatives per example (default 0): the `hard` wrong candidates that score highest among
   * all candidates (candidate vectors of the batch's weights; match types left out).
   */
  readonly hard?: number;
  readonly lr: number;
  readonly optimizer?: 'sgd' | 'adam';
}

/** The sampled-softmax batch of a MemN2N trainer (see the module comment). */
export class SampledBatch {
  private readonly d: number;
  private readonly n: number;
  /** Candidate → its position in the current batch's set, or −1. */
  private readonly posInS: Int32Array;
  /** The batch's candidates: [0, shared) scored by every example, later ones by the examples whose context or hard negatives they are. */
  private readonly set: Int32Array;
  private size = 0;
  private shared = 0;
  /** Position of a set entry among the current example's scores (for entries ≥ shared), or −1. */
  private readonly local: Int32Array;
  /** The current example's candidates scored after the shared ones. */
  private readonly extra: Int32Array;
  /**
   * W·Φ(y) of every candidate at the batch's weights: `MemN2N.candidates`' matrix (computed once
   * per batch), or its own when given only the candidate index; ∂L/∂ of its rows (the set's rows).
   */
  private F: Float32Array;
  private readonly ownF: Float32Array | undefined;
  private readonly gF: Float32Array;
  private readonly scores: Float32Array;
  private readonly g: Float32Array;
  private readonly gu: Float32Array;
  readonly A: TouchedRows;
  readonly W: TouchedRows;
  readonly optimizer: SparseSgd | SparseAdam;
  private readonly ws: HopsWorkspace;
  /** Word → 1 while it is in the current example's history. */
  private readonly inContext: Uint8Array;
  /** Per candidate c, its typed words and their type slots: pairs [word, slot] at typed[typedAt[c]..typedAt[c+1]). */
  private readonly typed: Int32Array;
  private readonly typedAt: Int32Array;
  /** Row of W of each type slot; per example, W[row]·u_H and ∂L/∂(that score) per slot. */
  private readonly typeRows: Int32Array;
  private readonly typeDot: Float32Array;
  private readonly typeGrad: Float32Array;
  private readonly rows = new Int32Array(64);
  /** (scored position, type slot) pairs of the current example. */
  private readonly pairs: Int32Array;
  /** Views of `scores` and `g` from the first context-negative position (`shared`). */
  private extraScores: Float32Array;
  private gExtra: Float32Array;

  readonly negatives: number;
  /** Context negatives scored per example at most (0 = all). */
  readonly contextMax: number;
  /** Hard negatives per example (0 = none): the best-scoring wrong candidates among all of them. */
  readonly hard: number;
  private readonly candidates: readonly string[] | undefined;
  private readonly index: CandidateIndex;
  /** All candidates' scores (hard negatives without the WebAssembly kernel) and the best ones found. */
  private readonly full: Float32Array;
  private readonly top: Int32Array;
  private readonly topScore: Float32Array;
  private fullCand: ReturnType<MemN2N['candidates']> | undefined;
  /** Per example, its context negatives' packed match-type slots (`packedSlots`). */
  private readonly packed = new WeakMap<SampledExample, Int32Array>();
  /** Per scored position after the shared ones: the packed slots of a context negative, or −1 (computed). */
  private readonly extraSlots: Int32Array;
  /** The current example's float32-lane scores of all candidates (see `hardNegatives`), or undefined. */
  private fast: Float32Array | undefined;

  constructor(
    private readonly model: MemN2N,
    /** The candidate list (as given to `model.candidates`) or its index. */
    candidates: readonly string[] | CandidateIndex,
    o: SampledBatchOptions,
  ) {
    this.candidates = Array.isArray(candidates) ? (candidates as readonly string[]) : undefined;
    this.index = this.candidates ? model.candidates(this.candidates).index : (candidates as CandidateIndex);
    const index = this.index;
    this.negatives = o.negatives;
    this.contextMax = o.contextMax;
    this.hard = o.hard ?? 0;
    if (this.hard > 0 && !this.candidates) throw new InternalError('SampledBatch: hard negatives need the candidate list');
    this.full = new Float32Array(this.hard > 0 ? index.size : 0);
    this.top = new Int32Array(this.hard);
    this.topScore = new Float32Array(this.hard);
    const lr = o.lr;
    const optimizer = o.optimizer ?? 'sgd';
    this.d = model.config.dim;
    this.n = index.size;
    this.posInS = new Int32Array(this.n).fill(-1);
    const max = this.n;
    this.set = new Int32Array(max);
    this.local = new Int32Array(max).fill(-1);
    this.extra = new Int32Array(max);
    this.extraSlots = new Int32Array(max);
    this.ownF = this.candidates ? undefined : new Float32Array(max * this.d);
    this.F = this.ownF ?? new Float32Array(0);
    this.gF = new Float32Array(max * this.d);
    this.scores = new Float32Array(max);
    this.g = new Float32Array(max);
    this.gu = new Float32Array(this.d);
    this.extraScores = this.scores;
    this.gExtra = this.g;
    this.A = new TouchedRows(model.A);
    this.W = new TouchedRows(model.W);
    this.optimizer = optimizer === 'adam' ? new SparseAdam(lr, [this.A, this.W], [model.R]) : new SparseSgd(lr, [this.A, this.W], [model.R]);
    this.ws = model.workspace(true);
    this.inContext = new Uint8Array(model.vocab.size);
    // Per candidate: [word, slot of its type] for its typed words (match types, §4.5); slot k is row typeRows[k] of W.
    const kb = model.config.matchType ? model.kb : undefined;
    const slots = new Map<number, number>();
    const pairs: number[] = [];
    this.typedAt = new Int32Array(this.n + 1);
    index.ids.forEach((ids, c) => {
      this.typedAt[c] = pairs.length;
      if (!kb) return;
      for (const w of new Set(ids)) {
        const t = kb.type(model.vocab.words[w] as string);
        const r = t === undefined ? -1 : model.typeRow(t);
        if (r < 0) continue;
        let k = slots.get(r);
        if (k === undefined) slots.set(r, (k = slots.size));
        pairs.push(w, k);
      }
    });
    this.typedAt[this.n] = pairs.length;
    this.typed = Int32Array.from(pairs);
    this.typeRows = Int32Array.from(slots.keys());
    this.typeDot = new Float32Array(slots.size);
    this.typeGrad = new Float32Array(slots.size);
    this.pairs = new Int32Array(2 * this.n * Math.min(slots.size, this.rows.length));
  }

  /** Adds candidate c to the batch's set; returns its position. */
  private add(c: number): number {
    const have = this.posInS[c] as number;
    if (have !== -1) return have;
    const j = this.size++;
    this.posInS[c] = j;
    this.set[j] = c;
    return j;
  }

  /** Draws the batch's candidate set (responses of `batch`, then N negatives) and embeds every candidate. */
  begin(batch: readonly number[], examples: readonly SampledExample[], rng: Rng): void {
    for (let j = 0; j < this.size; j++) this.posInS[this.set[j] as number] = -1;
    this.size = 0;
    for (const k of batch) this.add((examples[k] as SampledExample).target);
    const want = Math.min(this.n, this.size + this.negatives);
    while (this.size < want) this.add(rng.int(this.n));
    this.shared = this.size;
    this.extraScores = this.scores.subarray(this.shared);
    this.gExtra = this.g.subarray(this.shared);
    // All candidates' vectors at the batch's weights (the same float32 sums as a bag sum per candidate).
    if (this.ownF) {
      const d = this.d;
      this.index.ids.forEach((ids, c) => bagSum(this.model.W.data, d, ids, this.ownF as Float32Array, c * d));
    } else {
      this.fullCand = this.model.candidates(this.candidates as readonly string[]);
      this.F = this.fullCand.matrix;
    }
  }

  /**
   * The `hard` best-scoring candidates other than `target` for query u into `top` (best first,
   * ties by candidate order); returns how many. With the WebAssembly kernel (`matVecFastTop`, one
   * pass finds them) `fast` holds the float32-lane scores of all candidates, else it is undefined.
   */
  private hardNegatives(u: Float32Array, target: number): number {
    this.fast = undefined;
    const cand = this.fullCand;
    if (!cand || this.hard === 0) return 0;
    const kernel = cand.kernel;
    if (kernel) {
      const count = kernel.matVecFastTop(u, Math.min(this.hard, this.n), target);
      for (let i = 0; i < count; i++) this.top[i] = kernel.top[i] as number;
      this.fast = kernel.fastScores;
      return count;
    }
    const full = this.full;
    matVec(cand.matrix, this.n, this.d, u, full);
    const K = this.hard;
    const top = this.top;
    const ts = this.topScore;
    let k = 0;
    // The K-th best score so far (−∞ until there are K).
    let floor = -Infinity;
    for (let c = 0; c < this.n; c++) {
      const v = full[c] as number;
      if (v <= floor || c === target) continue;
      let i = k < K ? k++ : K - 1;
      while (i > 0 && (ts[i - 1] as number) < v) {
        ts[i] = ts[i - 1] as number;
        top[i] = top[i - 1] as number;
        i--;
      }
      ts[i] = v;
      top[i] = c;
      if (k === K) floor = ts[K - 1] as number;
    }
    return k;
  }

  /** Scores the current example's scored candidates after the shared ones (`extra`) as extra entry `s − shared`; returns the next free score position. */
  private addExtra(c: number, s: number): number {
    const sh = this.shared;
    const j = this.add(c);
    if (j < sh || this.local[j] !== -1) return s;
    this.local[j] = s;
    this.extra[s - sh] = c;
    return s + 1;
  }

  /**
   * Loss of one example against the batch's set and (at most `contextMax`, drawn from `rng` when
   * it has more) its context negatives; accumulates its gradients. With hard negatives and the
   * WebAssembly kernel the scores are the float32-lane product's (one pass over all candidates
   * gives them and the hard negatives), else `matVec`'s.
   */
  example(e: SampledExample, rng: Rng): number {
    const d = this.d;
    const m = this.model;
    const W = m.W.data;
    const F = this.F;
    const cache = m.hopsForward(e.x, this.ws);
    const uH = cache.us[m.config.hops] as Float32Array;
    const sh = this.shared;
    const scores = this.scores;
    const nh = this.hardNegatives(uH, e.target);
    const fast = this.fast;
    // Context and hard negatives outside the shared rows, scored after them.
    let s = sh;
    const ctx = e.context;
    const all = this.contextMax <= 0 || ctx.length <= this.contextMax;
    const draws = all ? ctx.length : this.contextMax;
    // The context negatives' match-type slots do not change: packed once per example (`packedSlots`).
    const packed = this.typeRows.length > 0 && this.typeRows.length < 32 ? this.packedSlots(e) : undefined;
    const extraSlots = this.extraSlots;
    for (let i = 0; i < draws; i++) {
      const k = all ? i : rng.int(ctx.length);
      const next = this.addExtra(ctx[k] as number, s);
      if (next > s) extraSlots[s - sh] = packed ? (packed[k] as number) : -1;
      s = next;
    }
    for (let i = 0; i < nh; i++) {
      const next = this.addExtra(this.top[i] as number, s);
      if (next > s) extraSlots[s - sh] = -1;
      s = next;
    }
    const set = this.set;
    const extra = this.extra;
    if (fast) {
      for (let i = 0; i < sh; i++) scores[i] = fast[set[i] as number] as number;
      for (let i = sh; i < s; i++) scores[i] = fast[extra[i - sh] as number] as number;
    } else {
      matVecRows(F, d, set, sh, uH, scores);
      matVecRows(F, d, extra, s - sh, uH, this.extraScores);
    }
    // Match types: each type's score W[type]·u_H once per example, added to every scored
    // candidate with a word of that type in the history; the (position, type slot) pairs kept for backward.
    let pairs = 0;
    if (this.typeRows.length > 0) {
      for (let k = 0; k < this.typeRows.length; k++) this.typeDot[k] = dot(W, (this.typeRows[k] as number) * d, uH, 0, d);
      for (const w of e.words) this.inContext[w] = 1;
      for (let i = 0; i < s; i++) {
        const pk = i < sh ? -1 : (extraSlots[i - sh] as number);
        const nr = pk >= 0 ? this.unpackSlots(pk) : this.matchRows((i < sh ? set[i] : extra[i - sh]) as number);
        if (nr === 0) continue;
        let add = 0;
        for (let q = 0; q < nr; q++) {
          const k = this.rows[q] as number;
          add += this.typeDot[k] as number;
          this.pairs[pairs++] = i;
          this.pairs[pairs++] = k;
        }
        scores[i] = (scores[i] as number) + add;
      }
      for (const w of e.words) this.inContext[w] = 0;
    }
    const loss = softmaxCrossEntropy(scores, this.posInS[e.target] as number, this.g, s);
    const gu = this.gu;
    gu.fill(0);
    // Candidates whose score gradient is below the model's `skipBelow` (most of them once the
    // responses are learnt) are left out, as the full-softmax path does.
    matVecRowsBackward(F, d, set, sh, uH, this.g, gu, this.gF, m.skipBelow);
    matVecRowsBackward(F, d, extra, s - sh, uH, this.gExtra, gu, this.gF, m.skipBelow);
    if (pairs > 0) {
      const tg = this.typeGrad;
      tg.fill(0);
      for (let q = 0; q < pairs; q += 2) {
        const k = this.pairs[q + 1] as number;
        tg[k] = (tg[k] as number) + (this.g[this.pairs[q] as number] as number);
      }
      for (let k = 0; k < this.typeRows.length; k++) {
        const gk = tg[k] as number;
        if (gk === 0) continue;
        const r = this.typeRows[k] as number;
        axpy(gk, W, r * d, gu, 0, d);
        axpy(gk, uH, 0, m.W.grad, r * d, d);
        this.W.touch(r);
      }
    }
    for (let i = sh; i < s; i++) this.local[this.posInS[extra[i - sh] as number] as number] = -1;
    m.hopsBackward(e.x, cache, gu);
    this.A.touchAll(e.x.query);
    for (const ids of e.x.mems) this.A.touchAll(ids);
    return loss;
  }

  /**
   * The match-type slots (`matchRows`) of each of e's context negatives, packed in order as
   * Σ (slot + 1)·32^q, 5 bits each (−1 when more than 6), computed on e's first visit.
   */
  private packedSlots(e: SampledExample): Int32Array {
    let packed = this.packed.get(e);
    if (packed) return packed;
    packed = new Int32Array(e.context.length);
    for (const w of e.words) this.inContext[w] = 1;
    for (let i = 0; i < packed.length; i++) {
      const n = this.matchRows(e.context[i] as number);
      let pk = 0;
      for (let q = n - 1; q >= 0 && q < 6; q--) pk = (pk << 5) | ((this.rows[q] as number) + 1);
      packed[i] = n > 6 ? -1 : pk;
    }
    for (const w of e.words) this.inContext[w] = 0;
    this.packed.set(e, packed);
    return packed;
  }

  /** The slots packed by `packedSlots` into `rows`, in order; returns how many. */
  private unpackSlots(pk: number): number {
    let n = 0;
    for (; pk > 0; pk >>>= 5) this.rows[n++] = (pk & 31) - 1;
    return n;
  }

  /** Distinct type slots of candidate c whose word is in the current example's history, into `rows`; returns how many. */
  private matchRows(c: number): number {
    const t = this.typed;
    const inContext = this.inContext;
    const rows = this.rows;
    let n = 0;
    const end = this.typedAt[c + 1] as number;
    for (let k = this.typedAt[c] as number; k < end; k += 2) {
      if (inContext[t[k] as number] !== 1) continue;
      const r = t[k + 1] as number;
      let q = 0;
      while (q < n && rows[q] !== r) q++;
      if (q === n && n < rows.length) rows[n++] = r;
    }
    return n;
  }

  /**
   * W.grad from the batch's candidate gradients (after the batch's examples), in set order; the
   * rows of every candidate scored are touched (a candidate whose gradient row stayed zero adds nothing).
   */
  end(): void {
    const d = this.d;
    const gF = this.gF;
    for (let j = 0; j < this.size; j++) {
      const c = this.set[j] as number;
      const ids = this.index.ids[c] as Int32Array;
      const o = c * d;
      let zero = true;
      for (let i = o; i < o + d && zero; i++) zero = gF[i] === 0;
      if (!zero) {
        bagSumBackward(this.model.W.grad, d, ids, gF, o);
        gF.fill(0, o, o + d);
      }
      this.W.touchAll(ids);
    }
  }
}
