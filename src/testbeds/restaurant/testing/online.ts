/** Test helpers of the online restaurant environments (not part of the public API). */
import type { Env, StepResult, ToolSpec } from '../../env.js';
import { createRulesBot } from '../rules/rules.js';
import type { RestaurantAction, RestaurantObservation } from '../online/env.js';

/** The rule bot configured from an env's api_call tool (DSTC6 wording and restrictions when the tool has them). */
export function rulesFor(tools: readonly ToolSpec[]): ReturnType<typeof createRulesBot> {
  const params = Object.keys((tools[0]?.function.parameters['properties'] ?? {}) as object);
  const dstc6 = params.includes('atmosphere');
  return createRulesBot({ dialect: dstc6 ? 'dstc6' : 'babi', restrictions: dstc6 && params.includes('restrictions') });
}

/** Plays one episode with `policy`; returns the last step. */
export function play(env: Env<RestaurantObservation, RestaurantAction>, seed: number, policy: (obs: RestaurantObservation, turn: number) => RestaurantAction, variant = 0): StepResult<RestaurantObservation> {
  let obs = env.reset({ seed, variant }).obs;
  for (let turn = 0; ; turn++) {
    const r = env.step(policy(obs, turn));
    if (r.terminated || r.truncated) return r;
    obs = r.obs;
  }
}
