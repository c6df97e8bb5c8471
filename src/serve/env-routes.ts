/**
 * A person in an environment's episodes over HTTP (`dialogym serve --env <id>`): a JSON API over
 * {@link EnvSession}s and the page at `/env`.
 *
 *   GET    /api/env                        {env, role, free, sessions, maxText}
 *   POST   /api/env/sessions               {} → 201 {id, state}   (a new dialog: the next episode seed; once the person is asked, at most `waitMs`)
 *   GET    /api/env/sessions/:id           {id, state}            (?wait=1: once the other side has answered, at most `waitMs`)
 *   POST   /api/env/sessions/:id/send      {text} | {tool, arguments} → {id, state}
 *   POST   /api/env/sessions/:id/end       → {id, state}          (the person ends the dialog: abandoned, or a free chat over)
 *   DELETE /api/env/sessions/:id           204
 *
 * `state` is the session's {@link SessionState}: it never names the agent. A send returns once the
 * other side has answered, or after `waitMs` with `waiting: "other"` (the page then asks again with
 * `?wait=1`). On a turn where the simulated user says nothing (`state.wordless`) `{"text": ""}`
 * lets it pass. Errors are one line of JSON `{error}` (the server's error handler): a bad body or
 * empty text on another turn 400,
 * an unknown or expired session 404, a send out of turn 409, too many sessions 503. A session idle
 * longer than `idleMs` is dropped and its episode abandoned (its agent process ended).
 *
 * Each episode played to its end is handed to `onRecord` once, as soon as it ends (`serve --env
 * --transcripts` appends it to the transcripts); an abandoned one (the person left it, a free chat)
 * has no record and is not handed.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CapacityError, InputError, SessionNotFoundError, StateError } from '../core/errors.js';
import type { EnvOptions, ToolCall } from '../env/env.js';
import type { AgentTransport } from '../agents/agent.js';
import type { UserVoice } from '../agents/user-voice.js';
import type { EpisodeRecord } from '../evaluation/evaluate.js';
import { EnvSession, type SessionState } from './env-session.js';
import { RequestError } from './http.js';
import { withTextLimit } from './web-page.js';

/** Options of {@link registerEnvRoutes}. */
export interface EnvRoutesOptions {
  readonly envId: string;
  readonly envOptions?: EnvOptions;
  /** The side people play. */
  readonly role: 'user' | 'agent';
  /** Free chat: no goal, nothing judged. */
  readonly free?: boolean;
  /** Agent turns after which a dialog ends (`EnvSession`'s `maxTurns`: the testbed's own limit, else the generic wrapper); default: the environment's own. */
  readonly maxTurns?: number;
  /** Role `user`: the agent (each session opens its own connection: an agent process per dialog). */
  readonly agent?: AgentTransport;
  /** Role `agent`: the simulated user's voice (default: the environment's words). */
  readonly userVoice?: UserVoice;
  /** Seed of the first dialog's episode; each new dialog takes the next. */
  readonly firstSeed: number;
  /** Folder holding env.{html,js,css}. */
  readonly webDir: string;
  /** Most live sessions (default 1,000). */
  readonly maxSessions?: number;
  /** A session unused this long is dropped (ms, default 30 min); also how long the person may take for a turn. */
  readonly idleMs?: number;
  /** How long the agent may take for one reply (ms, default 20 s; as `evaluate`'s `timeoutMs`). */
  readonly agentTimeoutMs?: number;
  /** Longest text of the person in characters (default 500). */
  readonly maxText?: number;
  /** Longest a request waits for the other side's answer before it returns `waiting: "other"` (ms, default 20 s; keep it under the server's request timeout, which also closes a silent connection). */
  readonly waitMs?: number;
  /** Each ended episode's record (as `evaluate --transcripts` writes it), once, as soon as it ends; never an abandoned one. A throw is logged, the dialog goes on. */
  readonly onRecord?: (record: EpisodeRecord) => void;
  /** Where a failed `onRecord` is told (default: a line on stderr). */
  readonly logError?: (text: string) => void;
  /** Clock and ids (tests). */
  readonly now?: () => number;
  readonly newId?: () => string;
}

const WEB: ReadonlyArray<[string, string, string]> = [
  ['/env', 'env.html', 'text/html; charset=utf-8'],
  ['/env.html', 'env.html', 'text/html; charset=utf-8'],
  ['/env.js', 'env.js', 'text/javascript; charset=utf-8'],
  ['/session-view.js', 'session-view.js', 'text/javascript; charset=utf-8'],
  ['/env.css', 'env.css', 'text/css; charset=utf-8'],
];
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/** The person's turn from a send body: `{text}` or `{tool, arguments}`, nothing else. */
function inputOf(body: unknown): string | ToolCall {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new InputError('body must be a JSON object {"text": "..."} or {"tool": "...", "arguments": {...}}');
  const b = body as Record<string, unknown>;
  const keys = Object.keys(b).sort().join(',');
  if (keys === 'text') {
    if (typeof b['text'] !== 'string') throw new InputError('text must be a string');
    return b['text'];
  }
  if (keys === 'arguments,tool') {
    if (typeof b['tool'] !== 'string') throw new InputError('tool must be a string');
    const args = b['arguments'];
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new InputError('arguments must be a JSON object');
    return { tool: b['tool'], arguments: args as Record<string, unknown> };
  }
  const extra = Object.keys(b).find((k) => !['text', 'tool', 'arguments'].includes(k));
  throw new InputError(extra !== undefined ? `unknown field "${extra.slice(0, 40)}": the body is {"text": "..."} or {"tool": "...", "arguments": {...}}` : 'give either {"text": "..."} or {"tool": "...", "arguments": {...}}');
}

/** A session's errors in HTTP terms: a send out of turn is a 409. */
function asHttp(e: unknown): unknown {
  return e instanceof StateError ? new RequestError(409, e.message) : e;
}

/** Adds the `serve --env` API and page to a server's fastify app (before it listens). */
export function registerEnvRoutes(app: FastifyInstance, o: EnvRoutesOptions): void {
  const sessions = new Map<string, { session: EnvSession; last: number }>();
  const recorded = new WeakSet<EnvSession>();
  const maxSessions = o.maxSessions ?? 1000;
  const idleMs = o.idleMs ?? 30 * 60_000;
  const maxText = o.maxText ?? 500;
  const waitMs = o.waitMs ?? 20_000;
  const now = o.now ?? Date.now;
  const newId = o.newId ?? randomUUID;
  let nextSeed = o.firstSeed;
  const logError = o.logError ?? ((text: string) => process.stderr.write(text + '\n'));
  /** Hands a session's record to `onRecord` once it has one (the episode ended, not abandoned). */
  const collect = (s: EnvSession | undefined): void => {
    if (!s || recorded.has(s) || !o.onRecord) return;
    const rec = s.record();
    if (!rec) return;
    recorded.add(s);
    try {
      o.onRecord(rec);
    } catch (e) {
      logError(`serve --env: a finished dialog's record not kept: ${(e instanceof Error ? e.message : String(e)).split('\n')[0] ?? ''}`);
    }
  };
  const drop = (id: string): void => {
    const s = sessions.get(id);
    if (!s) return;
    collect(s.session);
    sessions.delete(id);
    void s.session.close();
  };
  const sweep = (): void => {
    const t = now();
    for (const [id, s] of sessions) if (t - s.last > idleMs) drop(id);
  };
  const get = (id: string): EnvSession => {
    const s = sessions.get(id);
    if (!s || now() - s.last > idleMs) {
      drop(id);
      throw new SessionNotFoundError(`unknown or expired session: ${id.slice(0, 64)}`);
    }
    s.last = now();
    return s.session;
  };
  /** The state once `p` settles or `waitMs` passed, whichever first (an ended episode's record collected). */
  const within = async (p: Promise<unknown>, s: EnvSession): Promise<SessionState> => {
    try {
      return await settledState(p, s);
    } finally {
      collect(s);
    }
  };
  const settledState = async (p: Promise<unknown>, s: EnvSession): Promise<SessionState> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    } catch (e) {
      throw asHttp(e);
    } finally {
      clearTimeout(timer);
    }
    return s.state();
  };

  app.get('/api/env', async () => ({ env: o.envId, role: o.role, free: o.free === true, sessions: sessions.size, maxText }));
  app.post<{ Body: unknown }>('/api/env/sessions', async (req, reply) => {
    const b = req.body;
    if (b !== undefined && b !== null && (typeof b !== 'object' || Array.isArray(b) || Object.keys(b).length > 0)) throw new InputError('POST /api/env/sessions takes no body (or {})');
    sweep();
    if (sessions.size >= maxSessions) throw new CapacityError(`too many sessions (${maxSessions}); try again later`);
    const id = newId();
    let begun: EnvSession | undefined;
    const session = EnvSession.begin({
      envId: o.envId,
      seed: nextSeed++,
      role: o.role,
      idleMs,
      agentTimeoutMs: o.agentTimeoutMs ?? 20_000,
      maxText,
      ...(o.envOptions ? { envOptions: o.envOptions } : {}),
      ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
      ...(o.agent ? { agent: o.agent } : {}),
      ...(o.userVoice ? { userVoice: o.userVoice } : {}),
      ...(o.free ? { free: true } : {}),
      // The last turns are told once the episode's record is kept: collected then, whoever waits for the page.
      ...(o.onRecord ? { onTurn: () => collect(begun) } : {}),
    });
    begun = session;
    sessions.set(id, { session, last: now() });
    return reply.code(201).send({ id, state: await within(session.settled(), session) });
  });
  app.get<{ Params: { id: string }; Querystring: { wait?: string } }>('/api/env/sessions/:id', async (req) => {
    const s = get(req.params.id);
    const state = req.query.wait === '1' ? await within(s.settled(), s) : s.state();
    return { id: req.params.id, state };
  });
  app.post<{ Params: { id: string }; Body: unknown }>('/api/env/sessions/:id/send', async (req) => {
    const s = get(req.params.id);
    const input = inputOf(req.body);
    const sent = s.send(input);
    sent.catch(() => {}); // answered below (or the page asks again with ?wait=1)
    return { id: req.params.id, state: await within(sent, s) };
  });
  app.post<{ Params: { id: string } }>('/api/env/sessions/:id/end', async (req) => {
    const s = get(req.params.id);
    await s.close();
    collect(s);
    return { id: req.params.id, state: s.state() };
  });
  app.delete<{ Params: { id: string } }>('/api/env/sessions/:id', async (req, reply) => {
    if (!sessions.has(req.params.id)) throw new SessionNotFoundError(`unknown or expired session: ${req.params.id.slice(0, 64)}`);
    drop(req.params.id);
    return reply.code(204).send();
  });
  for (const [path, file, type] of WEB) {
    const f = join(o.webDir, file);
    if (!existsSync(f)) continue;
    const body = type.startsWith('text/html') ? withTextLimit(readFileSync(f), maxText) : readFileSync(f);
    app.get(path, async (_req, reply) => reply.type(type).header('content-security-policy', CSP).send(body));
  }
  const timer = setInterval(sweep, 60_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    for (const s of sessions.values()) collect(s.session);
    const all = [...sessions.values()].map((s) => s.session.close());
    sessions.clear();
    await Promise.all(all);
    await o.agent?.close?.();
  });
}
