/**
 * Soft-KB lookup (paper §3.3, eqs. 1–3) and the summary statistics of the dialog state (eq. 8).
 *
 * Given slot beliefs p_j (a distribution over slot j's values) and q_j (the probability that the user
 * knows slot j), the posterior over KB rows is
 *   p_T(i) ∝ ∏_j Pr(G_j = i)                                                       (1)
 *   Pr(G_j = i) = (1 − q_j) · 1/N + q_j · Pr(G_j = i | Φ_j = 1)                     (2)
 *   Pr(G_j = i | Φ_j = 1) = 1/N                                  if T_ij is missing
 *                         = p_j(T_ij) · (1 − |M_j|/N) / N_j(T_ij)  otherwise          (3)
 * with N_j(v) the rows holding v and |M_j| the rows missing slot j. Everything is computed in log
 * space, O(N·M) per call. All entropies are in bits.
 */
import type { MovieKb } from './movie-kb.js';
import { MISSING } from './movie-kb.js';
import { M } from './slots.js';

/** Slot beliefs: p[j] over slot j's vocabulary (sums to 1), q[j] ∈ [0, 1].
 *
 * @example
 * ```ts
 * import { splitKbs, type SlotBeliefs } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const beliefs: SlotBeliefs = { p: kb.priors.map((p) => new Float64Array(p)), q: new Float64Array(6).fill(1) };
 * ```
 */
export interface SlotBeliefs {
  readonly p: readonly Float64Array[];
  readonly q: ArrayLike<number>;
}

const TINY = 1e-300;

/**
 * Per-slot, per-value log factors log Pr(G_j = i) for rows holding value v, written to `out[offset + v]`
 * (0 for values no row holds); returns the missing factor log(1/N).
 */
function slotFactorsInto(kb: MovieKb, beliefs: SlotBeliefs, j: number, out: Float64Array, offset: number): number {
  const n = kb.n;
  const counts = kb.counts[j] as Float64Array;
  const p = beliefs.p[j] as Float64Array;
  const q = beliefs.q[j] as number;
  const known = 1 - (kb.missing[j] as number) / n;
  for (let v = 0; v < counts.length; v++) {
    const c = counts[v] as number;
    out[offset + v] = c > 0 ? Math.log(Math.max(TINY, (1 - q) / n + (q * (p[v] as number) * known) / c)) : 0;
  }
  return Math.log(1 / n);
}

/** Per-slot, per-value factors Pr(G_j = i) for rows holding value v; index V_j is the missing factor. */
function slotFactors(kb: MovieKb, beliefs: SlotBeliefs, j: number): Float64Array {
  const len = (kb.counts[j] as Float64Array).length;
  const out = new Float64Array(len + 1);
  out[len] = slotFactorsInto(kb, beliefs, j, out, 0);
  return out;
}

/** The KB posterior p_T over rows (eq. 1), written into `out` if given. Sums to 1.
 *
 * @example
 * ```ts
 * import { splitKbs, HandCraftedTracker, ValueIndex, softPosterior } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const tracker = new HandCraftedTracker(kb, new ValueIndex(kb.vocab));
 * tracker.update('i am looking for a comedy', null);
 * const pT = softPosterior(kb, tracker.beliefs); // one probability per movie
 * ```
 */
export function softPosterior(kb: MovieKb, beliefs: SlotBeliefs, out: Float64Array = new Float64Array(kb.n)): Float64Array {
  const n = kb.n;
  const cells = kb.cells;
  // Factor tables with the missing factor moved to index 0 (cell value + 1), read row by row.
  const f: Float64Array[] = [];
  for (let j = 0; j < M; j++) {
    const raw = slotFactors(kb, beliefs, j);
    const t = new Float64Array(raw.length);
    t[0] = raw[raw.length - 1] as number;
    t.set(raw.subarray(0, raw.length - 1), 1);
    f.push(t);
  }
  const [f0, f1, f2, f3, f4, f5] = f as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  let max = -Infinity;
  for (let i = 0, c = 0; i < n; i++, c += M) {
    const x =
      (f0[(cells[c] as number) + 1] as number) +
      (f1[(cells[c + 1] as number) + 1] as number) +
      (f2[(cells[c + 2] as number) + 1] as number) +
      (f3[(cells[c + 3] as number) + 1] as number) +
      (f4[(cells[c + 4] as number) + 1] as number) +
      (f5[(cells[c + 5] as number) + 1] as number);
    out[i] = x;
    if (x > max) max = x;
  }
  let z = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp((out[i] as number) - max);
    out[i] = e;
    z += e;
  }
  const inv = 1 / z;
  for (let i = 0; i < n; i++) out[i] = (out[i] as number) * inv;
  return out;
}

/** Entropy in bits of a distribution (zeros contribute nothing).
 *
 * @example
 * ```ts
 * import { entropy } from 'dialogym/infobot';
 * entropy([0.5, 0.5]);    // 1
 * entropy([1, 0, 0, 0]);  // 0
 * ```
 */
export function entropy(p: ArrayLike<number>): number {
  let h = 0;
  for (let i = 0; i < p.length; i++) {
    const x = p[i] as number;
    if (x > 0) h -= x * Math.log2(x);
  }
  return h;
}

/** Normalises a non-negative vector to sum 1 (uniform if it sums to 0).
 *
 * @example
 * ```ts
 * import { normalize } from 'dialogym/infobot';
 * normalize(new Float64Array([1, 3])); // Float64Array [0.25, 0.75] (in place)
 * ```
 */
export function normalize(v: Float64Array): Float64Array {
  let s = 0;
  for (const x of v) s += x;
  if (s > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / s;
  else v.fill(1 / v.length);
  return v;
}

/**
 * p̃_j: the distribution over slot j's values induced by the posterior: the mass of the rows holding
 * each value, with the mass of rows missing slot j spread by the prior p_j^0.
 *
 * @example
 * ```ts
 * import { splitKbs, projectedSlot, softPosterior, HandCraftedTracker, ValueIndex } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const tracker = new HandCraftedTracker(kb, new ValueIndex(kb.vocab));
 * const genre = projectedSlot(kb, softPosterior(kb, tracker.beliefs), 2); // one probability per genre
 * ```
 */
export function projectedSlot(kb: MovieKb, posterior: ArrayLike<number>, j: number): Float64Array {
  const prior = kb.priors[j] as Float64Array;
  const out = new Float64Array(prior.length);
  let unk = 0;
  for (let i = 0; i < kb.n; i++) {
    const x = kb.cells[i * M + j] as number;
    if (x === MISSING) unk += posterior[i] as number;
    else out[x] = (out[x] as number) + (posterior[i] as number);
  }
  if (unk > 0) for (let v = 0; v < out.length; v++) out[v] = (out[v] as number) + unk * (prior[v] as number);
  return normalize(out);
}

/** H(p̃_j) for every slot.
 *
 * @example
 * ```ts
 * import { splitKbs, projectedEntropies } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * projectedEntropies(kb, new Float64Array(kb.n).fill(1 / kb.n)); // six entropies in bits
 * ```
 */
export function projectedEntropies(kb: MovieKb, posterior: ArrayLike<number>): Float64Array {
  const out = new Float64Array(M);
  for (let j = 0; j < M; j++) out[j] = entropy(projectedSlot(kb, posterior, j));
  return out;
}

/** Size of the summary statistics vector: 3M + 1.
 *
 * @example
 * ```ts
 * import { SUMMARY_SIZE } from 'dialogym/infobot';
 * SUMMARY_SIZE; // 19
 * ```
 */
export const SUMMARY_SIZE = 3 * M + 1;

/**
 * Summary statistics of the dialog state (eq. 8, with the official code's "entropy" input):
 * [H(p̃_1..M), q_1..M, one-hot of the slot requested last turn (zeros if none), H(p_T)]. The RL
 * agents build their own, larger input (`FEATURE_SIZE`), not this one.
 *
 * @example
 * ```ts
 * import { splitKbs, summaryStatistics, softPosterior, HandCraftedTracker, ValueIndex } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const t = new HandCraftedTracker(kb, new ValueIndex(kb.vocab));
 * const s = summaryStatistics(kb, t.beliefs, softPosterior(kb, t.beliefs), null); // SUMMARY_SIZE values
 * ```
 */
export function summaryStatistics(kb: MovieKb, beliefs: SlotBeliefs, posterior: ArrayLike<number>, lastRequest: number | null): Float32Array {
  const s = new Float32Array(SUMMARY_SIZE);
  const h = projectedEntropies(kb, posterior);
  for (let j = 0; j < M; j++) {
    s[j] = h[j] as number;
    s[M + j] = beliefs.q[j] as number;
  }
  if (lastRequest !== null) s[2 * M + lastRequest] = 1;
  s[3 * M] = entropy(posterior);
  return s;
}

/** Indices of the k highest-scoring rows, best first; ties broken by `tiebreak` (higher first).
 *
 * @example
 * ```ts
 * import { topK } from 'dialogym/infobot';
 * topK([0.1, 0.5, 0.5, 0.2], 2);                 // [1, 2]: ties by index
 * topK([0.1, 0.5, 0.5, 0.2], 2, [0, 0, 1, 0]);   // [2, 1]
 * ```
 */
export function topK(scores: ArrayLike<number>, k: number, tiebreak?: ArrayLike<number>): number[] {
  const best: number[] = [];
  const better = (a: number, b: number): boolean => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    if (sa !== sb) return sa > sb;
    if (tiebreak) return (tiebreak[a] as number) > (tiebreak[b] as number);
    return a < b;
  };
  for (let i = 0; i < scores.length; i++) {
    if (best.length === k && !better(i, best[k - 1] as number)) continue;
    let pos = best.length === k ? k - 1 : best.length;
    if (best.length < k) best.push(i);
    while (pos > 0 && better(i, best[pos - 1] as number)) {
      best[pos] = best[pos - 1] as number;
      pos--;
    }
    best[pos] = i;
  }
  return best;
}

/**
 * The row pass of `SoftLookup.update` (a separate function so that it is optimised on its own): per
 * row the product of the scaled factors w (written to `post`), and the sums Σw, Σw·(log-factor sum)
 * and, per slot and cell value, Σw (`mass`, index = cell value + 1).
 */
function accumulateRows(cells: Int32Array, n: number, post: Float64Array, linF: readonly Float64Array[], logF: readonly Float64Array[], mass: readonly Float64Array[]): [number, number] {
  const l0 = linF[0] as Float64Array;
  const l1 = linF[1] as Float64Array;
  const l2 = linF[2] as Float64Array;
  const l3 = linF[3] as Float64Array;
  const l4 = linF[4] as Float64Array;
  const l5 = linF[5] as Float64Array;
  const g0 = logF[0] as Float64Array;
  const g1 = logF[1] as Float64Array;
  const g2 = logF[2] as Float64Array;
  const g3 = logF[3] as Float64Array;
  const g4 = logF[4] as Float64Array;
  const g5 = logF[5] as Float64Array;
  const m0 = mass[0] as Float64Array;
  const m1 = mass[1] as Float64Array;
  const m2 = mass[2] as Float64Array;
  const m3 = mass[3] as Float64Array;
  const m4 = mass[4] as Float64Array;
  const m5 = mass[5] as Float64Array;
  let z = 0;
  let zs = 0;
  for (let i = 0, c = 0; i < n; i++, c += 6) {
    const a0 = (cells[c] as number) + 1;
    const a1 = (cells[c + 1] as number) + 1;
    const a2 = (cells[c + 2] as number) + 1;
    const a3 = (cells[c + 3] as number) + 1;
    const a4 = (cells[c + 4] as number) + 1;
    const a5 = (cells[c + 5] as number) + 1;
    const w = (l0[a0] as number) * (l1[a1] as number) * (l2[a2] as number) * (l3[a3] as number) * (l4[a4] as number) * (l5[a5] as number);
    post[i] = w;
    z += w;
    zs += w * ((g0[a0] as number) + (g1[a1] as number) + (g2[a2] as number) + (g3[a3] as number) + (g4[a4] as number) + (g5[a5] as number));
    m0[a0] = (m0[a0] as number) + w;
    m1[a1] = (m1[a1] as number) + w;
    m2[a2] = (m2[a2] as number) + w;
    m3[a3] = (m3[a3] as number) + w;
    m4[a4] = (m4[a4] as number) + w;
    m5[a5] = (m5[a5] as number) + w;
  }
  return [z, zs];
}

/**
 * The soft lookup and its summary statistics in one pass over the KB, with buffers reused across
 * turns (the hot loop of every Soft-KB agent). Per slot, the factors of eq. 2–3 are scaled by their
 * largest value and exponentiated once; each row then costs M table lookups and products, no
 * transcendental function. Gives the same posterior as `softPosterior` (to rounding), and in the same
 * pass the posterior entropy and the projected slot distributions p̃_j. If the scaled products
 * underflow (extreme beliefs), falls back to the log-space computation.
 *
 * @example
 * ```ts
 * import { splitKbs, HandCraftedTracker, ValueIndex, SoftLookup } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const tracker = new HandCraftedTracker(kb, new ValueIndex(kb.vocab));
 * tracker.update('i am looking for a comedy', null);
 * const lookup = new SoftLookup(kb).update(tracker.beliefs);
 * console.log(lookup.posteriorEntropy, lookup.slotEntropies, lookup.posterior.length);
 * ```
 */
export class SoftLookup {
  /** H(p̃_j) per slot, in bits. */
  readonly slotEntropies = new Float64Array(M);
  /** H(p_T) in bits. */
  posteriorEntropy = 0;
  /** Row weights of the last update (p_T up to the factor `inv`), or p_T itself when `normalized`. */
  private readonly weights: Float64Array;
  private inv = 1;
  private normalized = true;
  private readonly logF: Float64Array[];
  private readonly linF: Float64Array[];
  private readonly mass: Float64Array[];
  private readonly proj: Float64Array[];

  constructor(readonly kb: MovieKb) {
    this.weights = new Float64Array(kb.n);
    this.logF = kb.counts.map((c) => new Float64Array(c.length + 1));
    this.linF = kb.counts.map((c) => new Float64Array(c.length + 1));
    this.mass = kb.counts.map((c) => new Float64Array(c.length + 1));
    this.proj = kb.counts.map((c) => new Float64Array(c.length));
  }

  /** p_T, the posterior over rows (sums to 1); normalised on first read after an update. */
  get posterior(): Float64Array {
    if (!this.normalized) {
      const w = this.weights;
      const inv = this.inv;
      for (let i = 0; i < w.length; i++) w[i] = (w[i] as number) * inv;
      this.normalized = true;
    }
    return this.weights;
  }

  /** Recomputes everything for new beliefs; returns this. */
  update(beliefs: SlotBeliefs): this {
    const kb = this.kb;
    const n = kb.n;
    let shift = 0;
    for (let j = 0; j < M; j++) {
      const lf = this.logF[j] as Float64Array;
      const counts = kb.counts[j] as Float64Array;
      // Log factors at 1..V_j (cell value + 1), the missing factor at 0.
      lf[0] = slotFactorsInto(kb, beliefs, j, lf, 1);
      let max = (kb.missing[j] as number) > 0 ? (lf[0] as number) : -Infinity;
      for (let v = 0; v < counts.length; v++) {
        const x = lf[v + 1] as number;
        if ((counts[v] as number) > 0 && x > max) max = x;
      }
      const lin = this.linF[j] as Float64Array;
      for (let v = 0; v < lf.length; v++) lin[v] = Math.exp((lf[v] as number) - max);
      shift += max;
      (this.mass[j] as Float64Array).fill(0);
    }
    const [z, zs] = accumulateRows(kb.cells, n, this.weights, this.linF, this.logF, this.mass);
    if (!(z > 1e-250) || !Number.isFinite(z)) return this.slowUpdate(beliefs);
    const inv = 1 / z;
    this.inv = inv;
    this.normalized = false;
    this.posteriorEntropy = Math.max(0, (Math.log(z) + shift - zs * inv) / Math.LN2);
    for (let j = 0; j < M; j++) this.slotEntropies[j] = entropy(this.project(j, inv));
    return this;
  }

  /** p̃_j from the accumulated masses (scaled by `inv`). */
  private project(j: number, inv: number): Float64Array {
    const m = this.mass[j] as Float64Array;
    const out = this.proj[j] as Float64Array;
    const prior = this.kb.priors[j] as Float64Array;
    const unk = (m[0] as number) * inv;
    for (let v = 0; v < out.length; v++) out[v] = (m[v + 1] as number) * inv + unk * (prior[v] as number);
    return normalize(out);
  }

  private slowUpdate(beliefs: SlotBeliefs): this {
    softPosterior(this.kb, beliefs, this.weights);
    this.normalized = true;
    this.posteriorEntropy = entropy(this.weights);
    this.slotEntropies.set(projectedEntropies(this.kb, this.weights));
    return this;
  }

  /** p̃_j of the last update. */
  projected(j: number): Float64Array {
    return this.proj[j] as Float64Array;
  }
}

/**
 * The k highest-scoring rows, best first, with exact ties in random order (drawn from `rng` only for
 * the tied rows, so the cost does not grow with the KB).
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { topKRandomTies } from 'dialogym/infobot';
 * topKRandomTies([0.5, 0.5, 0.5, 0.1], 2, createRng(1)); // two of rows 0-2, in random order
 * ```
 */
export function topKRandomTies(scores: ArrayLike<number>, k: number, rng: { next(): number }): number[] {
  const n = scores.length;
  if (n === 0 || k <= 0) return [];
  const top = topK(scores, Math.min(k, n));
  const threshold = scores[top[top.length - 1] as number] as number;
  // Every row tied with the k-th score competes for the remaining places.
  const above: number[] = [];
  const tied: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = scores[i] as number;
    if (s > threshold) above.push(i);
    else if (s === threshold) tied.push(i);
  }
  // Rows above the threshold (fewer than k): by score, random among equal scores.
  const out = above
    .map((i) => ({ i, s: scores[i] as number, r: rng.next() }))
    .sort((x, y) => y.s - x.s || y.r - x.r)
    .map((x) => x.i);
  // Then a random draw of the tied rows (partial Fisher–Yates), in random order.
  const need = Math.min(k - out.length, tied.length);
  for (let d = 0; d < need; d++) {
    const pick = d + Math.floor(rng.next() * (tied.length - d));
    const x = tied[pick] as number;
    tied[pick] = tied[d] as number;
    tied[d] = x;
    out.push(x);
  }
  return out;
}
