/**
 * The differentiable side of the Soft-KB lookup, for the end-to-end agent (paper §4.4, eq. 20):
 * - the inform action draws its R results from the posterior p_T without replacement,
 *     Pr(μ = i_1..i_R) = ∏_k p_T(i_k) / (1 − Σ_{l<k} p_T(i_l))                          (20)
 *   (`sampleResults`, `resultsLogProb`), and the gradient of log Pr(μ) with respect to the row
 *   scores a_i (p_T = softmax(a)) is computed directly in that space (`resultsLogProbGradA`);
 * - the backward pass of eqs. 1–3 takes ∂L/∂a to ∂L/∂p_j (each slot's value distribution) and
 *   ∂L/∂q_j (`softLookupBackward`), so REINFORCE can train the belief tracker through the lookup.
 * A small uniform floor ε mixes into the sampling distribution (p' = (1 − ε)·p_T + ε/N) so that every
 * row keeps a non-zero probability and the log-probability stays finite.
 */
import type { Rng } from '../../../core/rng.js';
import type { MovieKb } from '../movie-kb.js';
import type { SlotBeliefs } from '../soft-kb.js';
import { M } from '../slots.js';

/** Default uniform floor ε of the sampling distribution.
 *
 * @example
 * ```ts
 * import { SAMPLE_FLOOR, sampleResults } from 'dialogym/infobot';
 * import { createRng } from 'dialogym';
 * sampleResults([0.7, 0.2, 0.1], 2, createRng(1), SAMPLE_FLOOR);
 * ```
 */
export const SAMPLE_FLOOR = 1e-4;

function floored(p: number, n: number, eps: number): number {
  return (1 - eps) * p + eps / n;
}

/** Draws R distinct rows from p' (eq. 20), in draw order.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { sampleResults } from 'dialogym/infobot';
 * sampleResults([0.7, 0.2, 0.05, 0.05], 2, createRng(3)); // e.g. [0, 1]
 * ```
 */
export function sampleResults(post: ArrayLike<number>, r: number, rng: Rng, eps = SAMPLE_FLOOR): number[] {
  const n = post.length;
  const chosen = new Uint8Array(n);
  const out: number[] = [];
  for (let k = 0; k < Math.min(r, n); k++) {
    let z = 0;
    for (let i = 0; i < n; i++) if (!chosen[i]) z += floored(post[i] as number, n, eps);
    let u = rng.next() * z;
    let pick = -1;
    for (let i = 0; i < n; i++) {
      if (chosen[i]) continue;
      pick = i;
      u -= floored(post[i] as number, n, eps);
      if (u < 0) break;
    }
    chosen[pick] = 1;
    out.push(pick);
  }
  return out;
}

/** log Pr(μ) under p' (eq. 20).
 *
 * @example
 * ```ts
 * import { resultsLogProb } from 'dialogym/infobot';
 * resultsLogProb([0.7, 0.2, 0.1], [0, 1]); // ≈ log(0.7 · 0.2 / 0.3)
 * ```
 */
export function resultsLogProb(post: ArrayLike<number>, results: readonly number[], eps = SAMPLE_FLOOR): number {
  const n = post.length;
  let rest = 0;
  for (let i = 0; i < n; i++) rest += floored(post[i] as number, n, eps);
  let lp = 0;
  for (const i of results) {
    const pi = floored(post[i] as number, n, eps);
    lp += Math.log(pi) - Math.log(rest);
    rest -= pi;
  }
  return lp;
}

/**
 * ∂ log Pr(μ) / ∂a_i for p_T = softmax(a), written into `out` (length N). With g = ∂logPr/∂p' and
 * p' = (1 − ε)p + ε/N: ∂/∂a = (1 − ε)·p ⊙ (g − Σ p·g). Returns log Pr(μ).
 *
 * @example
 * ```ts
 * import { resultsLogProbGradA } from 'dialogym/infobot';
 * const grad = new Float64Array(3);
 * const logPr = resultsLogProbGradA([0.7, 0.2, 0.1], [0, 1], grad);
 * ```
 */
export function resultsLogProbGradA(post: ArrayLike<number>, results: readonly number[], out: Float64Array, eps = SAMPLE_FLOOR): number {
  const n = post.length;
  let rest = 0;
  for (let i = 0; i < n; i++) rest += floored(post[i] as number, n, eps);
  // g_m = 1/p'_m (m = i_k) + Σ_{k' > k} 1/Z_{k'}, Z_{k'} = mass left before draw k'.
  const inv: number[] = [];
  let lp = 0;
  for (const i of results) {
    const pi = floored(post[i] as number, n, eps);
    lp += Math.log(pi) - Math.log(rest);
    inv.push(1 / rest);
    rest -= pi;
  }
  // ∂logPr/∂p'_m = 1{m = i_k}/p'_m − Σ_{k' ≤ k} 1/Z_{k'} for a drawn row (available up to its
  // draw), −Σ_k 1/Z_k for the others.
  const drawn = new Map<number, number>();
  results.forEach((i, k) => drawn.set(i, k));
  const cum: number[] = [];
  let acc = 0;
  for (const x of inv) cum.push((acc += x));
  let dot = 0;
  for (let m = 0; m < n; m++) {
    const k = drawn.get(m);
    const gm = k === undefined ? -acc : 1 / floored(post[m] as number, n, eps) - (cum[k] as number);
    out[m] = gm;
    dot += (post[m] as number) * gm;
  }
  for (let m = 0; m < n; m++) out[m] = (1 - eps) * (post[m] as number) * ((out[m] as number) - dot);
  return lp;
}

/**
 * Gradients of a loss with respect to the tracker's beliefs, as `softLookupBackward` returns them.
 *
 * @example
 * ```ts
 * import type { LookupGrads } from 'dialogym/infobot';
 * declare const g: LookupGrads;
 * g.dp[2]; // ∂L/∂p over the genres
 * ```
 */
export interface LookupGrads {
  /** ∂L/∂p_j(v) per slot. */
  readonly dp: Float64Array[];
  /** ∂L/∂q_j. */
  readonly dq: Float64Array;
}

/**
 * Backward of eqs. 1–3: from ∂L/∂a_i (a_i = Σ_j log Pr(G_j = i), p_T = softmax(a)) to ∂L/∂p_j and
 * ∂L/∂q_j. Rows missing slot j have the constant factor 1/N (no gradient).
 *
 * @example
 * ```ts
 * import { splitKbs, softLookupBackward, resultsLogProbGradA, softPosterior } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const beliefs = { p: kb.priors.map((p) => new Float64Array(p)), q: new Float64Array(6).fill(0.5) };
 * const da = new Float64Array(kb.n);
 * resultsLogProbGradA(softPosterior(kb, beliefs), [0, 1, 2, 3, 4], da);
 * const { dp, dq } = softLookupBackward(kb, beliefs, da);
 * ```
 */
export function softLookupBackward(kb: MovieKb, beliefs: SlotBeliefs, da: ArrayLike<number>): LookupGrads {
  const n = kb.n;
  const cells = kb.cells;
  const dL = kb.counts.map((c) => new Float64Array(c.length));
  for (let i = 0, c = 0; i < n; i++, c += M) {
    const g = da[i] as number;
    if (g === 0) continue;
    for (let j = 0; j < M; j++) {
      const v = cells[c + j] as number;
      if (v >= 0) (dL[j] as Float64Array)[v] = ((dL[j] as Float64Array)[v] as number) + g;
    }
  }
  const dp: Float64Array[] = [];
  const dq = new Float64Array(M);
  for (let j = 0; j < M; j++) {
    const counts = kb.counts[j] as Float64Array;
    const p = beliefs.p[j] as Float64Array;
    const q = beliefs.q[j] as number;
    const known = 1 - (kb.missing[j] as number) / n;
    const out = new Float64Array(counts.length);
    const d = dL[j] as Float64Array;
    let sq = 0;
    for (let v = 0; v < counts.length; v++) {
      const c = counts[v] as number;
      const g = d[v] as number;
      if (c <= 0 || g === 0) continue;
      const f = (1 - q) / n + (q * (p[v] as number) * known) / c;
      if (!(f > 1e-300)) continue;
      out[v] = (g * q * known) / c / f;
      sq += (g * ((p[v] as number) * known / c - 1 / n)) / f;
    }
    dp.push(out);
    dq[j] = sq;
  }
  return { dp, dq };
}
