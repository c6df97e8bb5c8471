/** `--agent <name|file>` of `agent` and `evaluate`: dialogym's own agents (the `agents` registry). */
import { ConfigError } from '../core/errors.js';
import type { Agent } from '../agents/agent.js';

/** The agent maker `--agent` names (one agent per lane): an unknown name or a bad file is a ConfigError at start, naming the flag. */
export async function loadFlaggedAgent(name: string, opts: { kb?: string | undefined; candidates?: string | undefined }): Promise<() => Agent> {
  await (await import('../testbeds/index.js')).loadTestbeds();
  const { agentNameProblem, loadAgent } = await import('../agents/registry.js');
  // One name per model: a model that has to be trained first says so ("dialogym train --model …").
  const { createModel, creatableModels, trainableModels } = await import('../rankers/registry.js');
  if (trainableModels().includes(name) && !creatableModels().includes(name)) createModel(name);
  const problem = agentNameProblem(name);
  if (problem !== undefined) throw new ConfigError(`--agent: ${problem}`);
  return loadAgent(name, { ...(opts.kb !== undefined ? { kb: opts.kb } : {}), ...(opts.candidates !== undefined ? { candidates: opts.candidates } : {}) });
}
