/**
 * Corpus BLEU as the official AirDialogue evaluator computes it (google/airdialogue
 * `airdialogue/evaluator/metrics/bleu.py`, `compute_bleu`, ≈l.45-110, itself the TensorFlow NMT
 * script): n-gram matches clipped by the union (max counts) of a segment's references, summed
 * over the corpus per order; precision per order (optionally Lin & Och's +1 smoothing); the
 * geometric mean is 0 when any precision is 0; brevity penalty exp(1 − r/c) from the summed
 * shortest-reference lengths r and translation lengths c (1 when c > r).
 */

/**
 * BLEU and its parts, as `compute_bleu` returns them.
 *
 * @example
 * ```ts
 * import { corpusBleu, type BleuResult } from 'dialogym/airdialogue';
 * const r: BleuResult = corpusBleu([[['a', 'b']]], [['a', 'b']]);
 * console.log(r.bleu, r.precisions, r.brevityPenalty);
 * ```
 */
export interface BleuResult {
  readonly bleu: number;
  readonly precisions: readonly number[];
  readonly brevityPenalty: number;
  readonly ratio: number;
  readonly translationLength: number;
  readonly referenceLength: number;
}

function ngrams(seg: readonly string[], maxOrder: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let order = 1; order <= maxOrder; order++) {
    for (let i = 0; i + order <= seg.length; i++) {
      const k = `${order}\u0000${seg.slice(i, i + order).join('\u0001')}`;
      m.set(k, (m.get(k) ?? 0) + 1);
    }
  }
  return m;
}

/**
 * The sums corpus BLEU is computed from (`compute_bleu`'s `matches_by_order`,
 * `possible_matches_by_order`, `reference_length`, `translation_length`): add segments one at a
 * time (`addBleuSegment`), then `bleuOf`. Sums of two corpora add up (`mergeBleuStats`).
 *
 * @example
 * ```ts
 * import { addBleuSegment, bleuOf, emptyBleuStats, type BleuStats } from 'dialogym/airdialogue';
 * const s: BleuStats = emptyBleuStats();
 * addBleuSegment(s, [['the', 'flight', 'is', 'booked']], ['the', 'flight', 'is', 'booked']);
 * bleuOf(s).bleu; // 1
 * ```
 */
export interface BleuStats {
  readonly matches: number[];
  readonly possible: number[];
  referenceLength: number;
  translationLength: number;
}

/**
 * Empty BLEU sums for n-grams up to `maxOrder` (default 4).
 *
 * @example
 * ```ts
 * import { emptyBleuStats } from 'dialogym/airdialogue';
 * const s = emptyBleuStats(); // s.matches: [0, 0, 0, 0]
 * ```
 */
export function emptyBleuStats(maxOrder = 4): BleuStats {
  return { matches: new Array<number>(maxOrder).fill(0), possible: new Array<number>(maxOrder).fill(0), referenceLength: 0, translationLength: 0 };
}

/**
 * Adds one segment (its references and its translation) to BLEU sums `s` (in place; returns `s`).
 *
 * @example
 * ```ts
 * import { addBleuSegment, emptyBleuStats } from 'dialogym/airdialogue';
 * const s = addBleuSegment(emptyBleuStats(), [['a', 'b', 'c']], ['a', 'b']);
 * ```
 */
export function addBleuSegment(s: BleuStats, refs: readonly (readonly string[])[], tr: readonly string[]): BleuStats {
  const maxOrder = s.matches.length;
  s.referenceLength += refs.length > 0 ? Math.min(...refs.map((r) => r.length)) : 0;
  s.translationLength += tr.length;
  const merged = new Map<string, number>();
  for (const r of refs) for (const [k, c] of ngrams(r, maxOrder)) merged.set(k, Math.max(merged.get(k) ?? 0, c));
  for (const [k, c] of ngrams(tr, maxOrder)) {
    const o = Number(k.slice(0, k.indexOf('\u0000')));
    s.matches[o - 1] = s.matches[o - 1]! + Math.min(c, merged.get(k) ?? 0);
  }
  for (let order = 1; order <= maxOrder; order++) {
    const p = tr.length - order + 1;
    if (p > 0) s.possible[order - 1] = s.possible[order - 1]! + p;
  }
  return s;
}

/**
 * The sums of two corpora: the BLEU sums of both together.
 *
 * @example
 * ```ts
 * import { addBleuSegment, bleuOf, emptyBleuStats, mergeBleuStats } from 'dialogym/airdialogue';
 * const a = addBleuSegment(emptyBleuStats(), [['a', 'b']], ['a', 'b']);
 * const b = addBleuSegment(emptyBleuStats(), [['c', 'd']], ['c', 'x']);
 * bleuOf(mergeBleuStats(a, b));
 * ```
 */
export function mergeBleuStats(a: BleuStats, b: BleuStats): BleuStats {
  return {
    matches: a.matches.map((m, i) => m + (b.matches[i] ?? 0)),
    possible: a.possible.map((p, i) => p + (b.possible[i] ?? 0)),
    referenceLength: a.referenceLength + b.referenceLength,
    translationLength: a.translationLength + b.translationLength,
  };
}

/**
 * BLEU from its sums, as `compute_bleu` ends (module description; `smooth`: Lin & Och's +1).
 *
 * @example
 * ```ts
 * import { addBleuSegment, bleuOf, emptyBleuStats } from 'dialogym/airdialogue';
 * bleuOf(addBleuSegment(emptyBleuStats(), [['a', 'b', 'c', 'd']], ['a', 'b', 'c', 'd'])).bleu; // 1
 * ```
 */
export function bleuOf(s: BleuStats, smooth = false): BleuResult {
  const maxOrder = s.matches.length;
  const precisions = s.matches.map((m, i) => (smooth ? (m + 1) / (s.possible[i]! + 1) : s.possible[i]! > 0 ? m / s.possible[i]! : 0));
  const geo = Math.min(...precisions) > 0 ? Math.exp(precisions.reduce((a, p) => a + Math.log(p) / maxOrder, 0)) : 0;
  const ratio = s.referenceLength > 0 ? s.translationLength / s.referenceLength : 0;
  const bp = ratio > 1 ? 1 : ratio > 0 ? Math.exp(1 - 1 / ratio) : 0;
  return { bleu: geo * bp, precisions, brevityPenalty: bp, ratio, translationLength: s.translationLength, referenceLength: s.referenceLength };
}

/**
 * Corpus BLEU of `translations` (token lists) against `references` (per segment, one or more
 * token lists), as the official `bleu.py` (module description). With no translation words at all
 * the ratio is 0 and BLEU 0.
 *
 * @example
 * ```ts
 * import { corpusBleu } from 'dialogym/airdialogue';
 * corpusBleu([[['the', 'flight', 'is', 'booked']]], [['the', 'flight', 'is', 'booked']]).bleu; // 1
 * ```
 */
export function corpusBleu(references: readonly (readonly (readonly string[])[])[], translations: readonly (readonly string[])[], maxOrder = 4, smooth = false): BleuResult {
  const s = emptyBleuStats(maxOrder);
  translations.forEach((tr, i) => addBleuSegment(s, references[i] ?? [], tr));
  return bleuOf(s, smooth);
}
