/**
 * The HTTP plumbing both servers share (`dialogym serve`, `dialogym env-server`):
 *
 * - timeouts, so a slow client cannot hold a connection: a request's headers must arrive within
 *   min(10 s, the request timeout), the whole request within the request timeout (default 30 s;
 *   Node answers 408 and closes), an idle keep-alive connection is closed after 5 s;
 * - JSON bodies only, nested at most `maxDepth` levels (a 400 before parsing, so nothing walks a
 *   value 20,000 levels deep);
 * - a known path with another method is a 405 with an `Allow` header, not a 404;
 * - a graceful close (SIGTERM): stop accepting connections, let the requests in flight finish
 *   (their answers say `Connection: close`) within a grace period, close idle keep-alive
 *   connections, and when the grace is over cut whatever is left (a client that never finishes
 *   its request).
 */
import { Server as NetServer } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { tooDeepAt } from '../formats/schema.js';

/** Limits of a server's HTTP layer. */
export interface HttpLimits {
  /** Largest request body in bytes. */
  readonly bodyLimit: number;
  /** A whole request must arrive within this (ms; its headers within min(10 s, this)); default 30 s. */
  readonly requestTimeoutMs?: number;
  /** Deepest nesting of arrays and objects in a JSON body; default 32. */
  readonly maxDepth?: number;
}

/** Defaults of the HTTP layer (`requestTimeoutMs`, `maxDepth`, the keep-alive timeout, and the grace of `gracefulClose`). */
export const HTTP_DEFAULTS = { requestTimeoutMs: 30_000, maxDepth: 32, keepAliveTimeoutMs: 5_000, graceMs: 5_000 } as const;

/** A request a server refuses, before or in a route: the status and a one-line message it answers with. */
export class RequestError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Every answer of `app` says `nosniff` and `no-store` (the servers of pages: a browser neither guesses a type nor keeps an answer). */
export function noSniffNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** The path of a request URL (no query). */
export function pathOf(req: FastifyRequest): string {
  return req.url.split('?')[0] as string;
}

/**
 * How a server logs an internal error (a bug, answered 500 `internal error` without details): one
 * line `<server>: <message> (<method> <path>)`, then the stack's frames.
 */
export function internalErrorText(server: string, err: unknown, req: FastifyRequest): string {
  const e = err instanceof Error ? err : new Error(String(err));
  const frames = (e.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  return [`${server}: ${e.message.split('\n')[0] ?? ''} (${req.method} ${pathOf(req).slice(0, 200)})`, ...frames].join('\n');
}

const draining = new WeakSet<FastifyInstance>();

/**
 * A fastify app with the limits above; `notFound` words the 404 of an unknown path. Its routes are
 * recorded as they are added, so that a known path with another method answers 405 with `Allow`.
 */
export function createApp(limits: HttpLimits, notFound: (req: FastifyRequest) => string): FastifyInstance {
  const requestTimeout = limits.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs;
  const maxDepth = limits.maxDepth ?? HTTP_DEFAULTS.maxDepth;
  const headersTimeout = Math.min(10_000, requestTimeout);
  const app = Fastify({
    logger: false,
    bodyLimit: limits.bodyLimit,
    requestTimeout,
    keepAliveTimeout: HTTP_DEFAULTS.keepAliveTimeoutMs,
    // A socket with no traffic at all for this long is closed (a client that stops reading its answer).
    connectionTimeout: requestTimeout,
    // Node checks the header and request timeouts this often (default 30 s: a slow client would get that much more).
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: 1_000 },
    // gracefulClose closes the connections itself; a request that arrives while it drains is answered, not 503.
    forceCloseConnections: false,
    return503OnClosing: false,
  });

  // JSON only (a text/plain body is a 415), nested at most maxDepth levels, parsed as fastify does
  // (secure-json-parse: __proto__ and constructor.prototype keys refused).
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (tooDeepAt(body as string, maxDepth) >= 0) done(new RequestError(400, `JSON body nested deeper than ${maxDepth} levels`), undefined);
    else parseJson(req, body as string, done);
  });

  const routes: Array<{ readonly pattern: RegExp; readonly methods: readonly string[] }> = [];
  app.addHook('onRoute', (r) => {
    const source = r.url
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    routes.push({ pattern: new RegExp(`^${source}$`), methods: ([] as string[]).concat(r.method) });
  });
  app.setNotFoundHandler((req, reply) => {
    const path = pathOf(req);
    const allow = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))].sort();
    if (allow.length > 0) void reply.code(405).header('allow', allow.join(', ')).send({ error: `method ${req.method} not allowed on ${path.slice(0, 200)} (allowed: ${allow.join(', ')})` });
    else void reply.code(404).send({ error: notFound(req) });
  });
  // While closing, every answer (also one to a request that arrived before) says the connection ends with it.
  app.addHook('onSend', async (_req, reply, payload) => {
    if (draining.has(app)) reply.header('connection', 'close');
    return payload;
  });
  return app;
}

/** Starts `app` listening on `host:port` (0: any free port); resolves to its base URL (`http://127.0.0.1:8080`, an IPv6 host in brackets). */
export async function listenUrl(app: FastifyInstance, port: number, host: string): Promise<string> {
  await app.listen({ port, host });
  const addr = app.server.address();
  const p = typeof addr === 'object' && addr ? addr.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${p}`;
}

/** What `gracefulClose` did. */
export interface CloseReport {
  /** Connections still open when the grace ran out, cut (a request in flight or half sent). */
  readonly cut: number;
}

/**
 * Closes a server gracefully (module description above): resolves once every connection has ended
 * and the app's `onClose` hooks have run. `graceMs` bounds the wait for requests in flight; an
 * aborted `signal` (a second SIGTERM) ends the wait at once. A server that is not listening (tests
 * through `app.inject`) just closes.
 */
export async function gracefulClose(app: FastifyInstance, graceMs: number = HTTP_DEFAULTS.graceMs, signal?: AbortSignal): Promise<CloseReport> {
  const server = app.server;
  if (!server.listening) {
    await app.close();
    return { cut: 0 };
  }
  const started = Date.now();
  draining.add(app);
  let over = false;
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace'>((resolve) => {
    const end = (): void => {
      over = true;
      resolve('grace');
    };
    timer = setTimeout(end, graceMs);
    signal?.addEventListener('abort', end, { once: true });
  });
  // Connections the kernel completed before the signal wait in the listen queue, their requests
  // possibly sent already: closing the listener would reset them. The event loop accepts one queued
  // connection per poll, so keep polling until a poll accepted none (or half the grace is gone).
  await acceptQueued(server, () => over || Date.now() - started >= graceMs / 2);
  // Stop accepting, but not through http.Server.close(): that also closes the idle keep-alive
  // connections at once, and a connection whose next request is in its socket buffer, not yet
  // read, looks idle: that request would be reset. net.Server's close only stops listening; its
  // callback runs when the last connection has ended.
  const ended = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  // Idle keep-alive connections are closed after a short while (half a second, or half what is
  // left of the grace): a client busy at the signal has had its answer (with `Connection: close`)
  // by then and does not send on it again. Always from the check phase, after a poll of the
  // sockets: the event loop has read every request whose bytes had arrived, so those connections
  // are busy, not idle.
  let sweep: NodeJS.Timeout | undefined;
  const settle = setTimeout(
    () => {
      sweep = setInterval(() => setImmediate(() => server.closeIdleConnections()), 50);
    },
    Math.min(500, Math.max(0, graceMs - (Date.now() - started)) / 2),
  );
  let cut = 0;
  try {
    if ((await Promise.race([ended.then(() => 'ended' as const), graceOver])) === 'grace') {
      cut = await new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n ?? 0)));
      server.closeAllConnections();
      await ended;
    }
  } finally {
    clearTimeout(settle);
    clearInterval(sweep);
    clearTimeout(timer);
  }
  await app.close(); // the onClose hooks (sessions, worker threads); fastify's server.close() finds it closed
  return { cut };
}

/** Resolves once a poll of the event loop accepted no connection (the listen queue is empty), or `enough()`. */
function acceptQueued(server: FastifyInstance['server'], enough: () => boolean): Promise<void> {
  let accepted = 0;
  const count = (): void => void accepted++;
  server.on('connection', count);
  return new Promise((resolve) => {
    // A check phase after another: a poll between them.
    const check = (): void => {
      if (accepted === 0 || enough()) {
        server.off('connection', count);
        resolve();
      } else {
        accepted = 0;
        setImmediate(check);
      }
    };
    setImmediate(() => setImmediate(check));
  });
}
