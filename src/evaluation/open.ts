/**
 * The one way from "which agent" to a transport of the episode runner: dialogym's own agents in
 * this process (the `agents` registry, by name or model file: the caller registers the families,
 * `import 'dialogym'`), an agent process speaking the protocol on stdio, an HTTP endpoint, or a
 * language model behind an OpenAI-compatible endpoint. `evaluate`'s and `serve`'s agent flags and
 * a study's agents all open theirs here.
 */
import { existsSync } from 'node:fs';
import { ConfigError, errorText, optionName } from '../core/errors.js';
import type { LlmClientOptions } from '../llm/client/client.js';
import { localTransport, type Agent, type AgentTransport } from '../agents/agent.js';
import type { AgentRequest } from '../agents/protocol.js';
import type { AgentOptions } from '../agents/registry.js';

/**
 * Which agent, and how to reach it: one of dialogym's (`builtin`: a name such as `rules` or
 * `rl-soft`, or a model file), a process (`cmd`), an endpoint (`url`) or a language model (`llm`,
 * with its endpoint and the environment variable of its key). `label`, when given, names it in
 * errors.
 *
 * @example
 * ```ts
 * import { openAgent, type AgentWay } from 'dialogym';
 * const way: AgentWay = { kind: 'cmd', command: 'python3 my_agent.py' };
 * const transport = await openAgent(way);
 * ```
 */
export type AgentWay =
  | { readonly kind: 'builtin'; readonly name: string; readonly label?: string }
  | { readonly kind: 'cmd'; readonly command: string; readonly label?: string }
  | { readonly kind: 'url'; readonly url: string; readonly label?: string }
  | { readonly kind: 'llm'; readonly model: string; readonly llmUrl?: string; readonly llmKeyEnv?: string; readonly label?: string };

/**
 * Options of {@link openAgent}.
 *
 * @example
 * ```ts
 * import { openAgent, llmSystemMessage, type OpenAgentOptions } from 'dialogym';
 * const o: OpenAgentOptions = { seed: 1, llmSystem: (req) => llmSystemMessage(req), llm: { timeoutMs: 30_000 } };
 * const t = await openAgent({ kind: 'llm', model: 'm', llmUrl: 'http://127.0.0.1:8080/v1' }, o);
 * ```
 */
export interface OpenAgentOptions {
  /** Seed of an LLM client's retry jitter; default 0. */
  readonly seed?: number;
  /** Extra time for an agent process's first reply, ms (it loads its model); default 30,000. */
  readonly startupMs?: number;
  /** Longest reply line of a process or body of an endpoint (bytes); default the protocol's. */
  readonly maxReplyBytes?: number;
  /** Options of a built-in agent (the KB and candidates of a restaurant model). */
  readonly agentOptions?: AgentOptions;
  /** The system message of an LLM agent's episode (needed for `llm`): dialogym's is `llmSystemMessage`. */
  readonly llmSystem?: (request: AgentRequest) => string;
  /** The LLM client's other options (timeouts, retries, failure budget, request members, cache). */
  readonly llm?: Omit<LlmClientOptions, 'model' | 'baseUrl' | 'apiKey' | 'seed'>;
}

/** The OpenAI API, the default endpoint of an LLM (as `llm/client/client.ts`'s, kept here so that no client is loaded to check a key). */
const OPENAI_URL = 'https://api.openai.com/v1';

/**
 * The maker of one of dialogym's agents (one agent per lane), checked now: a response model that
 * has to be trained first says how, an unknown name or a bad file is a ConfigError about the
 * `agent` option. The families must be registered (`import 'dialogym'`).
 *
 * @example
 * ```ts
 * import 'dialogym';
 * import { loadBuiltinAgent } from 'dialogym';
 * const make = await loadBuiltinAgent('rules');
 * ```
 */
export async function loadBuiltinAgent(name: string, options: AgentOptions = {}): Promise<() => Agent> {
  const { agentNameProblem, loadAgent } = await import('../agents/registry.js');
  // One name per model: a model that has to be trained first says so ("dialogym train --model …").
  const { createModel, creatableModels, trainableModels } = await import('../rankers/registry.js');
  if (trainableModels().includes(name) && !creatableModels().includes(name)) createModel(name);
  const problem = agentNameProblem(name);
  if (problem !== undefined) throw new ConfigError(problem, { option: 'agent' });
  return loadAgent(name, options);
}

/**
 * Why one of dialogym's agents cannot play `envId` — an unknown name, a missing file, or an agent of
 * other environments — or undefined when it can. Needs the agent families registered (`import 'dialogym'`).
 *
 * @example
 * ```ts
 * import 'dialogym';
 * import { builtinAgentProblem } from 'dialogym';
 * builtinAgentProblem('rl-soft', 'restaurant-task5-v2'); // 'rl-soft: not an agent of restaurant-task5-v2 (its agents: …)'
 * ```
 */
export async function builtinAgentProblem(name: string, envId: string): Promise<string | undefined> {
  const { agentNameProblem, agents } = await import('../agents/registry.js');
  const problem = agentNameProblem(name);
  if (problem !== undefined) return problem;
  if (existsSync(name)) return undefined;
  const families = agents.list().filter((e) => e.factory.plays(envId));
  if (families.some((e) => e.factory.names().includes(name))) return undefined;
  const names = families.flatMap((e) => e.factory.names());
  return `${name}: not an agent of ${envId}${names.length > 0 ? ` (its agents: ${names.join(', ')}, or a model file)` : ''}`;
}

/** The API key of an LLM: from `llmKeyEnv`'s variable (which must be set), else OPENAI_API_KEY, else none (the OpenAI API itself needs one). */
export function llmKey(way: { readonly llmUrl?: string; readonly llmKeyEnv?: string; readonly label?: string }): string | undefined {
  const who = way.label !== undefined ? `agent ${way.label}: ` : '';
  if (way.llmKeyEnv !== undefined) {
    const v = process.env[way.llmKeyEnv];
    if (v === undefined || v === '') throw new ConfigError(errorText`${who}${optionName('llmKeyEnv')}: the environment variable ${way.llmKeyEnv} is not set`);
    return v;
  }
  const v = process.env['OPENAI_API_KEY'];
  if ((v === undefined || v === '') && (way.llmUrl ?? OPENAI_URL).replace(/\/+$/, '') === OPENAI_URL) {
    throw new ConfigError(errorText`${who}the OpenAI API needs a key: set OPENAI_API_KEY (or name another variable with ${optionName('llmKeyEnv')}), or give a local server with ${optionName('llmUrl')}`);
  }
  return v === '' ? undefined : v;
}

/**
 * The transport of an agent (module description). Throws a ConfigError for an unknown agent name
 * or a bad model file, for an LLM without its system message, and for an LLM whose key variable is
 * not set. Close it with its `close` when done (an LLM's client holds nothing).
 *
 * @example
 * ```ts
 * import 'dialogym';
 * import { openAgent, evaluate } from 'dialogym';
 * const t = await openAgent({ kind: 'builtin', name: 'rules' });
 * const { summary } = await evaluate('restaurant-task5-v2', t, { episodes: 5 });
 * ```
 */
export async function openAgent(way: AgentWay, o: OpenAgentOptions = {}): Promise<AgentTransport> {
  switch (way.kind) {
    case 'builtin':
      return localTransport(await loadBuiltinAgent(way.name, o.agentOptions));
    case 'cmd':
      return (await import('../agents/stdio.js')).stdioTransport(way.command, { startupMs: o.startupMs ?? 30_000, ...(o.maxReplyBytes !== undefined ? { maxReplyBytes: o.maxReplyBytes } : {}) });
    case 'url':
      return (await import('../agents/http.js')).httpTransport(way.url, o.maxReplyBytes !== undefined ? { maxReplyBytes: o.maxReplyBytes } : {});
    case 'llm': {
      const system = o.llmSystem;
      if (!system) throw new ConfigError(`${way.label !== undefined ? `agent ${way.label}: ` : ''}an LLM agent needs its system message (the llmSystem option; dialogym's is llmSystemMessage)`);
      const apiKey = llmKey(way);
      const { LlmClient } = await import('../llm/client/client.js');
      const { llmTransport } = await import('../llm/agent.js');
      const client = new LlmClient({ ...o.llm, model: way.model, ...(way.llmUrl !== undefined ? { baseUrl: way.llmUrl } : {}), ...(apiKey !== undefined ? { apiKey } : {}), seed: o.seed ?? 0 });
      return llmTransport({ client, system });
    }
  }
}
