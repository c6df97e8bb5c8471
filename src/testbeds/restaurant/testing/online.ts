/** Test helpers of the online restaurant environments (not part of the public API). */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRng, type Rng } from '../../../core/rng.js';
import { make as makeEnv, type Env, type StepResult, type ToolSpec } from '../../../env/env.js';
import { playEpisode, type EpisodeTurn } from '../../../env/episode.js';
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
  let last: StepResult<RestaurantObservation> | undefined;
  playEpisode(env, (t) => policy(t.obs, t.turn), { reset: { seed, variant }, onStep: (r) => (last = r) });
  return last as StepResult<RestaurantObservation>;
}

/**
 * The sha256 of whole episodes (reset obs/info, then each step's obs, reward, flags and info) of
 * `agent` on the envs `ids`, `episodes` seeds spread over them: a pin of an environment's dynamics.
 * `agent` gets the env (for `sampleAction`), the episode's own rng and the observation.
 */
export function transcriptHash(ids: readonly string[], episodes: number, agent: TestAgent, make: (id: string) => Env<RestaurantObservation, RestaurantAction>): string {
  const h = createHash('sha256');
  const envs = ids.map((id) => make(id));
  for (let k = 0; k < episodes; k++) {
    const env = envs[k % envs.length] as Env<RestaurantObservation, RestaurantAction>;
    const seed = 1000 + k;
    for (const line of episodeLines(env, seed, agent, true)) h.update(line);
  }
  return h.digest('hex');
}

/** A test agent: the next action from the env (for `sampleAction`), the episode's tools, its own rng and the observation. */
export type TestAgent = (env: Env<RestaurantObservation, RestaurantAction>, tools: readonly ToolSpec[], rng: Rng, obs: RestaurantObservation) => RestaurantAction;

/** One episode as JSON lines: the reset (obs, with info when `withInfo`), then each step (obs, reward, flags; the whole info or its failure and detail). */
function episodeLines(env: Env<RestaurantObservation, RestaurantAction>, seed: number, agent: TestAgent, withInfo: boolean): string[] {
  const out: string[] = [];
  const rng = createRng(seed).fork('agent');
  let tools: ToolSpec[] = [];
  const policy = (t: EpisodeTurn<RestaurantObservation>): RestaurantAction => {
    if (t.turn === 0) {
      out.push(JSON.stringify(withInfo ? [env.id, seed, t.obs, t.info] : [seed, t.obs]));
      tools = t.info['tools'] as ToolSpec[];
    }
    return agent(env, tools, rng, t.obs);
  };
  const onStep = (r: StepResult<RestaurantObservation>): number => out.push(JSON.stringify([r.obs, r.reward, r.terminated, r.truncated, withInfo ? r.info : [r.info['failure'], r.info['detail'], r.info['success'], r.info['booked']]]));
  playEpisode(env, policy, { reset: { seed }, onStep });
  return out;
}

/**
 * The episodes (seeds 0 … n-1) where env `b` plays otherwise than env `a` for the same agent
 * (observations, rewards, flags, failure and its detail): `[]` when they all agree.
 */
export function sameEpisodes(a: string, b: string, episodes: number, agent: () => TestAgent): string[] {
  const ea = makeEnv(a) as Env<RestaurantObservation, RestaurantAction>;
  const eb = makeEnv(b) as Env<RestaurantObservation, RestaurantAction>;
  const out: string[] = [];
  for (let seed = 0; seed < episodes; seed++) {
    const x = episodeLines(ea, seed, agent(), false);
    const y = episodeLines(eb, seed, agent(), false);
    const i = x.findIndex((line, k) => line !== y[k]);
    if (i >= 0 || x.length !== y.length) out.push(`seed ${seed} step ${i}: ${x[i] ?? ''} ≠ ${y[i] ?? ''}`);
  }
  return out;
}

/** A `TestAgent`: the rule bot configured from the episode's api_call tool. */
export function rulesAgent(): TestAgent {
  const bots = new Map<string, ReturnType<typeof createRulesBot>>();
  return (_env, tools, _rng, obs) => {
    const key = Object.keys((tools[0]?.function.parameters['properties'] ?? {}) as object).join(' ');
    let bot = bots.get(key);
    if (!bot) bots.set(key, (bot = rulesFor(tools)));
    return bot.respond(obs.history);
  };
}

/** Asserts that each -v2 env plays the episodes of its -v1 env for the rule bot and a random agent (the datasets' wording). */
export function assertSameAsV1(ids: readonly string[], episodes: number): void {
  for (const id of ids) {
    const v1 = id.replace(/-v2$/, '-v1');
    assert.deepEqual(sameEpisodes(v1, id, episodes, rulesAgent), [], `${id}: rule bot`);
    assert.deepEqual(sameEpisodes(v1, id, episodes, () => (env, _tools, rng) => env.sampleAction(rng)), [], `${id}: random agent`);
  }
}
