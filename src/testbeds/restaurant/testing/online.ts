/** Test helpers of the online restaurant environments (not part of the public API). */
import { createHash } from 'node:crypto';
import { createRng, type Rng } from '../../../core/rng.js';
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

/**
 * The sha256 of whole episodes (reset obs/info, then each step's obs, reward, flags and info) of
 * `agent` on the envs `ids`, `episodes` seeds spread over them: a pin of an environment's dynamics.
 * `agent` gets the env (for `sampleAction`), the episode's own rng and the observation.
 */
export function transcriptHash(
  ids: readonly string[],
  episodes: number,
  agent: (env: Env<RestaurantObservation, RestaurantAction>, tools: readonly ToolSpec[], rng: Rng, obs: RestaurantObservation) => RestaurantAction,
  make: (id: string) => Env<RestaurantObservation, RestaurantAction>,
): string {
  const h = createHash('sha256');
  const envs = ids.map((id) => make(id));
  for (let k = 0; k < episodes; k++) {
    const env = envs[k % envs.length] as Env<RestaurantObservation, RestaurantAction>;
    const seed = 1000 + k;
    const reset = env.reset({ seed });
    h.update(JSON.stringify([env.id, seed, reset.obs, reset.info]));
    const rng = createRng(seed).fork('agent');
    const tools = reset.info['tools'] as ToolSpec[];
    let obs = reset.obs;
    for (;;) {
      const r = env.step(agent(env, tools, rng, obs));
      h.update(JSON.stringify([r.obs, r.reward, r.terminated, r.truncated, r.info]));
      if (r.terminated || r.truncated) break;
      obs = r.obs;
    }
  }
  return h.digest('hex');
}

/** A `transcriptHash` agent: the rule bot configured from the episode's api_call tool. */
export function rulesAgent(): (env: unknown, tools: readonly ToolSpec[], rng: Rng, obs: RestaurantObservation) => string {
  const bots = new Map<string, ReturnType<typeof createRulesBot>>();
  return (_env, tools, _rng, obs) => {
    const key = Object.keys((tools[0]?.function.parameters['properties'] ?? {}) as object).join(' ');
    let bot = bots.get(key);
    if (!bot) bots.set(key, (bot = rulesFor(tools)));
    return bot.respond(obs.history);
  };
}
