/**
 * The `infobot eval` run: a KB-InfoBot agent (a name of `infobotAgents`, or a trained policy file)
 * against the simulated user over `episodes` seeded episodes — Table 2's figures: average turns T,
 * success S, reward R ± standard error. `dialogym infobot eval` is this run's CLI; a library user
 * calls `infobotEvalRun.run(options)`.
 */
import { availableParallelism } from 'node:os';
import { shardItems, type Shard, type ShardItem } from '../../../core/shard.js';
import { InfoBotEnv, createInfoBotAgent, infobotAgents, isPolicyFile, playOnWorkers, runEpisodes, splitSpec, summarize, DEFAULT_MISSING, type EpisodeResult, type EvalReport } from '../index.js';
import { chosenKbs, kbSourceOf } from '../kb-choice.js';
import { defineRun, type RunDefinition, type RunPart, type RunParts } from '../../../runs/run.js';

/**
 * Options of the `infobot eval` run (schemas/run-infobot-eval.schema.json).
 *
 * @example
 * ```ts
 * import type { InfobotEvalOptions } from 'dialogym';
 * const o: InfobotEvalOptions = { agent: 'rule-soft', split: 'small', episodes: 500, seed: 1 };
 * ```
 */
export interface InfobotEvalOptions {
  /** An agent of `infobotAgents` (`rule-soft`, `max`, `rl-soft`, …) or a trained policy file (.dgm). */
  readonly agent: string;
  /** Simulated dialogs (default 5000). */
  readonly episodes?: number;
  /** Seed of the episodes (default 1). */
  readonly seed?: number;
  /** NLG temperature (default 1). */
  readonly temperature?: number;
  /** KB split (`tiny`, `small`, `medium`, `large`, or the paper's names; default medium, or the split of the `kb` folder). */
  readonly split?: string;
  /** Seed of the generated KB (default 1). */
  readonly kbSeed?: number;
  /** A folder of KB files (db.txt, incomplete_db_<missing>.txt) instead of generating the KB. */
  readonly kb?: string;
  /** Fraction of values hidden in the agent's KB (default 0.2). */
  readonly missing?: number;
  /** Folder of the default trained policies of the rl-* agents. */
  readonly policies?: string;
  /** Episodes played on n worker threads, the same result for any n (default 2, or 1 on a 1-core machine or under 500 episodes). */
  readonly workers?: number;
}

/**
 * What the `infobot eval` run reports as it goes.
 *
 * @example
 * ```ts
 * import type { InfobotEvalHooks } from 'dialogym';
 * const hooks: InfobotEvalHooks = { onProgress: (done, total) => console.error(`${done}/${total}`) };
 * ```
 */
export interface InfobotEvalHooks {
  /** `done` of the part's `total` episodes played. */
  onProgress?(done: number, total: number): void;
}

/** Below this many episodes the run stays on the main thread by default (worker start-up would dominate). */
export const MIN_PARALLEL_EPISODES = 500;

async function part(o: InfobotEvalOptions, shard: Shard | undefined, hooks: InfobotEvalHooks = {}): Promise<RunPart<InfobotEvalOptions>> {
  if (!isPolicyFile(o.agent)) infobotAgents.get(o.agent);
  const seed = o.seed ?? 1;
  const episodes = o.episodes ?? 5000;
  const temperature = o.temperature ?? 1;
  const choice = { ...(o.split !== undefined ? { split: splitSpec(o.split).name } : {}), kbSeed: o.kbSeed ?? 1, ...(o.kb !== undefined ? { kb: o.kb } : {}), missing: o.missing ?? DEFAULT_MISSING };
  const { kbs, split } = chosenKbs(choice);
  const env = new InfoBotEnv({ split, kbs, temperature });
  const created = createInfoBotAgent(o.agent, env, o.policies); // fails early (e.g. agents that need a trained policy)
  // The items are the episodes (episode k reset with episodeSeed(seed, k)).
  const ks = shardItems(shard, episodes);
  const onEpisode = (d: number): void => hooks.onProgress?.(d, ks.length);
  const workers = o.workers ?? (ks.length < MIN_PARALLEL_EPISODES ? 1 : Math.min(2, availableParallelism()));
  const results: EpisodeResult[] =
    workers > 1
      ? (await playOnWorkers({ agent: o.agent, split, kb: kbSourceOf(choice), episodes, seed, temperature, policyDir: o.policies, workers, ...(shard ? { shard } : {}), onEpisode })).results
      : runEpisodes(env, created, seed, shard?.index ?? 0, episodes, onEpisode, shard?.count ?? 1);
  const items = results.map((r, j) => ({ k: ks[j] as number, reward: r.reward, turns: r.turns, success: r.success, rank: r.rank }));
  return { run: 'infobot eval', options: o, ...(shard ? { shard } : {}), total: episodes, items, meta: { agent: created.name, split: env.split }, info: {} };
}

/** Table 2's figures over every episode, in order (`summarize`). */
async function finish(p: RunParts<InfobotEvalOptions>): Promise<EvalReport> {
  return summarize(p.meta['agent'] as string, p.meta['split'] as string, p.items as readonly (ShardItem & EpisodeResult)[]);
}

/**
 * The `infobot eval` run: `infobotEvalRun.run(options, hooks)` plays an agent against the simulated
 * user and returns turns, success and reward ± standard error (the same figures for any number of
 * workers or shards); `part` / `finish` split the episodes into shards and put them together.
 * Errors: a ConfigError naming the option (an unknown agent or split, a KB folder of another split).
 *
 * @example
 * ```ts
 * import { infobotEvalRun } from 'dialogym';
 * const r = await infobotEvalRun.run({ agent: 'rule-soft', split: 'small', episodes: 200 });
 * console.log(r.turns, r.success, r.reward, r.rewardStdErr);
 * ```
 */
export const infobotEvalRun: RunDefinition<InfobotEvalOptions, EvalReport, InfobotEvalHooks> = defineRun<InfobotEvalOptions, EvalReport, InfobotEvalHooks>({
  id: 'infobot eval',
  schema: 'run-infobot-eval',
  unrecorded: ['workers'], // the figures do not depend on it
  part,
  finish,
});
