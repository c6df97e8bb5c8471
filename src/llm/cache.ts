/**
 * The response cache of `--cache <dir>`: one JSON file per answered request, named by the request's
 * key (`canonical.ts`: sha256 of the canonical request body) in a folder of its first two hex
 * digits — `<dir>/3f/3fa2….json` holding `{key, response, latencyMs}`. Written atomically (temp file
 * + rename), so a killed run leaves whole entries only; a finished run replays offline from it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, FormatError } from '../core/errors.js';
import { makeFolders, writeFileAtomic } from '../core/files.js';

/** A cached answer: the response body as the server sent it and how long the request took then. */
export interface CachedResponse {
  readonly key: string;
  readonly response: unknown;
  readonly latencyMs: number;
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
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ConfigError(`--cache: ${dir} is not a folder`);
    makeFolders(dir);
  }

  /** The file of a key. */
  fileOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The cached answer of `key`, or undefined. */
  get(key: string): CachedResponse | undefined {
    const file = this.fileOf(key);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      throw new FormatError(file, undefined, 'not a cache entry (invalid JSON)');
    }
    const e = entry as Partial<CachedResponse> | null;
    if (e === null || typeof e !== 'object' || e.key !== key || typeof e.latencyMs !== 'number' || e.response === undefined) throw new FormatError(file, undefined, 'not a cache entry of this key (want {key, response, latencyMs})');
    return e as CachedResponse;
  }

  /** Stores the answer of `key` (atomically). */
  put(key: string, response: unknown, latencyMs: number): void {
    const entry: CachedResponse = { key, response, latencyMs };
    writeFileAtomic(this.fileOf(key), JSON.stringify(entry) + '\n');
  }
}
