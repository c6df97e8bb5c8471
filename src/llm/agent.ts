/**
 * The LLM transport: the agent is a language model behind an OpenAI-compatible Chat Completions
 * endpoint (`dialogym evaluate --agent-llm <model>`, `dialogym agent --agent-llm …`). Each lane of
 * a run holds one conversation (`llm/conversation.ts`: observations → messages, the reply → the
 * action, docs/llm.md); turn 0 starts it anew with the system message the caller builds for the
 * episode (`system(request)`: the testbed's prompt and context, `llmSystemMessage` of prompts.ts).
 *
 * The reply of a turn is `{action, turn, usage}`, `usage` being that turn's `{requests, tokensIn,
 * tokensOut}`, which `evaluate` adds up per episode. A turn the model fails — no action, arguments
 * that are not a JSON object, a reply cut at the token limit, a request that still fails after its
 * retries — fails the episode (`no action`, `bad arguments`, `llm truncated`, `llm error`); a fatal
 * client error (a wrong key, URL or model; the failure budget spent) ends the run. The per-turn
 * timeout of the runner does not apply: the client has its own per request, and retries.
 */
import type { AgentConnection, AgentTransport } from '../agents/agent.js';
import { AgentError, type AgentRequest } from '../agents/protocol.js';
import { LlmError, type LlmClient } from './client/client.js';
import { LlmConversation, LlmTurnFailure, type ToolLike } from './conversation.js';
import type { TokenUsage } from './client/usage.js';

/**
 * Options of {@link llmTransport}.
 *
 * @example
 * ```ts
 * import { LlmClient, llmSystemMessage, type LlmTransportOptions } from 'dialogym';
 * const opts: LlmTransportOptions = { client: new LlmClient({ model: 'm', baseUrl: 'http://localhost:8080/v1' }), system: (req) => llmSystemMessage(req) };
 * ```
 */
export interface LlmTransportOptions {
  readonly client: LlmClient;
  /** The system message of the episode that `request` (its turn 0) starts; the KB lines of the first observation belong in it (they are not repeated as messages). */
  system(request: AgentRequest): string;
}

function minus(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { requests: a.requests - b.requests, tokensIn: a.tokensIn - b.tokensIn, tokensOut: a.tokensOut - b.tokensOut };
}

/** One lane: a conversation, begun anew at each turn 0 (module description). */
export function llmConnection(o: LlmTransportOptions): AgentConnection {
  const conv = new LlmConversation(o.client);
  return {
    async send(req) {
      if (req.turn === 0) {
        conv.begin(o.system(req));
        conv.observe(req.observation as object, true);
      } else conv.observe(req.observation as object);
      const before = conv.usage;
      try {
        const action = await conv.act(req.tools as readonly ToolLike[], req.turn);
        return { action, turn: req.turn, usage: minus(conv.usage, before) };
      } catch (e) {
        if (e instanceof LlmTurnFailure) throw new AgentError(e.reason, e.message, minus(conv.usage, before));
        if (e instanceof LlmError && !e.fatal) throw new AgentError('llm error', e.message, minus(conv.usage, before));
        throw e;
      }
    },
    close: async () => {},
  };
}

/**
 * The LLM agent as a transport of `evaluate`: one conversation per lane, all lanes sharing the
 * client (its cache, retries, failure budget and accounting).
 *
 * @example
 * ```ts
 * import { evaluate, llmTransport, llmSystemMessage, LlmClient } from 'dialogym';
 * const client = new LlmClient({ model: 'qwen2.5:7b', baseUrl: 'http://localhost:11434/v1' });
 * const transport = llmTransport({ client, system: (req) => llmSystemMessage(req) });
 * const { summary } = await evaluate('restaurant-task1-v1', transport, { episodes: 10, concurrency: 4 });
 * console.log(summary.success, summary.usage);
 * ```
 */
export function llmTransport(o: LlmTransportOptions): AgentTransport & { readonly client: LlmClient } {
  return {
    client: o.client,
    name: `${o.client.model} at ${o.client.baseUrl}`,
    connect: () => llmConnection(o),
  };
}
