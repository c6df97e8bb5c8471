/**
 * The study server (`dialogym study serve <dir>`): each participant plays their sessions of a study
 * (`study/`) in the browser, one environment episode per session on an {@link EnvSession}, against
 * the agent the store assigned (random, balanced, blind); every turn is written to the store as it
 * happens, the end with the environment's judgement and the episode's record, then the study's
 * questions. An admin page behind the token shows live counts per agent and closes the study.
 *
 *   GET  /                       the start page (a participant enters their code)
 *   GET  /p/:code                a participant's page (the link handed out)
 *   GET  /admin                  the admin page (asks for the token)
 * The participant's API — the code in the `x-study-code` header; no code 401, a code of no one 403:
 *   GET  /api/me                 {title, role, questions, closed, done, total, sessions:[{id, number, status, success?}], open?, interrupted?}
 *   POST /api/sessions           201 the next session, or the participant's open one (resumed)
 *   GET  /api/sessions/:id       a session of theirs: {id, number, status, state?, turns?, outcome?, answers}
 *   POST /api/sessions/:id/messages  {text} or {tool, arguments} → the session
 *   POST /api/sessions/:id/answers   {answers: {question: value}} → the session
 * The admin's API — `authorization: Bearer <token>`; none 401, a wrong one 403:
 *   GET  /api/admin              {title, env, role, closed, participants, agents:[{agent, sessions, open, finished, abandoned, successes}]}
 *   POST /api/admin/close        closes the study (no new session; open ones may finish)
 *
 * Safe with strangers: a participant reaches only their own sessions (another's id is a 404, the
 * same as an id of no one); every text is cut (the person's at `maxText`, any turn shown or stored at
 * `MAX_SHOWN_TEXT`) and the pages set text with `textContent` only (a CSP forbids inline script);
 * codes and token are 128 and 192 random bits, compared by hash (the token in constant time), sent
 * in headers (never in a logged path or a query); the participant's answers name no agent: the
 * state is rebuilt field by field from what the page renders, an agent-side failure (a timeout, an
 * exited process, an HTTP or LLM error) is one neutral line, the transport's name never reaches the
 * episode, and an unexpected error is a neutral 502 with the details only in the server's log.
 *
 * One server per study: at start the server claims the study in its store (`StudyStore.claim`: its
 * pid, then its port), and a second server, or `study simulate`, on the same folder is refused while
 * this process lives; a claim left by a process killed with `kill -9` is taken over.
 *
 * Interrupted sessions: while the server runs, an open session is resumed (a reload, another tab,
 * a later visit) until it has been idle `idleMs`, when it is marked abandoned; at start, the
 * sessions an earlier run left open (a crash, `kill -9`, a restart) are marked abandoned — their
 * episode (the environment's state, the agent's conversation) died with that process, and a replay
 * would not be the same dialog. An abandoned session is never counted; its slot (its agent and its
 * goal) goes to the next session started.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ConfigError, DialogymError, InputError, InvalidActionError, StateError } from '../core/errors.js';
import { make, type ToolCall } from '../env/env.js';
import type { GoalCard } from '../env/person.js';
import type { AgentTransport } from '../agents/agent.js';
import type { AgentRequest } from '../agents/protocol.js';
import type { EpisodeRecord } from '../evaluation/evaluate.js';
import type { AgentSpec } from '../study/config.js';
import { openStudyAgent } from '../study/agents.js';
import { MAX_TURN_CHARS, type StudyStore } from '../study/store.js';
import { EnvSession, personViewOf, type SessionState, type SessionTurn } from './env-session.js';
import { createApp, gracefulClose, HTTP_DEFAULTS, internalErrorText, listenUrl, noSniffNoStore, pathOf, RequestError, type CloseReport } from './http.js';
import { defaultWebDir } from './server.js';
import { withTextLimit } from './web-page.js';

/** Options of {@link createStudyServer}. */
export interface StudyServerOptions {
  /** Per-turn reply timeout of the agents, ms (default 20,000). */
  readonly timeoutMs?: number;
  /** Extra time for the first reply of an agent's connection, ms (an agent process starting; default 30,000). */
  readonly startupMs?: number;
  /** Longest message a participant sends, in characters; a longer one is cut to it (default 500). */
  readonly maxText?: number;
  /** An open session idle this long is marked abandoned (ms, default 30 min). */
  readonly idleMs?: number;
  /** How often idle sessions are swept (ms, default 60 s). */
  readonly sweepMs?: number;
  /** Largest request body in bytes (default 16 KiB). */
  readonly bodyLimit?: number;
  /** A whole request must arrive within this (ms, default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Opens an agent's transport (default `openStudyAgent` with `llmSystem`). */
  readonly open?: (spec: AgentSpec) => Promise<AgentTransport>;
  /** The system message of an LLM agent's episode (`llm` specs; dialogym's: `llmSystemMessage`). */
  readonly llmSystem?: (request: AgentRequest) => string;
  /** Folder of the pages (default: the package's `src/serve/web`). */
  readonly webDir?: string;
  /** Where an unexpected error is logged with its stack (default: stderr). Never given a code or the token. */
  readonly logError?: (text: string) => void;
  /** Clock in ms (default `Date.now`; tests move it instead of waiting). */
  readonly now?: () => number;
}

/** Defaults of {@link StudyServerOptions}. */
export const STUDY_SERVER_DEFAULTS = { timeoutMs: 20_000, startupMs: 30_000, maxText: 500, idleMs: 30 * 60_000, sweepMs: 60_000, bodyLimit: 16 * 1024 } as const;

/** Longest text of a turn shown to a participant or stored (an agent's reply is cut to it). */
export const MAX_SHOWN_TEXT = 4000;

/** What a participant reads of an agent-side failure (the episode is blind: `EnvSession`'s `blind`). */
export { NEUTRAL_FAILURE } from './env-session.js';
/** What a participant is told when their session could not go on (the details are in the server's log). */
export const NEUTRAL_ERROR = 'Something went wrong on our side: this conversation was set aside and does not count. Start the next one.';

/** A running study server. */
export interface StudyServer {
  readonly app: import('fastify').FastifyInstance;
  /** Sessions marked abandoned at start (left open by an earlier run). */
  readonly abandonedAtStart: number;
  /** Live sessions (episodes in memory). */
  readonly live: number;
  /** Starts listening; resolves to the base URL. */
  listen(port: number, host: string): Promise<string>;
  /** Stops gracefully (`gracefulClose`), then closes the live episodes (left open in the store: the next start abandons them) and the agents' transports. */
  close(graceMs?: number, signal?: AbortSignal): Promise<CloseReport>;
}

interface Live {
  readonly id: number;
  readonly participant: number;
  readonly number: number;
  readonly env: EnvSession;
  lastUsed: number;
  busy: boolean;
}

/** What a finished session shows besides its turns: the outcome in words, the goal card. */
interface Ended {
  readonly outcome?: { success: boolean; lines: string[] };
  readonly goalCard?: GoalCard;
}

/** `s` cut to `n` characters (an ellipsis marks the cut). */
function cut(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

/** A tool call as shown and stored: its name and arguments, or a marker when its JSON is too long. */
function boundedTool(t: ToolCall): ToolCall {
  const json = JSON.stringify(t.arguments ?? {});
  return json.length <= MAX_SHOWN_TEXT ? { tool: cut(String(t.tool), 100), arguments: t.arguments } : { tool: cut(String(t.tool), 100), arguments: { truncated: true, chars: json.length } };
}

/** A turn as a participant sees it and as the store keeps it: the speaker, the text cut, the tool call bounded. */
function shownTurn(t: SessionTurn): SessionTurn {
  return { speaker: t.speaker, text: cut(String(t.text ?? ''), MAX_SHOWN_TEXT), ...(t.tool ? { tool: boundedTool(t.tool) } : {}) };
}

/** An outcome as a participant sees it: its lines cut (the episode is blind: an agent-side failure already reads neutrally). */
function shownOutcome(o: { readonly success: boolean; readonly failure: string | null; readonly lines: readonly string[] }): { success: boolean; lines: string[] } {
  return { success: o.success, lines: o.lines.map((l) => cut(String(l), MAX_SHOWN_TEXT)) };
}

/** A goal card as shown: its lines cut. */
function shownCard(c: GoalCard): GoalCard {
  return { title: cut(String(c.title), 200), lines: c.lines.slice(0, 100).map((l) => cut(String(l), 500)) };
}

/**
 * The state a participant's page renders, rebuilt field by field (module description): nothing
 * the environment session may carry besides these reaches the page.
 */
function shownState(s: SessionState, hints: boolean): Record<string, unknown> {
  return {
    role: s.role,
    waiting: s.waiting,
    ...(s.wordless ? { wordless: true } : {}),
    turns: s.turns.map(shownTurn),
    ...(s.goalCard ? { goalCard: shownCard(s.goalCard) } : {}),
    ...(s.hint !== undefined && hints ? { hint: cut(s.hint, 500) } : {}),
    ...(s.agentView ? { agentView: s.agentView } : {}),
    ...(s.tools ? { tools: s.tools } : {}),
    ...(s.outcome ? { outcome: shownOutcome(s.outcome) } : {}),
  };
}

/** The stored form of a turn's content (what `addTurn` keeps). */
function storedTurn(t: SessionTurn): Record<string, unknown> {
  const s = shownTurn(t);
  const content: Record<string, unknown> = { text: s.text, ...(s.tool ? { tool: s.tool } : {}) };
  return JSON.stringify(content).length <= MAX_TURN_CHARS ? content : { text: cut(s.text, 1000) };
}

const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
} as const;

const PAGES: Readonly<Record<string, { file: string; type: string }>> = {
  '/study.js': { file: 'study.js', type: 'text/javascript; charset=utf-8' },
  // The modules study.js imports, shared with `serve --env`'s page.
  '/dom.js': { file: 'dom.js', type: 'text/javascript; charset=utf-8' },
  '/session-view.js': { file: 'session-view.js', type: 'text/javascript; charset=utf-8' },
  '/study.css': { file: 'study.css', type: 'text/css; charset=utf-8' },
  '/study-admin.js': { file: 'study-admin.js', type: 'text/javascript; charset=utf-8' },
};

/** Maps a thrown error to a status and a one-line message (no stack, nothing of an agent). */
function errorReply(e: unknown, bodyLimit: number): { status: number; error: string } {
  if (e instanceof RequestError) return { status: e.statusCode, error: e.message };
  const fe = e as Partial<FastifyError>;
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, error: `request body too large (limit ${bodyLimit} bytes)` };
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, error: 'content type must be application/json' };
  if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return { status: 400, error: 'empty JSON body' };
  if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError) return { status: 400, error: 'invalid JSON body' };
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) return { status: fe.statusCode, error: (fe.message ?? 'bad request').split('\n')[0] as string };
  return { status: 500, error: 'internal error' };
}

/** One line of a person-input error (the environment refused what the person sent), bounded. */
const inputLine = (e: Error): string => cut(e.message.split('\n')[0] ?? 'not accepted', 300);

/**
 * The study server over an open study store (module description). The environments and
 * dialogym's agents must be registered (`import 'dialogym'`). Claims the study (a ConfigError while
 * another live process serves it) and marks the sessions an earlier run left open abandoned before
 * it answers anything; closing the server releases the claim.
 */
export function createStudyServer(store: StudyStore, opts: StudyServerOptions = {}): StudyServer {
  const config = store.config;
  const timeoutMs = opts.timeoutMs ?? STUDY_SERVER_DEFAULTS.timeoutMs;
  const startupMs = opts.startupMs ?? STUDY_SERVER_DEFAULTS.startupMs;
  const maxText = opts.maxText ?? STUDY_SERVER_DEFAULTS.maxText;
  const idleMs = opts.idleMs ?? STUDY_SERVER_DEFAULTS.idleMs;
  const bodyLimit = opts.bodyLimit ?? STUDY_SERVER_DEFAULTS.bodyLimit;
  const now = opts.now ?? Date.now;
  const logError = opts.logError ?? ((text: string) => process.stderr.write(text + '\n'));
  const openAgent = opts.open ?? ((spec: AgentSpec) => openStudyAgent(spec, { seed: config.seed, startupMs, ...(opts.llmSystem ? { llmSystem: opts.llmSystem } : {}) }));

  // One server per study: refused while another live process holds it (module description).
  const claim = store.claim('serve');
  const abandonedAtStart = claim.abandoned;
  const live = new Map<number, Live>();
  /** The outcome in words and the goal card of finished sessions (of this run, or rebuilt for one of an earlier run). */
  const ended = new Map<number, Ended>();
  /** Keeps what a finished session shows (the 10,000 most recent). */
  const remember = (id: number, e: Ended): Ended => {
    ended.set(id, e);
    if (ended.size > 10_000) ended.delete(ended.keys().next().value as number);
    return e;
  };
  const transports = new Map<string, Promise<AgentTransport>>();
  /** Per participant, the start of a session in progress (a second start waits for it: one open session each). */
  const starting = new Map<number, Promise<unknown>>();

  // The pages: read once; the message box takes exactly `maxText`.
  const webDir = opts.webDir ?? defaultWebDir();
  const page = (file: string): Buffer => {
    const f = join(webDir, file);
    if (!existsSync(f)) throw new ConfigError(`${f}: the study pages are missing from this installation`);
    return withTextLimit(readFileSync(f), maxText);
  };
  const participantPage = page('study.html');
  const adminPage = page('study-admin.html');

  const app = createApp({ bodyLimit, ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}) }, (req) => `not found: ${req.method} ${pathOf(req).slice(0, 200)}`);
  app.setErrorHandler((err, req, reply) => {
    const { status, error } = errorReply(err, bodyLimit);
    // A 5xx of our own (a RequestError: an agent that could not play) was logged with its reason where it was thrown; anything else is a bug, logged with its stack.
    if (status >= 500 && !(err instanceof RequestError)) logError(internalErrorText('study serve', err, req));
    void reply.code(status).type('application/json; charset=utf-8').send({ error });
  });
  noSniffNoStore(app);

  const sendPage = (reply: FastifyReply, body: Buffer): FastifyReply => reply.type('text/html; charset=utf-8').headers(PAGE_HEADERS).send(body);
  app.get('/', async (_req, reply) => sendPage(reply, participantPage));
  app.get('/p/:code', async (_req, reply) => sendPage(reply, participantPage));
  app.get('/admin', async (_req, reply) => sendPage(reply, adminPage));
  for (const [path, f] of Object.entries(PAGES)) {
    const body = readFileSync(join(webDir, f.file));
    app.get(path, async (_req, reply) => reply.type(f.type).headers(PAGE_HEADERS).send(body));
  }

  /** The participant of the request's code (401 without one, 403 for a code of no one). */
  const participantOf = (req: FastifyRequest): number => {
    const code = req.headers['x-study-code'];
    if (typeof code !== 'string' || code === '') throw new RequestError(401, 'no participant code (send it in the x-study-code header)');
    const p = code.length <= 100 ? store.participantByCode(code) : undefined;
    if (!p) throw new RequestError(403, 'unknown participant code');
    return p.id;
  };
  /** Whether the request carries the admin token (401 without one, 403 for a wrong one). */
  const requireAdmin = (req: FastifyRequest): void => {
    const h = req.headers['authorization'];
    const token = typeof h === 'string' && /^Bearer\s+/i.test(h) ? h.replace(/^Bearer\s+/i, '').trim() : '';
    if (token === '') throw new RequestError(401, 'the admin token is needed (authorization: Bearer <token>)');
    if (token.length > 200 || !store.isAdmin(token)) throw new RequestError(403, 'wrong admin token');
  };
  /** The id in a path, or 404 (an id that is no number is one of no one). */
  const idOf = (raw: string): number => {
    if (!/^[1-9][0-9]{0,9}$/.test(raw)) throw new RequestError(404, 'no such session');
    return Number(raw);
  };

  const transportOf = (spec: AgentSpec): Promise<AgentTransport> => {
    let t = transports.get(spec.label);
    if (!t) {
      // The transport's name (a command line, a URL) never reaches the episode: a neutral one
      // instead. The reply limits are the episode's (`agentTimeoutMs`; the first reply of an agent
      // process `startupMs` more, as the transport opens it).
      t = openAgent(spec).then((inner) => ({
        name: 'agent',
        connect: (lane: number) => inner.connect(lane),
        ...(inner.close ? { close: () => (inner.close as () => Promise<void>)() } : {}),
      }));
      t.catch(() => transports.delete(spec.label));
      transports.set(spec.label, t);
    }
    return t;
  };

  /** Drops a live episode (its store session stays as it is unless `abandon`). */
  const drop = async (l: Live, abandon: boolean): Promise<void> => {
    live.delete(l.id);
    if (abandon) {
      try {
        store.abandon(l.id);
      } catch {
        /* no longer open */
      }
    }
    await l.env.close().catch(() => {});
  };

  /** After a step: an ended episode is finished in the store with the environment's judgement and its record. */
  const settle = async (l: Live, state: SessionState): Promise<void> => {
    if (state.waiting !== 'ended') return;
    const rec = l.env.record();
    if (!rec) {
      // Ended unplayed (the agent could not start, or the person left it): set aside, never counted.
      logError(`study serve: session ${l.id} (agent ${store.agentOf(l.id).label}) ended unplayed: ${state.outcome?.lines.join(' ') ?? 'no outcome'}`);
      await drop(l, true);
      throw new RequestError(502, NEUTRAL_ERROR);
    }
    const spec = store.agentOf(l.id);
    const participant = store.participant(l.participant).label;
    store.finishSession(l.id, { success: rec.success, reward: rec.reward, turns: rec.turns, failure: rec.failure }, { ...(rec as EpisodeRecord), episode: l.id - 1, agent: spec.label, participant, session: l.number });
    remember(l.id, { ...(state.outcome ? { outcome: shownOutcome(state.outcome) } : {}), ...(state.goalCard ? { goalCard: shownCard(state.goalCard) } : {}) });
    await drop(l, false);
  };

  /**
   * The outcome in words and the goal card of a session finished by an earlier run: from the
   * environment's person view, the stored record's detail and the episode's reset (its seed).
   */
  const rebuilt = (id: number, seed: number, success: boolean, failure: string | null): Ended => {
    try {
      const view = personViewOf(config.env);
      const detail = store.recordOf(id)?.['detail'];
      const lines = view.outcome({ success, failure, ...(detail !== undefined ? { detail } : {}), info: {} });
      const card = config.role === 'user' ? view.goalCard(make(config.env, config.envOptions).reset({ seed, variant: 0 }).info) : undefined;
      const known = { outcome: shownOutcome({ success, failure, lines }), ...(card ? { goalCard: shownCard(card) } : {}) };
      return remember(id, known);
    } catch {
      return {};
    }
  };

  /** A session as its participant sees it. */
  const sessionPayload = (participant: number, id: number, state?: SessionState): Record<string, unknown> => {
    // A live conversation of this participant: its state, no read of the store.
    const l = live.get(id);
    if (l && l.participant === participant) return { id, number: l.number, status: 'open', answers: {}, state: shownState(state ?? l.env.state(), config.hints) };
    const v = store.sessionView(participant, id);
    if (!v) throw new RequestError(404, 'no such session');
    const answers = v.status === 'finished' ? store.answersOf(id) : {};
    const base = { id: v.id, number: v.number, status: v.status, answers };
    const turns = v.turns.map((t) => {
      const c = (t.content ?? {}) as { text?: unknown; tool?: ToolCall };
      return { speaker: t.speaker, text: typeof c.text === 'string' ? c.text : '', ...(c.tool ? { tool: c.tool } : {}) };
    });
    if (v.status === 'finished') {
      const known = ended.get(id) ?? rebuilt(id, v.seed, v.outcome?.success ?? false, v.outcome?.failure ?? null);
      const outcome = known.outcome ?? { success: v.outcome?.success ?? false, lines: [v.outcome?.success ? 'The task was completed.' : 'The task was not completed.'] };
      return { ...base, turns, outcome, ...(known.goalCard ? { goalCard: known.goalCard } : {}) };
    }
    return { ...base, turns };
  };

  /** Starts the next session of a participant (or resumes their open one). */
  const startOrResume = async (participant: number): Promise<Record<string, unknown>> => {
    const p = store.participant(participant);
    if (p.open) {
      const l = live.get(p.open.id);
      if (l) {
        l.lastUsed = now();
        return sessionPayload(participant, l.id);
      }
      // Open in the store but not in memory (cannot happen after the start-up sweep; kept safe).
      store.abandon(p.open.id);
    }
    let s;
    try {
      s = store.startSession(participant);
    } catch (e) {
      if (e instanceof ConfigError) throw new RequestError(409, /closed/.test(e.message) ? 'the study is closed: thank you for taking part' : /all \d+ sessions/.test(e.message) ? 'you have played all your sessions: thank you' : e.message);
      throw e;
    }
    const spec = store.agentOf(s.id);
    let env: EnvSession;
    try {
      const agent = config.role === 'user' ? await transportOf(spec) : undefined;
      env = await EnvSession.start({
        envId: config.env,
        envOptions: config.envOptions,
        seed: s.seed,
        role: config.role,
        ...(agent ? { agent } : {}),
        idleMs,
        agentTimeoutMs: timeoutMs,
        blind: true,
        maxText,
        onTurn: (t) => {
          try {
            store.addTurn(s.id, t.speaker, storedTurn(t));
          } catch (e) {
            logError(`study serve: session ${s.id}: a turn not stored: ${(e as Error).message}`);
          }
        },
      });
    } catch (e) {
      store.abandon(s.id);
      logError(`study serve: session ${s.id} (agent ${spec.label}) could not start: ${(e as Error).message ?? String(e)}`);
      throw new RequestError(502, NEUTRAL_ERROR);
    }
    const l: Live = { id: s.id, participant, number: s.number, env, lastUsed: now(), busy: false };
    live.set(s.id, l);
    const state = env.state();
    await settle(l, state);
    return sessionPayload(participant, s.id, state);
  };

  app.get('/api/me', async (req) => {
    const id = participantOf(req);
    const p = store.participant(id);
    const sessions = store.sessionsOf(id).map((s) => ({ id: s.id, number: s.number, status: s.status, ...(s.outcome ? { success: s.outcome.success } : {}) }));
    return {
      title: config.title,
      role: config.role,
      questions: config.questions,
      closed: store.closed,
      done: p.finished,
      total: p.sessionsPerParticipant,
      sessions,
      ...(p.open && live.has(p.open.id) ? { open: p.open.id } : {}),
      // Their latest conversation was set aside (a restart, idle too long, a failure on our side): the page says so once, until the next starts.
      ...(store.lastSession(id)?.status === 'abandoned' ? { interrupted: true } : {}),
    };
  });

  app.post('/api/sessions', async (req, reply) => {
    const id = participantOf(req);
    const b = req.body;
    if (b !== undefined && b !== null && (typeof b !== 'object' || Array.isArray(b) || Object.keys(b).length > 0)) throw new RequestError(400, 'POST /api/sessions takes no body (or {})');
    const before = starting.get(id);
    const run = (before ?? Promise.resolve()).catch(() => {}).then(() => startOrResume(id));
    starting.set(id, run);
    try {
      return reply.code(201).send(await run);
    } finally {
      if (starting.get(id) === run) starting.delete(id);
    }
  });

  app.get<{ Params: { id: string } }>('/api/sessions/:id', async (req) => {
    const participant = participantOf(req);
    const id = idOf(req.params.id);
    const l = live.get(id);
    if (l && l.participant === participant) l.lastUsed = now();
    return sessionPayload(participant, id);
  });

  app.post<{ Params: { id: string }; Body: unknown }>('/api/sessions/:id/messages', async (req) => {
    const participant = participantOf(req);
    const id = idOf(req.params.id);
    const l = live.get(id);
    if (!l || l.participant !== participant) {
      const v = store.sessionView(participant, id);
      if (!v) throw new RequestError(404, 'no such session');
      throw new RequestError(409, v.status === 'finished' ? 'this conversation has ended' : 'this conversation was interrupted and set aside (it does not count): start the next one');
    }
    const body = req.body as Record<string, unknown> | null | undefined;
    let input: string | ToolCall;
    if (body && typeof body === 'object' && !Array.isArray(body) && typeof body['text'] === 'string' && Object.keys(body).length === 1) input = body['text']; // normalised, then cut to maxText, by the session (a cut first could leave only the blank lines of a paste)
    else if (body && typeof body === 'object' && !Array.isArray(body) && typeof body['tool'] === 'string' && body['arguments'] !== null && typeof body['arguments'] === 'object' && !Array.isArray(body['arguments']) && Object.keys(body).length === 2) input = { tool: body['tool'], arguments: body['arguments'] as Record<string, unknown> };
    else throw new RequestError(400, 'the body is {"text": "..."} or {"tool": "...", "arguments": {...}}');
    if (l.busy) throw new RequestError(409, 'wait for the reply to your last message');
    if (l.env.state().waiting !== 'person') throw new RequestError(409, 'it is not your turn');
    l.busy = true;
    l.lastUsed = now();
    let state: SessionState;
    try {
      state = await l.env.send(input);
    } catch (e) {
      // What the person sent was refused (their words or their form): say why; the episode goes on.
      if (e instanceof InputError || e instanceof InvalidActionError || e instanceof ConfigError) throw new RequestError(400, inputLine(e));
      if (e instanceof StateError) throw new RequestError(409, inputLine(e));
      logError(`study serve: session ${id} (agent ${store.agentOf(id).label}): ${(e as Error).message ?? String(e)}`);
      await drop(l, true);
      throw new RequestError(502, NEUTRAL_ERROR);
    } finally {
      l.busy = false;
      l.lastUsed = now();
    }
    await settle(l, state);
    return sessionPayload(participant, id, state);
  });

  app.post<{ Params: { id: string }; Body: unknown }>('/api/sessions/:id/answers', async (req) => {
    const participant = participantOf(req);
    const id = idOf(req.params.id);
    const v = store.sessionView(participant, id);
    if (!v) throw new RequestError(404, 'no such session');
    const body = req.body as { answers?: unknown } | null | undefined;
    const answers = body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 1 ? body.answers : undefined;
    if (answers === null || typeof answers !== 'object' || Array.isArray(answers)) throw new RequestError(400, 'the body is {"answers": {"<question>": value}}');
    const entries = Object.entries(answers as Record<string, unknown>);
    if (entries.length > config.questions.length) throw new RequestError(400, `at most ${config.questions.length} answers`);
    try {
      for (const [q, value] of entries) {
        if (typeof value !== 'string' && typeof value !== 'number') throw new ConfigError(`${cut(q, 60)}: must be a number or a text`);
        store.answer(id, q, value);
      }
    } catch (e) {
      if (e instanceof ConfigError) throw new RequestError(v.status === 'finished' ? 400 : 409, inputLine(e));
      throw e;
    }
    return sessionPayload(participant, id);
  });

  app.get('/api/admin', async (req) => {
    requireAdmin(req);
    const all = store.sessions();
    const agents = config.agents.map((a) => {
      const mine = all.filter((s) => s.agent === a.label);
      const finished = mine.filter((s) => s.status === 'finished');
      return {
        agent: a.label,
        sessions: mine.filter((s) => s.status !== 'abandoned').length,
        open: mine.filter((s) => s.status === 'open').length,
        finished: finished.length,
        abandoned: mine.filter((s) => s.status === 'abandoned').length,
        successes: finished.filter((s) => s.outcome?.success).length,
      };
    });
    const participants = store.participantLabels().map((label) => {
      const p = store.participantByLabel(label);
      return { label, finished: p?.finished ?? 0, open: p?.open !== undefined };
    });
    return { title: config.title, env: config.env, role: config.role, closed: store.closed, sessionsPerParticipant: config.sessionsPerParticipant, live: live.size, participants, agents };
  });

  app.post('/api/admin/close', async (req) => {
    requireAdmin(req);
    store.closeStudy();
    return { closed: true };
  });

  const sweep = setInterval(() => {
    const t = now();
    for (const l of [...live.values()]) if (!l.busy && (t - l.lastUsed > idleMs || (l.env.state().waiting === 'ended' && !l.env.record()))) void drop(l, true);
  }, opts.sweepMs ?? STUDY_SERVER_DEFAULTS.sweepMs);
  sweep.unref();

  app.addHook('onClose', async () => {
    clearInterval(sweep);
    claim.release();
    await Promise.all([...live.values()].map((l) => drop(l, false)));
    const ts = await Promise.allSettled([...transports.values()]);
    await Promise.all(ts.map((t) => (t.status === 'fulfilled' ? t.value.close?.() : undefined)));
  });

  return {
    app,
    abandonedAtStart,
    get live() {
      return live.size;
    },
    listen: async (port, host) => {
      // Every agent opened before the first participant comes: one that cannot be (an LLM key not
      // set, a bad model file) would end each session it is assigned, and each next session takes
      // the set-aside slot — every participant blocked. Refused here in one line instead.
      if (config.role === 'user') {
        for (const spec of config.agents) {
          try {
            await transportOf(spec);
          } catch (e) {
            // In the library's words: the names are the study configuration's fields (`llmKeyEnv`), not a front end's flags.
            throw new ConfigError(e instanceof DialogymError ? e.message : `agent ${spec.label}: ${(e as Error).message ?? String(e)}`);
          }
        }
      }
      const url = await listenUrl(app, port, host);
      store.claimPort(Number(new URL(url).port));
      return url;
    },
    close: (graceMs = HTTP_DEFAULTS.graceMs, signal?: AbortSignal) => gracefulClose(app, graceMs, signal),
  };
}

