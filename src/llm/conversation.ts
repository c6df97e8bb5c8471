/**
 * One episode as a Chat Completions conversation: how an environment's observations become
 * messages and the model's reply becomes the agent's action (docs/llm.md, "The mapping").
 *
 * - `system`: the testbed's prompt, then — when the environment gives the agent a context — a
 *   line `## Context` and the context (the KB lines shown before a restaurant dialog, the
 *   AirDialogue flight table and reservation, the KB-InfoBot movie table).
 * - The user's utterance → a `user` message (a turn that carries no words as the environment writes it).
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
 *   arguments` (arguments sent as the object itself, as several servers do, are taken as they
 *   are), a tool call that names no function as `unknown tool`. Every member is read by its type:
 *   a reply of any shape is an outcome of its episode, never an exception of the run.
 *
 * Generic: it reads observations by shape (`utterance`, `kb`), the families' contexts come from the
 * caller.
 */
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { LlmClient } from './client/client.js';
import { addUsage, NO_USAGE, type TokenUsage } from './client/usage.js';

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
    // The message is read member by member, whatever types the server put there.
    const m = reply.message as unknown as Readonly<Record<string, unknown>>;
    if (reply.finishReason === 'length') throw new LlmTurnFailure('llm truncated', `the reply was cut at the token limit (finish_reason "length"); raise max_tokens in the request options`);
    const rawCalls = m['tool_calls'];
    if (rawCalls !== undefined && rawCalls !== null && !Array.isArray(rawCalls)) throw new LlmTurnFailure('bad arguments', `tool_calls is not a list: ${excerpt(rawCalls)}`);
    const calls = (rawCalls ?? []) as readonly unknown[];
    const text = contentText(m['content']);
    if (calls.length > 0) {
      this.droppedCalls += calls.length - 1;
      const { id, name, args, argText } = readCall(calls[0], turn);
      const call: ChatCompletionMessageToolCall = { id, type: 'function', function: { name, arguments: argText } };
      this.messages.push({ role: 'assistant', content: text === '' ? null : text, tool_calls: [call] });
      this.pendingCall = id;
      const tool = tools.find((t) => t.function.name === name);
      const props = tool?.function.parameters['properties'];
      if (text.trim() !== '' && args['utterance'] === undefined && props !== null && typeof props === 'object' && 'utterance' in props) return { tool: name, arguments: { ...args, utterance: text.trim() } };
      return { tool: name, arguments: args };
    }
    if (text.trim() === '') {
      const refusal = m['refusal'];
      throw new LlmTurnFailure('no action', typeof refusal === 'string' && refusal !== '' ? `the model refused: ${refusal.slice(0, 120)}` : 'the reply has neither text nor a tool call');
    }
    this.messages.push({ role: 'assistant', content: text });
    return text.trim();
  }
}

/** A value quoted on one line, at most 80 characters of it. */
function excerpt(v: unknown): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v.slice(0, 80)) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length <= 80 ? s : `${s.slice(0, 79)}…`;
}

/**
 * The text of a message's `content`: a string, or the text parts of a list of content parts
 * (`[{type: "text", text}]`, as some servers send it); '' for anything else.
 *
 * @example
 * ```ts
 * contentText([{ type: 'text', text: 'hello ' }, { type: 'text', text: 'there' }]); // 'hello there'
 * contentText(7); // ''
 * ```
 */
export function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c.map((p: unknown) => (p !== null && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
}

/**
 * The first tool call of a reply as the action reads it, or an `LlmTurnFailure`: `unknown tool` for
 * a call that is not a function call or names no function, `bad arguments` for arguments that are
 * not a JSON object (a JSON string of one, or the object itself as several servers send it; missing
 * or empty: `{}`).
 */
function readCall(c: unknown, turn: number): { id: string; name: string; args: Record<string, unknown>; argText: string } {
  if (c === null || typeof c !== 'object' || Array.isArray(c)) throw new LlmTurnFailure('unknown tool', `the tool call is not an object: ${excerpt(c)}`);
  const call = c as Readonly<Record<string, unknown>>;
  if (call['type'] !== undefined && call['type'] !== 'function') throw new LlmTurnFailure('unknown tool', `the model called a ${excerpt(call['type'])} tool; the environment's tools are functions`);
  const f = call['function'];
  if (f === null || typeof f !== 'object' || Array.isArray(f)) throw new LlmTurnFailure('unknown tool', `the tool call has no function: ${excerpt(c)}`);
  const fn = f as Readonly<Record<string, unknown>>;
  const name = fn['name'];
  if (typeof name !== 'string' || name === '') throw new LlmTurnFailure('unknown tool', `the tool call names no function (name ${excerpt(name)})`);
  const raw = fn['arguments'];
  let args: unknown;
  if (raw === undefined || raw === null || raw === '') args = {};
  else if (typeof raw === 'string') {
    try {
      args = JSON.parse(raw);
    } catch {
      throw new LlmTurnFailure('bad arguments', `${name}: the arguments are not JSON: ${excerpt(raw)}`);
    }
  } else args = raw;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new LlmTurnFailure('bad arguments', `${name}: the arguments are not a JSON object: ${excerpt(raw)}`);
  const id = typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : `call_${turn}`;
  return { id, name, args: args as Record<string, unknown>, argText: typeof raw === 'string' && raw !== '' ? raw : JSON.stringify(args) };
}
