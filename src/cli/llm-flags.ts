/**
 * The LLM connection flags `evaluate` and `agent` share (`--llm-url`, `--llm-key-env`,
 * `--llm-option`, `--llm-timeout`, `--llm-retries`, `--llm-max-failures`, `--llm-max-reply-bytes`, `--system-prompt`,
 * `--cache`, `--price-in`, `--price-out`), and the client options they make; docs/llm.md lists them.
 */
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.js';
import { DEFAULT_MAX_LLM_REPLY_BYTES } from '../llm/client/limits.js';
import { floatFlag, intFlag, keyValueFlag, keyValues } from './run.js';
import type { LlmConnection } from '../runs/agent-options.js';

/** The flags as commander gives them. */
export interface LlmFlags {
  llmUrl: string;
  llmKeyEnv?: string;
  llmOption: string[];
  llmTimeout: number;
  llmRetries: number;
  llmMaxFailures: number;
  llmMaxReplyBytes: number;
  systemPrompt?: string;
  cache?: string;
  priceIn?: number;
  priceOut?: number;
}

/** The default endpoint (as `OPENAI_BASE_URL` of llm/client/client.ts, kept here so `--help` loads no client). */
const DEFAULT_URL = 'https://api.openai.com/v1';

/** Parses one `--llm-option key=value` into the list: model, messages and tools are dialogym's to set. */
const optionFlag = keyValueFlag('--llm-option', (key) => {
  if (['model', 'messages', 'tools'].includes(key)) throw new ConfigError(`--llm-option: ${key} is set by dialogym (${key === 'model' ? 'use --agent-llm / --user-llm' : 'from the environment'})`);
});

/** Adds the connection flags to a command (and the price flags unless `prices` is false). */
export function llmConnectionOptions(cmd: Command, o: { prices?: boolean } = {}): Command {
  cmd
    .option('--llm-url <base-url>', 'OpenAI-compatible endpoint of --agent-llm / --user-llm, up to /v1 (Ollama http://localhost:11434/v1, vLLM http://localhost:8000/v1, llama.cpp http://localhost:8080/v1)', DEFAULT_URL)
    .option('--llm-key-env <var>', 'environment variable holding the API key (default: OPENAI_API_KEY; local servers need none)')
    .option('--llm-option <key=value>', 'a request member the API takes (max_tokens=512, seed=1, tool_choice=required; JSON values as JSON); repeatable (default: temperature=0 only)', optionFlag, [])
    .option('--llm-timeout <ms>', 'timeout of each LLM request, the headers and the whole body', intFlag('--llm-timeout', 1), 60_000)
    .option('--llm-retries <n>', 'retries of a failed LLM request (429, 5xx, timeouts), exponential backoff with seeded jitter, Retry-After honoured', intFlag('--llm-retries', 0, 100), 10)
    .option('--llm-max-failures <n>', 'LLM requests that may fail for good (each fails its episode) before the run stops', intFlag('--llm-max-failures', 0), 10)
    .option('--llm-max-reply-bytes <n>', 'longest body of an LLM reply: a longer one is refused as it streams in and fails its episode as `llm error`', intFlag('--llm-max-reply-bytes', 1), DEFAULT_MAX_LLM_REPLY_BYTES)
    .option('--system-prompt <file>', "the LLM agent's system prompt (default: the testbed's, prompts/<testbed>.md of the package)")
    .option('--cache <dir>', 'response cache of the LLM requests: a request found there is not sent, so a finished run replays offline (default: none)');
  if (o.prices === false) return cmd;
  return cmd
    .option('--price-in <x>', 'price per million input tokens: the cost in the summary and transcripts (default: no cost)', floatFlag('--price-in', 0))
    .option('--price-out <x>', 'price per million output tokens (default: no cost)', floatFlag('--price-out', 0));
}

/** The connection flags as the library's options (`LlmConnection`: named as the flags, `--llm-option` pairs as an object). */
export function llmConnectionOf(o: LlmFlags): LlmConnection {
  return {
    llmUrl: o.llmUrl,
    ...(o.llmKeyEnv !== undefined ? { llmKeyEnv: o.llmKeyEnv } : {}),
    llmOption: keyValues(o.llmOption), // the request members (later ones override earlier ones)
    llmTimeout: o.llmTimeout,
    llmRetries: o.llmRetries,
    llmMaxFailures: o.llmMaxFailures,
    llmMaxReplyBytes: o.llmMaxReplyBytes,
    ...(o.systemPrompt !== undefined ? { systemPrompt: o.systemPrompt } : {}),
    ...(o.cache !== undefined ? { cache: o.cache } : {}),
  };
}

/**
 * The LLM user the flags describe (`--user-llm`, `--user-prompt`, the same connection flags): the
 * voice of the simulated user of `serve --env` (the library's `openLlmUserVoice`).
 */
export async function openLlmUser(model: string, o: LlmFlags & { userPrompt?: string }, seed: number) {
  const [{ openLlmUserVoice }, { declareTestbeds }] = await Promise.all([import('../runs/agent-options.js'), import('../testbeds/index.js')]);
  declareTestbeds(); // the testbeds' LLM sections (the user's prompt file and goal)
  return openLlmUserVoice(model, { ...llmConnectionOf(o), ...(o.userPrompt !== undefined ? { userPrompt: o.userPrompt } : {}) }, seed);
}
