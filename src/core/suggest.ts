/**
 * "Did you mean …?" for a mistyped name: the known name written the same but for case and
 * separators (`memn2n-match`, `MemN2N_match` → `memn2n+match`), else the one nearest by edit
 * distance when it is near enough to be a typo.
 */

/** The name without case and separators (`-`, `_`, `+`, spaces, dots). */
function squash(s: string): string {
  return s.toLowerCase().replace(/[-_+ .]/g, '');
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] as number;
}

/** The known name the user most likely meant, or undefined. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const s = squash(name);
  const same = known.find((k) => squash(k) === s);
  if (same !== undefined) return same;
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(s, squash(k));
    if (!best || d < best.d) best = { k, d };
  }
  return best && best.d <= Math.max(1, Math.floor(s.length / 4)) ? best.k : undefined;
}

/** ` (did you mean x?)` for a mistyped name, or the empty string. */
export function didYouMean(name: string, known: readonly string[]): string {
  const c = closestName(name, known);
  return c === undefined || c === name ? '' : ` — did you mean ${c}?`;
}
