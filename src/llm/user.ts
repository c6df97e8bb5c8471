/**
 * A language model as the voice of the simulated user (`evaluate --user-llm <model>`, see
 * `agents/user-voice.ts`): one conversation per episode, the roles turned around — the model is told who
 * it is and its goal in the `system` message; each of its turns is prompted by a `user` message
 * holding what the agent said since the user last spoke and, where the environment decided it,
 * what the user does now; its reply (text) is the user's turn. What the messages say about a
 * testbed comes from the caller (`llmUserSystemMessage`, `llmUserPrompt` of prompts.ts).
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { UserTurn, UserVoice, UserVoiceSession } from '../agents/user-voice.js';
import { LlmError, type LlmClient } from './client/client.js';
import { contentText } from './conversation.js';

/**
 * Options of {@link llmUserVoice}.
 *
 * @example
 * ```ts
 * import { LlmClient, llmUserPrompt, llmUserSystemMessage, type LlmUserOptions } from 'dialogym';
 * const opts: LlmUserOptions = { client: new LlmClient({ model: 'm', baseUrl: 'http://localhost:8080/v1' }), system: (t) => llmUserSystemMessage(t), prompt: (t) => llmUserPrompt(t) };
 * ```
 */
export interface LlmUserOptions {
  readonly client: LlmClient;
  /** The system message of the episode `turn` (its turn 0) starts: the user's role and goal. */
  system(turn: UserTurn): string;
  /** The message that prompts one user turn: the agent's words since the user's last turn, and what to do. */
  prompt(turn: UserTurn): string;
}

/**
 * The LLM user (module description); all lanes share the client (cache, retries, accounting).
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, LlmClient, llmUserVoice, llmUserPrompt, llmUserSystemMessage } from 'dialogym';
 * const client = new LlmClient({ model: 'qwen2.5:7b', baseUrl: 'http://localhost:11434/v1' });
 * const userVoice = llmUserVoice({ client, system: (t) => llmUserSystemMessage(t), prompt: (t) => llmUserPrompt(t) });
 * const { summary } = await evaluate('airdialogue-v1', createAgent('rules'), { episodes: 10, userVoice });
 * console.log(summary.success, summary.userUsage);
 * ```
 */
export function llmUserVoice(o: LlmUserOptions): UserVoice {
  return {
    name: `${o.client.model} at ${o.client.baseUrl}`,
    connect(): UserVoiceSession {
      const messages: ChatCompletionMessageParam[] = [];
      return {
        async say(turn) {
          if (turn.turn === 0) messages.length = 0;
          if (messages.length === 0) messages.push({ role: 'system', content: o.system(turn) });
          messages.push({ role: 'user', content: o.prompt(turn) });
          const r = await o.client.chat({ messages });
          // Read by its type: a reply of another shape is a failed turn (`user llm error`), never a crash.
          const text = contentText((r.message as { content?: unknown }).content).trim();
          const usage = r.usage;
          if (text === '') throw new LlmError(`${o.client.baseUrl} (model ${o.client.model}): the user model's reply has no text`, 'no text', false, usage);
          messages.push({ role: 'assistant', content: text });
          return { text, usage };
        },
      };
    },
  };
}
