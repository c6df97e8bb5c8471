/**
 * The agent and the LLM user of a run, from its options: the way to the agent (`evaluation/open.ts`)
 * with what dialogym adds — an LLM agent told the testbed's prompt (or `systemPrompt`'s file) and
 * context, an LLM user told its goal — and the LLM connection options (`llmUrl`, `llmKeyEnv`,
 * `llmOption`, `llmTimeout`, …, named as the CLI's `--llm-*` flags, which map onto them). The
 * testbeds' LLM sections must be declared (`import 'dialogym'`; the CLI loads the list).
 */
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import type { AgentTransport } from '../agents/agent.js';
import { openAgent, llmKey, type AgentWay } from '../evaluation/open.js';
import type { LlmClientOptions } from '../llm/client/client.js';

/**
 * How a run reaches a language model (its agent's, its user's): the endpoint, the variable of its
 * key, the request members, the client's limits, the response cache folder.
 *
 * @example
 * ```ts
 * import type { LlmConnection } from 'dialogym';
 * const c: LlmConnection = { llmUrl: 'http://localhost:11434/v1', llmOption: { max_tokens: 256 }, cache: 'runs/cache' };
 * ```
 */
export interface LlmConnection {
  /** OpenAI-compatible endpoint up to /v1 (default: the OpenAI API). */
  readonly llmUrl?: string;
  /** Environment variable holding the API key (default: OPENAI_API_KEY). */
  readonly llmKeyEnv?: string;
  /** Request members (max_tokens, seed, …; default: temperature 0 only). */
  readonly llmOption?: Readonly<Record<string, unknown>>;
  /** Timeout of each request, ms. */
  readonly llmTimeout?: number;
  /** Retries of a failed request. */
  readonly llmRetries?: number;
  /** Requests that may fail for good before the run stops. */
  readonly llmMaxFailures?: number;
  /** Longest body of a reply, bytes. */
  readonly llmMaxReplyBytes?: number;
  /** A file with the LLM agent's system prompt (default: the testbed's). */
  readonly systemPrompt?: string;
  /** Response cache folder (a finished run replays offline). */
  readonly cache?: string;
}

/**
 * The text of a prompt file given by option `option` (`systemPrompt`, `userPrompt`), or undefined
 * for none (the shipped prompts); a missing or empty file is a ConfigError naming the option.
 *
 * @example
 * ```ts
 * import { promptFileText } from 'dialogym';
 * promptFileText('systemPrompt', undefined); // undefined: the testbed's prompt
 * ```
 */
export function promptFileText(option: string, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  if (!existsSync(file)) throw new ConfigError(`${file}: no such file`, { option });
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') throw new ConfigError(`${file}: the file is empty`, { option });
  return text;
}

/**
 * The LLM client's options of a connection, besides the model, endpoint, key and seed.
 *
 * @example
 * ```ts
 * import { llmClientOptionsOf } from 'dialogym';
 * const o = await llmClientOptionsOf({ llmTimeout: 30_000, cache: 'runs/cache' });
 * ```
 */
export async function llmClientOptionsOf(o: LlmConnection): Promise<Omit<LlmClientOptions, 'model' | 'baseUrl' | 'apiKey' | 'seed'>> {
  const { ResponseCache } = await import('../llm/client/cache.js');
  return {
    ...(o.llmOption !== undefined ? { options: o.llmOption } : {}),
    ...(o.llmTimeout !== undefined ? { timeoutMs: o.llmTimeout } : {}),
    ...(o.llmRetries !== undefined ? { maxRetries: o.llmRetries } : {}),
    ...(o.llmMaxFailures !== undefined ? { maxFailures: o.llmMaxFailures } : {}),
    ...(o.llmMaxReplyBytes !== undefined ? { maxReplyBytes: o.llmMaxReplyBytes } : {}),
    ...(o.cache !== undefined ? { cache: new ResponseCache(o.cache) } : {}),
  };
}

/**
 * What an agent's transport is opened with besides the way: the connection of an LLM agent, the
 * KB and candidates of a built-in restaurant model, an agent process's start-up time and the
 * longest reply.
 *
 * @example
 * ```ts
 * import type { RunAgentOptions } from 'dialogym';
 * const o: RunAgentOptions = { startupTimeout: 60_000, maxReplyBytes: 1 << 20 };
 * ```
 */
export interface RunAgentOptions extends LlmConnection {
  readonly kb?: string;
  readonly candidates?: string;
  /** Extra time for an agent process's first reply, ms. */
  readonly startupTimeout?: number;
  /** Longest reply line of a process or body of an endpoint, bytes. */
  readonly maxReplyBytes?: number;
}

/**
 * The transport of the agent `way` (see the module description); `seed` seeds an LLM client's retry jitter.
 *
 * @example
 * ```ts
 * import 'dialogym';
 * import { openRunAgent } from 'dialogym';
 * const t = await openRunAgent({ kind: 'builtin', name: 'rules' }, {}, 1);
 * ```
 */
export async function openRunAgent(way: AgentWay, o: RunAgentOptions, seed: number): Promise<AgentTransport> {
  let llmSystem;
  if (way.kind === 'llm') {
    const { llmSystemMessage, loadLlmSections } = await import('../llm/prompts.js');
    await loadLlmSections(); // the views of the sections the list declared (import 'dialogym' has loaded them)
    const prompt = promptFileText('systemPrompt', o.systemPrompt);
    llmSystem = (req: { env: string; observation: unknown }): string => llmSystemMessage(req, prompt);
  }
  return openAgent(way, {
    seed,
    ...(o.startupTimeout !== undefined ? { startupMs: o.startupTimeout } : {}),
    ...(o.maxReplyBytes !== undefined ? { maxReplyBytes: o.maxReplyBytes } : {}),
    agentOptions: { ...(o.kb !== undefined ? { kb: o.kb } : {}), ...(o.candidates !== undefined ? { candidates: o.candidates } : {}) },
    ...(llmSystem ? { llmSystem, llm: await llmClientOptionsOf(o) } : {}),
  });
}

/**
 * The LLM user `model` on connection `o`: the voice of a simulated user (told its goal and, each
 * turn, what the environment's user does; `userPrompt`: a file with its system prompt), with its
 * client (its figures).
 *
 * @example
 * ```ts
 * import 'dialogym';
 * import { openLlmUserVoice } from 'dialogym';
 * const voice = await openLlmUserVoice('qwen2.5:7b', { llmUrl: 'http://localhost:11434/v1' }, 1);
 * ```
 */
export async function openLlmUserVoice(model: string, o: LlmConnection & { readonly userPrompt?: string }, seed: number) {
  const [{ llmUserVoice }, { llmUserPrompt, llmUserSystemMessage, loadLlmSections }, { LlmClient }] = await Promise.all([import('../llm/user.js'), import('../llm/prompts.js'), import('../llm/client/client.js')]);
  await loadLlmSections();
  const prompt = promptFileText('userPrompt', o.userPrompt);
  const apiKey = llmKey({ ...(o.llmUrl !== undefined ? { llmUrl: o.llmUrl } : {}), ...(o.llmKeyEnv !== undefined ? { llmKeyEnv: o.llmKeyEnv } : {}) });
  const client = new LlmClient({ ...(await llmClientOptionsOf(o)), model, ...(o.llmUrl !== undefined ? { baseUrl: o.llmUrl } : {}), ...(apiKey !== undefined ? { apiKey } : {}), seed });
  return Object.assign(llmUserVoice({ client, system: (turn) => llmUserSystemMessage(turn, prompt), prompt: (turn) => llmUserPrompt(turn) }), { client });
}
