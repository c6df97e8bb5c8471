/**
 * The AirDialogue testbed's descriptor (Wei et al. 2018): the self-play environments
 * `airdialogue-v1` (a templated customer) and `airdialogue-v2` (a customer that reads any wording),
 * the agent policies, the verbs under `dialogym airdialogue`. Light: the code is behind `import()`.
 */
import { testbed } from '../testbed.js';
import type { AirEnvOptions, AirObservation } from './env.js';
import type { AgentMove } from './policies.js';

/** What the entry point defines an AirDialogue environment from. */
export interface AirEnvArgs {
  readonly version: 1 | 2;
}

export const airdialogue = testbed<AirEnvArgs>({
  name: 'airdialogue',
  title: 'AirDialogue (Wei et al. 2018): flight booking, changing and cancelling',
  envs: [
    { id: 'airdialogue-v1', description: 'AirDialogue self-play: play the agent against a customer policy; reward = scaled score', args: { version: 1 } },
    { id: 'airdialogue-v2', description: 'AirDialogue self-play, a customer that reads any wording (lexicon): play the agent; reward = scaled score', args: { version: 2 } },
  ],
  entry: async () => {
    const { airEnv } = await import('./env.js');
    return (d) => airEnv(d.args);
  },
  agentFamily: 'airdialogue',
  agents: { description: 'airdialogue-*: the AirDialogue agent policies', load: async () => (await import('./agents.js')).airdialogueAgents },
  // Its own turn limit, in utterances of both sides (AirEnvOptions.maxTurns).
  turnLimit: (maxTurns) => ({ maxTurns }),
  cli: { verb: 'airdialogue' },
  runs: {
    'airdialogue generate': async () => (await import('./runs/generate.js')).airGenerateRun,
    'airdialogue selfplay': async () => (await import('./runs/selfplay.js')).airSelfplayRun,
  },
  llm: { prompt: 'airdialogue.md', userPrompt: 'user-airdialogue.md', view: async () => (await import('./person.js')).airLlmView },
  // A person and the learned models of `airdialogue train` (`serve --airdialogue`): chat/backend.ts.
  chat: { page: '/airdialogue', label: 'AirDialogue', load: async () => (await import('./chat/backend.js')).airdialogueChat },
});

/** The AirDialogue ids in `make`'s types: options, observations and actions. */
declare module '../../env/env.js' {
  interface EnvTypes {
    'airdialogue-v1': { readonly options: AirEnvOptions; readonly obs: AirObservation; readonly action: AgentMove };
    'airdialogue-v2': { readonly options: AirEnvOptions; readonly obs: AirObservation; readonly action: AgentMove };
  }
}
