/**
 * The agent protocol (docs/agent-protocol.md), version `dialogym-agent/1`: one JSON message per
 * agent turn, `{protocol, env, episode, trial, seed, turn, observation, tools}` → `{action, turn?}`;
 * an action is text, a tool call `{tool, arguments}`, or the environment's own action object. This
 * module checks an agent's reply and turns a failed one into the reason counted in summaries.
 */
import { depthOver } from '../core/json-depth.js';
import { isToolCall, type ToolSpec } from '../env/env.js';
import type { TokenUsage } from '../llm/client/usage.js';

/**
 * The protocol version carried by every request (`protocol` of {@link AgentRequest}).
 *
 * @example
 * ```ts
 * import { AGENT_PROTOCOL } from 'dialogym';
 * console.log(AGENT_PROTOCOL); // 'dialogym-agent/1'
 * ```
 */
export const AGENT_PROTOCOL = 'dialogym-agent/1';

/**
 * The default bound of one reply (a stdout line or an HTTP body): 4 MiB. A longer reply fails the
 * turn as `reply too long`.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_REPLY_BYTES } from 'dialogym';
 * console.log(DEFAULT_MAX_REPLY_BYTES); // 4194304
 * ```
 */
export const DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024;

/**
 * What dialogym sends the agent for one turn (`#/$defs/request` of
 * schemas/agent-protocol.schema.json). `turn` 0 starts an episode: reset per-episode state.
 *
 * @example
 * ```ts
 * import type { AgentRequest } from 'dialogym';
 * const say = (req: AgentRequest): string => (req.turn === 0 ? 'hello what can i help you with today' : 'ok');
 * ```
 */
export interface AgentRequest {
  readonly protocol: typeof AGENT_PROTOCOL;
  readonly env: string;
  /** Index of the task (0-based) in the run. */
  readonly episode: number;
  /** Trial of the task (0-based; pass^k runs k trials per task). */
  readonly trial: number;
  /** The episode's seed. */
  readonly seed: number;
  /** Agent turn within the episode (0 = the first: reset your state). */
  readonly turn: number;
  readonly observation: unknown;
  readonly tools: readonly ToolSpec[];
}

/**
 * Why an episode failed on the agent's side (the environment's own reasons come from
 * `info.failure`): the reply is not JSON, has no action, calls an unknown tool or with bad
 * arguments, is refused by the environment, echoes another `turn`, is longer than the reply
 * limit, came too late, or the agent process exited / the HTTP endpoint failed; an LLM agent's
 * request failed after its retries (`llm error`) or its reply was cut at the token limit
 * (`llm truncated`).
 *
 * @example
 * ```ts
 * import type { AgentFailure } from 'dialogym';
 * const agentSide: AgentFailure[] = ['timeout', 'reply too long', 'turn mismatch'];
 * ```
 */
export type AgentFailure = 'invalid json' | 'no action' | 'unknown tool' | 'bad arguments' | 'invalid action' | 'turn mismatch' | 'reply too long' | 'timeout' | 'agent exited' | 'http error' | 'llm error' | 'llm truncated';

/**
 * An agent turn that went wrong: the reason counted in the summary and a one-line message. A
 * transport rejects with it; it fails the episode at hand, never the run.
 *
 * @example
 * ```ts
 * import { AgentError } from 'dialogym';
 * const e = new AgentError('timeout', 'no reply within 5000 ms');
 * console.log(e.reason, e.message);
 * ```
 */
export class AgentError extends Error {
  constructor(
    readonly reason: AgentFailure,
    message: string,
    /** Tokens the failed turn used (an LLM agent whose reply gave no action). */
    readonly usage?: TokenUsage,
  ) {
    super(message);
  }
}

/** Checks a value against the JSON-Schema subset tool parameters use here; the first problem, or undefined. */
function schemaProblem(v: unknown, schema: Readonly<Record<string, unknown>>, at: string): string | undefined {
  const type = schema['type'];
  if (type === 'object') {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return `${at} must be an object`;
    const o = v as Record<string, unknown>;
    const props = (schema['properties'] ?? {}) as Record<string, Readonly<Record<string, unknown>>>;
    for (const k of (schema['required'] ?? []) as string[]) if (!(k in o)) return `${at}.${k} is missing`;
    for (const [k, x] of Object.entries(o)) {
      const p = props[k];
      if (p === undefined) {
        if (schema['additionalProperties'] === false) return `${at}.${k} is not a parameter`;
        continue;
      }
      const e = schemaProblem(x, p, `${at}.${k}`);
      if (e !== undefined) return e;
    }
    return undefined;
  }
  if (type === 'string' && typeof v !== 'string') return `${at} must be a string`;
  if (type === 'integer' && !Number.isInteger(v)) return `${at} must be an integer`;
  if (type === 'number' && typeof v !== 'number') return `${at} must be a number`;
  if (type === 'array') {
    if (!Array.isArray(v)) return `${at} must be an array`;
    const items = schema['items'] as Readonly<Record<string, unknown>> | undefined;
    if (items) for (let i = 0; i < v.length; i++) {
      const e = schemaProblem(v[i], items, `${at}[${i}]`);
      if (e !== undefined) return e;
    }
  }
  const en = schema['enum'] as unknown[] | undefined;
  if (en && !en.includes(v)) return `${at} must be one of ${en.map((x) => JSON.stringify(x)).join(', ')}`;
  return undefined;
}

/** Deepest nesting of arrays and objects a reply may have (deeper ones would overflow the stack of JSON.stringify). */
const MAX_REPLY_DEPTH = 64;

/**
 * The action of an agent's reply line/body: parses it (`invalid json`; also a reply nested deeper
 * than 64 levels), checks `{action}` is there
 * (`no action`), that an echoed `turn` is the request's (`turn mismatch`: e.g. an extra reply line
 * earlier made every later reply one turn late) and, for a tool call, that the tool exists and its
 * arguments fit its schema.
 */
export function readAgentReply(raw: string | unknown, tools: readonly ToolSpec[], turn?: number): unknown {
  return readReply(raw, tools, turn).action;
}

/**
 * `readAgentReply`, and the token use the reply reports, if any: `usage: {requests, tokensIn,
 * tokensOut}` (non-negative integers; the LLM agent sends it, `evaluate` adds it up per episode;
 * a malformed one is ignored).
 */
export function readReply(raw: string | unknown, tools: readonly ToolSpec[], turn?: number): { action: unknown; usage?: TokenUsage } {
  let msg: unknown = raw;
  if (typeof raw === 'string') {
    try {
      msg = JSON.parse(raw);
    } catch {
      throw new AgentError('invalid json', `the agent's reply is not JSON: ${JSON.stringify(raw.slice(0, 80))}`);
    }
  }
  // The tokens a refused reply reported are still counted (on the AgentError).
  const usage = msg !== null && typeof msg === 'object' ? usageOf((msg as { usage?: unknown }).usage) : undefined;
  if (depthOver(msg, MAX_REPLY_DEPTH)) throw new AgentError('invalid json', `the agent's reply is nested deeper than ${MAX_REPLY_DEPTH} levels`, usage);
  if (msg === null || typeof msg !== 'object' || !('action' in msg) || (msg as { action: unknown }).action === undefined || (msg as { action: unknown }).action === null) {
    throw new AgentError('no action', `the agent's reply has no "action": ${JSON.stringify(msg).slice(0, 80)}`, usage);
  }
  const echoed = (msg as { turn?: unknown }).turn;
  if (turn !== undefined && echoed !== undefined && echoed !== turn) {
    throw new AgentError('turn mismatch', `the reply is for turn ${JSON.stringify(echoed).slice(0, 20)}, the request was turn ${turn} (did the agent write an extra reply line?)`, usage);
  }
  const action = (msg as { action: unknown }).action;
  if (isToolCall(action)) {
    const tool = tools.find((t) => t.function.name === action.tool);
    if (!tool) throw new AgentError('unknown tool', `unknown tool '${action.tool}' (tools: ${tools.map((t) => t.function.name).join(', ') || 'none'})`, usage);
    const p = schemaProblem(action.arguments, tool.function.parameters, 'arguments');
    if (p !== undefined) throw new AgentError('bad arguments', `${action.tool}: ${p}`, usage);
  } else if (typeof action === 'object' && action !== null && 'tool' in action) {
    throw new AgentError('bad arguments', `a tool call needs "tool" (string) and "arguments" (object): ${JSON.stringify(action).slice(0, 80)}`, usage);
  }
  return usage ? { action, usage } : { action };
}

/** A well-formed `usage` of a reply, or undefined. */
function usageOf(u: unknown): TokenUsage | undefined {
  if (u === null || typeof u !== 'object') return undefined;
  const { requests, tokensIn, tokensOut } = u as Record<string, unknown>;
  const count = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
  return count(requests) && count(tokensIn) && count(tokensOut) ? { requests, tokensIn, tokensOut } : undefined;
}
