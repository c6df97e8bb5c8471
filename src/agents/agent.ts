/**
 * What an agent is to dialogym (the "agent" of τ²-bench's agent / user / orchestrator / evaluator
 * split: the user is the environment's simulator, the orchestrator and evaluator are
 * `evaluation/`):
 *
 * - an {@link Agent}: an object whose `act(request)` returns the action (or a promise of it) —
 *   enough to evaluate an agent written in TypeScript, in this process;
 * - an {@link AgentTransport}: how requests reach an agent elsewhere (a child process over stdio,
 *   an HTTP endpoint, a language model behind an API). A transport opens one
 *   {@link AgentConnection} per lane of a run (`--concurrency N`: N lanes, so N agent processes
 *   or N requests in flight); an episode holds one connection from its turn 0 to its end, and a
 *   connection whose agent failed a turn is closed and replaced by a fresh one. Adding a transport
 *   is a new file that implements this interface (see `stdio.ts`, `http.ts`).
 */
import type { ToolCall } from '../env/env.js';
import type { AgentRequest } from './protocol.js';

/**
 * An agent's action: text (the bot's utterance), a tool call `{tool, arguments}` of a tool in
 * `request.tools`, or the environment's own action object (e.g. AirDialogue's `{utterance, action}`).
 *
 * @example
 * ```ts
 * import type { AgentAction } from 'dialogym';
 * const call: AgentAction = { tool: 'api_call', arguments: { cuisine: 'italian', location: 'rome', number: 'six', price: 'cheap' } };
 * const text: AgentAction = 'where should it be';
 * ```
 */
export type AgentAction = string | ToolCall | Readonly<Record<string, unknown>>;

/**
 * An agent in this process: `act` answers one protocol request (a new episode starts at
 * `turn` 0) with the action, synchronously or as a promise. With `concurrency` above 1, give
 * `evaluate` a factory (`() => Agent`) or `localTransport(factory)` so each lane has its own
 * agent, or key the agent's state by `(episode, trial)`.
 *
 * @example
 * ```ts
 * import { evaluate, type Agent } from 'dialogym';
 * const parrot: Agent = { act: (req) => (req.turn === 0 ? 'hello what can i help you with today' : 'ok let me look into some options for you') };
 * const { summary } = await evaluate('restaurant-task1-v1', parrot, { episodes: 5 });
 * console.log(summary.success, summary.failures);
 * ```
 */
export interface Agent {
  /** Optional name (shown in listings). */
  readonly name?: string;
  /** The action for one request. */
  act(request: AgentRequest): AgentAction | Promise<AgentAction>;
}

/**
 * One lane to an agent: an episode holds it from turn 0 to its end. `send` resolves to the
 * agent's raw reply — a JSON text (a stdout line, an HTTP body) or an object (in process) —
 * which the runner checks (`readAgentReply`); it rejects with an `AgentError` (reason + message)
 * when the agent fails the turn (timeout, reply too long, agent exited, HTTP error). After such a
 * failure the runner closes the connection and opens another for the next episode.
 *
 * @example
 * ```ts
 * import { AGENT_PROTOCOL, type AgentConnection } from 'dialogym';
 * const always: AgentConnection = {
 *   send: async () => JSON.stringify({ action: 'hello' }),
 *   close: async () => {},
 * };
 * await always.send({ protocol: AGENT_PROTOCOL, env: 'restaurant-task1-v1', episode: 0, trial: 0, seed: 0, turn: 0, observation: {}, tools: [] }, 5000);
 * ```
 */
export interface AgentConnection {
  /** One request → the raw reply, within `timeoutMs` (a transport may add start-up time). */
  send(request: AgentRequest, timeoutMs: number): Promise<unknown>;
  /** Ends the lane and frees what it holds (an agent process and its descendants, sockets). */
  close(): Promise<void>;
}

/**
 * How requests reach an agent: `connect(lane)` opens the connection of lane `lane`
 * (0 … concurrency−1; called again for a lane whose connection failed). Connections are opened
 * lazily by `evaluate` and closed by it when the run ends; `close`, when present, frees what the
 * transport itself holds.
 *
 * @example
 * ```ts
 * import { evaluate, stdioTransport } from 'dialogym';
 * const transport = stdioTransport('dialogym agent --agent rules --stdio', { maxReplyBytes: 1 << 20 });
 * const { summary } = await evaluate('restaurant-task5-v1', transport, { episodes: 20, concurrency: 4 });
 * console.log(summary.passK);
 * ```
 */
export interface AgentTransport {
  /** What it talks to, for messages (e.g. the command or the URL). */
  readonly name: string;
  connect(lane: number): AgentConnection;
  close?(): Promise<void>;
}

/** Is `x` a transport (rather than an agent)? */
export function isAgentTransport(x: unknown): x is AgentTransport {
  return typeof x === 'object' && x !== null && typeof (x as { connect?: unknown }).connect === 'function';
}

/**
 * Agents in this process as a transport: each lane gets `agent()` (a factory: one agent per lane,
 * so per-episode state never mixes) or shares the one `agent`. The reply is `{action}` with the
 * agent's action; an exception thrown by `act` ends the run (it is a bug, not an agent turn).
 *
 * @example
 * ```ts
 * import { evaluate, localTransport } from 'dialogym';
 * let said = 0;
 * const transport = localTransport(() => ({ act: () => (said++ % 2 === 0 ? 'hello' : 'bye') }));
 * const { records } = await evaluate('restaurant-task1-v1', transport, { episodes: 4, concurrency: 2 });
 * console.log(records.length); // 4
 * ```
 */
export function localTransport(agent: Agent | (() => Agent)): AgentTransport {
  const make = typeof agent === 'function' ? agent : () => agent;
  return {
    name: typeof agent === 'function' ? 'in process' : (agent.name ?? 'in process'),
    connect() {
      const a = make();
      return {
        send: async (req) => ({ action: await a.act(req) }),
        close: async () => {},
      };
    },
  };
}
