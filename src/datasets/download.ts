/**
 * A resumable HTTP download: the bytes go to `<file>.part`; a later call asks the server for the
 * rest with a `Range: bytes=<have>-` request and appends (a server that ignores Range sends the
 * whole file, which then replaces the part). The part is renamed onto `<file>` once complete, so
 * a file without `.part` is always whole. Redirects are followed (Node's fetch).
 */
import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { DialogymError } from '../core/errors.js';

/** A download that failed: the network, the server, or a cut connection (the part is kept for the next run). */
export class DownloadError extends DialogymError {
  /** The server could not be reached or refused the file (nothing came): fetching by hand is the way out. */
  readonly unreachable: boolean;
  constructor(message: string, options?: { cause?: unknown; unreachable?: boolean }) {
    super(message, options);
    this.unreachable = options?.unreachable === true;
  }
}

export interface DownloadOptions {
  /** Called as bytes arrive: bytes on disk, and the total when the server says it. */
  readonly onProgress?: (done: number, total: number | undefined) => void;
  /** Seconds without a byte after which the download is abandoned (default 60). */
  readonly idleSeconds?: number;
}

/** What happened: the bytes fetched now, and whether an earlier part was resumed. */
export interface DownloadResult {
  readonly bytes: number;
  readonly resumedFrom: number;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Why a fetch failed, in a few words (`getaddrinfo ENOTFOUND parl.ai`, `connection closed`). */
function reasonOf(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.message) return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  if (e instanceof Error && e.name === 'AbortError') return 'no data for too long';
  return e instanceof Error ? e.message : String(e);
}

/** Downloads `url` to `file` (through `file.part`), resuming a part left by an earlier run. */
export async function download(url: string, file: string, opts: DownloadOptions = {}): Promise<DownloadResult> {
  const part = `${file}.part`;
  const have = sizeOf(part);
  const abort = new AbortController();
  const idleMs = (opts.idleSeconds ?? 60) * 1000;
  const timer = setTimeout(() => abort.abort(), idleMs);
  let fd: number | undefined;
  try {
    let res: Response;
    try {
      res = await fetch(url, { headers: { 'accept-encoding': 'identity', ...(have > 0 ? { range: `bytes=${have}-` } : {}) }, signal: abort.signal, redirect: 'follow' });
    } catch (e) {
      throw new DownloadError(`cannot download ${url} (${reasonOf(e)})`, { cause: e, unreachable: true });
    }
    if (res.status === 416 && have > 0) {
      // The part is complete already (or longer than the file): the server has nothing past it.
      const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1];
      if (total !== undefined && Number(total) === have) {
        renameSync(part, file);
        return { bytes: 0, resumedFrom: have };
      }
      rmSync(part, { force: true });
      throw new DownloadError(`cannot download ${url} (the partial download did not match the file on the server; removed it, run again)`);
    }
    if (!res.ok || res.body === null) throw new DownloadError(`cannot download ${url} (HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''})`, { unreachable: true });
    const resumed = res.status === 206;
    const start = resumed ? have : 0;
    const length = res.headers.get('content-length');
    const total = length !== null ? start + Number(length) : undefined;
    fd = openSync(part, resumed ? 'a' : 'w');
    let done = start;
    opts.onProgress?.(done, total);
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        timer.refresh();
        writeSync(fd, chunk);
        done += chunk.length;
        opts.onProgress?.(done, total);
      }
    } catch (e) {
      throw new DownloadError(`download of ${url} cut at ${done} bytes (${reasonOf(e)}); run again to resume`, { cause: e });
    }
    closeSync(fd);
    fd = undefined;
    if (total !== undefined && done !== total) throw new DownloadError(`download of ${url} cut at ${done} of ${total} bytes; run again to resume`);
    renameSync(part, file);
    return { bytes: done - start, resumedFrom: start };
  } finally {
    clearTimeout(timer);
    if (fd !== undefined) closeSync(fd);
  }
}
