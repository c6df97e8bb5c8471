/**
 * A study's agent specs as transports of the episode runner (`evaluation/open.ts`, the one way for
 * every command): dialogym's own agents in this process (the `agents` registry: the caller imports
 * `dialogym`, which registers them), an agent process (stdio), an HTTP endpoint, or a language model
 * (its system message: the testbed's shipped prompt and the episode's context).
 */
import type { AgentTransport } from '../agents/agent.js';
import type { AgentSpec } from './config.js';
import type { AgentRequest } from '../agents/protocol.js';

/** Options of {@link openStudyAgent}. */
export interface StudyAgentOptions {
  /** Seed of an LLM client's retry jitter; default 0. */
  readonly seed?: number;
  /** Extra time for an agent process's first reply, ms (default 30,000). */
  readonly startupMs?: number;
  /**
   * The system message of an LLM agent's episode (needed for `llm` specs): dialogym's is
   * `llmSystemMessage` (the testbed's shipped prompt and the episode's context).
   */
  readonly llmSystem?: (request: AgentRequest) => string;
}

/**
 * The transport of one agent of a study. Throws a ConfigError for an unknown agent name or a bad
 * model file, and for an LLM whose key variable is not set.
 *
 * @example
 * ```ts
 * import 'dialogym';
 * import { openStudyAgent, evaluate } from 'dialogym';
 * const t = await openStudyAgent({ kind: 'builtin', label: 'rl-soft', name: 'rl-soft' });
 * const { summary } = await evaluate('infobot-medium-v1', t, { episodes: 10 });
 * ```
 */
export async function openStudyAgent(spec: AgentSpec, o: StudyAgentOptions = {}): Promise<AgentTransport> {
  const { openAgent } = await import('../evaluation/open.js');
  // No failure budget for an LLM: a study's server runs all afternoon, and each request that fails for
  // good fails its own session (counted against the agent); a budget spent would stop the agent for good,
  // every session it is assigned then set aside and its slot retaken — every participant blocked.
  return openAgent(spec, { seed: o.seed ?? 0, startupMs: o.startupMs ?? 30_000, llm: { maxFailures: Number.POSITIVE_INFINITY }, ...(o.llmSystem ? { llmSystem: o.llmSystem } : {}) });
}

/**
 * Why one of dialogym's own agents (`builtin` spec) cannot play `envId` — an unknown name, a
 * missing file, or an agent of other environments — or undefined when it can (and for the other
 * kinds, which are reached only when a session starts). Needs the agent families registered
 * (`import 'dialogym'`).
 *
 * @example
 * ```ts
 * import 'dialogym';
 * import { studyAgentProblem } from 'dialogym';
 * studyAgentProblem({ kind: 'builtin', label: 'rl-soft', name: 'rl-soft' }, 'restaurant-task5-v2'); // 'rl-soft: not an agent of restaurant-task5-v2 (its agents: …)'
 * ```
 */
export async function studyAgentProblem(spec: AgentSpec, envId: string): Promise<string | undefined> {
  if (spec.kind !== 'builtin') return undefined;
  const { builtinAgentProblem } = await import('../evaluation/open.js');
  return builtinAgentProblem(spec.name, envId);
}
