/**
 * The chat server of `dialogym serve`: the testbeds' chats it hosts (`serveChats`: each a
 * `ChatBackend`, its routes and page mounted by chat-routes.ts over its sessions, in this thread or
 * on worker threads), `GET /api/health`, and the HTTP layer every server shares (`bareServer`).
 *
 *   GET    /api/health    {status, …the chat at `/`'s info, …the other chats' pages by testbed name}
 *
 * Which chat is at `/`, what it is called, and what a server without it answers in its place come
 * from the testbeds' descriptors (their `chat`: page, label, absent): with none at `/`, `/` redirects
 * to the first chat's page and the absent chat's API answers a one-line 404 naming it.
 *
 * Every error is JSON `{error}` with a 4xx/5xx status, never a stack trace: invalid JSON 400, body
 * over the limit 413, wrong content type 415, a bad body 400 (`InputError`), unknown/expired
 * session 404, too many sessions 503. fastify was chosen over hono because it ships what this
 * needs in one package on Node — body limits, JSON parsing with typed errors, graceful `close()`
 * that drains in-flight requests — while hono needs an adapter (@hono/node-server) for a Node socket.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyError, FastifyInstance } from 'fastify';
import { CapacityError, ConfigError, InputError, SessionNotFoundError } from '../core/errors.js';
import { TESTBEDS } from '../testbeds/index.js';
import type { ChatBackend, Testbed } from '../testbeds/testbed.js';
import { chatOf, registerChat } from './chat-routes.js';
import { ChatSessions, localSessions, type SessionBackend, type SessionStoreOptions } from './chat-sessions.js';
import { createApp, gracefulClose, HTTP_DEFAULTS, internalErrorText, listenUrl, noSniffNoStore, pathOf, RequestError, type CloseReport } from './http.js';

export interface ServerOptions extends SessionStoreOptions {
  /** Largest request body in bytes (default 16 KiB). */
  readonly bodyLimit?: number;
  /** How often idle sessions are swept (default 60 s). */
  readonly sweepMs?: number;
  /** Folder of the servers' pages and their shared `dom.js` (default: `src/serve/web` of the package; a chat's page is in its own `webDir`). */
  readonly webDir?: string;
  /** Longest message the pages' message box takes (default 500: the chats' default). */
  readonly maxTextLength?: number;
  /** A whole request must arrive within this (ms, default 30 s; its headers within min(10 s, this)). */
  readonly requestTimeoutMs?: number;
  /** Where an unexpected server error is logged, its stack after its first line (default: stderr). */
  readonly logError?: (text: string) => void;
}

export const SERVER_DEFAULTS = { bodyLimit: 16 * 1024, sweepMs: 60_000 } as const;

export interface ChatServer {
  readonly app: FastifyInstance;
  /** Starts listening; resolves to the base URL (`http://127.0.0.1:port`). */
  listen(port: number, host: string): Promise<string>;
  /** Stops gracefully (`gracefulClose`: the requests in flight get their answers within `graceMs`, default 5 s; `signal` ends the wait), then drops the sessions. */
  close(graceMs?: number, signal?: AbortSignal): Promise<CloseReport>;
}

/** The servers' web folder (their pages, the shared `dom.js`): beside this module when installed there, else the package's `src/serve/web`. */
export function defaultWebDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'web'), resolve(here, '..', '..', '..', 'src', 'serve', 'web')];
  return candidates.find((d) => existsSync(join(d, 'dom.js'))) ?? (candidates[1] as string);
}

/** Maps any thrown error to a status and a one-line message (no stack, no internals). */
function errorReply(e: unknown, bodyLimit: number): { status: number; error: string } {
  if (e instanceof RequestError) return { status: e.statusCode, error: e.message };
  if (e instanceof InputError) return { status: 400, error: e.message };
  if (e instanceof SessionNotFoundError) return { status: 404, error: e.message };
  if (e instanceof CapacityError) return { status: 503, error: e.message };
  const fe = e as Partial<FastifyError>;
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, error: fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'empty JSON body' : 'invalid JSON body' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, error: `request body too large (limit ${bodyLimit} bytes)` };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, error: 'unsupported content type (send application/json)' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, error: 'invalid content length' };
    default:
      break;
  }
  if (e instanceof SyntaxError) return { status: 400, error: 'invalid JSON body' };
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) return { status: fe.statusCode, error: (fe.message ?? 'bad request').split('\n')[0] as string };
  return { status: 500, error: 'internal error' };
}

/** The fastify app of a server (http.ts: timeouts, JSON-only bodies of bounded nesting, 405), one-line JSON errors, no-sniff and no-store headers. */
const SHARED_WEB: ReadonlyArray<[string, string]> = [
  ['dom.js', 'text/javascript; charset=utf-8'],
  ['chat.css', 'text/css; charset=utf-8'],
];

function baseApp(opts: ServerOptions): FastifyInstance {
  const bodyLimit = opts.bodyLimit ?? SERVER_DEFAULTS.bodyLimit;
  const logError = opts.logError ?? ((l: string) => process.stderr.write(l + '\n'));
  const app = createApp({ bodyLimit, ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}) }, (req) => `not found: ${req.method} ${pathOf(req).slice(0, 200)}`);

  app.setErrorHandler((err, req, reply) => {
    const { status, error } = errorReply(err, bodyLimit);
    if (status >= 500 && !(err instanceof CapacityError)) logError(internalErrorText('serve', err, req));
    void reply.code(status).type('application/json; charset=utf-8').send({ error });
  });
  noSniffNoStore(app);
  // The pages' shared files: web/dom.js ($, el, api), which every page of these servers imports, and
  // web/chat.css, the layout the conversation pages (env, AirDialogue chat) link before their own sheet.
  for (const [file, type] of SHARED_WEB) {
    const path = join(opts.webDir ?? defaultWebDir(), file);
    if (!existsSync(path)) continue;
    const body = readFileSync(path);
    app.get(`/${file}`, async (_req, reply) => reply.type(type).send(body));
  }
  return app;
}

/** Listening and closing of a server's app. */
function chatServer(app: FastifyInstance): ChatServer {
  return {
    app,
    listen: (port, host) => listenUrl(app, port, host),
    close: (graceMs = HTTP_DEFAULTS.graceMs, signal?: AbortSignal) => gracefulClose(app, graceMs, signal),
  };
}

/** A server hosting no chat, with the same HTTP layer and JSON errors: the caller adds its routes before it listens (`serve --env`: env-routes.ts). */
export function bareServer(opts: ServerOptions = {}): ChatServer {
  return chatServer(baseApp(opts));
}

/** A testbed's chat a server hosts. */
export interface HostedChat {
  /** The testbed (its descriptor's `chat`: the page, the label). */
  readonly testbed: string;
  readonly chat: ChatBackend;
  /** Where its conversations live (default: this thread, with the server's store options; `startWorkerPool` for worker threads). */
  readonly sessions?: SessionBackend;
}

/** A server hosting `chats` (module description); the caller still owns each chat (`close()` it after the server). */
export function serveChats(chats: readonly HostedChat[], opts: ServerOptions = {}): ChatServer {
  const first = chats[0];
  if (!first) throw new ConfigError('serveChats: no chat to serve');
  const webDir = opts.webDir ?? defaultWebDir();
  const app = baseApp(opts);
  const hosted = chats.map((c) => ({ ...c, decl: chatOf(c.testbed), sessions: c.sessions ?? localSessions(new ChatSessions(c.chat, opts)) }));
  const pagesBut = (but?: string): Record<string, string> => Object.fromEntries(hosted.filter((h) => h.testbed !== but).map((h) => [h.testbed, h.decl.page]));
  const root = hosted.find((h) => h.decl.page === '/');
  for (const h of hosted) {
    const others = pagesBut(h.testbed);
    registerChat(app, h.chat, { webDir, sessions: h.sessions, ...(Object.keys(others).length > 0 ? { others } : {}), ...(opts.maxTextLength !== undefined ? { maxTextLength: opts.maxTextLength } : {}), ...(opts.sweepMs !== undefined ? { sweepMs: opts.sweepMs } : {}) });
  }
  if (root) {
    app.get('/api/health', async () => ({ status: 'ok', ...root.chat.info(await root.sessions.size()), ...pagesBut(root.testbed) }));
  } else {
    // No chat at `/`: it leads to the first chat's page; a chat declared there answers its API with a 404 naming the hosted one.
    const lead = hosted[0] as (typeof hosted)[number];
    const absent = (TESTBEDS as readonly Testbed[]).flatMap((t) => (t.chat?.page === '/' && t.chat.absent ? [t.chat.absent] : []));
    for (const a of absent) {
      const none = async (): Promise<never> => {
        throw new RequestError(404, `no ${a.what} is hosted here (the server was started without one); the ${lead.decl.label} chat is at ${lead.decl.page}`);
      };
      for (const path of a.paths) app.all(path, none);
    }
    const health = Object.assign({}, ...absent.map((a) => a.health)) as Record<string, unknown>;
    app.get('/api/health', async () => ({ status: 'ok', ...health, ...pagesBut() }));
    for (const path of ['/', '/index.html']) app.get(path, async (_req, reply) => reply.redirect(lead.decl.page, 302));
  }
  return chatServer(app);
}
