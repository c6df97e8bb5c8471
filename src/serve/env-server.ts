/**
 * The environment server (`dialogym env-server`): the agent drives, over HTTP/JSON, in any
 * language (as openai/gym-http-api did for Gym).
 *
 *   GET    /envs                        {protocol, envs:[{id, description, tools, schema?}]}
 *   POST   /envs/:id                    {options?} → 201 {session, env, tools}
 *   POST   /sessions/:sid/reset         {seed?, variant?} → {observation, info}
 *   POST   /sessions/:sid/step          {action} → {observation, reward, terminated, truncated, info}
 *   DELETE /sessions/:sid               204
 *
 * Every body is checked before the environment sees it: against its definition in
 * `schemas/agent-protocol.schema.json`, the options (by `make`) and the action against the schema of
 * the environment's family (`schemas/env-<family>.schema.json`: types and bounds — `maxTurns` at most
 * 1000, a KB of at most 100,000 restaurants, …), and its nesting (at most 32 levels). Errors are
 * JSON `{error}`, one line naming the field: invalid JSON, a bad body, option or action 400, step
 * outside an episode 409 (before the first reset, or after the episode ended), unknown environment
 * or session (or expired: sessions idle longer than `idleMs` are dropped, and never count against
 * `maxSessions`: they are dropped before the limit is checked) 404, another method on a
 * known path 405 (with `Allow`), body over the limit 413, wrong content type 415, too many sessions
 * 503. Anything else is a bug: logged with its stack (stderr), answered 500 `internal error`.
 *
 * `maxTurns` is the turn limit of every session as `evaluate` applies it (env/turn-limit.ts:
 * `sessionTurnLimit`): the testbed's own where it declares one, else the generic wrapper.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { ConfigError, InvalidActionError, StateError } from '../core/errors.js';
import { envSchema, envs, make, type Env, type EnvSchemaName, type ToolSpec } from '../env/env.js';
import { sessionTurnLimit, withTurnLimit } from '../env/turn-limit.js';
import { AGENT_PROTOCOL } from '../agents/protocol.js';
import { checkSchema } from '../formats/schema.js';
import { createApp, gracefulClose, HTTP_DEFAULTS, internalErrorText, RequestError, type CloseReport } from './http.js';

/** Options of `createEnvServer`. */
export interface EnvServerOptions {
  /** Most live sessions (default 1000). */
  readonly maxSessions?: number;
  /** Drop a session idle this long (default 30 min). */
  readonly idleMs?: number;
  /** Largest request body in bytes (default 64 KiB). */
  readonly bodyLimit?: number;
  /** How often idle sessions are swept (default 60 s). */
  readonly sweepMs?: number;
  /** A whole request must arrive within this (ms, default 30 s; its headers within min(10 s, this)). */
  readonly requestTimeoutMs?: number;
  /** Where an internal error is logged with its stack (default: stderr). */
  readonly logError?: (text: string) => void;
  /** Clock in ms (default `Date.now`; tests move it instead of waiting). */
  readonly now?: () => number;
  /**
   * Agent turns after which a session's episodes end, as `evaluate`'s `maxTurns`: an environment
   * whose testbed declares its own limit gets it as its options (unless the session's options set
   * it), any other is wrapped (`TurnLimit`: `truncated`, `info.truncatedBy`). Default: none (each
   * environment's own).
   */
  readonly maxTurns?: number;
}

interface EnvSession {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly env: Env<any, any>;
  /** The family schema its actions are checked against (none for an environment registered without one). */
  readonly schema: EnvSchemaName | undefined;
  lastUsed: number;
}

/** A running environment server. */
export interface EnvServer {
  readonly app: FastifyInstance;
  listen(port: number, host?: string): Promise<string>;
  /** Stops gracefully (`gracefulClose`): the requests in flight get their answers within `graceMs` (default 5 s); `signal` ends the wait. */
  close(graceMs?: number, signal?: AbortSignal): Promise<CloseReport>;
  /** Live sessions. */
  readonly size: number;
}

function toolsOf(info: Record<string, unknown>): ToolSpec[] {
  return (Array.isArray(info['tools']) ? info['tools'] : []) as ToolSpec[];
}

/** Builds the environment server over the registered environments (see the module description). */
export function createEnvServer(opts: EnvServerOptions = {}): EnvServer {
  const maxSessions = opts.maxSessions ?? 1000;
  if (opts.maxTurns !== undefined && (!Number.isSafeInteger(opts.maxTurns) || opts.maxTurns < 1)) throw new ConfigError(`maxTurns must be a positive integer, got ${String(opts.maxTurns)}`);
  const idleMs = opts.idleMs ?? 30 * 60_000;
  const bodyLimit = opts.bodyLimit ?? 64 * 1024;
  const sessions = new Map<string, EnvSession>();
  const now = opts.now ?? Date.now;
  let counter = 0;
  const toolCache = new Map<string, readonly ToolSpec[]>();
  const logError = opts.logError ?? ((text: string) => process.stderr.write(text + '\n'));
  const app = createApp({ bodyLimit, ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}) }, (req) => `no route ${req.method} ${req.url.slice(0, 200)}`);

  app.setErrorHandler((err: FastifyError | RequestError, req, reply) => {
    let status = 500;
    let message = 'internal error';
    if (err instanceof RequestError) [status, message] = [err.statusCode, err.message];
    else if (err instanceof InvalidActionError) [status, message] = [400, err.message];
    else if (err instanceof StateError) [status, message] = [409, err.message];
    else if (err instanceof ConfigError) [status, message] = [400, err.message];
    else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') [status, message] = [413, `request body too large (limit ${bodyLimit} bytes)`];
    else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') [status, message] = [415, 'content type must be application/json'];
    else if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') [status, message] = [400, 'empty JSON body'];
    else if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) [status, message] = [400, 'invalid JSON body'];
    else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) [status, message] = [err.statusCode, (err.message ?? 'bad request').split('\n')[0] as string];
    if (status === 500) logError(internalErrorText('env-server', err, req));
    void reply.status(status).send({ error: message });
  });

  const session = (sid: string): EnvSession => {
    const s = sessions.get(sid);
    if (!s || now() - s.lastUsed > idleMs) {
      sessions.delete(sid);
      throw new RequestError(404, `unknown or expired session '${sid}'`);
    }
    s.lastUsed = now();
    return s;
  };
  /** Drops the sessions idle longer than `idleMs` (before the limit is checked, and every `sweepMs`). */
  const dropExpired = (): void => {
    const t = now();
    for (const [sid, s] of sessions) if (t - s.lastUsed > idleMs) sessions.delete(sid);
  };
  /** The body checked against its definition in schemas/agent-protocol.schema.json (no body = `{}`). */
  const bodyOf = (kind: 'createSession' | 'reset' | 'step', body: unknown): Record<string, unknown> => {
    const b = body === undefined || body === null ? {} : body;
    const issue = checkSchema('agent-protocol', b, `#/$defs/${kind}`);
    if (issue) throw new RequestError(400, kind === 'createSession' && issue.reason.startsWith('unknown field') ? `${issue.reason}: the body is {"options": {…}}, environment options go inside "options"` : issue.reason);
    return b as Record<string, unknown>;
  };
  const toolsOfEnv = (id: string): readonly ToolSpec[] => {
    let t = toolCache.get(id);
    if (!t) {
      t = toolsOf(make(id).reset({ seed: 0 }).info);
      toolCache.set(id, t);
    }
    return t;
  };

  app.get('/envs', async () => ({
    protocol: AGENT_PROTOCOL,
    envs: envs.list().map((e) => {
      const schema = envSchema(e.name);
      return { id: e.name, description: e.description, tools: toolsOfEnv(e.name), ...(schema ? { schema: `${schema}.schema.json` } : {}) };
    }),
  }));

  app.post<{ Params: { id: string } }>('/envs/:id', async (req, reply) => {
    const id = req.params.id;
    if (!envs.has(id)) throw new RequestError(404, `unknown environment '${id}'`);
    dropExpired(); // expired sessions never hold a place until the next sweep
    if (sessions.size >= maxSessions) throw new RequestError(503, `too many sessions (limit ${maxSessions})`);
    const options = bodyOf('createSession', req.body)['options'] ?? {};
    const limited = sessionTurnLimit(id, options as Record<string, unknown>, opts.maxTurns);
    const env = withTurnLimit(make(id, limited.envOptions), limited.wrapper); // make checks the options: unknown keys, types and bounds (a ConfigError: 400)
    const sid = `s${++counter}-${Date.now().toString(36)}`;
    sessions.set(sid, { env, schema: envSchema(id), lastUsed: now() });
    return reply.status(201).send({ session: sid, env: id, tools: toolsOfEnv(id) });
  });

  app.post<{ Params: { sid: string } }>('/sessions/:sid/reset', async (req) => {
    const s = session(req.params.sid);
    const body = bodyOf('reset', req.body);
    const seed = body['seed'];
    const variant = body['variant'];
    const r = s.env.reset({ ...(seed !== undefined ? { seed: seed as number } : {}), ...(variant !== undefined ? { variant: variant as number } : {}) });
    return { observation: r.obs, info: r.info };
  });

  app.post<{ Params: { sid: string } }>('/sessions/:sid/step', async (req) => {
    const s = session(req.params.sid);
    const action = bodyOf('step', req.body)['action'];
    if (s.schema) {
      const issue = checkSchema(s.schema, action, '#/$defs/action', 'action');
      if (issue) throw new RequestError(400, issue.reason);
    }
    const r = s.env.step(action);
    return { observation: r.obs, reward: r.reward, terminated: r.terminated, truncated: r.truncated, info: r.info };
  });

  app.delete<{ Params: { sid: string } }>('/sessions/:sid', async (req, reply) => {
    session(req.params.sid);
    sessions.delete(req.params.sid);
    return reply.status(204).send();
  });

  const sweep = setInterval(dropExpired, opts.sweepMs ?? 60_000);
  sweep.unref();

  return {
    app,
    get size() {
      return sessions.size;
    },
    async listen(port, host = '127.0.0.1') {
      return app.listen({ port, host });
    },
    async close(graceMs = HTTP_DEFAULTS.graceMs, signal?: AbortSignal) {
      clearInterval(sweep);
      return gracefulClose(app, graceMs, signal);
    },
  };
}
