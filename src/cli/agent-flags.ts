/**
 * The agent flags (`--agent <name|file>`, `--agent-cmd`, `--agent-url`, `--agent-llm` with the
 * `--llm-*` flags) as one of the ways of `evaluation/open.ts`, and the transport they open: `evaluate`
 * and `serve` take the four, `agent` the two that run in its process.
 */
import { ConfigError } from '../core/errors.js';
import type { Agent, AgentTransport } from '../agents/agent.js';
import type { AgentWay } from '../evaluation/open.js';
import type { LlmClient } from '../llm/client/client.js';
import { llmConnectionOf, type LlmFlags } from './llm-flags.js';

/** The flags as commander gives them. */
export interface AgentFlags extends LlmFlags {
  agentCmd?: string;
  agentUrl?: string;
  agent?: string;
  agentLlm?: string;
  kb?: string;
  candidates?: string;
  maxReplyBytes?: number;
  startupTimeout?: number;
}

/**
 * The ways to reach the agent, one flag each: adding a transport is a row here (and its file in
 * src/agents/, its case in open.ts), not a branch in a command.
 */
export const AGENT_WAYS: ReadonlyArray<{ readonly key: 'agentCmd' | 'agentUrl' | 'agent' | 'agentLlm'; readonly flag: string; way(value: string, o: AgentFlags): AgentWay }> = [
  { key: 'agentCmd', flag: '--agent-cmd', way: (command) => ({ kind: 'cmd', command }) },
  { key: 'agentUrl', flag: '--agent-url', way: (url) => ({ kind: 'url', url }) },
  { key: 'agent', flag: '--agent', way: (name) => ({ kind: 'builtin', name }) },
  { key: 'agentLlm', flag: '--agent-llm', way: (model, o) => ({ kind: 'llm', model, llmUrl: o.llmUrl, ...(o.llmKeyEnv !== undefined ? { llmKeyEnv: o.llmKeyEnv } : {}) }) },
];

/** The flags of the ways given (none, one, or several). */
export function agentFlagsGiven(o: AgentFlags): string[] {
  return AGENT_WAYS.filter((w) => o[w.key] !== undefined).map((w) => w.flag);
}

/** The one way the flags give; a ConfigError unless exactly one of the four is given. */
export function agentWayOf(o: AgentFlags): AgentWay {
  const ways = AGENT_WAYS.filter((w) => o[w.key] !== undefined);
  if (ways.length !== 1) throw new ConfigError(`give exactly one of ${AGENT_WAYS.map((w) => w.flag).join(', ')}${ways.length > 1 ? ` (got ${ways.map((w) => w.flag).join(' and ')})` : ''}`);
  const w = ways[0] as (typeof AGENT_WAYS)[number];
  return w.way(o[w.key] as string, o);
}

/**
 * The transport of the agent the flags name (`evaluation/open.ts`'s `openAgent`): dialogym's agents
 * registered first, an LLM with the testbed's prompt (or `--system-prompt`) and the client flags;
 * `seed` seeds an LLM client's retry jitter.
 */
export async function openFlaggedAgent(o: AgentFlags, seed: number): Promise<AgentTransport> {
  return openWay(agentWayOf(o), o, seed);
}

/** The transport of `way` with the flags' options (the library's `openRunAgent`; the testbeds it needs loaded first). */
export async function openWay(way: AgentWay, o: AgentFlags, seed: number): Promise<AgentTransport> {
  const [{ openRunAgent }, { declareTestbeds, loadTestbeds }] = await Promise.all([import('../runs/agent-options.js'), import('../testbeds/index.js')]);
  if (way.kind === 'builtin') await loadTestbeds();
  if (way.kind === 'llm') declareTestbeds(); // the testbeds' LLM sections (prompt files, context), also for a remote environment
  const given = { ...(o.kb !== undefined ? { kb: o.kb } : {}), ...(o.candidates !== undefined ? { candidates: o.candidates } : {}), ...(o.startupTimeout !== undefined ? { startupTimeout: o.startupTimeout } : {}), ...(o.maxReplyBytes !== undefined ? { maxReplyBytes: o.maxReplyBytes } : {}) };
  return openRunAgent(way, { ...(way.kind === 'llm' ? llmConnectionOf(o) : {}), ...given }, seed);
}

/** The LLM agent `--agent-llm <model>` and the `--llm-*` flags give (its transport holds the client: its figures for the summary). */
export async function openLlmTransport(model: string, o: LlmFlags, seed: number): Promise<AgentTransport & { readonly client: LlmClient }> {
  return (await openWay({ kind: 'llm', model, llmUrl: o.llmUrl, ...(o.llmKeyEnv !== undefined ? { llmKeyEnv: o.llmKeyEnv } : {}) }, o, seed)) as AgentTransport & { readonly client: LlmClient };
}

/** The agent maker `--agent` names (one agent per lane): an unknown name or a bad file is a ConfigError at start, naming the flag. */
export async function loadFlaggedAgent(name: string, opts: { kb?: string | undefined; candidates?: string | undefined }): Promise<() => Agent> {
  await (await import('../testbeds/index.js')).loadTestbeds();
  const { loadBuiltinAgent } = await import('../evaluation/open.js');
  return loadBuiltinAgent(name, { ...(opts.kb !== undefined ? { kb: opts.kb } : {}), ...(opts.candidates !== undefined ? { candidates: opts.candidates } : {}) });
}
