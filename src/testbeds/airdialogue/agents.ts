/**
 * dialogym's agents for `airdialogue-*`: the AirDialogue agent policies by name (`rules`, …), or the
 * learned agent of an `airdialogue train` model file — as `airdialogue selfplay --agent` reads
 * them — on `observation.context`.
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import { createRng } from '../../core/rng.js';
import { readModelFile, type ModelFileContent } from '../../formats/model-file.js';
import { agentPolicies, type AgentPolicyFactory, type AgentSession } from './policies.js';
import { LEARNED_MODEL_NAME } from './learned/model-name.js';
import type { KbLine } from '../../formats/airdialogue.js';
import type { TestbedAgentFamily } from '../testbed.js';
import type { AgentRequest } from '../../agents/protocol.js';

/** The learned agent of a model file's content (its code imported at the first request). */
async function learnedPolicy(content: ModelFileContent, file: string): Promise<AgentPolicyFactory> {
  const [{ airModelsFrom }, { learnedAgent }] = await Promise.all([import('./learned/train.js'), import('./learned/policy.js')]);
  return learnedAgent(airModelsFrom(content, file));
}

/** The AirDialogue family of the `agents` registry (its entry point in testbed.ts). */
export const airdialogueAgents: TestbedAgentFamily = {
  names: () => agentPolicies.names(),
  load(model) {
    let named: AgentPolicyFactory | undefined;
    let file: ModelFileContent | undefined;
    if (agentPolicies.has(model)) named = agentPolicies.get(model);
    else {
      // A model file of `airdialogue train` (another model's file is another family's): its header read now, the models at the first request.
      if (!existsSync(model)) return undefined;
      file = readModelFile(model);
      if (file.model !== LEARNED_MODEL_NAME) return undefined;
    }
    let learned: Promise<AgentPolicyFactory> | undefined;
    return () => {
      let air: AgentSession | undefined;
      const begin = (req: AgentRequest, policy: AgentPolicyFactory): AgentSession => {
        const o = req.observation as { context?: KbLine };
        if (!o?.context) throw new ConfigError(`${req.env}: the observation has no context`);
        return policy(o.context, createRng(req.seed).fork(`agent:${req.trial}`));
      };
      const respond = (req: AgentRequest, session: AgentSession): Readonly<Record<string, unknown>> =>
        session.respond((req.observation as { utterance: string }).utterance) as unknown as Readonly<Record<string, unknown>>;
      return {
        name: model,
        act(req) {
          if (named) {
            if (req.turn === 0 || !air) air = begin(req, named);
            return respond(req, air);
          }
          return (async () => {
            if (req.turn === 0 || !air) air = begin(req, await (learned ??= learnedPolicy(file as ModelFileContent, model)));
            return respond(req, air);
          })();
        },
      };
    };
  },
};
