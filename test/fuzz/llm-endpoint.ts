/**
 * A hostile OpenAI-compatible endpoint for fuzzing the LLM path: the local test server
 * (test/llm-server.ts) whose replies are, request by request, drawn by fast-check from what
 * misbehaving servers send — a completion with a member removed or replaced by a value of the wrong
 * type (null, numbers, strings, lists, objects, 300 levels deep, 10,000 characters), arguments as an
 * object or broken JSON, a body that is not JSON, empty or cut, HTTP errors with and without
 * `Retry-After`, a content padded to megabytes, a body trickled byte by byte, headers then silence
 * — or, one time in three, the faithful answer, so that episodes get past their first turn.
 *
 * `fuzzLlm` plays episodes through it until `replies` requests were answered, as the agent
 * (`--agent-llm`) or the user (`--user-llm`), and checks the property: every run ends with its
 * records, or stops with a fatal LlmError of one line (a hopeless endpoint); nothing else is thrown,
 * no run outlives its guard, and every request dialogym sends is one the real API would take.
 */
import fc from 'fast-check';
import '../../src/index.js';
import { createAgent } from '../../src/agents/registry.js';
import { llmTransport } from '../../src/llm/agent.js';
import { llmSystemMessage, llmUserPrompt, llmUserSystemMessage } from '../../src/llm/prompts.js';
import { evaluate } from '../../src/evaluation/evaluate.js';
import { llmUserVoice } from '../../src/llm/user.js';
import { LlmClient, LlmError, type LlmClientOptions } from '../../src/llm/client/client.js';
import { startLlmTestServer, type Fault, type Json } from '../llm-server.js';

/** A member of a completion a mutation replaces or removes. */
const PATHS = [
  ['choices'],
  ['choices', 0],
  ['choices', 0, 'message'],
  ['choices', 0, 'message', 'content'],
  ['choices', 0, 'message', 'tool_calls'],
  ['choices', 0, 'message', 'tool_calls', 0],
  ['choices', 0, 'message', 'tool_calls', 0, 'function'],
  ['choices', 0, 'message', 'tool_calls', 0, 'function', 'name'],
  ['choices', 0, 'message', 'tool_calls', 0, 'function', 'arguments'],
  ['choices', 0, 'message', 'tool_calls', 0, 'id'],
  ['choices', 0, 'message', 'tool_calls', 0, 'type'],
  ['choices', 0, 'message', 'refusal'],
  ['choices', 0, 'finish_reason'],
  ['usage'],
  ['usage', 'prompt_tokens'],
  ['usage', 'completion_tokens'],
] as const;

const deep = (n: number): unknown => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n));

/** Values of the wrong type (or the right type with a hostile value); `undefined` removes the member. */
const VALUES: readonly unknown[] = [undefined, null, 0, -1, 7, 1.5, 1e308, '', 'x', 'x'.repeat(10_000), '{', '[]', '{"a":1}', true, [], [null], [1, 2], {}, { a: 1 }, { name: 7 }, 'length', 'tool_calls', 'no_such_tool', 'api_call'];

/** One reply of the hostile endpoint (serialisable: fast-check draws it, the failure report prints it). */
export type HostileReply =
  | { readonly kind: 'faithful' }
  | { readonly kind: 'replace'; readonly path: number; readonly value: number }
  | { readonly kind: 'deep'; readonly path: number; readonly levels: number }
  | { readonly kind: 'arguments object' }
  | { readonly kind: 'raw'; readonly body: string; readonly status: number; readonly contentType: string }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string }
  | { readonly kind: 'truncate' }
  | { readonly kind: 'pad'; readonly bytes: number }
  | { readonly kind: 'trickle' }
  | { readonly kind: 'stall' };

/** The arbitrary of hostile replies; `maxPad`: the largest padding (bytes). */
export function hostileReply(maxPad: number): fc.Arbitrary<HostileReply> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant({ kind: 'faithful' as const }) },
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('replace' as const), path: fc.nat(PATHS.length - 1), value: fc.nat(VALUES.length - 1) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('deep' as const), path: fc.nat(PATHS.length - 1), levels: fc.constantFrom(60, 100, 300, 5000) }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'arguments object' as const }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('raw' as const),
        body: fc.constantFrom('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>', '', '{"choices":[', 'null', '[]', '"text"', '{}', '\u0000\u00ff\ufffd', 'data: {"choices":[]}\n\n'),
        status: fc.constantFrom(200, 200, 400, 502),
        contentType: fc.constantFrom('text/html', 'application/json', 'text/event-stream'),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('status' as const), status: fc.constantFrom(400, 408, 409, 422, 429, 500, 502, 503), retryAfter: fc.option(fc.constantFrom('0', '1', 'soon', 'Wed, 21 Oct 2015 07:28:00 GMT', '99999'), { nil: undefined }) }, { requiredKeys: ['kind', 'status'] }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'truncate' as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('pad' as const), bytes: fc.integer({ min: 1, max: maxPad }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'trickle' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'stall' as const }) },
  );
}

/** `c` with the member at `path` set to `value` (removed for undefined); members missing on the way are left alone. */
function setPath(c: Json, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(c) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) {
    const next = at[k];
    if (next === null || typeof next !== 'object') return copy;
    at = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

/** The server fault of a hostile reply; `stepMs`: the trickle's pace. */
export function faultOf(r: HostileReply, stepMs: number): Fault | undefined {
  switch (r.kind) {
    case 'faithful':
      return undefined;
    case 'replace':
      return { mutate: (c) => setPath(c, PATHS[r.path] as readonly (string | number)[], VALUES[r.value]) };
    case 'deep':
      return { mutate: (c) => setPath(c, PATHS[r.path] as readonly (string | number)[], deep(r.levels)) };
    case 'arguments object':
      return {
        mutate: (c) => {
          const call = (((c['choices'] as Json[])[0] as Json)['message'] as { tool_calls?: Array<{ function: Json }> }).tool_calls?.[0];
          return call ? setPath(c, PATHS[8], JSON.parse(call.function['arguments'] as string)) : c;
        },
      };
    case 'raw':
      return { raw: { body: r.body, status: r.status, contentType: r.contentType } };
    case 'status':
      return { status: r.status, ...(r.retryAfter !== undefined ? { retryAfter: r.retryAfter } : {}) };
    case 'truncate':
      return { truncate: true };
    case 'pad':
      return { padBytes: r.bytes };
    case 'trickle':
      return { trickleMs: stepMs };
    case 'stall':
      return { stall: true };
  }
}

/** What a fuzz run saw. */
export interface LlmFuzzStats {
  /** Requests the hostile endpoint received (replies drawn). */
  replies: number;
  runs: number;
  episodes: number;
  /** Runs stopped by a fatal LlmError of one line (a hopeless endpoint, the failure budget). */
  stopped: number;
  /** Episode failures by reason. */
  readonly failures: Record<string, number>;
  /** What broke the property: anything thrown but a one-line fatal LlmError, a run past its guard, a request the API would refuse. */
  readonly crashes: string[];
  hangs: number;
}

/** Options of one fuzz campaign. */
export interface LlmFuzzOptions {
  readonly replies: number;
  readonly seed: number;
  /** Play the user's voice (`--user-llm`, restaurant-task5-v2 with the rule agent) instead of the agent. */
  readonly user: boolean;
  /** The largest padding of a content (bytes) and the client's reply limit. */
  readonly maxPad: number;
  readonly maxReplyBytes: number;
  /** The client's timeout (ms); a trickle steps at a tenth of it. */
  readonly timeoutMs: number;
  readonly concurrency?: number;
}

const AGENT_ENVS = ['restaurant-task1-v1', 'restaurant-task5-v1', 'airdialogue-v1', 'dstc6-task3-tst1-v1'] as const;
const USER_ENVS = ['restaurant-task5-v2', 'airdialogue-v2'] as const;

/** Plays episodes through the hostile endpoint until `replies` requests (module description). */
export async function fuzzLlm(o: LlmFuzzOptions): Promise<LlmFuzzStats> {
  const replies = fc.sample(hostileReply(o.maxPad), { numRuns: Math.max(1, o.replies), seed: o.seed });
  const server = await startLlmTestServer({ faults: (n) => faultOf(replies[(n - 1) % replies.length] as HostileReply, Math.ceil(o.timeoutMs / 10)) });
  const stats: LlmFuzzStats = { replies: 0, runs: 0, episodes: 0, stopped: 0, failures: {}, crashes: [], hangs: 0 };
  const clientOptions: LlmClientOptions = { model: 'fuzz', baseUrl: server.url, timeoutMs: o.timeoutMs, maxRetries: 1, retryBaseMs: 1, retryMaxMs: 5, maxFailures: 1e9, maxReplyBytes: o.maxReplyBytes, seed: o.seed };
  try {
    for (let run = 0; server.stats.requests < o.replies; run++) {
      const envs = o.user ? USER_ENVS : AGENT_ENVS;
      const env = envs[run % envs.length] as string;
      const client = new LlmClient({ ...clientOptions, seed: o.seed + run });
      const agent = o.user ? createAgent('rules') : llmTransport({ client, system: (req) => llmSystemMessage(req) });
      const userVoice = o.user ? llmUserVoice({ client, system: (t) => llmUserSystemMessage(t), prompt: (t) => llmUserPrompt(t) }) : undefined;
      const episodes = 8;
      // Each request at most: its attempts' timeouts and the retry waits; a run past 4 times that is a hang.
      const guardMs = 4 * episodes * 60 * (o.timeoutMs * 2 + 10) + 10_000;
      let timer: NodeJS.Timeout | undefined;
      const guard = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), guardMs)));
      stats.runs++;
      try {
        const r = await Promise.race([evaluate(env, agent, { episodes, seed: o.seed * 1000 + run, concurrency: o.concurrency ?? 2, ...(userVoice ? { userVoice } : {}) }), guard]);
        if (r === 'hang') {
          stats.hangs++;
          stats.crashes.push(`${env} run ${run}: no end within ${guardMs} ms`);
          break;
        }
        for (const rec of r.records) {
          stats.episodes++;
          if (rec.failure !== null) stats.failures[rec.failure] = (stats.failures[rec.failure] ?? 0) + 1;
        }
      } catch (e) {
        if (e instanceof LlmError && e.fatal && !e.message.includes('\n')) stats.stopped++;
        else stats.crashes.push(`${env} run ${run}: ${e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]}` : String(e)}`);
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    stats.replies = server.stats.requests;
    for (const problem of new Set(server.stats.rejected)) stats.crashes.push(`a request the API refuses: ${problem}`);
    await server.close();
  }
  return stats;
}
