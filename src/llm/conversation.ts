/**
 * One episode as a Chat Completions conversation: how an environment's observations become
 * messages and the model's reply becomes the agent's action (docs/llm.md, "The mapping").
 *
 * - `system`: the testbed's prompt, then — when the environment gives the agent a context — a
 *   line `## Context` and the context (the KB lines shown before a restaurant dialog, the
 *   AirDialogue flight table and reservation, the KB-InfoBot movie table).
 * - The user's utterance → a `user` message (the datasets' `<SILENCE>` as it is).
 * - A tool call of the model → the environment's tool call; what the environment returns before the
 *   user speaks again (a restaurant `api_call`'s KB lines, one per line) → the `tool` message
 *   answering that call's `tool_call_id`, or `ok` when it returns nothing; KB lines that answer an
 *   api_call the model wrote as text come as a `user` message of their own.
 * - The reply: one action per reply. With tool calls, the first is the action (its `arguments` a
 *   JSON object); the others are dropped from the conversation (counted in `droppedCalls`); text
 *   beside a tool call fills the tool's `utterance` argument when the tool has one and the model left
 *   it out (AirDialogue), and is otherwise not said. Without tool calls the text is the utterance.
 *   An empty reply or a refusal fails the episode (`no action`), a reply cut at the token limit
 *   (`finish_reason: length`) too (`llm truncated`), arguments that are not a JSON object as `bad
 *   arguments`.
 *
 * Generic: it reads observations by shape (`utterance`, `kb`), the families' contexts come from the
 * caller.
 */
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { LlmClient } from './client.js';
import { addUsage, NO_USAGE, type TokenUsage } from './usage.js';

/** The line that opens the context part of the system message. */
export const CONTEXT_HEADING = '## Context';
/** The tool message content when the environment returns nothing for a call. */
export const NO_TOOL_OUTPUT = 'ok';

/** A failed agent turn: the failure reason counted in summaries and a one-line message. */
export class LlmTurnFailure extends Error {
  constructor(
    readonly reason: 'no action' | 'bad arguments' | 'unknown tool' | 'llm truncated',
    message: string,
  ) {
    super(message);
  }
}

/** The system message: the prompt, then the context under `## Context` when there is one. */
export function systemMessage(prompt: string, context: string | undefined): string {
  const p = prompt.trimEnd();
  return context === undefined || context === '' ? p : `${p}\n\n${CONTEXT_HEADING}\n\n${context}`;
}

/** A tool in the shape the endpoint takes (the environments' `ToolSpec`s already are). */
export interface ToolLike {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Readonly<Record<string, unknown>> };
}

/** What the conversation reads of an observation. */
export interface ObservationLike {
  readonly utterance?: unknown;
  readonly kb?: unknown;
}

function stringsOf(x: unknown): string[] {
  return Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * One episode's conversation (module description above): `begin` with the system message, then
 * per agent turn `observe` what the environment said and `act`.
 *
 * @example
 * ```ts
 * const c = new LlmConversation(client);
 * c.begin(systemMessage(prompt, undefined));
 * c.observe(obs0);
 * const action = await c.act(tools, 0); // then observe + act each turn
 * console.log(c.usage.tokensIn, c.usage.tokensOut);
 * ```
 */
export class LlmConversation {
  readonly messages: ChatCompletionMessageParam[] = [];
  /** Tokens and requests of this episode. */
  usage: TokenUsage = NO_USAGE;
  /** Tool calls dropped because a reply had more than one. */
  droppedCalls = 0;
  private pendingCall: string | undefined;

  constructor(private readonly client: LlmClient) {}

  /** Starts the episode: the system message (the first observation comes with the first `act`). */
  begin(system: string): void {
    this.messages.length = 0;
    this.messages.push({ role: 'system', content: system });
    this.usage = NO_USAGE;
    this.droppedCalls = 0;
    this.pendingCall = undefined;
  }

  /** Adds what the environment said since the last action (`kbInContext`: its KB lines are already in the system message). */
  observe(obs: ObservationLike, kbInContext = false): void {
    const lines = kbInContext ? [] : stringsOf(obs.kb);
    if (this.pendingCall !== undefined) {
      this.messages.push({ role: 'tool', tool_call_id: this.pendingCall, content: lines.length > 0 ? lines.join('\n') : NO_TOOL_OUTPUT });
      this.pendingCall = undefined;
    } else if (lines.length > 0) this.messages.push({ role: 'user', content: lines.join('\n') });
    const u = obs.utterance;
    if (typeof u === 'string' && u !== '') this.messages.push({ role: 'user', content: u });
  }

  /**
   * Asks the model for the next action after `observe`. Rejects with an `LlmTurnFailure` for a reply
   * that gives no action, and passes the client's `LlmError` through.
   */
  async act(tools: readonly ToolLike[], turn: number): Promise<unknown> {
    const reply = await this.client.chat({ messages: this.messages, tools: tools as unknown as ChatCompletionTool[] });
    this.usage = addUsage(this.usage, reply.usage);
    const m = reply.message;
    if (reply.finishReason === 'length') throw new LlmTurnFailure('llm truncated', `the reply was cut at the token limit (finish_reason "length"); raise max_tokens with --llm-option`);
    const calls = (m.tool_calls ?? []) as ChatCompletionMessageToolCall[];
    const text = typeof m.content === 'string' ? m.content : '';
    if (calls.length > 0) {
      const first = calls[0] as ChatCompletionMessageToolCall;
      this.droppedCalls += calls.length - 1;
      if (first.type !== 'function') throw new LlmTurnFailure('unknown tool', `the model called a ${String(first.type)} tool; the environment's tools are functions`);
      const name = first.function.name;
      let args: unknown;
      try {
        args = JSON.parse(first.function.arguments === '' ? '{}' : first.function.arguments);
      } catch {
        throw new LlmTurnFailure('bad arguments', `${name}: the arguments are not JSON: ${JSON.stringify(first.function.arguments.slice(0, 80))}`);
      }
      if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new LlmTurnFailure('bad arguments', `${name}: the arguments are not a JSON object: ${first.function.arguments.slice(0, 80)}`);
      const id = typeof first.id === 'string' && first.id !== '' ? first.id : `call_${turn}`;
      const call: ChatCompletionMessageToolCall = { id, type: 'function', function: { name, arguments: first.function.arguments } };
      this.messages.push({ role: 'assistant', content: text === '' ? null : text, tool_calls: [call] });
      this.pendingCall = id;
      const tool = tools.find((t) => t.function.name === name);
      const props = tool?.function.parameters['properties'];
      const a = args as Record<string, unknown>;
      if (text.trim() !== '' && a['utterance'] === undefined && props !== null && typeof props === 'object' && 'utterance' in props) return { tool: name, arguments: { ...a, utterance: text.trim() } };
      return { tool: name, arguments: a };
    }
    if (text.trim() === '') {
      const refusal = typeof m.refusal === 'string' && m.refusal !== '' ? `the model refused: ${m.refusal.slice(0, 120)}` : 'the reply has neither text nor a tool call';
      throw new LlmTurnFailure('no action', refusal);
    }
    this.messages.push({ role: 'assistant', content: text });
    return text.trim();
  }
}
