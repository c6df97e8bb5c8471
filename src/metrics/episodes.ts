/**
 * Episode metrics, additive and mergeable like the ranking metrics: success rate, mean turns and
 * reward, failures by reason (`episodeStats`); the summary of a run's episodes with the spread of
 * the reward (`summarizeOutcomes`: mean ± sd and the standard error, as the paper tables give
 * them); and τ-bench's pass^k over repeated trials of the same tasks (`passHatK`, from per-task
 * success counts). Online evaluation, KB-InfoBot's Table 2 and the trainers' curves all summarise
 * episodes here.
 */

/**
 * Counts behind the episode metrics: episodes, successes, the sums of turns and rewards, and the
 * failed episodes by reason (in the order the reasons first occurred).
 *
 * @example
 * ```ts
 * import { episodeStats, type EpisodeState } from 'dialogym';
 * const s: EpisodeState = episodeStats.add(episodeStats.empty(), { success: false, turns: 80, reward: 0, failure: 'max turns' });
 * console.log(s.failures); // { 'max turns': 1 }
 * ```
 */
export interface EpisodeState {
  readonly episodes: number;
  readonly successes: number;
  /** Sum of the episodes' agent turns. */
  readonly turns: number;
  /** Sum of the episodes' rewards. */
  readonly reward: number;
  readonly failures: Readonly<Record<string, number>>;
}

/**
 * One episode as the metrics see it: whether it succeeded, its agent turns and reward, and why it
 * failed (null on success, or when the reason is unknown).
 *
 * @example
 * ```ts
 * import type { EpisodeOutcome } from 'dialogym';
 * const o: EpisodeOutcome = { success: true, turns: 6, reward: 1, failure: null };
 * ```
 */
export interface EpisodeOutcome {
  readonly success: boolean;
  readonly turns: number;
  readonly reward: number;
  /** Why it failed; null on success, null or absent when the reason is unknown. */
  readonly failure?: string | null;
}

/**
 * Success rate, average turns and reward, failures by reason, as an immutable, mergeable
 * {@link EpisodeState}: `empty()`, `add(s, outcome)`, `merge(a, b)`, and the values
 * `success(s)`, `avgTurns(s)`, `avgReward(s)` (over at least one episode: an empty state divides
 * by 1, so 0). Never throws.
 *
 * @example
 * ```ts
 * import { episodeStats } from 'dialogym';
 * let s = episodeStats.empty();
 * s = episodeStats.add(s, { success: true, turns: 6, reward: 1, failure: null });
 * s = episodeStats.add(s, { success: false, turns: 80, reward: 0, failure: 'max turns' });
 * episodeStats.success(s);  // 0.5
 * episodeStats.avgTurns(s); // 43
 * ```
 */
export const episodeStats = {
  empty(): EpisodeState {
    return { episodes: 0, successes: 0, turns: 0, reward: 0, failures: {} };
  },
  /** Adds one episode. */
  add(s: EpisodeState, e: EpisodeOutcome): EpisodeState {
    const failures = !e.success && e.failure !== null && e.failure !== undefined ? { ...s.failures, [e.failure]: (s.failures[e.failure] ?? 0) + 1 } : s.failures;
    return { episodes: s.episodes + 1, successes: s.successes + (e.success ? 1 : 0), turns: s.turns + e.turns, reward: s.reward + e.reward, failures };
  },
  /** Sums two states (failure reasons of `a` first). */
  merge(a: EpisodeState, b: EpisodeState): EpisodeState {
    const failures: Record<string, number> = { ...a.failures };
    for (const [k, v] of Object.entries(b.failures)) failures[k] = (failures[k] ?? 0) + v;
    return { episodes: a.episodes + b.episodes, successes: a.successes + b.successes, turns: a.turns + b.turns, reward: a.reward + b.reward, failures };
  },
  /** Fraction of episodes that succeeded. */
  success(s: EpisodeState): number {
    return s.successes / (s.episodes || 1);
  },
  /** Mean agent turns per episode. */
  avgTurns(s: EpisodeState): number {
    return s.turns / (s.episodes || 1);
  },
  /** Mean reward per episode. */
  avgReward(s: EpisodeState): number {
    return s.reward / (s.episodes || 1);
  },
};

/**
 * The summary of a run's episodes: their number, success rate, mean turns, mean reward with the
 * (population) standard deviation of the rewards and the standard error of the mean (sd / √n),
 * failures by reason. Zeros for no episode.
 *
 * @example
 * ```ts
 * import type { EpisodeSummary } from 'dialogym';
 * const s: EpisodeSummary = { episodes: 2, success: 0.5, avgTurns: 3, avgReward: 0.4, rewardSd: 1.6, rewardStdErr: 1.13, failures: {} };
 * console.log(`R ${s.avgReward.toFixed(2)} ± ${s.rewardStdErr.toFixed(2)}`);
 * ```
 */
export interface EpisodeSummary {
  readonly episodes: number;
  readonly success: number;
  readonly avgTurns: number;
  readonly avgReward: number;
  /** Standard deviation of the episodes' rewards (over n: the population's). */
  readonly rewardSd: number;
  /** Standard error of the mean reward: `rewardSd / √n`. */
  readonly rewardStdErr: number;
  readonly failures: Readonly<Record<string, number>>;
}

/**
 * Summarises episodes, in order ({@link EpisodeSummary}): the counts of `episodeStats`, and the
 * spread of the reward around its mean (two passes, so the figures do not depend on how large the
 * rewards are). Never throws.
 *
 * @example
 * ```ts
 * import { summarizeOutcomes } from 'dialogym';
 * const s = summarizeOutcomes([{ success: true, turns: 3, reward: 2 }, { success: false, turns: 3, reward: -1.2 }]);
 * s.avgReward;    // 0.4
 * s.rewardStdErr; // 1.131… (sd 1.6 over √2)
 * ```
 */
export function summarizeOutcomes(outcomes: readonly EpisodeOutcome[]): EpisodeSummary {
  let s = episodeStats.empty();
  for (const e of outcomes) s = episodeStats.add(s, e);
  const n = s.episodes;
  const mean = episodeStats.avgReward(s);
  let v = 0;
  for (const e of outcomes) v += (e.reward - mean) ** 2;
  const rewardSd = n > 0 ? Math.sqrt(v / n) : 0;
  return { episodes: n, success: episodeStats.success(s), avgTurns: episodeStats.avgTurns(s), avgReward: mean, rewardSd, rewardStdErr: n > 0 ? rewardSd / Math.sqrt(n) : 0, failures: s.failures };
}

function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/**
 * pass^k for k = 1…n from the successes of each task in n trials (τ-bench's estimator: per task
 * with c successes in n trials, C(c,k)/C(n,k), averaged over tasks; 0 with no task).
 *
 * @example
 * ```ts
 * import { passHatK } from 'dialogym';
 * passHatK([4, 2, 0], 4); // [0.5, 0.3889, 0.3333, 0.3333] (rounded): three tasks, four trials each
 * ```
 */
export function passHatK(successesPerTask: readonly number[], n: number): number[] {
  const out: number[] = [];
  for (let k = 1; k <= n; k++) {
    const s = successesPerTask.reduce((acc, c) => acc + binomial(c, k) / binomial(n, k), 0);
    out.push(successesPerTask.length === 0 ? 0 : s / successesPerTask.length);
  }
  return out;
}
