/**
 * dialogym's agents for `infobot-<split>-v1`: the KB-InfoBot agents by name (`rule-soft`,
 * `rl-hard`, `e2e-soft`, …) or a policy file. They track the dialog from the user's utterances
 * alone and rank rows of the agent's KB, which they rebuild as the environment builds it by default
 * (the split's generated KB), and answer with the `request` / `inform` tools. `max` reads the
 * user's goal and is refused.
 */
import { ConfigError } from '../../../core/errors.js';
import { createRng } from '../../../core/rng.js';
import { InfoBotEnv } from '../env.js';
import { createInfoBotAgent } from '../evaluate.js';
import { infobotAgents, type InfoBotAgent } from './agent.js';
import './max-agent.js'; // listed (createAgent refuses it: it reads the user's goal)
import type { InfoBotAction } from '../acts.js';
import { isPolicyFile } from './trained-agents.js';
import { splitOfEnvId } from '../slots.js';
import type { TestbedAgentFamily } from '../../testbed.js';

/** An InfoBot action as the environment's tool call. */
function infoBotToolCall(a: InfoBotAction): { tool: string; arguments: Record<string, unknown> } {
  return a.act === 'request' ? { tool: 'request', arguments: { slot: a.slot } } : { tool: 'inform', arguments: { results: [...a.results] } };
}

/** The KB-InfoBot family of the `agents` registry (its entry point in testbed.ts). */
export const infobotFamily: TestbedAgentFamily = {
  names: () => infobotAgents.names(),
  load(model) {
    if (!infobotAgents.has(model) && !isPolicyFile(model)) return undefined;
    return () => {
      // One agent per environment id (its KB), begun anew at each episode.
      const bySplit = new Map<string, InfoBotAgent>();
      let info: InfoBotAgent | undefined;
      return {
        name: model,
        act(req) {
          if (req.turn === 0 || !info) {
            info = bySplit.get(req.env);
            if (!info) {
              const created = createInfoBotAgent(model, new InfoBotEnv({ split: splitOfEnvId(req.env) }));
              if (created.privileged) throw new ConfigError(`${model}: this InfoBot agent reads the user's goal (an upper bound), so it cannot play through the agent protocol`);
              info = created.agent;
              bySplit.set(req.env, info);
            }
            // The agent's stream as runInfoBotEpisode forks it from the episode's seed.
            info.begin(createRng(req.seed).fork('agent'));
          }
          const utterance = (req.observation as { utterance?: unknown } | null)?.utterance;
          if (typeof utterance !== 'string') throw new ConfigError(`${req.env}: the observation has no utterance`);
          return infoBotToolCall(info.act(utterance));
        },
      };
    };
  },
};
