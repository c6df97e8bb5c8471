/**
 * The AirDialogue chat of `dialogym serve --airdialogue model.dgm`: a JSON API over `AirChat`
 * conversations with the learned models, and the web page at `/airdialogue`.
 *
 *   GET    /api/airdialogue                       {model, vocabulary, sessions, restaurant?}   (restaurant: '/' when the restaurant chat is hosted too)
 *   POST   /api/airdialogue/sessions              {role, seed?, ood?} → 201 {id, role, seed, context, turns, end}
 *   POST   /api/airdialogue/sessions/:id/messages {text} → {turns, end}   (the person's turn, the model's answer)
 *   POST   /api/airdialogue/sessions/:id/action   {status, name?, flight?} → {turns, end}   (playing the agent)
 *   POST   /api/airdialogue/sessions/:id/finish   → {turns, end}   (playing the customer: the agent acts now)
 *   GET    /api/airdialogue/sessions/:id          {id, role, seed, context, turns, end}
 *   DELETE /api/airdialogue/sessions/:id          204
 *
 * Bodies are checked against `schemas/serve-airdialogue-request.schema.json`; every error is one
 * line of JSON `{error}` from the server's error handler (400 bad body, 404 unknown session, 503
 * too many sessions). The sessions live in the HTTP thread; each keeps its models' GRU states.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { checkSchema } from '../formats/schema.js';
import type { AirModels } from '../testbeds/airdialogue/learned/train.js';
import { AirChat, type AirChatRole } from './airdialogue-chat.js';
import { SessionNotFoundError } from './backend.js';
import { InputError, SESSION_DEFAULTS } from './session.js';
import { withTextLimit } from './web-page.js';
import { CapacityError } from './sessions.js';

/** Options of `registerAirDialogueRoutes`. */
export interface AirRoutesOptions {
  /** Where the model came from (shown by `GET /api/airdialogue`). */
  readonly modelName: string;
  /** Folder holding airdialogue.{html,js,css}. */
  readonly webDir: string;
  /** Most live conversations (default 1,000). */
  readonly maxSessions?: number;
  /** A conversation unused this long is dropped (default 30 min). */
  readonly idleMs?: number;
  /** Longest kept message in characters (default 500). */
  readonly maxTextLength?: number;
  /** Utterances after which a dialogue ends unscored (default 40). */
  readonly maxTurns?: number;
  /** Whether the same server hosts the restaurant chat at `/` (`GET /api/airdialogue` then says so: the page links back to it). */
  readonly restaurant?: boolean;
  /** Clock and ids (tests). */
  readonly now?: () => number;
  readonly newId?: () => string;
}

const WEB: ReadonlyArray<[string, string, string]> = [
  ['/airdialogue', 'airdialogue.html', 'text/html; charset=utf-8'],
  ['/airdialogue.html', 'airdialogue.html', 'text/html; charset=utf-8'],
  ['/airdialogue.js', 'airdialogue.js', 'text/javascript; charset=utf-8'],
  ['/airdialogue.css', 'airdialogue.css', 'text/css; charset=utf-8'],
];
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

function checked<T>(def: 'session' | 'message' | 'action', body: unknown): T {
  const issue = checkSchema('serve-airdialogue-request', body, `#/$defs/${def}`);
  if (issue) throw new InputError(issue.path === '' && !issue.reason.startsWith('missing') && !issue.reason.startsWith('unknown') ? `body must be a JSON object (${def})` : issue.reason);
  return body as T;
}

/** Adds the AirDialogue chat API and page to a server's fastify app (before it listens). */
export function registerAirDialogueRoutes(app: FastifyInstance, models: AirModels, o: AirRoutesOptions): void {
  const sessions = new Map<string, { chat: AirChat; last: number }>();
  const maxSessions = o.maxSessions ?? 1000;
  const idleMs = o.idleMs ?? 30 * 60_000;
  const now = o.now ?? Date.now;
  const newId = o.newId ?? randomUUID;
  let nextSeed = 0;
  const sweep = (): void => {
    const t = now();
    for (const [id, s] of sessions) if (t - s.last > idleMs) sessions.delete(id);
  };
  const get = (id: string): AirChat => {
    const s = sessions.get(id);
    if (!s || now() - s.last > idleMs) {
      sessions.delete(id);
      throw new SessionNotFoundError(`unknown or expired session: ${id.slice(0, 64)}`);
    }
    s.last = now();
    return s.chat;
  };

  app.get('/api/airdialogue', async () => ({ model: o.modelName, vocabulary: models.vocab.size, sessions: sessions.size, ...(o.restaurant ? { restaurant: '/' } : {}) }));
  app.post<{ Body: unknown }>('/api/airdialogue/sessions', async (req, reply) => {
    const b = checked<{ role: AirChatRole; seed?: number; ood?: 0 | 1 | 2 }>('session', req.body ?? {});
    sweep();
    if (sessions.size >= maxSessions) throw new CapacityError(`too many sessions (${maxSessions}); try again later`);
    const chat = new AirChat(models, {
      role: b.role,
      seed: b.seed ?? nextSeed++,
      ood: b.ood ?? 0,
      ...(o.maxTextLength !== undefined ? { maxTextLength: o.maxTextLength } : {}),
      ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
    });
    const id = newId();
    sessions.set(id, { chat, last: now() });
    return reply.code(201).send({ id, ...chat.view() });
  });
  app.post<{ Params: { id: string }; Body: unknown }>('/api/airdialogue/sessions/:id/messages', async (req) => {
    const chat = get(req.params.id);
    return chat.say(checked<{ text: string }>('message', req.body).text);
  });
  app.post<{ Params: { id: string }; Body: unknown }>('/api/airdialogue/sessions/:id/action', async (req) => {
    const chat = get(req.params.id);
    const a = checked<{ status: string; name?: string; flight?: number }>('action', req.body);
    return chat.act({ status: a.status, name: a.name ?? '', flight: a.flight === undefined ? [] : [a.flight] });
  });
  // Playing the customer: the person asks the learned agent to act now (no body needed).
  app.post<{ Params: { id: string } }>('/api/airdialogue/sessions/:id/finish', async (req) => get(req.params.id).finishNow());
  app.get<{ Params: { id: string } }>('/api/airdialogue/sessions/:id', async (req) => ({ id: req.params.id, ...get(req.params.id).view() }));
  app.delete<{ Params: { id: string } }>('/api/airdialogue/sessions/:id', async (req, reply) => {
    if (!sessions.delete(req.params.id)) throw new SessionNotFoundError(`unknown or expired session: ${req.params.id.slice(0, 64)}`);
    return reply.code(204).send();
  });
  for (const [path, file, type] of WEB) {
    const f = join(o.webDir, file);
    if (!existsSync(f)) continue;
    const body = type.startsWith('text/html') ? withTextLimit(readFileSync(f), o.maxTextLength ?? SESSION_DEFAULTS.maxTextLength) : readFileSync(f);
    app.get(path, async (_req, reply) => reply.type(type).header('content-security-policy', CSP).send(body));
  }
  const timer = setInterval(sweep, 60_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    sessions.clear();
  });
}
