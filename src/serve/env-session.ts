/**
 * A person in an environment's episode (`dialogym serve --env`, the study server): one episode
 * played by the online evaluation driver (`evaluate`, one episode, the environment's own loop),
 * with a person on one side.
 *
 * - **As the user** (`role: 'user'`): the person is the episode's user voice. The environment's
 *   simulated user still decides what the user does, and the environment judges the end state
 *   exactly as for a simulated episode; the person's words replace the words the agent reads. The
 *   agent is any transport (a built-in agent, a process, an endpoint, a language model).
 * - **As the agent** (`role: 'agent'`): the person is the agent: each request (the observation, the
 *   tools) is shown and the person answers with text or a tool call; the simulated user speaks in
 *   the environment's words, or in the given voice's (an LLM user).
 *
 * The session publishes a {@link SessionState} (what the page renders: the dialog so far, the
 * goal card and the hint for a user, the agent's view and tools for an agent, the outcome in
 * words at the end) from the family's person view (`envPersonView`), or a generic one for an
 * environment without. The state never names the agent (blind studies).
 *
 * A person's text is normalised (control and format characters dropped, white space collapsed) and cut to
 * `maxText` characters, never refused for its length. The agent has `agentTimeoutMs` for each reply
 * (as `evaluate`: a late agent fails the episode); the person has `idleMs` for each turn (a person
 * who does not answer in time abandons the episode); `close` abandons it at once (the agent's
 * connection is closed: an agent process is ended).
 */
import { make, isToolCall, envPersonView, isWordlessTurn, type Env, type EnvOptions, type Info, type ToolCall, type ToolSpec } from '../env/env.js';
import { sessionTurnLimit, withTurnLimit } from '../env/turn-limit.js';
import { playEpisode } from '../env/episode.js';
import type { EndedEpisode, GoalCard, PersonView, ViewSection } from '../env/person.js';
import { DialogymError, InputError, StateError } from '../core/errors.js';
import type { Turn } from '../core/dialog.js';
import { evaluate, type EpisodeRecord } from '../evaluation/evaluate.js';
import type { UserTurn, UserVoice } from '../agents/user-voice.js';
import { detailInWords } from '../env/detail-words.js';
import { AgentError, readReply, type AgentFailure, type AgentRequest } from '../agents/protocol.js';
import type { AgentConnection, AgentTransport } from '../agents/agent.js';

/** The agent's per-reply limit when `agentTimeoutMs` is not given (ms; `evaluate --timeout`'s default). */
export const DEFAULT_AGENT_TIMEOUT_MS = 5000;

/** What a blind session says of an agent-side failure (a timeout, a crash, a malformed reply), instead of the transport's words. */
export const NEUTRAL_FAILURE = 'The other side stopped answering, so the conversation ended here.';

/** The agent-side failures (agents/protocol.ts): a blind session words them as {@link NEUTRAL_FAILURE}, never by name. */
const AGENT_FAILURES: ReadonlySet<string> = new Set<AgentFailure>(['invalid json', 'no action', 'unknown tool', 'bad arguments', 'invalid action', 'turn mismatch', 'reply too long', 'timeout', 'agent exited', 'http error', 'llm error', 'llm truncated']);

/** The outcome lines of a blind session's agent-side failure. */
const BLIND_FAILURE_LINES: readonly string[] = ['The task was not completed.', NEUTRAL_FAILURE];

/** Options of {@link EnvSession.start}. */
export interface EnvSessionOptions {
  readonly envId: string;
  readonly envOptions?: EnvOptions;
  /** The episode's seed (the task; variant 0). */
  readonly seed: number;
  /** The side the person plays. */
  readonly role: 'user' | 'agent';
  /** Role `user`: who answers the person (required). */
  readonly agent?: AgentTransport;
  /** Role `agent`: the simulated user's voice (default: the environment's own words). */
  readonly userVoice?: UserVoice;
  /** How long the agent may take for one reply (ms, as `evaluate`'s `timeoutMs`; default 5,000): an agent that does not answer in time fails the episode. */
  readonly agentTimeoutMs?: number;
  /** How long the person may take for one turn (ms): a person who does not answer in time abandons the episode. */
  readonly idleMs: number;
  /** Longest text of the person in characters (longer text is cut to it). */
  readonly maxText: number;
  /**
   * Blind (studies): an agent-side failure (timeout, crash, malformed reply, a fault starting it)
   * reads {@link NEUTRAL_FAILURE}, never the transport's error text (which may name the agent).
   */
  readonly blind?: boolean;
  /** Free chat: no goal card, no hint, nothing judged (the environment still runs; `close` ends it). */
  readonly free?: boolean;
  /**
   * Agent turns after which the episode ends, as `evaluate`'s `maxTurns` (env/turn-limit.ts
   * `sessionTurnLimit`): the testbed's own limit where it declares one (unless `envOptions` sets
   * it), else the generic wrapper; default: the environment's own.
   */
  readonly maxTurns?: number;
  /** Each turn as it happens (user, agent and KB turns, in order; the user turns that carry no words, `isWordlessTurn`, left out). */
  readonly onTurn?: (t: SessionTurn) => void;
}

/** One turn of the dialog as the page shows it: who, the words, and the tool call of an agent turn that made one. */
export interface SessionTurn {
  readonly speaker: 'user' | 'agent' | 'kb';
  readonly text: string;
  readonly tool?: ToolCall;
}

/** How an episode ended, for the page: success, the failure reason (null on success) and the outcome in words. */
export interface SessionOutcome {
  readonly success: boolean;
  readonly failure: string | null;
  readonly lines: readonly string[];
}

/** What the page renders (JSON). It never names the agent. */
export interface SessionState {
  readonly env: string;
  readonly role: 'user' | 'agent';
  /** The person's goal (role `user`, unless free). */
  readonly goalCard?: GoalCard;
  /** What the simulated user does now, in words (role `user`, unless free; where the environment tells). */
  readonly hint?: string;
  readonly turns: readonly SessionTurn[];
  /** Whose turn it is: the person's, the other side's, or nobody's (ended). */
  readonly waiting: 'person' | 'other' | 'ended';
  /**
   * Role `user`, the person's turn: the simulated user has nothing new to say this turn (the
   * environment's wordless turn, e.g. after the agent asked to wait). The person may say
   * something anyway, or send empty text to let the turn pass in silence.
   */
  readonly wordless?: true;
  /** What an agent sees besides the dialog (role `agent`). */
  readonly agentView?: readonly ViewSection[];
  /** The tools the person may call (role `agent`). */
  readonly tools?: readonly ToolSpec[];
  /** How it ended (once ended; a free chat has none). */
  readonly outcome?: SessionOutcome;
}

/** The person did not answer in time, or the session was closed: the episode is abandoned. */
export class SessionAbandoned extends DialogymError {
  constructor(readonly reason: 'timeout' | 'closed') {
    super(reason === 'timeout' ? 'nobody answered in time: the dialog was abandoned' : 'the session was closed');
  }
}

/**
 * Characters a person's text loses: control, format and private-use characters and lone
 * surrogates (a bidi override, a zero-width space, a soft hyphen, a BOM, the invisible tag
 * characters that can smuggle text to a model) — except a joiner where it joins (first
 * alternative, kept): U+200D inside an emoji sequence (👨‍👩‍👧), U+200C/U+200D between letters of a
 * script that writes with them (Persian می‌خواهم, Indic conjuncts). Dropped, not made a space:
 * none of them separates words.
 */
const DROPPED = /((?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F])\u200D(?=\p{Extended_Pictographic})|(?<=[\p{L}\p{M}])(?<!\p{Script=Latin})[\u200C\u200D](?=\p{L})(?!\p{Script=Latin}))|[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;

/**
 * A person's text as the session keeps it: NFC, white space runs (line breaks, tabs) as one space,
 * control and format characters dropped ({@link DROPPED}), trimmed, and cut to `max` characters
 * (never inside a surrogate pair).
 */
export function personText(s: string, max: number): string {
  const t = s.normalize('NFC').replace(/\s+/g, ' ').replace(DROPPED, (_c, joiner: string | undefined) => joiner ?? '').replace(/ {2,}/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd();
}

/** A wait in words: `40 seconds`, `30 minutes`. */
function duration(ms: number): string {
  const [n, unit] = ms < 120_000 ? [Math.max(1, Math.round(ms / 1000)), 'second'] : [Math.round(ms / 60_000), 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** `key: value` lines of an object (values as JSON unless strings), for the generic goal card. */
function keyValueLines(x: unknown): string[] {
  if (x === undefined || x === null) return [];
  if (typeof x !== 'object' || Array.isArray(x)) return [typeof x === 'string' ? x : JSON.stringify(x)];
  return Object.entries(x as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : Array.isArray(v) && v.every((e) => typeof e === 'string') ? v.join(', ') : JSON.stringify(v)}`);
}

/** The outcome lines of an ended episode without a person view: success or the failure, and why in words. */
export function genericOutcome(ended: EndedEpisode): string[] {
  if (ended.success) return ['Success: the goal was reached.'];
  const lines = [ended.failure === null || ended.failure === 'failed' ? 'Failure: the goal was not reached.' : `Failure: ${ended.failure}.`];
  const why = detailInWords(ended.detail);
  if (why !== undefined) lines.push(`Why: ${why}`);
  return lines;
}

/**
 * The person view of an environment whose testbed declares none: the goal card is the reset's
 * `info.goal` as `key: value` lines, the hint the step's `info.userAct` so written (when given),
 * no agent view, the outcome as success or the failure reason and its detail in words.
 */
export const GENERIC_PERSON_VIEW: PersonView = {
  goalCard: (info) => {
    const lines = keyValueLines(info['goal']);
    return { title: 'Your goal', lines: lines.length > 0 ? lines : ['(this environment gives no goal: talk as you like)'] };
  },
  userHint: (info) => {
    const lines = keyValueLines(info['userAct']);
    return lines.length > 0 ? lines.join('; ') : undefined;
  },
  agentView: () => [],
  outcome: genericOutcome,
};

/** The person view of `envId`: its testbed's, else the generic one. */
export function personViewOf(envId: string): PersonView {
  return envPersonView(envId) ?? GENERIC_PERSON_VIEW;
}

/** An agent action in words: text as it is, a tool call as `name(key: value, …)`. */
function actionText(a: unknown): string {
  if (typeof a === 'string') return a;
  const call = toolOf(a);
  const utterance = typeof (a as { utterance?: unknown } | null)?.utterance === 'string' ? ((a as { utterance: string }).utterance) : undefined;
  if (call) {
    const args = Object.entries(call.arguments).filter(([k]) => k !== 'utterance').map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
    const said = utterance ?? (typeof call.arguments['utterance'] === 'string' ? call.arguments['utterance'] : undefined);
    return `${said !== undefined && said !== '' ? `${said} ` : ''}[${call.tool}(${args.join(', ')})]`;
  }
  return utterance ?? JSON.stringify(a) ?? String(a);
}

/** The tool call an action makes: a tool call, or an environment action object with a named act (`{utterance, action: {status, …}}`). */
function toolOf(a: unknown): ToolCall | undefined {
  if (isToolCall(a)) return a;
  const inner = (a as { action?: unknown } | null)?.action;
  if (typeof a !== 'object' || a === null || typeof inner !== 'object' || inner === null) return undefined;
  const { status, ...rest } = inner as { status?: unknown };
  return typeof status === 'string' ? { tool: status, arguments: rest } : undefined;
}

/** The person view's words for an agent's action (`agentSaid`), undefined where it has none. */
interface Said {
  view(a: unknown): string | undefined;
}

/**
 * The dialog of an episode as session turns: from the observation's `history` when it has one
 * (its `bot` turns matched in order with the actions, for their tool calls), else interleaved from
 * the user's words of each observation the agent was sent and the actions, then `last`'s words;
 * the user turns that carry no words (`wordless`: the environment's) left out.
 */
function turnsOf(wordless: (userText: string) => boolean, history: readonly Turn[] | undefined, sent: readonly unknown[], actions: readonly unknown[], said: Said, last?: unknown): SessionTurn[] {
  const out: SessionTurn[] = [];
  if (history) {
    let k = 0;
    for (const t of history) {
      if (t.speaker === 'bot') {
        const a = actions[k++];
        const tool = toolOf(a);
        out.push({ speaker: 'agent', text: (a === undefined ? undefined : said.view(a)) ?? t.text, ...(tool ? { tool } : {}) });
      } else if (t.speaker === 'user') {
        if (!wordless(t.text)) out.push({ speaker: 'user', text: t.text });
      } else out.push({ speaker: 'kb', text: t.text });
    }
    return out;
  }
  const words = (o: unknown): string | undefined => {
    const u = (o as { utterance?: unknown } | null)?.utterance;
    return typeof u === 'string' && u !== '' && !wordless(u) ? u : undefined;
  };
  for (let i = 0; i < Math.max(sent.length, actions.length); i++) {
    const u = words(sent[i]);
    if (u !== undefined) out.push({ speaker: 'user', text: u });
    if (i < actions.length) {
      const tool = toolOf(actions[i]);
      out.push({ speaker: 'agent', text: said.view(actions[i]) ?? actionText(actions[i]), ...(tool ? { tool } : {}) });
    }
  }
  if (last !== undefined && sent.length <= actions.length) {
    const u = words(last);
    if (u !== undefined) out.push({ speaker: 'user', text: u });
  }
  return out;
}

function historyOf(obs: unknown): readonly Turn[] | undefined {
  const h = (obs as { history?: unknown } | null)?.history;
  return Array.isArray(h) ? (h as Turn[]) : undefined;
}

/** What the session waits for from the person. */
interface Ask {
  resolve(value: string | ToolCall): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/** A promise with its resolve and reject. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: Error) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A person in an episode (module description). */
export class EnvSession {
  private readonly view: PersonView;
  private readonly resetInfo: Info;
  private readonly tools: readonly ToolSpec[];
  /** Whether the environment's observations carry the dialog (`history`), else each brings one user utterance. */
  private readonly hasHistory: boolean;
  private readonly goalCard: GoalCard | undefined;
  private turns: SessionTurn[] = [];
  private emitted = 0;
  private waiting: SessionState['waiting'] = 'other';
  private hint: string | undefined;
  /** Role `user`: the person's turn is one where the simulated user says nothing (`SessionState.wordless`). */
  private wordlessTurn = false;
  private agentView: readonly ViewSection[] | undefined;
  /** The person's last input, shown until the other side's answer brings it back in the dialog. */
  private pending: SessionTurn | undefined;
  private ask: Ask | undefined;
  private outcome: SessionOutcome | undefined;
  private episode: EpisodeRecord | undefined;
  /** The observations the agent was sent and its actions, in order (as the transport saw them). */
  private readonly sent: unknown[] = [];
  private readonly actions: unknown[] = [];
  /** Role `user`: the user turns (their index in the episode) the person was asked for and typed. */
  private readonly typed = new Set<number>();
  /** Resolved whenever the person is asked or the episode ends. */
  private changed = deferred<void>();
  /** Rejected when the episode is abandoned (timeout or close): every wait races it. */
  private readonly abandoned = deferred<never>();
  private abandonReason: SessionAbandoned | undefined;
  private readonly open = new Set<AgentConnection>();
  private running: Promise<void> = Promise.resolve();
  /** An agent's action in the words a person reads: the person view's (`agentSaid`), else the dialog's words or the action as text or a call. */
  private readonly said: Said = { view: (a) => this.view.agentSaid?.(a, this.resetInfo) };
  /** Whether a user turn carries no words (the environment's `isWordlessTurn`). */
  private readonly wordless = (userText: string): boolean => isWordlessTurn(this.o.envId, userText);

  /** The environment's options with the turn limit's, and the wrapper's limit (`maxTurns`). */
  private readonly limited: { readonly envOptions: EnvOptions; readonly wrapper?: number };

  private constructor(private readonly o: EnvSessionOptions) {
    this.view = personViewOf(o.envId);
    this.limited = sessionTurnLimit(o.envId, (o.envOptions ?? {}) as Record<string, unknown>, o.maxTurns);
    // The reset of the episode, from an environment of its own (the same seed and variant give the same episode): the goal card and the agent's view need it before the episode's first turn.
    const r0 = this.build().reset({ seed: o.seed, variant: 0 });
    this.resetInfo = r0.info;
    this.hasHistory = historyOf(r0.obs) !== undefined;
    this.tools = (Array.isArray(this.resetInfo['tools']) ? this.resetInfo['tools'] : []) as ToolSpec[];
    this.goalCard = o.role === 'user' && !o.free ? this.view.goalCard(this.resetInfo) : undefined;
    this.abandoned.promise.catch(() => {});
  }

  /**
   * Starts the episode; resolves when the person is first asked (or the episode ended). Throws a
   * ConfigError for an unknown environment or a bad option, and an InputError for a missing agent
   * (role `user`) or bad limits.
   */
  static async start(o: EnvSessionOptions): Promise<EnvSession> {
    const s = EnvSession.begin(o);
    await s.settled();
    return s;
  }

  /**
   * Starts the episode and returns at once, the other side's first turn still to come (`settled`
   * resolves when the person is first asked): for a server that answers before a slow agent or LLM
   * user has spoken. Throws as `start` does.
   */
  static begin(o: EnvSessionOptions): EnvSession {
    if (o.role !== 'user' && o.role !== 'agent') throw new InputError(`role must be "user" or "agent", got ${JSON.stringify(o.role)}`);
    if (o.role === 'user' && !o.agent) throw new InputError('a person playing the user needs an agent to talk to (the agent option)');
    if (!Number.isSafeInteger(o.maxText) || o.maxText < 1) throw new InputError(`maxText must be a positive integer, got ${String(o.maxText)}`);
    if (!Number.isSafeInteger(o.idleMs) || o.idleMs < 1) throw new InputError(`idleMs must be a positive integer, got ${String(o.idleMs)}`);
    if (o.agentTimeoutMs !== undefined && (!Number.isSafeInteger(o.agentTimeoutMs) || o.agentTimeoutMs < 1)) throw new InputError(`agentTimeoutMs must be a positive integer, got ${String(o.agentTimeoutMs)}`);
    const s = new EnvSession(o);
    s.running = s.run();
    return s;
  }

  /** What the page renders now. */
  state(): SessionState {
    const turns = this.pending && this.waiting === 'other' ? [...this.turns, this.pending] : this.turns;
    return {
      env: this.o.envId,
      role: this.o.role,
      ...(this.goalCard ? { goalCard: this.goalCard } : {}),
      ...(this.hint !== undefined && this.waiting === 'person' ? { hint: this.hint } : {}),
      turns,
      waiting: this.waiting,
      ...(this.wordlessTurn && this.waiting === 'person' ? { wordless: true as const } : {}),
      ...(this.o.role === 'agent' ? { agentView: this.agentView ?? [], tools: this.tools } : {}),
      ...(this.outcome ? { outcome: this.outcome } : {}),
    };
  }

  /**
   * The person's turn: text (either role) or a tool call (role `agent`). Resolves with the state
   * when the person is asked again or the episode ended. Sending when it is not the person's turn
   * is a StateError; empty text, a tool call of a user, or a tool call the tools refuse is an
   * InputError (nothing is sent: the person may try again) — except empty text on a wordless turn
   * (`SessionState.wordless`), which lets it pass in silence.
   */
  async send(input: string | ToolCall): Promise<SessionState> {
    if (this.waiting === 'ended') throw new StateError('the dialog has ended: start a new one');
    const ask = this.ask;
    if (this.waiting !== 'person' || !ask) throw new StateError('not your turn: the other side has not answered yet');
    let value: string | ToolCall;
    if (typeof input === 'string') {
      value = personText(input, this.o.maxText);
      if (value === '' && !this.wordlessTurn) throw new InputError('text is empty');
    } else if (this.o.role === 'user') throw new InputError('a person playing the user writes text (tool calls are the agent\'s)');
    else if (!isToolCall(input)) throw new InputError('an action is text or a tool call {"tool": name, "arguments": {…}}');
    else {
      const args = Object.fromEntries(Object.entries(input.arguments).map(([k, v]) => [k, typeof v === 'string' ? personText(v, this.o.maxText) : v]));
      value = { tool: input.tool, arguments: args };
      try {
        readReply({ action: value }, this.tools);
      } catch (e) {
        if (e instanceof AgentError) throw new InputError(e.message);
        throw e;
      }
    }
    this.ask = undefined;
    clearTimeout(ask.timer);
    this.wordlessTurn = false;
    this.pending = value === '' ? undefined : this.o.role === 'user' ? { speaker: 'user', text: value as string } : { speaker: 'agent', text: this.said.view(value) ?? actionText(value), ...(typeof value === 'string' ? {} : { tool: value }) };
    this.waiting = 'other';
    this.hint = undefined;
    const next = this.changed.promise;
    ask.resolve(value);
    await next;
    return this.state();
  }

  /** The episode's record (as `evaluate --transcripts` writes it) once it ended; undefined before, and for an abandoned episode. */
  record(): EpisodeRecord | undefined {
    return this.episode;
  }

  /** Resolves when the person is asked or the episode ends (at once when it is not the other side's turn). */
  settled(): Promise<void> {
    return this.waiting === 'other' ? this.changed.promise : Promise.resolve();
  }

  /** Whether the episode has ended (played out or abandoned). */
  get ended(): boolean {
    return this.waiting === 'ended';
  }

  /** Abandons a running episode (the agent's connection is closed, an agent process ended); resolves once it is. Idempotent. */
  async close(): Promise<void> {
    this.abandon('closed');
    await this.running;
  }

  private abandon(reason: 'timeout' | 'closed'): void {
    if (this.waiting === 'ended' || this.abandonReason) return;
    this.abandonReason = new SessionAbandoned(reason);
    if (this.ask) clearTimeout(this.ask.timer);
    this.ask?.reject(this.abandonReason);
    this.ask = undefined;
    this.abandoned.reject(this.abandonReason);
    // The agent's connections are closed now (a process ended), not when its turn comes back.
    for (const c of this.open) void c.close().catch(() => {});
  }

  /** Plays the episode (evaluate, one episode); ends the session whatever happens. */
  private async run(): Promise<void> {
    const o = this.o;
    try {
      const transport = this.recording(o.role === 'user' ? (o.agent as AgentTransport) : this.personAgent());
      const voice = o.role === 'user' ? this.personVoice() : o.userVoice;
      const { envOptions, wrapper } = this.limited;
      const { records } = await evaluate(o.envId, transport, { episodes: 1, seed: o.seed, timeoutMs: o.role === 'user' ? (o.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS) : o.idleMs, ...(o.envOptions || Object.keys(envOptions).length > 0 ? { envOptions } : {}), ...(wrapper !== undefined ? { maxTurns: wrapper } : {}), ...(voice ? { userVoice: voice } : {}) });
      const r = records[0] as EpisodeRecord;
      if (this.abandonReason) this.finishAbandoned();
      else this.finish(r);
    } catch (e) {
      if (e instanceof SessionAbandoned || this.abandonReason) this.finishAbandoned();
      else {
        // A fault outside the episode (an agent that cannot start, a bug): the session ends with it in words.
        this.waiting = 'ended';
        this.outcome = { success: false, failure: 'error', lines: o.blind ? BLIND_FAILURE_LINES : [`The dialog stopped: ${(e instanceof Error ? e.message : String(e)).split('\n')[0] ?? ''}`] };
        this.wake();
      }
    } finally {
      if (this.ask) clearTimeout(this.ask.timer);
    }
  }

  private finish(played: EpisodeRecord): void {
    const r = this.o.role === 'user' ? this.personWordsOnly(played) : played;
    this.episode = r;
    this.update(turnsOf(this.wordless, historyOf(r.observation), this.sent, r.actions, this.said, r.observation));
    this.pending = undefined;
    this.waiting = 'ended';
    if (!this.o.free) {
      const ended: EndedEpisode = { success: r.success, failure: r.failure, ...(r.detail !== undefined ? { detail: r.detail } : {}), info: this.lastInfo(r), role: this.o.role };
      const blindFailure = this.o.blind === true && !r.success && r.failure !== null && AGENT_FAILURES.has(r.failure);
      const lines = blindFailure ? [...BLIND_FAILURE_LINES] : [...this.view.outcome(ended)];
      if (r.message !== undefined && !r.success && !blindFailure) lines.push(r.message);
      this.outcome = { success: r.success, failure: r.failure, lines };
    }
    this.wake();
  }

  /**
   * Role `user`: the record with only the person's words on the user's side. The environment's
   * closing user turn (KB-InfoBot's "thanks, that is the one" after an `inform`: the outcome was
   * decided, the person was not asked) is generated, not typed: its words become '' in `userWords`
   * and in the last observation (so neither the page, nor the stored turns, nor an export put them
   * in the person's mouth); the simulated user's act stays the environment's, as its judgement.
   * Environments whose observation holds the dialog ask the person for every user turn it has.
   */
  private personWordsOnly(r: EpisodeRecord): EpisodeRecord {
    const words = r.userWords;
    if (words === undefined) return r;
    const kept = words.map((w, i) => (this.typed.has(i) || w === '' || this.wordless(w) ? w : ''));
    const last = words.length - 1;
    const obs = r.observation as { utterance?: unknown } | null;
    const observation = !this.typed.has(last) && obs !== null && typeof obs === 'object' && obs.utterance === words[last] ? { ...obs, utterance: kept[last] } : r.observation;
    return { ...r, userWords: kept, observation };
  }

  private finishAbandoned(): void {
    this.waiting = 'ended';
    const reason = this.abandonReason?.reason ?? 'closed';
    if (!this.o.free || reason === 'timeout') {
      this.outcome = { success: false, failure: reason === 'timeout' ? 'timeout' : 'abandoned', lines: [reason === 'timeout' ? `Abandoned: nobody answered within ${duration(this.o.idleMs)}.` : 'Abandoned: the dialog was ended before it was over.'] };
    }
    this.pending = undefined;
    this.wake();
  }

  /** The `info` of the episode's last step: the episode replayed on an environment of its own (its actions, its seed) through the episode loop. */
  private lastInfo(r: EpisodeRecord): Info {
    try {
      return playEpisode(this.build(), (t) => r.actions[t.turn], { reset: { seed: r.seed, variant: r.trial }, maxSteps: r.actions.length }).info;
    } catch {
      return {};
    }
  }

  /** An environment of the session's own: its options and turn limit. */
  private build(): Env<unknown, unknown> {
    return withTurnLimit(make(this.o.envId, this.limited.envOptions), this.limited.wrapper);
  }

  /** The person's turn came: publish it and wait for the person's input (or the end). */
  private asked(): Promise<string | ToolCall> {
    const d = deferred<string | ToolCall>();
    const timer = setTimeout(() => this.abandon('timeout'), this.o.idleMs);
    timer.unref();
    this.ask = { resolve: d.resolve, reject: d.reject, timer };
    this.pending = undefined;
    this.waiting = 'person';
    this.wake();
    return d.promise;
  }

  private wake(): void {
    const c = this.changed;
    this.changed = deferred<void>();
    c.resolve();
  }

  /** The new dialog `turns` (a longer list than before): kept, the new ones told to `onTurn`. */
  private update(turns: SessionTurn[]): void {
    this.turns = turns;
    for (; this.emitted < turns.length; this.emitted++) this.o.onTurn?.(turns[this.emitted] as SessionTurn);
  }

  /** The person as the user's voice (role `user`). */
  private personVoice(): UserVoice {
    return {
      name: 'person',
      // A person may speak where the simulated user stays silent (after an agent that waits): asked on those turns too, '' passes them.
      speaksOnWordless: true,
      connect: () => ({
        say: async (turn: UserTurn) => {
          if (this.abandonReason) throw this.abandonReason;
          this.update(turnsOf(this.wordless, this.hasHistory ? turn.history : undefined, this.sent, this.actions, this.said));
          this.typed.add(turn.turn);
          // The step's info over the reset's: a hint may need the goal the card shows (KB-InfoBot's values).
          this.hint = this.o.free ? undefined : this.view.userHint?.({ ...this.resetInfo, ...turn.info });
          this.wordlessTurn = turn.wordless === true;
          return { text: (await this.asked()) as string };
        },
      }),
    };
  }

  /** The person as the agent (role `agent`): each request published, the person's action its reply. */
  private personAgent(): AgentTransport {
    return {
      name: 'person',
      connect: () => ({
        send: async (req: AgentRequest) => {
          if (this.abandonReason) throw this.abandonReason;
          this.agentView = this.view.agentView(req.observation, this.resetInfo);
          return { action: await this.asked() };
        },
        close: async () => {},
      }),
    };
  }

  /** `t` with each request and action seen (the dialog's source), each wait raced against abandoning, and its connections closed on abandon. */
  private recording(t: AgentTransport): AgentTransport {
    return {
      name: t.name,
      connect: (lane) => {
        const c = t.connect(lane);
        let closed: Promise<void> | undefined;
        const conn: AgentConnection = {
          send: async (req, timeoutMs) => {
            this.sent.push(req.observation);
            if (this.o.role === 'agent') this.update(turnsOf(this.wordless, historyOf(req.observation), this.sent, this.actions, this.said));
            const raw = await Promise.race([c.send(req, timeoutMs), this.abandoned.promise]);
            try {
              this.actions.push(readReply(raw, req.tools, req.turn).action);
            } catch {
              // evaluate refuses it (and fails the episode) in its own words
            }
            return raw;
          },
          close: () => (closed ??= c.close().finally(() => this.open.delete(conn))),
        };
        this.open.add(conn);
        return conn;
      },
    };
  }
}
