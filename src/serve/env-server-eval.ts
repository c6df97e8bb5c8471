/**
 * `dialogym evaluate`: plays episodes of an environment with an agent reached through the agent
 * protocol — a child process speaking JSON Lines on stdin/stdout, an HTTP endpoint, or an agent in
 * this process — and summarises them: success rate, pass^k (τ-bench: per task with c successes in
 * n trials, C(c,k)/C(n,k), averaged over tasks), average turns and reward, failures by reason.
 * A misbehaving agent (invalid JSON, no action, unknown tool, bad arguments, an action the
 * environment refuses, silence past the timeout, exiting) fails only the episode at hand; a
 * silent or dead process is restarted for the next episode.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { createInterface } from 'node:readline';
import { DialogymError } from '../core/errors.js';
import { make, type Env, type EnvOptions, type ToolSpec } from '../testbeds/env.js';
import { AGENT_PROTOCOL, AgentError, readAgentReply, type AgentRequest } from './env-server-protocol.js';
import type { LocalAgent } from './env-server-agents.js';

/** How requests reach the agent: `act` resolves to the raw reply (a JSON line/body, or an object in process). */
export interface AgentTransport {
  act(req: AgentRequest, timeoutMs: number): Promise<unknown>;
  close(): Promise<void>;
}

/** The agent in this process. */
export function localTransport(agent: LocalAgent): AgentTransport {
  return {
    act: async (req) => ({ action: agent.act(req) }),
    close: async () => {},
  };
}

/**
 * A child process (`sh -c command`) speaking JSON Lines: one request line in, one reply line out.
 * The first reply of a (re)started process may take `startupMs` more than the turn timeout (the
 * process loads its model).
 */
export function stdioTransport(command: string, startupMs = 30_000): AgentTransport {
  let child: ChildProcess | undefined;
  let fresh = false;
  let lines: string[] = [];
  let waiter: ((line: string | null) => void) | undefined;
  let dead = true;
  const start = (): void => {
    const c = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
    child = c;
    dead = false;
    fresh = true;
    lines = [];
    c.stdin?.on('error', () => {});
    const rl = createInterface({ input: c.stdout as NodeJS.ReadableStream });
    rl.on('line', (line) => {
      if (child !== c) return;
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w(line);
      } else lines.push(line);
    });
    c.on('exit', () => {
      if (child !== c) return;
      dead = true;
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w(null);
      }
    });
  };
  const kill = (): void => {
    const c = child;
    child = undefined;
    dead = true;
    waiter = undefined;
    if (c && c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };
  return {
    act(req, timeoutMs) {
      if (dead || !child) start();
      const c = child as ChildProcess;
      const limit = fresh ? timeoutMs + startupMs : timeoutMs;
      fresh = false;
      c.stdin?.write(JSON.stringify(req) + '\n');
      const queued = lines.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        if (dead) {
          kill();
          reject(new AgentError('agent exited', 'the agent process exited'));
          return;
        }
        const timer = setTimeout(() => {
          kill();
          reject(new AgentError('timeout', `no reply from the agent within ${limit} ms`));
        }, limit);
        waiter = (line) => {
          clearTimeout(timer);
          if (line === null) {
            kill();
            reject(new AgentError('agent exited', `the agent process exited (code ${String(c.exitCode ?? c.signalCode)})`));
          } else resolve(line);
        };
      });
    },
    async close() {
      const c = child;
      if (!c) return;
      child = undefined;
      c.stdin?.end();
      await new Promise<void>((resolve) => {
        if (c.exitCode !== null || c.signalCode !== null) return resolve();
        const t = setTimeout(() => {
          c.kill('SIGKILL');
          resolve();
        }, 2000);
        c.on('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
    },
  };
}

/**
 * An HTTP endpoint: each request is POSTed as JSON; the reply body is the agent's message.
 * node:http with a keep-alive agent (measured ~4× the requests per second of `fetch` here).
 */
export function httpTransport(url: string): AgentTransport {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    act(req, timeoutMs) {
      const body = JSON.stringify(req);
      return new Promise((resolve, reject) => {
        let settled = false;
        const done = (f: () => void): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          f();
        };
        const q = client.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
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
    },
    close: async () => agent.destroy(),
  };
}

/** Options of `evaluateAgent`. */
export interface EvaluateOptions {
  readonly env: string;
  readonly envOptions?: EnvOptions;
  /** Tasks (episode seeds seed, seed+1, …); default 100. */
  readonly episodes?: number;
  readonly seed?: number;
  /** Trials per task (pass^k up to k); default 1. */
  readonly trials?: number;
  /** Per-turn reply timeout in ms; default 5000. */
  readonly timeoutMs?: number;
  /** Called after each episode with its record. */
  readonly onEpisode?: (e: EpisodeRecord, done: number, total: number) => void;
  /** Only the tasks whose index passes (a sharded run's part; task i is seeded by seed + i alone). */
  readonly include?: (task: number) => boolean;
}

/** One played episode. */
export interface EpisodeRecord {
  readonly env: string;
  readonly episode: number;
  readonly trial: number;
  readonly seed: number;
  readonly success: boolean;
  readonly reward: number;
  readonly turns: number;
  /** Why it failed (agent-side reasons, or the environment's `info.failure`), null on success. */
  readonly failure: string | null;
  /** A one-line message for agent-side failures. */
  readonly message?: string;
  readonly actions: readonly unknown[];
  /** The last observation (restaurant envs: the whole dialog). */
  readonly observation: unknown;
}

/** The summary of a run. */
export interface EvaluateSummary {
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
}

function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** pass^k for k = 1…n from the successes of each task in n trials (τ-bench's estimator). */
export function passHatK(successesPerTask: readonly number[], n: number): number[] {
  const out: number[] = [];
  for (let k = 1; k <= n; k++) {
    const s = successesPerTask.reduce((acc, c) => acc + binomial(c, k) / binomial(n, k), 0);
    out.push(successesPerTask.length === 0 ? 0 : s / successesPerTask.length);
  }
  return out;
}

function successOf(info: Record<string, unknown>, reward: number): boolean {
  const s = info['success'];
  if (typeof s === 'boolean') return s;
  if (typeof s === 'number') return s > 0;
  return reward >= 1;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function playEpisode(env: Env<any, any>, envId: string, transport: AgentTransport, episode: number, trial: number, seed: number, timeoutMs: number): Promise<EpisodeRecord> {
  const r0 = env.reset({ seed, variant: trial });
  const tools = (Array.isArray(r0.info['tools']) ? r0.info['tools'] : []) as ToolSpec[];
  let obs: unknown = r0.obs;
  const actions: unknown[] = [];
  let reward = 0;
  const base = { env: envId, episode, trial, seed };
  for (let turn = 0; turn < 10_000; turn++) {
    const req: AgentRequest = { protocol: AGENT_PROTOCOL, env: envId, episode, trial, seed, turn, observation: obs, tools };
    let action: unknown;
    try {
      action = readAgentReply(await transport.act(req, timeoutMs), tools);
    } catch (e) {
      if (e instanceof AgentError) return { ...base, success: false, reward, turns: turn, failure: e.reason, message: e.message, actions, observation: obs };
      throw e;
    }
    actions.push(action);
    let r;
    try {
      r = env.step(action);
    } catch (e) {
      if (e instanceof DialogymError) return { ...base, success: false, reward, turns: turn + 1, failure: 'invalid action', message: e.message, actions, observation: obs };
      throw e;
    }
    reward += r.reward;
    obs = r.obs;
    if (r.terminated || r.truncated) {
      const success = successOf(r.info, reward);
      const f = r.info['failure'];
      const failure = success ? null : typeof f === 'string' ? f : r.truncated ? 'max turns' : 'failed';
      return { ...base, success, reward, turns: turn + 1, failure, actions, observation: obs };
    }
  }
  return { ...base, success: false, reward, turns: 10_000, failure: 'max turns', actions, observation: obs };
}

/**
 * The summary of a run from its records (every trial of every task, in order): success rate,
 * pass^k, mean turns and reward, failures by reason in the order they first occurred.
 */
export function summarizeEpisodes(run: { readonly env: string; readonly episodes: number; readonly trials: number; readonly seed: number }, records: readonly EpisodeRecord[]): EvaluateSummary {
  const perTask: number[] = [];
  const failures: Record<string, number> = {};
  let last = -1;
  for (const rec of records) {
    if (rec.episode !== last) {
      perTask.push(0);
      last = rec.episode;
    }
    if (rec.success) perTask[perTask.length - 1] = (perTask[perTask.length - 1] ?? 0) + 1;
    else if (rec.failure !== null) failures[rec.failure] = (failures[rec.failure] ?? 0) + 1;
  }
  const n = records.length || 1;
  return {
    protocol: AGENT_PROTOCOL,
    env: run.env,
    episodes: run.episodes,
    trials: run.trials,
    seed: run.seed,
    success: records.filter((r) => r.success).length / n,
    passK: passHatK(perTask, run.trials),
    avgTurns: records.reduce((a, r) => a + r.turns, 0) / n,
    avgReward: records.reduce((a, r) => a + r.reward, 0) / n,
    failures,
  };
}

/** Plays `episodes × trials` episodes of `opts.env` with the agent behind `transport`; see the module description. */
export async function evaluateAgent(transport: AgentTransport, opts: EvaluateOptions): Promise<{ summary: EvaluateSummary; records: EpisodeRecord[] }> {
  const episodes = opts.episodes ?? 100;
  const trials = opts.trials ?? 1;
  const seed = opts.seed ?? 0;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const env = make(opts.env, opts.envOptions ?? {});
  const records: EpisodeRecord[] = [];
  const total = episodes * trials;
  for (let i = 0; i < episodes; i++) {
    if (opts.include && !opts.include(i)) continue;
    for (let t = 0; t < trials; t++) {
      const rec = await playEpisode(env, opts.env, transport, i, t, seed + i, timeoutMs);
      records.push(rec);
      opts.onEpisode?.(rec, records.length, total);
    }
  }
  const summary = summarizeEpisodes({ env: opts.env, episodes, trials, seed }, records);
  return { summary, records };
}
