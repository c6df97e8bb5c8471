/**
 * A hostile data mirror for `data fetch` (tests and bench/hostile-fetch.ts): archives crafted byte by
 * byte — tar headers with any path, type, link or declared size (a 2 GiB file of zeros is streamed,
 * never held), zips with `..` names or symlink modes — and an HTTP server on 127.0.0.1 that serves
 * them whole, cut, with a lying or absent Content-Length, or streams without end; it counts what it
 * sent, so a test can tell the client stopped reading.
 */
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import yazl from 'yazl';

/** One entry of a crafted tar: `body` bytes (or that many zeros, streamed), a declared `size` that may lie. */
export interface TarEntry {
  readonly path: string;
  /** '0' file (default), '1' hard link, '2' symbolic link, '5' folder. */
  readonly type?: '0' | '1' | '2' | '5';
  readonly body?: Buffer | { readonly zeros: number };
  readonly link?: string;
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

/** A ustar header block for `e` (the path split into prefix and name when it is long). */
export function tarHeader(e: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  let name = e.path;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  h.write(name, 0, 100, 'utf8');
  h.write(octal(e.type === '5' ? 0o755 : 0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(0, 12), 136);
  h.write('        ', 148);
  h.write(e.type ?? '0', 156);
  if (e.link !== undefined) h.write(e.link, 157, 100, 'utf8');
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148);
  return h;
}

const sizeOfBody = (e: TarEntry): number => (e.body === undefined ? 0 : Buffer.isBuffer(e.body) ? e.body.length : e.body.zeros);

/** The tar stream of `entries`, produced as it is read (zeros in 1 MiB blocks). */
export function tarStream(entries: readonly TarEntry[]): Readable {
  const zeros = Buffer.alloc(1 << 20);
  return Readable.from(
    (function* () {
      for (const e of entries) {
        const size = sizeOfBody(e);
        yield tarHeader(e, size);
        if (Buffer.isBuffer(e.body)) yield e.body;
        else for (let left = size; left > 0; left -= zeros.length) yield left >= zeros.length ? zeros : zeros.subarray(0, left);
        if (size % 512 !== 0) yield Buffer.alloc(512 - (size % 512));
      }
      yield Buffer.alloc(1024);
    })(),
    { objectMode: false },
  );
}

/** The .tar.gz of `entries` in memory (small archives). */
export function tarGz(entries: readonly TarEntry[]): Buffer {
  const chunks: Buffer[] = [];
  for (const e of entries) {
    if (!Buffer.isBuffer(e.body ?? Buffer.alloc(0))) throw new Error('tarGz: streamed bodies go through writeTarGz');
    const body = (e.body as Buffer | undefined) ?? Buffer.alloc(0);
    chunks.push(tarHeader(e, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  chunks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(chunks));
}

/** Writes the .tar.gz of `entries` to `file`, streaming (a 2 GiB body never sits in memory). */
export async function writeTarGz(entries: readonly TarEntry[], file: string, level = 6): Promise<number> {
  await pipeline(tarStream(entries), createGzip({ level }), createWriteStream(file));
  return statSync(file).size;
}

/** A zip of `entries` (name → bytes, with a file mode); `rename` then rewrites names in place (same length), e.g. `xx/` → `../`. */
export async function zipOf(entries: readonly { readonly name: string; readonly body: Buffer; readonly mode?: number }[], rename: Readonly<Record<string, string>> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(e.body, e.name, e.mode !== undefined ? { mode: e.mode } : {});
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
  let bytes = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(rename)) {
    if (from.length !== to.length) throw new Error('zipOf: a rename keeps the length');
    bytes = Buffer.from(bytes.toString('latin1').split(from).join(to), 'latin1');
  }
  return bytes;
}

/** How the mirror answers a path. */
export type Answer =
  | { readonly kind: 'bytes'; readonly bytes: Buffer; readonly length?: number | 'none'; readonly cutAt?: number }
  | { readonly kind: 'file'; readonly file: string; readonly length?: 'none' }
  | { readonly kind: 'endless'; readonly length?: number | 'none'; readonly cap: number };

export interface HostileMirror {
  readonly base: string;
  /** Bytes written to the socket, per path. */
  readonly sent: Map<string, number>;
  readonly answers: Map<string, Answer>;
  close(): Promise<void>;
}

function endless(res: ServerResponse, cap: number, count: (n: number) => void): void {
  const block = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const pump = (): void => {
    while (sent < cap) {
      sent += block.length;
      count(block.length);
      if (!res.write(block)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (sent = cap));
  pump();
}

/** Starts the mirror on 127.0.0.1; `answers` maps URL paths to answers (404 otherwise). */
export async function startMirror(): Promise<HostileMirror> {
  const sent = new Map<string, number>();
  const answers = new Map<string, Answer>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    const a = answers.get(path);
    const count = (n: number): void => void sent.set(path, (sent.get(path) ?? 0) + n);
    if (a === undefined) return void res.writeHead(404).end();
    if (a.kind === 'endless') {
      res.writeHead(200, a.length !== undefined && a.length !== 'none' ? { 'content-length': a.length } : {});
      return endless(res, a.cap, count);
    }
    if (a.kind === 'file') {
      res.writeHead(200, a.length === 'none' ? {} : { 'content-length': statSync(a.file).size });
      createReadStream(a.file).on('data', (c) => count(c.length)).pipe(res);
      return;
    }
    const length = a.length ?? a.bytes.length;
    res.writeHead(200, length === 'none' ? {} : { 'content-length': length });
    const body = a.cutAt !== undefined ? a.bytes.subarray(0, a.cutAt) : a.bytes;
    count(body.length);
    if (a.cutAt !== undefined) res.write(body, () => res.socket?.destroy());
    else res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    answers,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
