/**
 * The KB-InfoBot testbed's descriptor (Dhingra et al. 2017): the movie-search environments
 * `infobot-{small,medium,large,xlarge}-v1`, the KB-InfoBot agents (rule, RL, E2E; policy files),
 * the verbs under `dialogym infobot`. Light: the code is behind `import()`.
 */
import { testbed } from '../testbed.js';
import { SPLITS, envId, splitSpec, type SplitName } from './slots.js';
import type { InfoBotEnvOptions, InfoBotObservation } from './env.js';
import type { InfoBotAction } from './acts.js';

/** What the entry point defines a KB-InfoBot environment from: its KB split. */
export interface InfoBotEnvArgs {
  readonly split: SplitName;
}

export const infobot = testbed<InfoBotEnvArgs>({
  name: 'infobot',
  title: 'KB-InfoBot (Dhingra et al. 2017): movie search over a KB',
  envs: SPLITS.map((split) => ({ id: envId(split), description: `KB-InfoBot movie search, ${split} KB (${splitSpec(split).movies} movies)`, args: { split } })),
  entry: async () => {
    const { infoBotEnv } = await import('./env.js');
    return (d) => infoBotEnv(d.args.split);
  },
  agentFamily: 'infobot',
  agents: { description: 'infobot-*: the KB-InfoBot agents or a policy file', load: async () => (await import('./agents/family.js')).infobotFamily },
  // The turn limit is its user simulator's (UserOptions.maxTurns: agent actions).
  turnLimit: (maxTurns) => ({ user: { maxTurns } }),
  cli: { verb: 'infobot' },
  runs: { 'infobot eval': async () => (await import('./runs/eval.js')).infobotEvalRun },
  llm: { prompt: 'infobot.md', view: async () => (await import('./person.js')).infoBotLlmView },
});

/** The InfoBot ids in `make`'s types: options, observations and actions of `InfoBotEnv`. */
interface InfoBotEnvTypes {
  readonly options: Omit<InfoBotEnvOptions, 'split'>;
  readonly obs: InfoBotObservation;
  readonly action: InfoBotAction;
}

declare module '../../env/env.js' {
  interface EnvTypes {
    'infobot-small-v1': InfoBotEnvTypes;
    'infobot-medium-v1': InfoBotEnvTypes;
    'infobot-large-v1': InfoBotEnvTypes;
    'infobot-xlarge-v1': InfoBotEnvTypes;
  }
}
