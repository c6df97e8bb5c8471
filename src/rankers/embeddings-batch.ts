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
import { axpy, bagSum, bagSumBackward, bagSumBackwardWeighted, bagSumWeighted, dot, matVec } from '../nn/kernels.js';
import { marginRanking } from '../nn/losses.js';
import type { TouchedRows } from '../nn/sparse-rows.js';
import { WasmMatVec } from '../nn/wasm.js';
import type { Embeddings } from './embeddings.js';

type CandEntry = ReturnType<Embeddings['candidates']>;

/**
 * A bag of word ids as its distinct ids (in order of first occurrence) and their counts: the same
 * bag sum in fewer row reads (a dialog history repeats its words about twice on task 5).
 */
export function bagCounts(x: Int32Array): { ids: Int32Array; counts: Float32Array } {
  const at = new Map<number, number>();
  const ids: number[] = [];
  const counts: number[] = [];
  for (const id of x) {
    const k = at.get(id);
    if (k === undefined) {
      at.set(id, ids.length);
      ids.push(id);
      counts.push(1);
    } else counts[k] = (counts[k] as number) + 1;
  }
  return { ids: Int32Array.from(ids), counts: Float32Array.from(counts) };
}

export class SharedNegativesBatch {
  private readonly d: number;
  private readonly n: number;
  /** Candidate → its row in the batch's set, or −1. */
  private readonly posInS: Int32Array;
  private readonly set: Int32Array;
  private size = 0;
  private readonly C: Float32Array;
  private readonly kernel: WasmMatVec | undefined;
  private readonly gC: Float32Array;
  private readonly scores: Float32Array;
  private readonly negScores: Float32Array;
  private readonly gNeg: Float32Array;
  private readonly negRow: Int32Array;
  private readonly u: Float32Array;
  private readonly gu: Float32Array;
  private readonly v: Float32Array;
  /** Set rows scored with their own vector in the current example (matched types): row → number of matched type rows (in `ownRows`). */
  private readonly own: Uint8Array;
  /** Per set row, the vocabulary rows of its matched types (up to `types` per row). */
  private readonly ownRows: Int32Array;
  private readonly types: number;
  /** The current example's context: typed-word slot → 1. */
  private readonly present: Uint8Array;

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
    // The set's candidate vectors in WebAssembly memory for the float32-lane product (dims 32 and 64).
    this.kernel = WasmMatVec.create(this.n, this.d, true);
    this.C = this.kernel ? this.kernel.data : new Float32Array(this.n * this.d);
    this.gC = new Float32Array(this.n * this.d);
    this.scores = new Float32Array(this.n);
    this.negScores = new Float32Array(this.n);
    this.gNeg = new Float32Array(this.n);
    this.negRow = new Int32Array(this.n);
    this.u = new Float32Array(this.d);
    this.gu = new Float32Array(this.d);
    this.v = new Float32Array(this.d);
    this.own = new Uint8Array(this.n);
    this.types = cand.typeRow.length;
    this.ownRows = new Int32Array(this.n * this.types);
    this.present = new Uint8Array(cand.index.slots);
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

  /**
   * Margin ranking loss of one example against the set (its own response left out); accumulates
   * gradients. `slots`: the typed-word slots of the example's dialog (`Embeddings.encode`), or
   * undefined without match types; `counts`: x as distinct ids with their counts (`bagCounts`),
   * or undefined (x as it is).
   */
  example(x: Int32Array, target: number, slots: Int32Array | undefined, counts?: Float32Array): number {
    const d = this.d;
    const m = this.model;
    const u = this.u;
    if (counts) bagSumWeighted(m.A.data, d, x, counts, u);
    else bagSum(m.A.data, d, x, u);
    const scores = this.scores;
    if (this.kernel) this.kernel.matVec(u, scores, this.size);
    else matVec(this.C, this.size, d, u, scores);
    if (slots && slots.length > 0) {
      for (const s of slots) this.present[s] = 1;
      const B = m.B.data;
      for (let j = 0; j < this.size; j++) {
        const k = m.matchedRows(this.cand, this.set[j] as number, this.present);
        if (k === 0) continue;
        // Its words' vector plus its matched type rows: bagSum of [ids…, type rows…], in that order.
        const v = this.v;
        v.set(this.C.subarray(j * d, j * d + d));
        for (let i = 0; i < k; i++) {
          const r = this.cand.typesOut[i] as number;
          this.ownRows[j * this.types + i] = r;
          if (r >= 0) for (let q = 0; q < d; q++) v[q] = (v[q] as number) + (B[r * d + q] as number);
        }
        scores[j] = dot(v, 0, u, 0, d);
        this.own[j] = k;
      }
      for (const s of slots) this.present[s] = 0;
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
      this.rowGradient(p, gradPos);
      for (let i = 0; i < k; i++) {
        const g = this.gNeg[i] as number;
        if (g !== 0) this.rowGradient(this.negRow[i] as number, g);
      }
      if (counts) bagSumBackwardWeighted(m.A.grad, d, x, counts, gu);
      else bagSumBackward(m.A.grad, d, x, gu);
      this.rows?.A.touchAll(x);
    }
    if (slots) this.own.fill(0, 0, this.size);
    return loss;
  }

  /** ∂score(row j)/∂· times g: into gu, and into the row's gradient (and, for an own vector, its type rows straight into B). */
  private rowGradient(j: number, g: number): void {
    const d = this.d;
    const k = this.own[j] as number;
    if (k > 0) {
      // The own vector is C[j] + Σ B[type rows]: the same gradient g·u into the set row and into each type row.
      const m = this.model;
      const B = m.B.data;
      const gB = m.B.grad;
      const v = this.v;
      v.set(this.C.subarray(j * d, j * d + d));
      for (let i = 0; i < k; i++) {
        const r = this.ownRows[j * this.types + i] as number;
        if (r >= 0) for (let q = 0; q < d; q++) v[q] = (v[q] as number) + (B[r * d + q] as number);
      }
      axpy(g, v, 0, this.gu, 0, d);
      for (let i = 0; i < k; i++) {
        const r = this.ownRows[j * this.types + i] as number;
        if (r < 0) continue;
        axpy(g, this.u, 0, gB, r * d, d);
        this.rows?.B.touch(r);
      }
      axpy(g, this.u, 0, this.gC, j * d, d);
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
