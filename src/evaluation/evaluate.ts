/**
 * The episode runner (the orchestrator and evaluator of τ²-bench's split; the agent is
 * `agents/`, the user is the environment's simulator): `evaluate` plays `episodes × trials`
 * episodes of an environment with an agent — in this process, or reached through a transport
 * (stdio, HTTP, …) — and summarises them (`summarizeEpisodes`: success rate, pass^k, average turns
 * and reward, failures by reason; `metrics/episodes.ts`).
 *
 * Task i is seeded by `seed + i` alone and trial t of it is the environment's `variant` t, so an
 * episode does not depend on which lane plays it: with `concurrency` N, N episodes are in flight
 * (N lanes, each with its own environment and agent connection), and the records — and everything
 * computed from them — are the same whatever N (they come out in episode order).
 *
 * A misbehaving agent (invalid JSON, no action, unknown tool, bad arguments, a turn echo that
 * does not match, a reply too long, an action the environment refuses, silence past the timeout,
 * exiting) fails only the episode at hand; after an agent-side failure the lane's connection is
 * closed (an agent process is ended with its descendants) and a fresh one plays the next episode.
 */
import { ConfigError, DialogymError, errorText, optionName } from '../core/errors.js';
import { isWordlessTurn, make, type Env, type EnvOptions, type RecordedEpisode, type ToolSpec } from '../env/env.js';
import { episodeSteps } from '../env/episode.js';
import { withTurnLimit } from '../env/turn-limit.js';
import { AGENT_PROTOCOL, AgentError, readReply, type AgentRequest } from '../agents/protocol.js';
import { addUsage, NO_USAGE, type TokenUsage } from '../llm/client/usage.js';
import { LlmError } from '../llm/client/client.js';
import { requestKey } from '../llm/client/canonical.js';
import { withUserWords, type UserTurn, type UserVoice, type UserVoiceSession } from '../agents/user-voice.js';
import type { Turn } from '../core/dialog.js';
import { isAgentTransport, localTransport, type Agent, type AgentConnection, type AgentTransport } from '../agents/agent.js';
import { passHatK, summarizeOutcomes } from '../metrics/episodes.js';

/**
 * The defaults of an evaluation, the one place that states them: `evaluate` here, the run
 * `evaluateRun` (src/runs/evaluate.ts) and the CLI's `evaluate` all read these, so an option left
 * out gives the same episodes everywhere (tasks seed, seed+1, …: the first task's seed is 1).
 *
 * @example
 * ```ts
 * import { EVALUATE_DEFAULTS } from 'dialogym';
 * EVALUATE_DEFAULTS.seed; // 1
 * ```
 */
export const EVALUATE_DEFAULTS = Object.freeze({ episodes: 100, trials: 1, seed: 1, concurrency: 1, timeoutMs: 5000 });

/**
 * Options of {@link evaluate}.
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, type EvaluateAgentOptions } from 'dialogym';
 * const opts: EvaluateAgentOptions = { episodes: 20, trials: 4, seed: 0, concurrency: 2, envOptions: { maxTurns: 40 }, timeoutMs: 2000 };
 * const { summary } = await evaluate('restaurant-task5-v1', () => createAgent('rules'), opts);
 * ```
 */
export interface EvaluateAgentOptions {
  /** Tasks (episode seeds seed, seed+1, …); default 100 (`EVALUATE_DEFAULTS`). */
  readonly episodes?: number;
  /** Trials per task (pass^1 … pass^trials); default 1. */
  readonly trials?: number;
  /** Seed of the first task; default 1 (`EVALUATE_DEFAULTS`: as `evaluateRun` and the CLI). */
  readonly seed?: number;
  /** Episodes in flight (lanes: agent processes, HTTP requests, in-process agents); default 1. */
  readonly concurrency?: number;
  /** Options of the environment (`make(envId, envOptions)`). */
  readonly envOptions?: EnvOptions;
  /** Agent turns after which an episode is truncated, by the generic wrapper (`TurnLimit`, env/turn-limit.ts); default: the environment's own limit. */
  readonly maxTurns?: number;
  /** Per-turn reply timeout in ms; default 5000. */
  readonly timeoutMs?: number;
  /** Called as soon as an episode ends, in the order episodes end (with `concurrency` above 1 not episode order): where a run appends its records so that an interruption loses none (`--resume`). */
  readonly onFinish?: (record: EpisodeRecord) => void;
  /** Called after each episode, in episode order, with its record and how many are done of how many. */
  readonly onEpisode?: (record: EpisodeRecord, done: number, total: number) => void;
  /** Only the tasks whose index passes (a sharded run's part; task i is seeded by seed + i alone). */
  readonly include?: (task: number) => boolean;
  /**
   * Records of an interrupted run (`--resume`): their episodes are not played again; they are in
   * the result and the summary, in episode order, and not passed to `onEpisode`.
   */
  readonly done?: readonly EpisodeRecord[];
  /** Says the simulated user's turns in other words (an LLM user: `user-voice.ts`); default: the environment's own. */
  readonly userVoice?: UserVoice;
}

/**
 * One played episode, as `--transcripts` writes it (one JSON line each).
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, type EpisodeRecord } from 'dialogym';
 * const { records } = await evaluate('restaurant-task1-v1', createAgent('rules'), { episodes: 2 });
 * const first: EpisodeRecord | undefined = records[0];
 * console.log(first?.success, first?.turns, first?.actions.length);
 * ```
 */
export interface EpisodeRecord extends RecordedEpisode {
  /** Agent turns played. */
  readonly turns: number;
  /** Why it failed (agent-side reasons, or the environment's `info.failure`), null on success. */
  readonly failure: string | null;
  /** A one-line message for agent-side failures. */
  readonly message?: string;
  // Keys added after the original ones (present when the environment gives them):
  /** What failed, in detail (`info.detail` of the last step). */
  readonly detail?: unknown;
  /** Per agent turn, how the user read it (`info.read` of each step, null where not given). */
  readonly reads?: readonly unknown[];
  /** The agent turn (0-based) where the episode went wrong (`info.failureTurn`), when the environment tells. */
  readonly failureTurn?: number;
  /** Tokens the agent reported with its replies (an LLM agent), summed; absent when it reported none. */
  readonly usage?: TokenUsage;
  /** Tokens the user's voice used (an LLM user), summed; absent without one. */
  readonly userUsage?: TokenUsage;
}

/**
 * The fingerprint of environment options that records carry (`EpisodeRecord.options`): 16 hex
 * digits of the sha256 of their canonical JSON (keys sorted), undefined for none.
 *
 * @example
 * ```ts
 * import { optionsKey } from 'dialogym';
 * optionsKey({ maxTurns: 40, userStyle: 'varied' }) === optionsKey({ userStyle: 'varied', maxTurns: 40 }); // true
 * optionsKey({}); // undefined
 * ```
 */
export function optionsKey(options: EnvOptions | undefined): string | undefined {
  if (options === undefined || Object.keys(options).length === 0) return undefined;
  return requestKey(options).slice(0, 16);
}

/**
 * The summary of a run (`--json` of `dialogym evaluate`).
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, type EvaluationSummary } from 'dialogym';
 * const { summary }: { summary: EvaluationSummary } = await evaluate('airdialogue-v1', createAgent('rules'), { episodes: 5 });
 * console.log(summary.success, summary.avgReward, summary.failures);
 * ```
 */
export interface EvaluationSummary {
  readonly protocol: typeof AGENT_PROTOCOL;
  readonly env: string;
  readonly episodes: number;
  readonly trials: number;
  readonly seed: number;
  readonly success: number;
  /** pass^1 … pass^trials. */
  readonly passK: readonly number[];
  readonly avgTurns: number;
  readonly avgReward: number;
  readonly failures: Readonly<Record<string, number>>;
  /** The records' `usage` summed, when any record has one. */
  readonly usage?: TokenUsage;
  /** The records' `userUsage` summed, when any record has one. */
  readonly userUsage?: TokenUsage;
}

/**
 * What {@link evaluate} returns: the summary and every episode's record, in episode order.
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, type EvaluationResult } from 'dialogym';
 * const r: EvaluationResult = await evaluate('restaurant-task2-v1', createAgent('rules'), { episodes: 3 });
 * console.log(r.summary.success, r.records.length);
 * ```
 */
export interface EvaluationResult {
  readonly summary: EvaluationSummary;
  readonly records: EpisodeRecord[];
}

function successOf(info: Record<string, unknown>, reward: number): boolean {
  const s = info['success'];
  if (typeof s === 'boolean') return s;
  if (typeof s === 'number') return s > 0;
  return reward >= 1;
}

/** A failure message as records keep it: at most 1,000 characters (an environment may quote a hostile action whole). */
function oneLine(message: string): string {
  return message.length <= 1000 ? message : `${message.slice(0, 999)}…`;
}

/**
 * One episode through `conn` (the asynchronous driver of the episode loop, `episodeSteps`: each
 * turn's observation, in the user's voice when there is one, is sent to the agent and its reply
 * awaited); `agentFailed` when the agent's side failed (the connection is then replaced).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function playAgentEpisode(env: Env<any, any>, envId: string, conn: AgentConnection, episode: number, trial: number, seed: number, timeoutMs: number, voice?: UserVoiceSession, options?: string, onWordless = false): Promise<{ record: EpisodeRecord; agentFailed: boolean }> {
  const steps = episodeSteps<unknown, unknown>(env, { reset: { seed, variant: trial } });
  let it = steps.next();
  const r0 = it.done ? { obs: it.value.obs, info: it.value.resetInfo } : { obs: it.value.obs, info: it.value.info };
  const tools = (Array.isArray(r0.info['tools']) ? r0.info['tools'] : []) as ToolSpec[];
  const reads: unknown[] = [];
  const base = { env: envId, episode, trial, seed };
  let goal = r0.info['goal'];
  let usage: TokenUsage | undefined;
  let userUsage: TokenUsage | undefined;
  // The keys a record has after the original ones, when the environment (goal, detail, reads, failureTurn) or the agent and the user's voice (usage, userUsage) give them.
  const out = (record: EpisodeRecord, agentFailed: boolean, info: Record<string, unknown> = {}): { record: EpisodeRecord; agentFailed: boolean } => {
    steps.return(undefined as never);
    goal ??= info['goal'];
    const turn = info['failureTurn'];
    const more = {
      ...(goal !== undefined ? { goal } : {}),
      ...(info['detail'] !== undefined ? { detail: info['detail'] } : {}),
      ...(reads.some((x) => x !== null) ? { reads } : {}),
      ...(typeof turn === 'number' ? { failureTurn: turn } : {}),
      ...(usage ? { usage } : {}),
      ...(userUsage ? { userUsage } : {}),
      ...(voice && spoken.length > 0 ? { userWords: said.slice() } : {}),
      ...(options !== undefined ? { options } : {}),
    };
    return { record: { ...record, ...more }, agentFailed };
  };
  // The user's turns in the voice's words (all of them; those that carry no words, `isWordlessTurn`, as they are unless the voice speaks on them: `onWordless`), and the observation so worded.
  const said: string[] = [];
  /** The voice's words for one user turn, their tokens counted. */
  const ask = async (turn: UserTurn): Promise<string> => {
    const r = await (voice as UserVoiceSession).say(turn).catch((e: unknown) => {
      if (e instanceof LlmError && e.usage) userUsage = addUsage(userUsage ?? NO_USAGE, e.usage); // a reply it could not use still cost its tokens
      throw e;
    });
    if (r.usage) userUsage = addUsage(userUsage ?? NO_USAGE, r.usage);
    return r.text;
  };
  // An observation without a dialog history but with the user's `utterance` (KB-InfoBot): each observation brings one user turn.
  const utteranceOnly = (o: unknown): o is { utterance: string } => o !== null && typeof o === 'object' && !Array.isArray((o as { history?: unknown }).history) && typeof (o as { utterance?: unknown }).utterance === 'string';
  const spoken: Turn[] = [];
  // `ended`: the observation after the episode's end, which no agent reads, is not voiced (a person is not asked to type a closing line after the outcome is decided).
  // Of an utterance-only observation (KB-InfoBot's closing "thanks, that is the one"), the voice said nothing: its entry in `userWords` and the
  // record's last utterance are '' — the environment's generated words are never put in the voice's mouth (as EnvSession does for a person);
  // the environment's act and judgement stay. An observation holding the dialog keeps its closing user turns as the environment worded them.
  const voiced = async (o: unknown, info: Readonly<Record<string, unknown>>, agentAction: unknown, ended = false): Promise<unknown> => {
    if (!voice) return o;
    if (ended) {
      if (utteranceOnly(o)) {
        said.push('');
        spoken.push({ speaker: 'user', text: '' });
        return { ...o, utterance: '' };
      }
      const history = (o as { history?: unknown } | null)?.history;
      const users = Array.isArray(history) ? (history as Array<{ speaker: string; text: string }>).filter((t) => t.speaker === 'user') : [];
      for (let k = said.length; k < users.length; k++) said.push((users[k] as { text: string }).text);
      return withUserWords(o, said);
    }
    if (utteranceOnly(o)) {
      if (agentAction !== undefined) spoken.push({ speaker: 'bot', text: typeof agentAction === 'string' ? agentAction : JSON.stringify(agentAction) });
      const template = o.utterance;
      // An empty turn, or one that carries no words, is kept as it is (one entry per user turn, so that an exporter's replay lines up).
      const silent = isWordlessTurn(envId, template);
      const asked = template === '' || (silent && !onWordless) ? template : await ask({ env: envId, episode, trial, seed, turn: said.length, goal: r0.info['goal'], agentAction, template, info, history: spoken.slice(), ...(silent ? { wordless: true } : {}) });
      // A voice asked on a wordless turn (`speaksOnWordless`) that says nothing lets it pass as the environment's.
      const words = silent && asked === '' ? template : asked;
      said.push(words);
      spoken.push({ speaker: 'user', text: words });
      return { ...o, utterance: words };
    }
    const history = ((o as { history?: unknown } | null)?.history ?? []) as Array<{ speaker: string; text: string }>;
    const users = Array.isArray(history) ? history.filter((t) => t.speaker === 'user') : [];
    for (let k = said.length; k < users.length; k++) {
      const template = (users[k] as { text: string }).text;
      const silent = isWordlessTurn(envId, template);
      if (silent && !onWordless) {
        said.push(template);
        continue;
      }
      const before = (withUserWords(o, said) as { history: Array<{ speaker: string; text: string }> }).history;
      const at = history.indexOf(users[k] as { speaker: string; text: string });
      const words = await ask({ env: envId, episode, trial, seed, turn: k, goal: r0.info['goal'], agentAction, template, info, history: before.slice(0, at) as never, ...(silent ? { wordless: true } : {}) });
      // A voice asked on a wordless turn (`speaksOnWordless`) that says nothing lets it pass as the environment's.
      said.push(silent && words === '' ? template : words);
    }
    return withUserWords(o, said);
  };
  let obs: unknown;
  try {
    obs = await voiced(r0.obs, r0.info, undefined);
  } catch (e) {
    if (e instanceof LlmError && !e.fatal) return out({ ...base, success: false, reward: 0, turns: 0, failure: 'user llm error', message: oneLine(e.message), actions: [], observation: r0.obs }, false);
    throw e;
  }
  while (!it.done) {
    const { turn, reward, actions } = it.value;
    const req: AgentRequest = { protocol: AGENT_PROTOCOL, env: envId, episode, trial, seed, turn, observation: obs, tools };
    let action: unknown;
    try {
      const reply = readReply(await conn.send(req, timeoutMs), tools, turn);
      action = reply.action;
      if (reply.usage) usage = addUsage(usage ?? NO_USAGE, reply.usage);
    } catch (e) {
      if (e instanceof AgentError && e.usage) usage = addUsage(usage ?? NO_USAGE, e.usage);
      if (e instanceof AgentError) return out({ ...base, success: false, reward, turns: turn, failure: e.reason, message: oneLine(e.message), actions, observation: obs }, true);
      throw e;
    }
    try {
      it = steps.next(action);
    } catch (e) {
      if (e instanceof DialogymError) return out({ ...base, success: false, reward, turns: turn + 1, failure: 'invalid action', message: oneLine(e.message), actions, observation: obs }, false);
      throw e;
    }
    const { obs: next, info } = it.value;
    reads.push(info['read'] ?? null);
    try {
      obs = await voiced(next, info, action, it.done === true);
    } catch (e) {
      if (e instanceof LlmError && !e.fatal) return out({ ...base, success: false, reward: it.value.reward, turns: turn + 1, failure: 'user llm error', message: oneLine(e.message), actions, observation: withUserWords(next, said) }, false, info);
      throw e;
    }
  }
  const e = it.value;
  if (!e.ended) return out({ ...base, success: false, reward: e.reward, turns: e.turns, failure: 'max turns', actions: e.actions, observation: obs }, false);
  const success = successOf(e.info, e.reward);
  const f = e.info['failure'];
  const failure = success ? null : typeof f === 'string' ? f : e.truncated ? 'max turns' : 'failed';
  return out({ ...base, success, reward: e.reward, turns: e.turns, failure, actions: e.actions, observation: obs }, false, e.info);
}

/**
 * The summary of a run from its records (every trial of every task, in order): success rate,
 * pass^k, mean turns and reward, failures by reason in the order they first occurred.
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, summarizeEpisodes } from 'dialogym';
 * const { records } = await evaluate('restaurant-task1-v1', createAgent('rules'), { episodes: 4, trials: 2 });
 * const again = summarizeEpisodes({ env: 'restaurant-task1-v1', episodes: 4, trials: 2, seed: 0 }, records);
 * console.log(again.passK);
 * ```
 */
export function summarizeEpisodes(run: { readonly env: string; readonly episodes: number; readonly trials: number; readonly seed: number }, records: readonly EpisodeRecord[]): EvaluationSummary {
  const perTask: number[] = [];
  let usage: TokenUsage | undefined;
  let userUsage: TokenUsage | undefined;
  let last = -1;
  for (const rec of records) {
    if (rec.usage) usage = addUsage(usage ?? NO_USAGE, rec.usage);
    if (rec.userUsage) userUsage = addUsage(userUsage ?? NO_USAGE, rec.userUsage);
    if (rec.episode !== last) {
      perTask.push(0);
      last = rec.episode;
    }
    if (rec.success) perTask[perTask.length - 1] = (perTask[perTask.length - 1] ?? 0) + 1;
  }
  const s = summarizeOutcomes(records);
  return {
    protocol: AGENT_PROTOCOL,
    env: run.env,
    episodes: run.episodes,
    trials: run.trials,
    seed: run.seed,
    success: s.success,
    passK: passHatK(perTask, run.trials),
    avgTurns: s.avgTurns,
    avgReward: s.avgReward,
    failures: s.failures,
    ...(usage ? { usage } : {}),
    ...(userUsage ? { userUsage } : {}),
  };
}

/** The records of an interrupted run by `task:trial`; a ConfigError for one that is not of this run. */
function doneRecords(records: readonly EpisodeRecord[], envId: string, episodes: number, trials: number, seed: number, options: string | undefined): Map<string, EpisodeRecord> {
  const byJob = new Map<string, EpisodeRecord>();
  for (const r of records) {
    const ok = r.env === envId && Number.isInteger(r.episode) && r.episode >= 0 && r.episode < episodes && Number.isInteger(r.trial) && r.trial >= 0 && r.trial < trials && r.seed === seed + r.episode;
    if (!ok) throw new ConfigError(`the record of episode ${JSON.stringify(r.episode)}, trial ${JSON.stringify(r.trial)} (env ${JSON.stringify(r.env)}, seed ${JSON.stringify(r.seed)}) is not of this run (${envId}, ${episodes} tasks × ${trials} trials from seed ${seed})`);
    if (r.options !== options) {
      const said = (k: string | undefined): string => (k === undefined ? 'no environment options' : `environment options ${k}`);
      throw new ConfigError(errorText`the record of episode ${r.episode}, trial ${r.trial} was played with ${said(r.options)}, this run has ${said(options)}: give the options of the interrupted run (${optionName('envOptions')})`);
    }
    byJob.set(`${r.episode}:${r.trial}`, r);
  }
  return byJob;
}

/** A count option, refused in the env server's words (`"seed" must be >= 0, got -1`). */
function checkCount(name: string, v: number | undefined, min: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v)) throw new ConfigError(`"${name}" must be an integer, got ${JSON.stringify(v) ?? String(v)}`);
  if (v < min) throw new ConfigError(`"${name}" must be >= ${min}, got ${v}`);
  return v;
}

/**
 * Plays `episodes × trials` episodes of environment `envId` with `agent` and summarises them (see
 * the module description). `agent` is an {@link Agent} (shared by every lane), a factory of agents
 * (one per lane), or an {@link AgentTransport} (`stdioTransport`, `httpTransport`, …). The
 * connections it opens are closed before it returns (agent processes ended with their
 * descendants), whatever happened; the transport's own `close` is the caller's.
 *
 * Throws a ConfigError for an unknown environment, an option it does not read or a bad count; an
 * exception thrown by an in-process agent ends the run with it.
 *
 * @example
 * ```ts
 * import { evaluate, type Agent } from 'dialogym';
 * const polite: Agent = { act: (req) => (req.turn === 0 ? 'hello what can i help you with today' : 'you are welcome') };
 * const { summary, records } = await evaluate('restaurant-task1-v1', polite, { episodes: 10, trials: 3, seed: 0 });
 * console.log(summary.success, summary.passK, summary.failures, records.length); // … 30
 * ```
 */
export async function evaluate(envId: string, agent: Agent | (() => Agent) | AgentTransport, opts: EvaluateAgentOptions = {}): Promise<EvaluationResult> {
  const episodes = checkCount('episodes', opts.episodes, 1, EVALUATE_DEFAULTS.episodes);
  const trials = checkCount('trials', opts.trials, 1, EVALUATE_DEFAULTS.trials);
  const seed = checkCount('seed', opts.seed, 0, EVALUATE_DEFAULTS.seed);
  const concurrency = checkCount('concurrency', opts.concurrency, 1, EVALUATE_DEFAULTS.concurrency);
  const timeoutMs = checkCount('timeoutMs', opts.timeoutMs, 1, EVALUATE_DEFAULTS.timeoutMs);
  const build = (): Env<unknown, unknown> => withTurnLimit(make(envId, opts.envOptions ?? {}), opts.maxTurns);
  const first = build();
  const transport = isAgentTransport(agent) ? agent : localTransport(agent);
  // The wrapper's turn limit is part of the run's options, as an environment's own `maxTurns` is (a resumed run must have the same).
  const options = optionsKey(opts.maxTurns === undefined ? opts.envOptions : { ...opts.envOptions, maxTurns: opts.maxTurns });
  const resumed = doneRecords(opts.done ?? [], envId, episodes, trials, seed, options);
  const jobs: Array<{ task: number; trial: number }> = [];
  for (let i = 0; i < episodes; i++) {
    if (opts.include && !opts.include(i)) continue;
    for (let t = 0; t < trials; t++) jobs.push({ task: i, trial: t });
  }
  const records: Array<EpisodeRecord | undefined> = jobs.map((j) => resumed.get(`${j.task}:${j.trial}`));
  // The jobs still to play (all of them unless resuming), and how many `onEpisode` will see.
  const toPlay = jobs.flatMap((_, j) => (records[j] === undefined ? [j] : []));
  const fresh = records.map((r) => r === undefined);
  const total = episodes * trials - resumed.size;
  const open = new Set<AgentConnection>();
  let next = 0;
  let emitted = 0;
  let reported = 0;
  let failed: { error: unknown } | undefined;
  const lane = async (index: number): Promise<void> => {
    const env = index === 0 ? first : build();
    const voice = opts.userVoice?.connect(index);
    let conn: AgentConnection | undefined;
    while (next < toPlay.length && !failed) {
      const j = toPlay[next++] as number;
      const job = jobs[j] as { task: number; trial: number };
      if (!conn) {
        conn = transport.connect(index);
        open.add(conn);
      }
      const { record, agentFailed } = await playAgentEpisode(env, envId, conn, job.task, job.trial, seed + job.task, timeoutMs, voice, options, opts.userVoice?.speaksOnWordless === true);
      records[j] = record;
      if (!failed) opts.onFinish?.(record);
      if (agentFailed) {
        open.delete(conn);
        await conn.close();
        conn = undefined;
      }
      // In episode order: a record waits for the ones before it.
      for (let r = records[emitted]; r !== undefined && !failed; r = records[emitted]) {
        if (fresh[emitted]) opts.onEpisode?.(r, ++reported, total);
        emitted++;
      }
    }
  };
  const lanes = Array.from({ length: Math.min(concurrency, toPlay.length) }, (_, i) =>
    lane(i).catch((error: unknown) => {
      failed ??= { error };
    }),
  );
  try {
    await Promise.all(lanes);
  } finally {
    await Promise.all([...open].map((c) => c.close()));
  }
  if (failed) throw failed.error;
  const done = records as EpisodeRecord[];
  return { summary: summarizeEpisodes({ env: envId, episodes, trials, seed }, done), records: done };
}
