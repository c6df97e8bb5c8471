/**
 * Supervised embeddings (Bordes et al. 2017, §4.3): f(x, y) = (A·Φ(x))ᵀ(B·Φ(y)) over bags of words,
 * trained with a margin ranking loss against sampled negative candidates. Options: A = B (shared),
 * input = last user utterance or whole history, match-type words added to candidates (§4.5).
 */
import type { Turn } from '../core/dialog.js';
import type { Rng } from '../core/rng.js';
import type { Ranker } from './ranker.js';
import { WordVocab, EncodeCache } from './word-vocab.js';
import { KbTypes } from './match-type.js';
import { HistoryState } from './embeddings-history.js';
import { CandidateIndex } from './candidates.js';
import { inputText, type InputMode } from './input.js';
import { bagSum, bagSumBackward, dot, matVec, matVecF32, axpy } from '../nn/kernels.js';
import { WasmMatVec } from '../nn/wasm.js';
import { marginRanking } from '../nn/losses.js';
import { initNormal, param, type Param } from '../nn/params.js';
import type { ModelFileContent } from '../formats/model-file.js';
import { bowModelFromFile, bowModelToFile } from './bow-model-file.js';
import { BowRanker } from './bow-ranker.js';

/**
 * Configuration of an {@link Embeddings} ranker (defaults in `EMBEDDINGS_DEFAULTS`).
 *
 * @example
 * ```ts
 * import { EMBEDDINGS_DEFAULTS, type EmbeddingsConfig } from 'dialogym/rankers';
 * const config: EmbeddingsConfig = { ...EMBEDDINGS_DEFAULTS, dim: 64, shareAB: true };
 * ```
 */
export interface EmbeddingsConfig {
  /** Embedding dimension. */
  readonly dim: number;
  /** `last`: the last user utterance; `history`: every turn so far. */
  readonly input: InputMode;
  /** One embedding matrix for inputs and candidates (A = B). */
  readonly shareAB: boolean;
  /** Add match-type words to candidates (needs KB types). */
  readonly matchType: boolean;
  /**
   * Bags of words and of bigrams (the paper's appendix Table 10, "+ bigrams"); the vocabulary
   * must hold the bigrams (`WordVocab.addBigrams`). Absent in model files older than it = false.
   */
  readonly bigrams?: boolean;
}

/**
 * Default {@link EmbeddingsConfig}: `{ dim: 32, input: 'history', shareAB: false, matchType: false, bigrams: false }`.
 *
 * @example
 * ```ts
 * import { EMBEDDINGS_DEFAULTS } from 'dialogym/rankers';
 * const wide = { ...EMBEDDINGS_DEFAULTS, dim: 128 };
 * ```
 */
export const EMBEDDINGS_DEFAULTS: EmbeddingsConfig = { dim: 32, input: 'history', shareAB: false, matchType: false, bigrams: false };

interface CandEntry {
  index: CandidateIndex;
  matrix: Float32Array;
  version: number;
  /** The float32-lane SIMD product for dims 32 and 64 (`matrix` is its memory); undefined: the JS kernels (`scoreAll`). */
  kernel: WasmMatVec | undefined;
  /** The last dialog history ranked against these candidates (extended turn by turn). */
  history: HistoryState;
  /** Vocabulary row of each of `index.typeNames` (−1: a type unseen in training, ignored). */
  typeRow: Int32Array;
  /** Scratch for `CandidateIndex.matchedTypes`. */
  typesOut: Int32Array;
}

/**
 * An encoded input: word ids of the model's input, and (with match types) the slots of the
 * candidates' typed words said in the dialog so far (`CandidateIndex.slot`).
 */
export interface EncodedInput {
  readonly x: Int32Array;
  readonly slots: Int32Array | undefined;
}

/**
 * The supervised-embeddings ranker (§4.3 of the bAbI dialog paper): f(x, y) = (A·Φ(x))ᵀ(B·Φ(y))
 * over bags of words. Train it with `trainModel('embeddings', data, opts)`; a trained one is
 * saved with `saveModel` and read back with `loadModel` or `Embeddings.fromModelFile`. The
 * constructor throws a ConfigError for `matchType` without KB types; a new model has zero
 * weights until `init(rng)`. Scoring caches per candidates array: pass the same array each time.
 *
 * @example
 * ```ts
 * import { Embeddings, WordVocab, EMBEDDINGS_DEFAULTS } from 'dialogym/rankers';
 * import { createRng } from 'dialogym';
 * const candidates = ['hello what can i help you with today', "i'm on it"];
 * const vocab = new WordVocab();
 * for (const c of [...candidates, 'hi', 'book a table']) vocab.addText(c);
 * const model = new Embeddings(EMBEDDINGS_DEFAULTS, vocab, undefined);
 * model.init(createRng(1));
 * const scores = model.rank([{ speaker: 'user', text: 'hi' }], candidates); // untrained: random scores
 * ```
 */
export class Embeddings extends BowRanker<CandEntry> implements Ranker {
  readonly name: string;
  readonly A: Param;
  readonly B: Param;
  readonly params: Param[];
  private readonly enc: EncodeCache;
  private readonly typeIds = new Map<string, number>();

  constructor(
    readonly config: EmbeddingsConfig,
    readonly vocab: WordVocab,
    kb: KbTypes | undefined,
  ) {
    super('embeddings', config.matchType, kb);
    if (config.matchType && kb) for (const t of kb.types) this.typeIds.set(t, vocab.add(KbTypes.featureWord(t)));
    this.A = param('A', [vocab.size, config.dim]);
    this.B = config.shareAB ? this.A : param('B', [vocab.size, config.dim]);
    this.params = config.shareAB ? [this.A] : [this.A, this.B];
    this.enc = new EncodeCache(vocab, undefined, config.bigrams === true);
    this.name = ['embeddings', ...(config.matchType ? ['match'] : []), ...(config.bigrams ? ['bigrams'] : [])].join('+');
  }

  init(rng: Rng, sd = 0.1): void {
    for (const p of this.params) initNormal(p, rng.fork(p.name), sd);
    this.touch();
  }

  /**
   * Input word ids and (with match types) the typed-word slots of the dialog so far, for a
   * candidate list prepared by `candidates`. Successive histories of one dialog are encoded
   * incrementally (the ids are copies: they stay valid).
   */
  encode(history: readonly Turn[], cand: CandEntry): EncodedInput {
    const x = this.inputIds(history, cand);
    return { x: x.slice(), slots: this.config.matchType ? cand.history.slots() : undefined };
  }

  /** The input ids of `history` (with `cand.history` brought up to it): a view for `history` mode, valid until the next call. */
  private inputIds(history: readonly Turn[], cand: CandEntry): Int32Array {
    cand.history.sync(history);
    return this.config.input === 'history' ? cand.history.inputIds() : this.enc.encode(inputText(history, 'last'));
  }

  protected prepare(list: readonly string[]): CandEntry {
    const kernel = WasmMatVec.create(list.length, this.config.dim, true);
    const index = new CandidateIndex(list, this.vocab, this.config.matchType ? this.kb : undefined, this.config.bigrams === true);
    const history = new HistoryState(this.vocab, index, { words: this.config.input === 'history', bigrams: this.config.bigrams === true, match: this.config.matchType });
    const typeRow = Int32Array.from(index.typeNames, (t) => this.typeIds.get(t) ?? -1);
    return { index, matrix: kernel ? kernel.data : new Float32Array(list.length * this.config.dim), version: -1, kernel, history, typeRow, typesOut: new Int32Array(index.typeNames.length) };
  }

  /** B·Φ(y) for every candidate. */
  protected refresh(e: CandEntry): void {
    const d = this.config.dim;
    e.index.ids.forEach((ids, c) => bagSum(this.B.data, d, ids, e.matrix, c * d));
  }

  /**
   * The vocabulary rows of candidate c's matched types for a context (`present`: slot → 1 when
   * said), in `cand.typesOut`; returns how many (rows of types unseen in training are −1).
   */
  matchedRows(cand: CandEntry, c: number, present: Uint8Array): number {
    const out = cand.typesOut;
    const m = cand.index.matchedTypes(c, present, out);
    for (let i = 0; i < m; i++) out[i] = cand.typeRow[out[i] as number] as number;
    return m;
  }

  /** Word ids of candidate c, plus its matched type words for a context (`present`: slot → 1), or its word ids alone. */
  candidateIds(cand: CandEntry, c: number, present: Uint8Array | undefined): Int32Array {
    const ids = cand.index.ids[c] as Int32Array;
    const m = present ? this.matchedRows(cand, c, present) : 0;
    if (m === 0) return ids;
    const out = new Int32Array(ids.length + m);
    out.set(ids);
    out.set(cand.typesOut.subarray(0, m), ids.length);
    return out;
  }

  /** A presence array over `cand`'s typed-word slots with `slots` set (for `candidateIds`, `lossAndGrad`). */
  presence(cand: CandEntry, slots: Int32Array): Uint8Array {
    const present = new Uint8Array(cand.index.slots);
    for (const s of slots) present[s] = 1;
    return present;
  }

  rank(history: readonly Turn[], candidates: readonly string[]): Float32Array {
    const d = this.config.dim;
    const cand = this.candidates(candidates);
    const u = new Float32Array(d);
    if (this.config.input === 'history') {
      cand.history.sync(history);
      cand.history.embed(this.A.data, d, this.version, u);
    } else bagSum(this.A.data, d, this.inputIds(history, cand), u);
    const n = candidates.length;
    const scores = new Float32Array(n);
    // Float32 arithmetic (SIMD lanes, or the JS kernel with the same numbers); dims not a multiple of 4: matVec.
    if (cand.kernel) cand.kernel.matVec(u, scores);
    else if (d % 4 === 0) matVecF32(cand.matrix, n, d, u, scores);
    else matVec(cand.matrix, n, d, u, scores);
    if (this.config.matchType) {
      // B[type]·u once per type (the same numbers as per matched candidate).
      const typeDot = new Float64Array(cand.typeRow.length);
      cand.typeRow.forEach((r, t) => (typeDot[t] = r < 0 ? 0 : dot(this.B.data, r * d, u, 0, d)));
      const present = cand.history.present;
      const out = cand.typesOut;
      for (const c of cand.history.active()) {
        const m = cand.index.matchedTypes(c, present, out);
        if (m === 0) continue;
        let add = 0;
        for (let i = 0; i < m; i++) add += typeDot[out[i] as number] as number;
        scores[c] = (scores[c] as number) + add;
      }
    }
    return scores;
  }

  /**
   * Margin ranking loss of one example against the given negatives; accumulates ∂loss into the
   * parameters' gradients. `present` is the example's context for match-type features
   * (`presence`), or undefined.
   */
  lossAndGrad(x: Int32Array, pos: number, negatives: readonly number[], cand: CandEntry, present: Uint8Array | undefined, margin: number): number {
    const d = this.config.dim;
    const u = new Float32Array(d);
    bagSum(this.A.data, d, x, u);
    const posIds = this.candidateIds(cand, pos, present);
    const cp = new Float32Array(d);
    bagSum(this.B.data, d, posIds, cp);
    const negIds = negatives.map((c) => this.candidateIds(cand, c, present));
    const negVecs = new Float32Array(negatives.length * d);
    const negScores = new Float32Array(negatives.length);
    negIds.forEach((ids, i) => {
      bagSum(this.B.data, d, ids, negVecs, i * d);
      negScores[i] = dot(negVecs, i * d, u, 0, d);
    });
    const gNeg = new Float32Array(negatives.length);
    const { loss, gradPos } = marginRanking(dot(cp, 0, u, 0, d), negScores, margin, gNeg);
    if (loss === 0) return 0;
    // ∂/∂u = gradPos·cp + Σ gNeg_i·cn_i ; ∂/∂cp = gradPos·u ; ∂/∂cn_i = gNeg_i·u
    const gu = new Float32Array(d);
    axpy(gradPos, cp, 0, gu, 0, d);
    const gc = new Float32Array(d);
    axpy(gradPos, u, 0, gc, 0, d);
    bagSumBackward(this.B.grad, d, posIds, gc);
    const gn = new Float32Array(d);
    negIds.forEach((ids, i) => {
      const g = gNeg[i] as number;
      if (g === 0) return;
      axpy(g, negVecs, i * d, gu, 0, d);
      gn.fill(0);
      axpy(g, u, 0, gn, 0, d);
      bagSumBackward(this.B.grad, d, ids, gn);
    });
    bagSumBackward(this.A.grad, d, x, gu);
    return loss;
  }

  toModelFile(): ModelFileContent {
    return bowModelToFile('embeddings', this);
  }

  static fromModelFile(c: ModelFileContent, file: string, kb?: KbTypes): Embeddings {
    return bowModelFromFile<EmbeddingsConfig, Embeddings>('embeddings', c, file, (config, vocab, k) => new Embeddings(config, vocab, k), kb);
  }
}
