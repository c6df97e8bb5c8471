/**
 * A failure's `detail` in words (internal): what `evaluate --show-failures` and the testbeds'
 * person views (`person.ts`: an ended episode's outcome) say of why an episode failed.
 */

/** `v` as short JSON (at most 400 characters). */
export function shortJson(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 400 ? `${s.slice(0, 399)}…` : s;
}

/**
 * What a failure's detail says in words, when it has the shapes the environments use: `why` (the
 * AirDialogue customer), `expected` / `got` values (restaurant: `information`, `option order`) or
 * slot maps (restaurant: `api_call`, only the slots that differ).
 */
export function detailInWords(detail: unknown): string | undefined {
  if (typeof detail !== 'object' || detail === null) return undefined;
  const d = detail as { why?: unknown; expected?: unknown; got?: unknown };
  if (typeof d.why === 'string') return d.why;
  if (!('expected' in d) || !('got' in d)) return undefined;
  const { expected, got } = d;
  const isMap = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (isMap(expected) && isMap(got)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(got)])].filter((k) => JSON.stringify(expected[k]) !== JSON.stringify(got[k]));
    return keys.length === 0 ? undefined : keys.map((k) => `${k}: got ${shortJson(got[k] ?? null)}, expected ${shortJson(expected[k] ?? null)}`).join('; ');
  }
  return `got ${shortJson(got)}, expected ${shortJson(expected)}`;
}
