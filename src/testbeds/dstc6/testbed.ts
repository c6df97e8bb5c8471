/**
 * The DSTC6 Track 1 testbed's descriptor: the online environments `dstc6-task{1..5}-tst{1..4}-v{1,2}`
 * (the restaurant online environment on the extended KBs, so played by the restaurant agents),
 * the verbs under `dialogym dstc6`. Light: the code is behind `import()`.
 */
import { testbed } from '../testbed.js';
import { ONLINE_USERS, RESTAURANT_KB } from '../restaurant/testbed.js';
import { SET_SPECS, TEST_SETS, dstc6EnvId, type TestSet } from './sets.js';
import type { Dstc6Task } from './sim-dialog.js';
import type { RestaurantAction, RestaurantEnvOptions, RestaurantObservation } from '../restaurant/online/env.js';

/** What the entry point defines a DSTC6 online environment from. */
export interface Dstc6EnvArgs {
  readonly task: Dstc6Task;
  readonly set: TestSet;
  readonly version: 1 | 2;
}

export const dstc6 = testbed<Dstc6EnvArgs>({
  name: 'dstc6',
  title: 'DSTC6 Track 1 (Perez, Boureau & Bordes 2017): end-to-end restaurant booking on extended KBs',
  envs: ([1, 2] as const).flatMap((version) =>
    TEST_SETS.flatMap((set) =>
      ([1, 2, 3, 4, 5] as const).map((task) => {
        const spec = SET_SPECS[set];
        return {
          id: dstc6EnvId(task, set, version),
          description: `DSTC6 Track 1 task ${task} online on KB ${spec.kb}${spec.restrictions ? ' with restrictions' : ''} (as ${set}): play the bot against ${ONLINE_USERS[version]}`,
          args: { task, set, version },
        };
      }),
    ),
  ),
  entry: async () => {
    const { dstc6Env } = await import('./online.js');
    return (d) => dstc6Env(d.args);
  },
  agentFamily: 'restaurant',
  // The restaurant env's own turn limit (agent turns).
  turnLimit: (maxTurns) => ({ maxTurns }),
  kb: RESTAURANT_KB,
  cli: { verb: 'dstc6' },
  runs: { 'generate dstc6': async () => (await import('./runs/generate.js')).generateDstc6Run },
  llm: { prompt: 'dstc6.md', userPrompt: 'user-restaurant.md', view: async () => (await import('../restaurant/person.js')).restaurantLlmView },
});

/** The DSTC6 ids in `make`'s types: options, observations and actions. */
type Dstc6EnvId = `dstc6-task${Dstc6Task}-${TestSet}-v${1 | 2}`;
type Dstc6EnvTypeMap = { readonly [K in Dstc6EnvId]: { readonly options: RestaurantEnvOptions; readonly obs: RestaurantObservation; readonly action: RestaurantAction } };

declare module '../../env/env.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface EnvTypes extends Dstc6EnvTypeMap {}
}
