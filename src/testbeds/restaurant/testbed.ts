/**
 * The restaurant testbed's descriptor (bAbI dialog tasks 1–6): the online environments
 * `restaurant-task{1..5}[-oov]-v{1,2}`, the agents of the restaurant family (`rules`, any response
 * model or model file; they play DSTC6's environments too), the models `rules`, `rules-dstc2` and
 * `hcn`, the verbs under `dialogym babi`. Light: the code is behind `import()`.
 */
import { testbed } from '../testbed.js';
import type { KbFile } from '../../runs/kb.js';
import { RESTAURANT_MODEL_LIST, restaurantModelsReady } from './model-list.js';
import type { VocabHalf } from './kb.js';
import type { TaskId } from './simulator.js';
import { babiEnvId } from './online/ids.js';
import type { RestaurantAction, RestaurantEnvOptions, RestaurantObservation } from './online/env.js';

const TASK_TITLES: Readonly<Record<TaskId, string>> = { 1: 'issuing API calls', 2: 'updating API calls', 3: 'displaying options', 4: 'providing extra information', 5: 'full dialogs' };

/** The v1 user speaks with the bAbI patterns; the v2 user reads meaning (any wording). */
export const ONLINE_USERS: Readonly<Record<1 | 2, string>> = { 1: 'the simulated user', 2: 'a simulated user that reads meaning (any wording)' };

/** A bAbI KB text file (or DSTC6's extended one) as the online environments' `restaurants` (`evaluate --kb`). */
export const RESTAURANT_KB: KbFile = { option: 'restaurants', read: async (file) => (await import('./kb-dialects.js')).readKb(file).restaurants };

/** What the entry point defines a bAbI online environment from. */
export interface BabiEnvArgs {
  readonly task: TaskId;
  readonly vocab: VocabHalf;
  readonly version: 1 | 2;
}

export const restaurant = testbed<BabiEnvArgs>({
  name: 'restaurant',
  title: 'bAbI dialog tasks 1-6 (Bordes, Boureau & Weston 2017): restaurant booking',
  envs: ([1, 2] as const).flatMap((version) =>
    (['iv', 'oov'] as const).flatMap((vocab) =>
      ([1, 2, 3, 4, 5] as const).map((task) => ({
        id: babiEnvId(task, vocab, version),
        description: `bAbI dialog task ${task} (${TASK_TITLES[task]}) online, ${vocab === 'oov' ? 'out-of-vocabulary' : 'in-vocabulary'} KB half: play the bot against ${ONLINE_USERS[version]}`,
        args: { task, vocab, version },
      })),
    ),
  ),
  entry: async () => {
    const { babiEnv } = await import('./online/babi.js');
    return (d) => babiEnv(d.args);
  },
  agentFamily: 'restaurant',
  agents: { description: 'restaurant-* and dstc6-*: rules, or a response model / model file', load: async () => (await import('./agents.js')).restaurantAgents },
  models: RESTAURANT_MODEL_LIST,
  // Its own turn limit (agent turns; a truncated episode's detail says so).
  turnLimit: (maxTurns) => ({ maxTurns }),
  kb: RESTAURANT_KB,
  cli: { verb: 'babi' },
  runs: {
    eval: async () => (await import('./runs/eval.js')).evalRun,
    benchmark: async () => (await import('./runs/benchmark.js')).benchmarkRun,
    'generate restaurant': async () => (await import('./runs/generate.js')).generateRestaurantRun,
  },
  llm: { prompt: 'restaurant.md', userPrompt: 'user-restaurant.md', view: async () => (await import('./person.js')).restaurantLlmView },
  // A person and any response model (`serve --model`): chat/backend.ts. Its page is the server's root:
  // a server hosting only other chats answers its API with a 404 saying so.
  chat: {
    page: '/',
    label: 'restaurant',
    absent: { what: 'restaurant model', paths: ['/api/kb', '/api/sessions', '/api/sessions/*'], health: { model: null } },
    // Its conversations run the registry's models (`setupBot`): their code is loaded with it.
    load: async () => {
      const [{ restaurantChat }] = await Promise.all([import('./chat/backend.js'), restaurantModelsReady()]);
      return restaurantChat;
    },
  },
});

/** The bAbI ids in `make`'s types: options, observations and actions. */
type BabiEnvId = `restaurant-task${TaskId}-v${1 | 2}` | `restaurant-task${TaskId}-oov-v${1 | 2}`;
type RestaurantEnvTypeMap = { readonly [K in BabiEnvId]: { readonly options: RestaurantEnvOptions; readonly obs: RestaurantObservation; readonly action: RestaurantAction } };

declare module '../../env/env.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface EnvTypes extends RestaurantEnvTypeMap {}
}
