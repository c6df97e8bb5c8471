/** dialogym's agents for `airdialogue-*`: the AirDialogue agent policies by name (`rules`, …) on `observation.context`. */
import { ConfigError } from '../../core/errors.js';
import { createRng } from '../../core/rng.js';
import { agentPolicies, type AgentSession } from './policies.js';
import type { KbLine } from '../../formats/airdialogue.js';
import type { TestbedAgentFamily } from '../testbed.js';

/** The AirDialogue family of the `agents` registry (its entry point in testbed.ts). */
export const airdialogueAgents: TestbedAgentFamily = {
  names: () => agentPolicies.names(),
  load(model) {
    if (!agentPolicies.has(model)) return undefined;
    const policy = agentPolicies.get(model);
    return () => {
      let air: AgentSession | undefined;
      return {
        name: model,
        act(req) {
          if (req.turn === 0 || !air) {
            const o = req.observation as { context?: KbLine };
            if (!o?.context) throw new ConfigError(`${req.env}: the observation has no context`);
            air = policy(o.context, createRng(req.seed).fork(`agent:${req.trial}`));
          }
          return air.respond((req.observation as { utterance: string }).utterance) as unknown as Readonly<Record<string, unknown>>;
        },
      };
    };
  },
};
