/**
 * Supervised-embeddings training with negatives shared by a mini-batch: each batch draws its N
 * negative candidates once (uniformly, as the per-example sampler does), and every example of the
 * batch is ranked against them and against the batch's other responses. The candidate
 * embeddings B·Φ(y) of that set are computed once per batch (instead of N per example) and their
 * gradients are accumulated per set row, then propagated into B once at the end of the batch.
 * The per-example sampler bag-sums ~101 candidates per example; this one ~N/batch + a
 * matrix-vector product per example. The paper's embeddings trainer also ranks against a
 * sampled set (Bordes et al. 2017, §4.3 and appendix Table 8); the memn2n analogue is
 * `memn2n-sampled.ts`.
 *
 * Match-type features: a set candidate with types matched in the example's dialog is scored with
 * its own vector (its words plus the matched type words, as `Embeddings.rank` scores it).
 */
import type { Rng } from '../core/rng.js';
import { axpy, bagSum, bagSumBackward, dot, matVec } from '../nn/kernels.js';
import { marginRanking } from '../nn/losses.js';
import type { TouchedRows } from '../nn/sparse-rows.js';
import type { Embeddings } from './embeddings.js';

type CandEntry = ReturnType<Embeddings['candidates']>;

export class SharedNegativesBatch {
  private readonly d: number;
  private readonly n: number;
  /** Candidate → its row in the batch's set, or −1. */
  private readonly posInS: Int32Array;
  private readonly set: Int32Array;
  private size = 0;
  private readonly C: Float32Array;
  private readonly gC: Float32Array;
  private readonly scores: Float32Array;
  private readonly negScores: Float32Array;
  private readonly gNeg: Float32Array;
  private readonly negRow: Int32Array;
  private readonly u: Float32Array;
  private readonly gu: Float32Array;
  private readonly v: Float32Array;
  private readonly gv: Float32Array;
  /** Set rows scored with their own vector in the current example (matched types): row → 1. */
  private readonly own: Uint8Array;

  constructor(
    private readonly model: Embeddings,
    private readonly cand: CandEntry,
    readonly negatives: number,
    private readonly margin: number,
    /** Rows of A and B touched (sparse SGD), or undefined for dense steps. */
    private readonly rows: { A: TouchedRows; B: TouchedRows } | undefined,
  ) {
    this.d = model.config.dim;
    this.n = cand.index.size;
    this.posInS = new Int32Array(this.n).fill(-1);
    this.set = new Int32Array(this.n);
    this.C = new Float32Array(this.n * this.d);
    this.gC = new Float32Array(this.n * this.d);
    this.scores = new Float32Array(this.n);
    this.negScores = new Float32Array(this.n);
    this.gNeg = new Float32Array(this.n);
    this.negRow = new Int32Array(this.n);
    this.u = new Float32Array(this.d);
    this.gu = new Float32Array(this.d);
    this.v = new Float32Array(this.d);
    this.gv = new Float32Array(this.d);
    this.own = new Uint8Array(this.n);
  }

  private add(c: number): void {
    if (this.posInS[c] !== -1) return;
    this.posInS[c] = this.size;
    this.set[this.size++] = c;
  }

  /** Draws the batch's set (its responses, then N distinct uniform negatives) and embeds it. */
  begin(targets: readonly number[], rng: Rng): void {
    for (let j = 0; j < this.size; j++) this.posInS[this.set[j] as number] = -1;
    this.size = 0;
    for (const t of targets) this.add(t);
    const want = Math.min(this.n, this.size + this.negatives);
    while (this.size < want) this.add(rng.int(this.n));
    const d = this.d;
    const B = this.model.B.data;
    this.gC.fill(0, 0, this.size * d);
    for (let j = 0; j < this.size; j++) bagSum(B, d, this.cand.index.ids[this.set[j] as number] as Int32Array, this.C, j * d);
  }

  /** Margin ranking loss of one example against the set (its own response left out); accumulates gradients. */
  example(x: Int32Array, target: number, matches: Map<number, string[]> | undefined): number {
    const d = this.d;
    const m = this.model;
    const u = this.u;
    bagSum(m.A.data, d, x, u);
    const scores = this.scores;
    matVec(this.C, this.size, d, u, scores);
    if (matches)
      for (let j = 0; j < this.size; j++) {
        const c = this.set[j] as number;
        const types = matches.get(c);
        if (!types || types.length === 0) continue;
        bagSum(m.B.data, d, m.candidateIds(this.cand, c, matches), this.v);
        scores[j] = dot(this.v, 0, u, 0, d);
        this.own[j] = 1;
      }
    const p = this.posInS[target] as number;
    let k = 0;
    for (let j = 0; j < this.size; j++) {
      if (j === p) continue;
      this.negRow[k] = j;
      this.negScores[k++] = scores[j] as number;
    }
    const { loss, gradPos } = marginRanking(scores[p] as number, this.negScores.subarray(0, k), this.margin, this.gNeg);
    if (loss > 0) {
      const gu = this.gu;
      gu.fill(0);
      this.rowGradient(p, gradPos, target, matches);
      for (let i = 0; i < k; i++) {
        const g = this.gNeg[i] as number;
        if (g !== 0) this.rowGradient(this.negRow[i] as number, g, this.set[this.negRow[i] as number] as number, matches);
      }
      bagSumBackward(m.A.grad, d, x, gu);
      this.rows?.A.touchAll(x);
    }
    if (matches) this.own.fill(0, 0, this.size);
    return loss;
  }

  /** ∂score(row j)/∂· times g: into gu, and into the row's gradient (or, for an own vector, straight into B). */
  private rowGradient(j: number, g: number, c: number, matches: Map<number, string[]> | undefined): void {
    const d = this.d;
    const m = this.model;
    if (this.own[j] === 1) {
      const ids = m.candidateIds(this.cand, c, matches);
      bagSum(m.B.data, d, ids, this.v);
      axpy(g, this.v, 0, this.gu, 0, d);
      this.gv.fill(0);
      axpy(g, this.u, 0, this.gv, 0, d);
      bagSumBackward(m.B.grad, d, ids, this.gv);
      this.rows?.B.touchAll(ids);
      return;
    }
    axpy(g, this.C, j * d, this.gu, 0, d);
    axpy(g, this.u, 0, this.gC, j * d, d);
  }

  /** B.grad from the set rows' gradients (after the batch's examples). */
  end(): void {
    const d = this.d;
    for (let j = 0; j < this.size; j++) {
      let nz = false;
      for (let q = j * d; q < j * d + d && !nz; q++) nz = this.gC[q] !== 0;
      if (!nz) continue;
      const ids = this.cand.index.ids[this.set[j] as number] as Int32Array;
      bagSumBackward(this.model.B.grad, d, ids, this.gC, j * d);
      this.rows?.B.touchAll(ids);
    }
  }
}
