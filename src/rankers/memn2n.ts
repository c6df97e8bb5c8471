/**
 * End-to-end memory network for response ranking (Bordes et al. 2017, Appendix A; Sukhbaatar et
 * al. 2015): memories are the previous utterances as bags of words plus a speaker word and a time
 * word (recency); the query is the last user utterance; each hop attends over memories
 * (p = softmax(M·u)), reads o = Mᵀp and maps u ← R(u + o); candidate y scores uᵀ·W·Φ(y). With
 * match-type features, Φ(y) also holds a type word for every typed word of y seen in the dialog.
 */
import type { Turn } from '../core/dialog.js';
import type { Rng } from '../core/rng.js';
import type { Ranker } from './ranker.js';
import { WordVocab, EncodeCache } from './word-vocab.js';
import { KbTypes } from './match-type.js';
import { CandidateIndex } from './candidates.js';
import { addOuter, matVecBackward, matVecBackwardGeneric, bagSum, bagSumBackward, bagSumBackwardGeneric, bagSumGeneric, matTVec, matVec, matVecGeneric, softmax, softmaxBackward, dot, axpy } from '../nn/kernels.js';
import { softmaxCrossEntropy } from '../nn/losses.js';
import { Wasm32Matrix, WasmBagTable } from '../nn/wasm.js';
import { initNormal, param, type Param } from '../nn/params.js';
import type { ModelFileContent } from '../formats/model-file.js';
import { bowModelFromFile, bowModelToFile } from './bow-model-file.js';
import { BowRanker } from './bow-ranker.js';
import { InternalError } from '../core/errors.js';

/**
 * Configuration of a {@link MemN2N} ranker (defaults in `MEMN2N_DEFAULTS`).
 *
 * @example
 * ```ts
 * import { MEMN2N_DEFAULTS, type MemN2NConfig } from 'dialogym/rankers';
 * const config: MemN2NConfig = { ...MEMN2N_DEFAULTS, hops: 2, matchType: true };
 * ```
 */
export interface MemN2NConfig {
  /** Embedding dimension d. */
  readonly dim: number;
  /** Number of memory hops. */
  readonly hops: number;
  /** Most recent utterances kept as memories. */
  readonly memorySize: number;
  /** Add match-type features to candidates (needs KB types). */
  readonly matchType: boolean;
}

/**
 * Default {@link MemN2NConfig}: `{ dim: 32, hops: 3, memorySize: 50, matchType: false }`.
 *
 * @example
 * ```ts
 * import { MEMN2N_DEFAULTS } from 'dialogym/rankers';
 * const oneHop = { ...MEMN2N_DEFAULTS, hops: 1 };
 * ```
 */
export const MEMN2N_DEFAULTS: MemN2NConfig = { dim: 32, hops: 3, memorySize: 50, matchType: false };

const SPEAKER = { user: '#speaker:user', bot: '#speaker:bot', kb: '#speaker:kb' } as const;
const timeWord = (k: number): string => `#time:${k}`;

/** A dialog history turned into word ids. */
export interface Encoded {
  readonly query: Int32Array;
  readonly mems: Int32Array[];
  /** The memories' ids back to back, when `mems` are consecutive views of it (one buffer per example: `encode`). */
  readonly memIds?: Int32Array;
  /** Words of the whole history (for match types). */
  readonly context: Set<string>;
}

interface CandEntry {
  index: CandidateIndex;
  matrix: Float32Array;
  version: number;
  /** The matrix in WebAssembly memory with its SIMD product (d = 32 and SIMD available). */
  kernel: Wasm32Matrix | undefined;
}

/** Per-example intermediate values kept for the backward pass. */
interface Cache {
  m: number;
  M: Float32Array;
  us: Float32Array[];
  hs: Float32Array[];
  ps: Float32Array[];
  matches: [number, number[]][];
  ws: HopsWorkspace;
}

/** Preallocated buffers of the memory hops (`MemN2N.workspace`). */
export interface HopsWorkspace {
  readonly M: Float32Array;
  readonly us: Float32Array[];
  readonly hs: Float32Array[];
  readonly ps: Float32Array[];
  readonly s: Float32Array;
  readonly o: Float32Array;
  readonly gM: Float32Array;
  /** Two d-vectors: ∂L/∂h and the next ∂L/∂u. */
  readonly gh: Float32Array[];
  readonly gp: Float32Array;
  readonly gs: Float32Array;
  readonly t: Float32Array;
}

/**
 * The end-to-end memory network ranker (bAbI dialog paper §4.4, ± match types §4.5): memories
 * are the previous utterances, the query the last user utterance, `hops` attention hops. Train it
 * with `trainModel('memn2n', data, opts)`; save with `saveModel`, read back with `loadModel` or
 * `MemN2N.fromModelFile`. The constructor throws a ConfigError for `matchType` without KB types;
 * a new model has zero weights until `init(rng)`. Scoring caches per candidates array: pass the
 * same array each time.
 *
 * @example
 * ```ts
 * import { MemN2N, WordVocab, MEMN2N_DEFAULTS } from 'dialogym/rankers';
 * import { createRng } from 'dialogym';
 * const candidates = ['where should it be', 'api_call italian rome six cheap'];
 * const vocab = new WordVocab();
 * for (const c of [...candidates, 'italian food in rome']) vocab.addText(c);
 * const model = new MemN2N(MEMN2N_DEFAULTS, vocab, undefined);
 * model.init(createRng(1));
 * const scores = model.rank([{ speaker: 'user', text: 'italian food in rome' }], candidates);
 * ```
 */
export class MemN2N extends BowRanker<CandEntry> implements Ranker {
  readonly name: string;
  readonly A: Param;
  readonly R: Param;
  readonly W: Param;
  readonly params: Param[];
  private readonly enc: EncodeCache;
  private readonly speakerIds: Record<'user' | 'bot' | 'kb', number>;
  private readonly timeIds: number[];
  private readonly typeIds = new Map<string, number>();
  /** Candidates whose score gradient is below this are skipped in backward (0 = exact). */
  skipBelow = 1e-9;
  /**
   * Training/scoring with the generic JS kernels instead of the 32-wide fast paths and the
   * WebAssembly ones (same results, bit for bit; slower): the baseline of `bench/memn2n.bench.ts`.
   */
  referenceKernels = false;
  /** A's table with its SIMD bag sums (d = 32 and WebAssembly SIMD available). */
  private readonly bags: WasmBagTable | undefined;
  /** Whether `workspace(true)` handed out the WebAssembly memories already. */
  private simdWorkspace = false;
  /** A one-list scratch for the query's bag sum. */
  private readonly oneBag: Int32Array[] = [new Int32Array(0)];

  constructor(
    readonly config: MemN2NConfig,
    readonly vocab: WordVocab,
    kb: KbTypes | undefined,
  ) {
    super('memn2n', config.matchType, kb);
    for (const w of Object.values(SPEAKER)) vocab.add(w);
    for (let k = 0; k < config.memorySize; k++) vocab.add(timeWord(k));
    if (config.matchType && kb) for (const t of kb.types) this.typeIds.set(t, vocab.add(KbTypes.featureWord(t)));
    this.speakerIds = { user: vocab.id(SPEAKER.user), bot: vocab.id(SPEAKER.bot), kb: vocab.id(SPEAKER.kb) };
    this.timeIds = Array.from({ length: config.memorySize }, (_, k) => vocab.id(timeWord(k)));
    const V = vocab.size;
    const d = config.dim;
    // d = 32: A lives in WebAssembly memory, where the memories' bag sums (and their backward) run in SIMD.
    this.bags = d === 32 ? WasmBagTable.create(V, config.memorySize) : undefined;
    this.A = this.bags ? { name: 'A', shape: [V, d], data: this.bags.data, grad: this.bags.grad } : param('A', [V, d]);
    this.R = param('R', [d, d]);
    this.W = param('W', [V, d]);
    this.params = [this.A, this.R, this.W];
    this.enc = new EncodeCache(vocab);
    this.name = config.matchType ? 'memn2n+match' : 'memn2n';
  }

  /** Random initial weights: N(0, sd²) embeddings, R near the identity. */
  init(rng: Rng, sd = 0.1): void {
    initNormal(this.A, rng.fork('A'), sd);
    initNormal(this.W, rng.fork('W'), sd);
    initNormal(this.R, rng.fork('R'), sd);
    const d = this.config.dim;
    for (let i = 0; i < d; i++) this.R.data[i * d + i] = (this.R.data[i * d + i] as number) + 1;
    this.touch();
  }

  /**
   * A history as word ids: the query, the memories, and (`withContext`, for match types in
   * `forward`) the history's words; the sampled trainer has them as ids and leaves them out.
   */
  encode(history: readonly Turn[], withContext = true): Encoded {
    let end = history.length;
    let query: Int32Array = new Int32Array(0);
    const last = history[end - 1];
    if (last && last.speaker === 'user') {
      query = this.enc.encode(last.text);
      end--;
    }
    const start = Math.max(0, end - this.config.memorySize);
    let total = 0;
    for (let i = start; i < end; i++) total += this.enc.encode((history[i] as Turn).text).length + 2;
    const memIds = new Int32Array(total);
    const mems: Int32Array[] = [];
    let o = 0;
    for (let i = start; i < end; i++) {
      const t = history[i] as Turn;
      const w = this.enc.encode(t.text);
      const ids = memIds.subarray(o, o + w.length + 2);
      o += w.length + 2;
      ids.set(w);
      ids[w.length] = this.speakerIds[t.speaker];
      ids[w.length + 1] = this.timeIds[end - 1 - i] as number;
      mems.push(ids);
    }
    const context = new Set<string>();
    if (this.config.matchType && withContext) for (const t of history) for (const w of t.text.split(/\s+/)) if (w) context.add(w);
    return { query, mems, memIds, context };
  }

  /** A candidate list prepared (`candidates` keeps it, with W·Φ(y) for every candidate, until weights change). */
  protected prepare(list: readonly string[]): CandEntry {
    const index = new CandidateIndex(list, this.vocab, this.config.matchType ? this.kb : undefined);
    const kernel = this.config.dim === 32 ? Wasm32Matrix.create(list.length, { ids: index.ids, vocabRows: this.W.data.length / 32 }) : undefined;
    const matrix = kernel ? kernel.data : new Float32Array(list.length * this.config.dim);
    return { index, matrix, version: -1, kernel };
  }

  /** W·Φ(y) for every candidate. */
  protected refresh(e: CandEntry): void {
    const d = this.config.dim;
    if (e.kernel && !this.referenceKernels) e.kernel.sumRows(this.W.data);
    else e.index.ids.forEach((ids, c) => (this.referenceKernels ? bagSumGeneric : bagSum)(this.W.data, d, ids, e.matrix, c * d));
  }

  /**
   * Buffers of one example's hops (forward and backward). `hopsForward` without a workspace
   * allocates a fresh one; a trainer passes the same one for every example (its cache is then
   * valid until the next `hopsForward`). `simd`: the trainer's workspace, whose memories live in
   * A's WebAssembly memory (d = 32; once per model, later ones are plain), so their bag sums and
   * part of the hops' backward run there without copies (the same numbers).
   */
  workspace(simd = false): HopsWorkspace {
    const d = this.config.dim;
    const H = this.config.hops;
    const mem = this.config.memorySize;
    const vec = (k: number, n: number): Float32Array[] => Array.from({ length: k }, () => new Float32Array(n));
    // `simd` (a trainer's one workspace): the memories and their gradient in A's WebAssembly memory, once per model.
    const bags = simd && !this.simdWorkspace ? this.bags : undefined;
    if (bags) this.simdWorkspace = true;
    return { M: bags ? bags.M : new Float32Array(mem * d), us: vec(H + 1, d), hs: vec(H, d), ps: vec(H, mem), s: new Float32Array(mem), o: new Float32Array(d), gM: bags ? bags.gM : new Float32Array(mem * d), gh: vec(2, d), gp: new Float32Array(mem), gs: new Float32Array(mem), t: new Float32Array(d) };
  }

  /**
   * The memory hops of one example (everything but the candidate scores): the cache holds the
   * final query u_H (`us[hops]`) that candidates are scored against.
   */
  hopsForward(x: Encoded, ws: HopsWorkspace = this.workspace()): Cache {
    const d = this.config.dim;
    const A = this.A.data;
    const mv = this.referenceKernels ? matVecGeneric : matVec;
    const bs = this.referenceKernels ? bagSumGeneric : bagSum;
    const m = x.mems.length;
    const M = ws.M;
    const u0 = ws.us[0] as Float32Array;
    const bags = this.referenceKernels ? undefined : this.bags;
    const simd = bags !== undefined && M === bags.M;
    if (bags) {
      bags.sum(x.mems, m, M, 0, x.memIds);
      this.oneBag[0] = x.query;
      bags.sum(this.oneBag, 1, u0);
    } else {
      M.fill(0, 0, m * d);
      for (let i = 0; i < m; i++) bs(A, d, x.mems[i] as Int32Array, M, i * d);
      u0.fill(0);
      bs(A, d, x.query, u0);
    }
    const s = ws.s;
    for (let k = 0; k < this.config.hops; k++) {
      const u = ws.us[k] as Float32Array;
      const p = ws.ps[k] as Float32Array;
      const h = ws.hs[k] as Float32Array;
      h.set(u);
      if (m > 0) {
        if (simd) bags.matVec(m, u, s);
        else mv(M, m, d, u, s);
        softmax(s, p, m);
        if (simd) bags.matTVec(m, p, ws.o);
        else matTVec(M, m, d, p, ws.o);
        axpy(1, ws.o, 0, h, 0, d);
      }
      mv(this.R.data, d, d, h, ws.us[k + 1] as Float32Array);
    }
    // Attention of each hop over the m memories (views of the workspace).
    return { m, M, us: ws.us, hs: ws.hs, ps: ws.ps.map((p) => p.subarray(0, m)), matches: [], ws };
  }

  /** Row of W holding the match-type word of KB type `t` (−1 when the model has none). */
  typeRow(t: string): number {
    return this.typeIds.get(t) ?? -1;
  }

  /** Scores of every candidate into `scores`; returns the cache for `backward`. */
  forward(x: Encoded, cand: CandEntry, scores: Float32Array): Cache {
    const d = this.config.dim;
    const mv = this.referenceKernels ? matVecGeneric : matVec;
    const cache = this.hopsForward(x);
    const { us, matches } = cache;
    const uH = us[this.config.hops] as Float32Array;
    const n = cand.index.size;
    if (cand.kernel && !this.referenceKernels) cand.kernel.matVec(uH, scores);
    else mv(cand.matrix, n, d, uH, scores);
    if (this.config.matchType) {
      for (const [c, types] of cand.index.matches(x.context)) {
        const rows = types.map((t) => this.typeIds.get(t) ?? -1).filter((r) => r >= 0);
        let add = 0;
        for (const r of rows) add += dot(this.W.data, r * d, uH, 0, d);
        scores[c] = (scores[c] as number) + add;
        matches.push([c, rows]);
      }
    }
    return cache;
  }

  /**
   * Backward pass from ∂L/∂scores: accumulates into A.grad, R.grad, W.grad (type rows) and into
   * `gC` (∂L/∂(candidate matrix), n×d), which `candidatesBackward` turns into W.grad. With
   * `gC = cand.kernel.grad` (see `candidateGradient`) the candidate part runs in WebAssembly.
   */
  backward(x: Encoded, cand: CandEntry, cache: Cache, gScores: Float32Array, gC: Float32Array): void {
    const d = this.config.dim;
    const H = this.config.hops;
    const mvb = this.referenceKernels ? matVecBackwardGeneric : matVecBackward;
    const n = cand.index.size;
    const uH = cache.us[H] as Float32Array;
    const gu = new Float32Array(d);
    if (cand.kernel && gC === cand.kernel.grad && !this.referenceKernels) cand.kernel.backward(uH, gScores, gu, this.skipBelow);
    else mvb(cand.matrix, n, d, uH, gScores, gu, gC, this.skipBelow);
    for (const [c, rows] of cache.matches) {
      const g = gScores[c] as number;
      for (const r of rows) {
        axpy(g, this.W.data, r * d, gu, 0, d);
        axpy(g, uH, 0, this.W.grad, r * d, d);
      }
    }
    this.hopsBackward(x, cache, gu);
  }

  /** Backward through the memory hops from ∂L/∂u_H (`gu`, left unchanged): accumulates into A.grad and R.grad. */
  hopsBackward(x: Encoded, cache: Cache, gu: Float32Array): void {
    const d = this.config.dim;
    const H = this.config.hops;
    const mv = this.referenceKernels ? matVecGeneric : matVec;
    const ws = cache.ws;
    const m = cache.m;
    const gM = ws.gM;
    const bags = this.referenceKernels ? undefined : this.bags;
    const simd = bags !== undefined && ws.M === bags.M;
    gM.fill(0, 0, m * d);
    const gh = ws.gh[0] as Float32Array;
    const { gp, gs, t } = ws;
    let g = gu;
    for (let k = H - 1; k >= 0; k--) {
      addOuter(this.R.grad, d, d, g, cache.hs[k] as Float32Array);
      matTVec(this.R.data, d, d, g, gh);
      const next = ws.gh[1] as Float32Array;
      next.set(gh);
      if (m > 0) {
        const p = cache.ps[k] as Float32Array;
        if (simd) {
          bags.addOuter(m, p, gh);
          bags.matVec(m, gh, gp);
        } else {
          addOuter(gM, m, d, p, gh);
          mv(cache.M, m, d, gh, gp);
        }
        softmaxBackward(p, gp, gs, m);
        if (simd) {
          // gM += gs·u_kᵀ and t = Mᵀ·gs in one WebAssembly pass (the numbers of the two calls below).
          t.fill(0);
          bags.matVecBackward(m, cache.us[k] as Float32Array, gs, t);
        } else {
          addOuter(gM, m, d, gs, cache.us[k] as Float32Array);
          matTVec(cache.M, m, d, gs, t);
        }
        axpy(1, t, 0, next, 0, d);
      }
      g = next;
    }
    if (bags) {
      this.oneBag[0] = x.query;
      bags.sumBackward(this.oneBag, 1, g);
      bags.sumBackward(x.mems, m, gM, 0, x.memIds);
      return;
    }
    const bsb = this.referenceKernels ? bagSumBackwardGeneric : bagSumBackward;
    bsb(this.A.grad, d, x.query, g);
    for (let i = 0; i < m; i++) bsb(this.A.grad, d, x.mems[i] as Int32Array, gM, i * d);
  }

  /** A zeroed ∂L/∂(candidate matrix) buffer for `backward`: the WebAssembly one when there is one. */
  candidateGradient(cand: CandEntry): Float32Array {
    if (cand.kernel) {
      cand.kernel.grad.fill(0);
      return cand.kernel.grad;
    }
    return new Float32Array(cand.index.size * this.config.dim);
  }

  /** W.grad += Σ_c gC[c] over the words of candidate c. */
  candidatesBackward(cand: CandEntry, gC: Float32Array): void {
    const d = this.config.dim;
    if (cand.kernel && gC === cand.kernel.grad && !this.referenceKernels) cand.kernel.sumRowsBackward(this.W.grad);
    else cand.index.ids.forEach((ids, c) => (this.referenceKernels ? bagSumBackwardGeneric : bagSumBackward)(this.W.grad, d, ids, gC, c * d));
  }

  /** Cross-entropy of one example; accumulates gradients (gC as in `backward`). */
  lossAndGrad(x: Encoded, target: number, cand: CandEntry, gC: Float32Array, scratch?: { scores: Float32Array; g: Float32Array }): number {
    const n = cand.index.size;
    const scores = scratch?.scores ?? new Float32Array(n);
    const g = scratch?.g ?? new Float32Array(n);
    const cache = this.forward(x, cand, scores);
    const loss = softmaxCrossEntropy(scores, target, g, n);
    this.backward(x, cand, cache, g, gC);
    return loss;
  }

  // ---- Inference for a chat (additive: the training path above is unchanged) ------------------

  /** Word ids of a user utterance as a query. */
  queryIds(text: string): Int32Array {
    return this.enc.encode(text);
  }

  /**
   * A history turn as a memory without its time word, A·(words + speaker): fixed once the turn is
   * said (only the time word changes as the dialog goes on), so a conversation computes it once.
   */
  memoryBase(t: Turn): Float32Array {
    const w = this.enc.encode(t.text);
    const ids = new Int32Array(w.length + 1);
    ids.set(w);
    ids[w.length] = this.speakerIds[t.speaker];
    const out = new Float32Array(this.config.dim);
    bagSum(this.A.data, this.config.dim, ids, out);
    return out;
  }

  /**
   * Inference only: the scores `forward(encode(history))` gives, bit for bit, from the memory
   * bases of the window (oldest first, at most `memorySize`; see `memoryBase`), the query ids and
   * the history's words (match types). Faster than `forward`: no per-memory bag sums, the
   * candidate product in WebAssembly SIMD (d = 32), and each match type's score
   * W[type]·u once per call instead of once per candidate. Returns the attention of each hop.
   */
  infer(
    bases: readonly Float32Array[],
    query: Int32Array,
    context: ReadonlySet<string>,
    cand: CandEntry,
    scores: Float32Array,
    /** `cand.index.matches(context)`, when the caller keeps it up to date as the context grows. */
    matches?: ReadonlyMap<number, readonly string[]>,
  ): Float32Array[] {
    const d = this.config.dim;
    const A = this.A.data;
    const m = bases.length;
    if (m > this.config.memorySize) throw new InternalError(`memn2n: ${m} memories, the window holds ${this.config.memorySize}`);
    const M = new Float32Array(m * d);
    for (let i = 0; i < m; i++) {
      // bagSum order: the base (words + speaker), then the time word.
      const b = bases[i] as Float32Array;
      const t = (this.timeIds[m - 1 - i] as number) * d;
      for (let c = 0; c < d; c++) M[i * d + c] = (b[c] as number) + (A[t + c] as number);
    }
    let u = new Float32Array(d);
    bagSum(A, d, query, u);
    const ps: Float32Array[] = [];
    const s = new Float32Array(m);
    for (let k = 0; k < this.config.hops; k++) {
      const p = new Float32Array(m);
      const h = u.slice();
      if (m > 0) {
        matVec(M, m, d, u, s);
        softmax(s, p, m);
        const o = new Float32Array(d);
        matTVec(M, m, d, p, o);
        axpy(1, o, 0, h, 0, d);
      }
      const next = new Float32Array(d);
      matVec(this.R.data, d, d, h, next);
      ps.push(p);
      u = next;
    }
    const n = cand.index.size;
    if (cand.kernel) cand.kernel.matVec(u, scores);
    else matVec(cand.matrix, n, d, u, scores);
    if (this.config.matchType) {
      const byType = new Map<string, number>();
      for (const [c, types] of matches ?? cand.index.matches(context)) {
        let add = 0;
        for (const t of types) {
          let v = byType.get(t);
          if (v === undefined) {
            const r = this.typeIds.get(t) ?? -1;
            v = r >= 0 ? dot(this.W.data, r * d, u, 0, d) : NaN;
            byType.set(t, v);
          }
          if (!Number.isNaN(v)) add += v;
        }
        scores[c] = (scores[c] as number) + add;
      }
    }
    return ps;
  }

  rank(history: readonly Turn[], candidates: readonly string[]): Float32Array {
    const scores = new Float32Array(candidates.length);
    this.forward(this.encode(history), this.candidates(candidates), scores);
    return scores;
  }

  toModelFile(): ModelFileContent {
    return bowModelToFile('memn2n', this);
  }

  static fromModelFile(c: ModelFileContent, file: string, kb?: KbTypes): MemN2N {
    return bowModelFromFile<MemN2NConfig, MemN2N>('memn2n', c, file, (config, vocab, k) => new MemN2N(config, vocab, k), kb);
  }
}
