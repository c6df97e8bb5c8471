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
  const matches = new Array<number>(maxOrder).fill(0);
  const possible = new Array<number>(maxOrder).fill(0);
  let refLen = 0;
  let transLen = 0;
  translations.forEach((tr, i) => {
    const refs = references[i] ?? [];
    refLen += refs.length > 0 ? Math.min(...refs.map((r) => r.length)) : 0;
    transLen += tr.length;
    const merged = new Map<string, number>();
    for (const r of refs) for (const [k, c] of ngrams(r, maxOrder)) merged.set(k, Math.max(merged.get(k) ?? 0, c));
    for (const [k, c] of ngrams(tr, maxOrder)) {
      const o = Number(k.slice(0, k.indexOf('\u0000')));
      matches[o - 1] = matches[o - 1]! + Math.min(c, merged.get(k) ?? 0);
    }
    for (let order = 1; order <= maxOrder; order++) {
      const p = tr.length - order + 1;
      if (p > 0) possible[order - 1] = possible[order - 1]! + p;
    }
  });
  const precisions = matches.map((m, i) => (smooth ? (m + 1) / (possible[i]! + 1) : possible[i]! > 0 ? m / possible[i]! : 0));
  const geo = Math.min(...precisions) > 0 ? Math.exp(precisions.reduce((s, p) => s + Math.log(p) / maxOrder, 0)) : 0;
  const ratio = refLen > 0 ? transLen / refLen : 0;
  const bp = ratio > 1 ? 1 : ratio > 0 ? Math.exp(1 - 1 / ratio) : 0;
  return { bleu: geo * bp, precisions, brevityPenalty: bp, ratio, translationLength: transLen, referenceLength: refLen };
}
