/**
 * The HTTP transport: each request is POSTed as JSON to the agent's URL; the body of a 2xx
 * response is the reply. Each lane of a run has its own keep-alive socket (node:http with one
 * socket per lane: measured ~4× the requests per second of `fetch` here), so `concurrency` N
 * keeps N requests in flight. A body longer than `maxReplyBytes` (by its content-length, or as it
 * arrives) fails the turn as `reply too long` and the socket is dropped, unread.
 */
import http from 'node:http';
import https from 'node:https';
import { AgentError, DEFAULT_MAX_REPLY_BYTES, type AgentRequest } from './protocol.js';
import type { AgentConnection, AgentTransport } from './agent.js';

/**
 * Options of {@link httpTransport}.
 *
 * @example
 * ```ts
 * import { httpTransport, type HttpTransportOptions } from 'dialogym';
 * const opts: HttpTransportOptions = { maxReplyBytes: 1 << 20 };
 * const transport = httpTransport('http://127.0.0.1:9000/act', opts);
 * ```
 */
export interface HttpTransportOptions {
  /** Longest reply body in bytes (default 4 MiB). */
  readonly maxReplyBytes?: number;
}

/**
 * An HTTP endpoint as a transport; see the module description.
 *
 * @example
 * ```ts
 * import { evaluate, httpTransport } from 'dialogym';
 * const { summary } = await evaluate('restaurant-task2-v1', httpTransport('http://127.0.0.1:9000/act'), { episodes: 50, concurrency: 8 });
 * console.log(summary.failures);
 * ```
 */
export function httpTransport(url: string, opts: HttpTransportOptions = {}): AgentTransport {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const maxBytes = opts.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  return {
    name: url,
    connect(): AgentConnection {
      const agent = new client.Agent({ keepAlive: true, maxSockets: 1 });
      return {
        send: (req: AgentRequest, timeoutMs: number) => post(client, agent, target, url, req, timeoutMs, maxBytes),
        close: async () => agent.destroy(),
      };
    },
  };
}

function post(client: typeof http | typeof https, agent: http.Agent, target: URL, url: string, req: AgentRequest, timeoutMs: number, maxBytes: number): Promise<string> {
  const body = JSON.stringify(req);
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const tooLong = (): void => {
      done(() => reject(new AgentError('reply too long', `${url}: a reply body longer than ${maxBytes} bytes`)));
      q.destroy();
    };
    const q = client.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      if (Number(res.headers['content-length'] ?? 0) > maxBytes) return tooLong();
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes > maxBytes) return tooLong();
        chunks.push(c);
      });
      res.on('error', (e) => done(() => reject(new AgentError('http error', `${url}: ${e.message}`))));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) done(() => reject(new AgentError('http error', `${url}: HTTP ${status}`)));
        else done(() => resolve(Buffer.concat(chunks).toString('utf8')));
      });
    });
    const timer = setTimeout(() => {
      done(() => reject(new AgentError('timeout', `no reply from ${url} within ${timeoutMs} ms`)));
      q.destroy();
    }, timeoutMs);
    q.on('error', (e) => done(() => reject(new AgentError('http error', `${url}: ${e.message}`))));
    q.end(body);
  });
}
