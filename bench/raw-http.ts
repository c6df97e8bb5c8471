/**
 * A minimal HTTP/1.1 keep-alive client for load benchmarks: one TCP connection, one request at a
 * time, responses read by Content-Length (what fastify sends for JSON) — so the load generator
 * spends far less CPU per request than `node:http` and the figures measure the server more than
 * the client. Not a general client: no chunked bodies, no redirects, no TLS.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly body: string;
}

export class RawHttpConnection {
  private readonly socket: Socket;
  private buf: Buffer = Buffer.alloc(0);
  private pending: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | undefined;
  private readonly ready: Promise<void>;

  constructor(
    private readonly host: string,
    port: number,
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
      this.parse();
    });
    this.socket.on('error', (e) => this.fail(e));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  private fail(e: Error): void {
    const p = this.pending;
    this.pending = undefined;
    p?.reject(e);
  }

  private parse(): void {
    if (!this.pending) return;
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const m = /\r\ncontent-length: *(\d+)/i.exec(head);
    const length = m ? Number(m[1]) : 0;
    if (this.buf.length < end + 4 + length) return;
    const body = this.buf.toString('utf8', end + 4, end + 4 + length);
    this.buf = this.buf.subarray(end + 4 + length);
    const p = this.pending;
    this.pending = undefined;
    p.resolve({ status, body });
  }

  async request(method: string, path: string, json?: unknown): Promise<RawResponse> {
    await this.ready;
    if (this.pending) throw new Error('one request at a time');
    const body = json === undefined ? '' : JSON.stringify(json);
    const head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n${json === undefined ? '' : 'content-type: application/json\r\n'}content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(head + body);
    });
  }

  close(): void {
    this.socket.removeAllListeners('close');
    this.socket.destroy();
  }
}
