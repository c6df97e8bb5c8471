/**
 * Agents with trained parts. rl-nokb / rl-hard / rl-soft use a policy trained by `dialogym infobot
 * train`, e2e-soft a neural tracker and policy trained by `dialogym infobot train --agent e2e-soft`:
 * the default file of the agent and split in the context's policy folder, or a model file given
 * instead of the agent name (`--agent rl-soft.dgm`; its model kind says which agent it is).
 */
import { existsSync } from 'node:fs';
import { readModelFile } from '../../../formats/model-file.js';
import { infobotAgents, type AgentContext, type InfoBotAgent } from './agent.js';
import { E2eAgent } from './e2e-agent.js';
import { E2E_MODEL, e2eFromContent } from './e2e-file.js';
import { findDefaultPolicy, loadPolicy } from './policy-file.js';
import { RlAgent } from './rl-agent.js';
import { RULE_DEFAULTS } from './rule-agents.js';

const RL: readonly [string, string][] = [
  ['rl-nokb', 'hand-crafted tracker, neural RL policy, no KB during the dialog'],
  ['rl-hard', 'hand-crafted tracker, neural RL policy, Hard-KB lookup'],
  ['rl-soft', 'hand-crafted tracker, neural RL policy, Soft-KB lookup'],
];

/** An agent from a trained model file: an RL policy (`infobot-policy`) or an E2E agent (`infobot-e2e`);
 * a missing or bad file throws a ModelFileError.
 *
 * @example
 * ```ts
 * import { policyAgent, agentContext, InfoBotEnv } from 'dialogym/infobot';
 * const agent = policyAgent('policies/infobot/e2e-soft-medium.dgm', agentContext(new InfoBotEnv({ split: 'medium' })));
 * ```
 */
export function policyAgent(file: string, ctx: AgentContext): InfoBotAgent {
  const c = readModelFile(file);
  if (c.model === E2E_MODEL) return new E2eAgent(ctx, e2eFromContent(c, file).parts);
  const p = loadPolicy(file);
  // The tracker the policy was trained with: its file's C, else (older files) the rule agent's.
  const update = p.meta.update ?? RULE_DEFAULTS[ctx.split][p.meta.access].update;
  return new RlAgent(ctx, p.meta.access, p.net, { hardCount: p.hardCount, update });
}

/** Whether an agent argument names a policy file rather than a registered agent.
 *
 * @example
 * ```ts
 * import { isPolicyFile } from 'dialogym/infobot';
 * isPolicyFile('rule-soft');          // false
 * isPolicyFile('rl-soft-small.dgm');  // true
 * ```
 */
export function isPolicyFile(name: string): boolean {
  return name.endsWith('.dgm') || ((name.includes('/') || name.includes('\\')) && existsSync(name));
}

for (const [name, desc] of RL) {
  infobotAgents.register(name, `${desc} (trained policy: infobot train --agent ${name})`, {
    privileged: false,
    create: (ctx) => policyAgent(findDefaultPolicy(ctx.policyDir, name, ctx.split), ctx),
  });
}

infobotAgents.register('e2e-soft', 'neural belief tracker and policy trained end to end (imitation, then REINFORCE through the Soft-KB lookup) (trained: infobot train --agent e2e-soft)', {
  privileged: false,
  create: (ctx) => policyAgent(findDefaultPolicy(ctx.policyDir, 'e2e-soft', ctx.split), ctx),
});
