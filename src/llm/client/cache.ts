/**
 * The response cache of `--cache <dir>`: one JSON file per answered request, named by the request's
 * key (`canonical.ts`: sha256 of the canonical request body) in a folder of its first two hex
 * digits — `<dir>/3f/3fa2….json` holding `{key, response, latencyMs, digest}`, `digest` being the
 * sha256 of the canonical JSON of `response`. Written atomically (temp file + rename), so a killed
 * run leaves whole entries only; a finished run replays offline from it. Every entry is checked as
 * it is read — JSON, its key, its latency, the digest of its response, a response the client can
 * read — and any corruption is refused the same way: one line naming the file and what is wrong,
 * and that deleting the file asks the endpoint again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, FormatError } from '../../core/errors.js';
import { makeFolders, writeFileAtomic } from '../../core/files.js';
import { canonicalJson } from './canonical.js';

/** A cached answer: the response body as the server sent it and how long the request took then. */
export interface CachedResponse {
  readonly key: string;
  readonly response: unknown;
  readonly latencyMs: number;
  /** sha256 (hex) of the canonical JSON of `response`. */
  readonly digest: string;
}

/** The digest a cache entry stores with its response. */
export function responseDigest(response: unknown): string {
  return createHash('sha256').update(canonicalJson(response)).digest('hex');
}

/**
 * A folder of cached responses (module description above). The folder is created when missing; a
 * path that is a file is a ConfigError; a cache file that is not an entry is a FormatError naming it.
 *
 * @example
 * ```ts
 * import { LlmClient, ResponseCache } from 'dialogym';
 * const cache = new ResponseCache('runs/cache');
 * const llm = new LlmClient({ model: 'm', baseUrl: 'http://localhost:8080/v1', cache });
 * await llm.chat({ messages: [{ role: 'user', content: 'hi' }] }); // asked once, then read from runs/cache
 * ```
 */
export class ResponseCache {
  constructor(readonly dir: string) {
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ConfigError(`${dir} is not a folder`, { option: 'cache' });
    makeFolders(dir);
  }

  /** The file of a key. */
  fileOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /**
   * The cached answer of `key`, or undefined when there is none. `check` says what is wrong with a
   * response the caller cannot use (undefined: nothing). A corrupt entry is a FormatError naming the
   * file (module description).
   */
  get(key: string, check?: (response: unknown) => string | undefined): CachedResponse | undefined {
    const file = this.fileOf(key);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    const why = entryProblem(text, key, check);
    if (why !== undefined) throw new FormatError(file, 1, `not a valid cache entry (${why}); delete the file to ask the endpoint again`);
    return JSON.parse(text) as CachedResponse;
  }

  /** Stores the answer of `key` (atomically), with the digest of the response. */
  put(key: string, response: unknown, latencyMs: number): void {
    const entry: CachedResponse = { key, response, latencyMs, digest: responseDigest(response) };
    writeFileAtomic(this.fileOf(key), JSON.stringify(entry) + '\n');
  }
}

/** What is wrong with the text of an entry of `key`, or undefined. */
function entryProblem(text: string, key: string, check: ((response: unknown) => string | undefined) | undefined): string | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return 'invalid JSON';
  }
  const e = entry as Partial<CachedResponse> | null;
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return 'not a JSON object';
  if (e.key !== key) return `its key is not ${key.slice(0, 12)}…, the file's name`;
  if (typeof e.latencyMs !== 'number' || !Number.isFinite(e.latencyMs) || e.latencyMs < 0) return 'no latencyMs';
  if (e.response === undefined) return 'no response';
  if (typeof e.digest !== 'string') return 'no digest: an entry of a dialogym older than the digests, or edited';
  if (e.digest !== responseDigest(e.response)) return 'the response does not match its digest: it was changed after it was written';
  return check?.(e.response);
}
