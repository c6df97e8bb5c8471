/**
 * Names of the agents with trained parts (RL policy, end-to-end). They need a policy trained by
 * `dialogym infobot train`, which is not available yet: creating one fails with a clear message.
 */
import { ConfigError } from '../../core/errors.js';
import { infobotAgents } from './agent.js';

const TRAINED: readonly [string, string][] = [
  ['rl-nokb', 'hand-crafted tracker, neural RL policy, no KB'],
  ['rl-hard', 'hand-crafted tracker, neural RL policy, Hard-KB lookup'],
  ['rl-soft', 'hand-crafted tracker, neural RL policy, Soft-KB lookup'],
  ['e2e-soft', 'neural tracker and policy trained end to end (REINFORCE), Soft-KB lookup'],
];

for (const [name, desc] of TRAINED) {
  infobotAgents.register(name, `${desc} (needs a trained policy)`, {
    privileged: false,
    create: () => {
      throw new ConfigError(`agent '${name}' needs a trained policy: run dialogym infobot train --agent ${name} … (not available yet)`);
    },
  });
}
