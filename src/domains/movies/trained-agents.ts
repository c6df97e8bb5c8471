/**
 * Agents with trained parts. rl-nokb / rl-hard / rl-soft use a policy trained by `dialogym infobot
 * train`: the default policy file of the agent and split in the context's policy folder, or a policy
 * file given instead of the agent name (`--agent rl-soft.dgm`). e2e-soft is not available yet.
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import { infobotAgents, type AgentContext } from './agent.js';
import { findDefaultPolicy, loadPolicy } from './policy-file.js';
import { RlAgent } from './rl-agent.js';

const RL: readonly [string, string][] = [
  ['rl-nokb', 'hand-crafted tracker, neural RL policy, no KB during the dialog'],
  ['rl-hard', 'hand-crafted tracker, neural RL policy, Hard-KB lookup'],
  ['rl-soft', 'hand-crafted tracker, neural RL policy, Soft-KB lookup'],
];

/** An RL agent from a policy file. */
export function policyAgent(file: string, ctx: AgentContext): RlAgent {
  const p = loadPolicy(file);
  return new RlAgent(ctx, p.meta.access, p.net);
}

/** Whether an agent argument names a policy file rather than a registered agent. */
export function isPolicyFile(name: string): boolean {
  return name.endsWith('.dgm') || ((name.includes('/') || name.includes('\\')) && existsSync(name));
}

for (const [name, desc] of RL) {
  infobotAgents.register(name, `${desc} (trained policy: infobot train --agent ${name})`, {
    privileged: false,
    create: (ctx) => policyAgent(findDefaultPolicy(ctx.policyDir, name, ctx.split), ctx),
  });
}

infobotAgents.register('e2e-soft', 'neural tracker and policy trained end to end (REINFORCE), Soft-KB lookup (not available yet)', {
  privileged: false,
  create: () => {
    throw new ConfigError(`agent 'e2e-soft' needs a trained policy: run dialogym infobot train --agent e2e-soft … (not available yet)`);
  },
});
