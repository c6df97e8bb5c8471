/**
 * A resumable HTTP download: the bytes go to `<file>.part`; a later call asks the server for the
 * rest with a `Range: bytes=<have>-` request and appends (a server that ignores Range sends the
 * whole file, which then replaces the part). The part is renamed onto `<file>` once complete, so
 * a file without `.part` is always whole. Redirects are followed (Node's fetch). A bound on the
 * size (`maxBytes`, from the catalogue) is enforced as the bytes arrive: a Content-Length above it
 * is refused before the body, and a body that goes on past it is cut at the first byte over (the
 * part is removed), so a server streaming without end costs at most `maxBytes` of disk and a
 * chunk of memory.
 */
import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { DialogymError } from '../core/errors.js';

/** A download that failed: the network, the server, or a cut connection (the part is kept for the next run). */
export class DownloadError extends DialogymError {
  /** The server could not be reached or refused the file (nothing came): fetching by hand is the way out. */
  readonly unreachable: boolean;
  /** The server sent more than the bound: what came is not the file (the part was removed). */
  readonly refused: boolean;
  /**
   * How to fetch by hand when the server cannot be reached: why, the file to put in `folder` and
   * where to get it (the caller words the command that then installs it).
   */
  readonly byHand: ByHand | undefined;
  constructor(message: string, options?: { cause?: unknown; unreachable?: boolean; refused?: boolean; byHand?: ByHand }) {
    super(message, options);
    this.unreachable = options?.unreachable === true;
    this.refused = options?.refused === true;
    this.byHand = options?.byHand;
  }
}

/** The pieces of the advice to fetch an archive by hand. */
export interface ByHand {
  /** Why the download failed (`cannot download <url> (<reason>)`). */
  readonly reason: string;
  /** The archive's file name, to put in `folder`. */
  readonly file: string;
  /** Where its publisher serves it. */
  readonly url: string;
  readonly folder: string;
}

export interface DownloadOptions {
  /** Called as bytes arrive: bytes on disk, and the total when the server says it. */
  readonly onProgress?: (done: number, total: number | undefined) => void;
  /** Seconds without a byte after which the download is abandoned (default 60). */
  readonly idleSeconds?: number;
  /** The most bytes the file may have: more is refused at the first byte past it (default: no bound). */
  readonly maxBytes?: number;
  /** `maxBytes` is the file's exact size: a body that ends short of it is a cut download (kept, resumable). */
  readonly exact?: boolean;
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
  let have = sizeOf(part);
  if (have > (opts.maxBytes ?? Infinity)) {
    // Left by a run without the bound: not the file, start again.
    rmSync(part, { force: true });
    have = 0;
  }
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
    const total = length !== null ? start + Number(length) : opts.exact ? opts.maxBytes : undefined;
    const max = opts.maxBytes ?? Infinity;
    if (length !== null && start + Number(length) > max) {
      await res.body.cancel().catch(() => undefined);
      rmSync(part, { force: true });
      throw new DownloadError(`${url} announces ${start + Number(length)} bytes, more than the ${max} the catalogue allows (not the release); refused before the body, removed the download`, { refused: true });
    }
    fd = openSync(part, resumed ? 'a' : 'w');
    let done = start;
    opts.onProgress?.(done, total);
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        timer.refresh();
        if (done + chunk.length > max) {
          // Keep nothing past the bound: the part is removed below, the connection dropped.
          abort.abort();
          throw new DownloadError(`${url} sent more than the ${max} bytes the catalogue allows (not the release); stopped at byte ${max + 1}, removed the download`, { refused: true });
        }
        writeSync(fd, chunk);
        done += chunk.length;
        opts.onProgress?.(done, total);
      }
    } catch (e) {
      if (e instanceof DownloadError && e.refused) {
        closeSync(fd);
        fd = undefined;
        rmSync(part, { force: true });
        throw e;
      }
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
