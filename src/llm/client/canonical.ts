/**
 * Canonical JSON and the key of a chat request: the response cache (`cache.ts`) files a response
 * under the sha256 of the canonical JSON of the request body it answered (model, messages, tools,
 * every option), so the same request finds the same response whatever order its keys were built in.
 */
import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted (by UTF-16 code units) at every depth and no white space; `undefined`
 * members are dropped as `JSON.stringify` drops them. Non-finite numbers are written as `null`, as
 * `JSON.stringify` writes them.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [2, { d: 3, c: undefined }] }); // '{"a":[2,{"d":3}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : canonicalJson(v))).join(',')}]`;
  const o = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const k of Object.keys(o).sort()) {
    const v = o[k];
    if (v === undefined || typeof v === 'function') continue;
    parts.push(`${JSON.stringify(k)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/** The sha256 (hex) of a request body's canonical JSON: its cache key. */
export function requestKey(body: unknown): string {
  return keyOfCanonical(canonicalJson(body));
}

/** The cache key of a canonical JSON text already made (`requestKey` without making it again). */
export function keyOfCanonical(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex');
}
