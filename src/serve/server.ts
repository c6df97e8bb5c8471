/**
 * The chat server: a JSON HTTP API over sessions (fastify) and the static web UI at `/`.
 *
 *   GET    /api/health                   {status, model, kb, sessions, airdialogue?} (airdialogue: the page's path when hosted too)
 *   GET    /api/kb                       {restaurants, cities, cuisines, prices, partySizes, example} (kb-hint.ts)
 *   POST   /api/sessions                 201 {id}
 *   POST   /api/sessions/:id/messages    {text} → {replies:[{text, kind, explanation?}], explanation}
 *   GET    /api/sessions/:id             {id, createdAt, turns:[{speaker, text, read?, explanation?}]} (read: what the models read)
 *   DELETE /api/sessions/:id             204
 *
 * Every error is JSON `{error}` with a 4xx/5xx status, never a stack trace: invalid JSON 400, body
 * over the limit 413, wrong content type 415, bad `text` 400, unknown/expired session 404, too
 * many sessions 503. fastify was chosen over hono because it ships what this needs in one
 * package on Node — body limits, JSON parsing with typed errors, graceful `close()` that drains
 * in-flight requests — while hono needs an adapter (@hono/node-server) for a Node socket.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { ChatModel } from '../testbeds/restaurant/chat/chat-model.js';
import { localBackend, SessionNotFoundError, type JsonBody, type SessionBackend } from './backend.js';
import { checkSchema } from '../formats/schema.js';
import { InternalError } from '../core/errors.js';
import { kbHint, type KbHint } from './kb-hint.js';
import { InputError, SESSION_DEFAULTS, type SessionKb, type SessionOptions } from './session.js';
import { withTextLimit } from './web-page.js';
import { CapacityError, SESSION_STORE_DEFAULTS, SessionStore, type SessionStoreOptions } from './sessions.js';
import { createApp, gracefulClose, HTTP_DEFAULTS, internalErrorText, listenUrl, pathOf, RequestError, type CloseReport } from './http.js';

export interface ServerOptions extends SessionOptions, SessionStoreOptions {
  /** Largest request body in bytes (default 16 KiB). */
  readonly bodyLimit?: number;
  /** How often idle sessions are swept (default 60 s). */
  readonly sweepMs?: number;
  /** Folder of the web UI (default: `src/serve/web` of the package). */
  readonly webDir?: string;
  /** A whole request must arrive within this (ms, default 30 s; its headers within min(10 s, this)). */
  readonly requestTimeoutMs?: number;
  /** Where an unexpected server error is logged, its stack after its first line (default: stderr). */
  readonly logError?: (text: string) => void;
}

export const SERVER_DEFAULTS = { bodyLimit: 16 * 1024, sweepMs: 60_000 } as const;

export interface ChatServer {
  readonly app: FastifyInstance;
  /** Where the restaurant sessions live (this thread, or worker threads); absent on a server without a restaurant model. */
  readonly backend?: SessionBackend;
  /** Starts listening; resolves to the base URL (`http://127.0.0.1:port`). */
  listen(port: number, host: string): Promise<string>;
  /** Stops gracefully (`gracefulClose`: the requests in flight get their answers within `graceMs`, default 5 s; `signal` ends the wait), then drops the sessions. */
  close(graceMs?: number, signal?: AbortSignal): Promise<CloseReport>;
}

const WEB_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/** The web UI folder: beside this module when installed there, else the package's `src/serve/web`. */
export function defaultWebDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'web'), resolve(here, '..', '..', '..', 'src', 'serve', 'web')];
  return candidates.find((d) => existsSync(join(d, 'index.html'))) ?? (candidates[1] as string);
}

class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Maps any thrown error to a status and a one-line message (no stack, no internals). */
function errorReply(e: unknown, bodyLimit: number): { status: number; error: string } {
  if (e instanceof HttpError || e instanceof RequestError) return { status: e.statusCode, error: e.message };
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

/** The session options of server options (defaults filled in). */
export function sessionOptionsOf(opts: ServerOptions): SessionOptions {
  const sessionOpts: SessionOptions = { maxTextLength: opts.maxTextLength ?? SESSION_DEFAULTS.maxTextLength, maxBotTurns: opts.maxBotTurns ?? SESSION_DEFAULTS.maxBotTurns };
  if (opts.resultOrder) Object.assign(sessionOpts, { resultOrder: opts.resultOrder });
  if (opts.maxResults !== undefined) Object.assign(sessionOpts, { maxResults: opts.maxResults });
  return sessionOpts;
}

/** A server whose sessions live in this thread. */
export function createServer(model: ChatModel, kb: SessionKb, opts: ServerOptions & { readonly airdialogue?: boolean } = {}): ChatServer {
  const sessions = new SessionStore(model, kb, sessionOptionsOf(opts), {
    maxSessions: opts.maxSessions ?? SESSION_STORE_DEFAULTS.maxSessions,
    idleMs: opts.idleMs ?? SESSION_STORE_DEFAULTS.idleMs,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.newId ? { newId: opts.newId } : {}),
  });
  return serveBackend(localBackend(sessions), { model: model.name, dialect: kb.dialect.name, hint: () => kbHint(kb.store), ...(opts.airdialogue ? { airdialogue: true } : {}) }, opts);
}

/** What the server says about itself: the model, the KB dialect and (for `GET /api/kb`) the KB's hint, made on first use. */
export interface ServerInfo {
  readonly model: string;
  readonly dialect: string;
  readonly hint?: () => KbHint;
  /** Whether the AirDialogue page is hosted too (`GET /api/health` then gives its path; the restaurant page links to it). */
  readonly airdialogue?: boolean;
}

/** The fastify app of a server (http.ts: timeouts, JSON-only bodies of bounded nesting, 405), one-line JSON errors, no-sniff and no-store headers. */
function baseApp(opts: ServerOptions): FastifyInstance {
  const bodyLimit = opts.bodyLimit ?? SERVER_DEFAULTS.bodyLimit;
  const logError = opts.logError ?? ((l: string) => process.stderr.write(l + '\n'));
  const app = createApp({ bodyLimit, ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}) }, (req) => `not found: ${req.method} ${pathOf(req).slice(0, 200)}`);

  app.setErrorHandler((err, req, reply) => {
    const { status, error } = errorReply(err, bodyLimit);
    if (status >= 500 && !(err instanceof CapacityError)) logError(internalErrorText('serve', err, req));
    void reply.code(status).type('application/json; charset=utf-8').send({ error });
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
    return payload;
  });
  // The pages' shared module (web/dom.js: $, el, api), which every page of these servers imports.
  const dom = join(opts.webDir ?? defaultWebDir(), 'dom.js');
  if (existsSync(dom)) {
    const body = readFileSync(dom);
    app.get('/dom.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(body));
  }
  return app;
}

/** Listening and closing of a server's app. */
function chatServer(app: FastifyInstance, backend: SessionBackend | undefined): ChatServer {
  return {
    app,
    ...(backend ? { backend } : {}),
    listen: (port, host) => listenUrl(app, port, host),
    close: (graceMs = HTTP_DEFAULTS.graceMs, signal?: AbortSignal) => gracefulClose(app, graceMs, signal),
  };
}

/** Where the AirDialogue page is, on a server that also hosts it (`GET /api/health` says so: the restaurant page links to it). */
export const AIRDIALOGUE_PAGE = '/airdialogue';

/**
 * A server that hosts no restaurant model (`dialogym serve --airdialogue m.dgm` without
 * `--model`): `/` redirects to the AirDialogue page, `GET /api/health` says `model: null`, and the
 * restaurant API (`/api/sessions…`, `/api/kb`) answers 404 with a one-line JSON error saying so.
 * Add the AirDialogue routes to its `app` before it listens.
 */
export function serveWithoutRestaurant(opts: ServerOptions = {}): ChatServer {
  const app = baseApp(opts);
  const none = async (): Promise<never> => {
    throw new HttpError(404, `no restaurant model is hosted here (the server was started without one); the AirDialogue chat is at ${AIRDIALOGUE_PAGE}`);
  };
  app.get('/api/health', async () => ({ status: 'ok', model: null, airdialogue: AIRDIALOGUE_PAGE }));
  for (const path of ['/api/kb', '/api/sessions', '/api/sessions/*']) app.all(path, none);
  for (const path of ['/', '/index.html']) app.get(path, async (_req, reply) => reply.redirect(AIRDIALOGUE_PAGE, 302));
  return chatServer(app, undefined);
}

/** A server hosting neither chat, with the same HTTP layer and JSON errors: the caller adds its routes before it listens (`serve --env`: env-routes.ts). */
export function bareServer(opts: ServerOptions = {}): ChatServer {
  return chatServer(baseApp(opts), undefined);
}

/** A server over any session backend (`localBackend`, or worker threads from `startWorkerPool`). */
export function serveBackend(backend: SessionBackend, info: ServerInfo, opts: ServerOptions = {}): ChatServer {
  const webDir = opts.webDir ?? defaultWebDir();
  const web = new Map<string, { body: Buffer; type: string }>();
  for (const [path, { file, type }] of Object.entries(WEB_FILES)) {
    const f = join(webDir, file);
    if (existsSync(f)) web.set(path, { body: type.startsWith('text/html') ? withTextLimit(readFileSync(f), opts.maxTextLength ?? SESSION_DEFAULTS.maxTextLength) : readFileSync(f), type });
  }
  const app = baseApp(opts);

  const send = (reply: FastifyReply, body: JsonBody): FastifyReply =>
    'json' in body ? reply.type('application/json; charset=utf-8').send(body.json) : reply.send(body.value);

  app.get('/api/health', async () => ({
    status: 'ok',
    model: info.model,
    kb: { dialect: info.dialect },
    sessions: await backend.size(),
    ...(info.airdialogue ? { airdialogue: AIRDIALOGUE_PAGE } : {}),
  }));
  let hint: KbHint | undefined;
  app.get('/api/kb', async () => {
    if (!info.hint) throw new HttpError(404, 'this server has no KB summary');
    if (!hint) {
      const h = info.hint();
      // schemas/serve-kb-hint.schema.json: what the web page relies on.
      const issue = checkSchema('serve-kb-hint', h);
      if (issue) throw new InternalError(`KB hint: ${issue.reason}`);
      hint = h;
    }
    return hint;
  });
  app.post<{ Body: unknown }>('/api/sessions', async (req, reply) => {
    // No options: a body, when sent, is {} (anything else would be ignored without a word).
    const b = req.body;
    if (b !== undefined && b !== null && (typeof b !== 'object' || Array.isArray(b) || Object.keys(b).length > 0)) throw new HttpError(400, 'POST /api/sessions takes no body (or {})');
    return reply.code(201).send({ id: await backend.create() });
  });
  app.post<{ Params: { id: string }; Body: unknown }>('/api/sessions/:id/messages', async (req, reply) => {
    const body = req.body;
    // schemas/serve-message-request.schema.json; fastify has already bounded the size and parsed the JSON.
    const issue = checkSchema('serve-message-request', body);
    if (issue) {
      // An unknown session is a 404 whatever the body.
      await backend.transcript(req.params.id);
      throw new HttpError(
        400,
        issue.reason.startsWith('unknown field')
          ? `${issue.reason}: the body is {"text": "..."}`
          : issue.path === '' && !issue.reason.startsWith('missing')
            ? 'body must be a JSON object {"text": "..."}'
            : 'text must be a string',
      );
    }
    return send(reply, await backend.send(req.params.id, (body as { text: string }).text));
  });
  app.get<{ Params: { id: string } }>('/api/sessions/:id', async (req, reply) => send(reply, await backend.transcript(req.params.id)));
  app.delete<{ Params: { id: string } }>('/api/sessions/:id', async (req, reply) => {
    if (!(await backend.delete(req.params.id))) throw new HttpError(404, `unknown or expired session: ${req.params.id.slice(0, 64)}`);
    return reply.code(204).send();
  });
  for (const [path, f] of web) {
    app.get(path, async (_req, reply) =>
      reply
        .type(f.type)
        .header('content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        .send(f.body),
    );
  }

  const timer = setInterval(() => backend.sweep(), opts.sweepMs ?? SERVER_DEFAULTS.sweepMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await backend.close();
  });

  return chatServer(app, backend);
}
