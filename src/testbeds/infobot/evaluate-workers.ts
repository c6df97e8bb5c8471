/**
 * `evaluateAgent` on worker threads: the episodes are cut into one contiguous range per worker,
 * each worker builds the same environment and agent and plays its range, and the results are put
 * back in episode order. Every episode is seeded by its index (`episodeSeed`), so the report is
 * identical to the one-thread evaluation for any number of workers. The pool of evaluation jobs
 * (`playJobsOnWorkers`: ranges here, whole evaluations for `infobotTableOnWorkers`) is this one.
 */
import { Pool } from '../../core/pool.js';
import { summarize, type EpisodeResult, type EvalReport } from './episodes.js';
import type { SplitName } from './slots.js';
import { ConfigError } from '../../core/errors.js';

/** Where a worker gets the KBs: generated (split, seed, missing fraction) or read from TSV files.
 *
 * @example
 * ```ts
 * import type { KbSource } from 'dialogym/infobot';
 * const generated: KbSource = { kind: 'generate', kbSeed: 1, missing: 0.2 };
 * const files: KbSource = { kind: 'files', full: 'data/imdb-M/db.txt', incomplete: 'data/imdb-M/incomplete_db_0.20.txt' };
 * ```
 */
export type KbSource =
  | { readonly kind: 'generate'; readonly kbSeed: number; readonly missing: number }
  | { readonly kind: 'files'; readonly full: string; readonly incomplete: string };

/**
 * Options of `evaluateAgentOnWorkers`.
 *
 * @example
 * ```ts
 * import type { ParallelEvalOptions } from 'dialogym/infobot';
 * const opts: ParallelEvalOptions = { agent: 'rule-soft', split: 'medium', kb: { kind: 'generate', kbSeed: 1, missing: 0.2 }, episodes: 2000, workers: 2 };
 * ```
 */
export interface ParallelEvalOptions {
  readonly agent: string;
  readonly split: SplitName;
  readonly kb: KbSource;
  readonly episodes: number;
  /** Seed of the episodes (default 1). */
  readonly seed?: number;
  /** NLG temperature (default: the simulator's). */
  readonly temperature?: number;
  readonly policyDir?: string;
  /** Worker threads (≥ 1). */
  readonly workers: number;
  /** Episodes finished so far, over all workers. */
  readonly onEpisode?: (done: number) => void;
  /** Only the episodes k with k mod `count` = `index` (a sharded run's part). */
  readonly shard?: { readonly index: number; readonly count: number };
}

/** What a worker is asked to do (one pool task).
 *
 * @example
 * ```ts
 * import type { EvalJob } from 'dialogym/infobot';
 * const job: EvalJob = { agent: 'rule-soft', split: 'small', kb: { kind: 'generate', kbSeed: 1, missing: 0.2 }, seed: 1, start: 0, end: 500 };
 * ```
 */
export interface EvalJob {
  readonly agent: string;
  readonly split: SplitName;
  readonly kb: KbSource;
  readonly seed: number;
  readonly temperature?: number;
  readonly policyDir?: string;
  readonly start: number;
  readonly end: number;
  /** Episodes start, start + step, … below end (default 1: all of them). */
  readonly step?: number;
}

/**
 * A worker's answer: the agent's display name and the results of its range, in order.
 *
 * @example
 * ```ts
 * import type { EvalPart } from 'dialogym/infobot';
 * const part: EvalPart = { name: 'rule-soft', results: [{ reward: 1.2, turns: 4, success: true, rank: 0 }] };
 * ```
 */
export interface EvalPart {
  readonly name: string;
  readonly results: EpisodeResult[];
}

/** The episode ranges of `workers` workers over `episodes` episodes (contiguous, in order, none empty).
 *
 * @example
 * ```ts
 * import { episodeRanges } from 'dialogym/infobot';
 * episodeRanges(10, 3); // [[0, 3], [3, 6], [6, 10]]
 * ```
 */
export function episodeRanges(episodes: number, workers: number): [number, number][] {
  const n = Math.max(1, Math.min(workers, episodes));
  const out: [number, number][] = [];
  for (let w = 0; w < n; w++) out.push([Math.floor((w * episodes) / n), Math.floor(((w + 1) * episodes) / n)]);
  return out;
}

/**
 * `evaluateAgent` on worker threads (module description above): the same report as one thread
 * for any number of workers. Throws a ConfigError for a bad episode or
 * worker count; rejects with the first worker's error.
 *
 * @example
 * ```ts
 * import { evaluateAgentOnWorkers } from 'dialogym/infobot';
 * const report = await evaluateAgentOnWorkers({ agent: 'rule-soft', split: 'small', kb: { kind: 'generate', kbSeed: 1, missing: 0.2 }, episodes: 400, workers: 2 });
 * ```
 */
export async function evaluateAgentOnWorkers(opts: ParallelEvalOptions): Promise<EvalReport> {
  const part = await playOnWorkers(opts);
  return summarize(part.name, opts.split, part.results);
}

/**
 * The episodes of `evaluateAgentOnWorkers` (only the shard's, with `opts.shard`), played on worker
 * threads and returned in episode order with the agent's display name. Errors as
 * `evaluateAgentOnWorkers`.
 *
 * @example
 * ```ts
 * import { playOnWorkers, summarize } from 'dialogym/infobot';
 * const kb = { kind: 'generate', kbSeed: 1, missing: 0.2 } as const;
 * const part = await playOnWorkers({ agent: 'rule-soft', split: 'small', kb, episodes: 400, workers: 2, shard: { index: 1, count: 4 } });
 * part.results.length; // 100: episodes 1, 5, 9, …
 * ```
 */
export async function playOnWorkers(opts: ParallelEvalOptions): Promise<EvalPart> {
  if (!Number.isInteger(opts.episodes) || opts.episodes < 1) throw new ConfigError('episodes must be a positive integer');
  if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new ConfigError('workers must be a positive integer');
  const { index, count } = opts.shard ?? { index: 0, count: 1 };
  const items = index < opts.episodes ? Math.ceil((opts.episodes - index) / count) : 0;
  if (items === 0) return { name: opts.agent, results: [] };
  // Ranges over the positions of the shard's episodes, as episodes start + j·count.
  const jobs = episodeRanges(items, opts.workers).map(([a, b]): EvalJob => ({
    agent: opts.agent,
    split: opts.split,
    kb: opts.kb,
    seed: opts.seed ?? 1,
    start: index + a * count,
    end: index + b * count,
    step: count,
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    ...(opts.policyDir !== undefined ? { policyDir: opts.policyDir } : {}),
  }));
  const parts = await playJobsOnWorkers(jobs, { workers: opts.workers, label: 'infobot eval worker', ...(opts.onEpisode ? { onEpisode: opts.onEpisode } : {}) });
  return { name: parts[parts.length - 1]?.name ?? opts.agent, results: parts.flatMap((p) => p.results) };
}

/**
 * Options of `playJobsOnWorkers`.
 *
 * @example
 * ```ts
 * import type { JobsOnWorkersOptions } from 'dialogym/infobot';
 * const opts: JobsOnWorkersOptions = { workers: 2, label: 'my evaluation worker', onEpisode: (done) => console.log(done) };
 * ```
 */
export interface JobsOnWorkersOptions {
  /** Worker threads (≥ 1; no more are started than there are jobs). */
  readonly workers: number;
  /** Names the pool in errors that are not the project's (`<label>: <message>`), e.g. 'infobot table worker'. */
  readonly label: string;
  /** Episodes played so far, over all jobs. */
  readonly onEpisode?: (done: number) => void;
}

/**
 * The evaluation jobs `jobs` played on a pool of worker threads, each job one task (a range of one
 * evaluation's episodes, or a whole evaluation): the answers in the order of the jobs, the same as
 * on one thread as every episode is seeded by its index. The one pool of `playOnWorkers` and
 * `infobotTableOnWorkers`. Rejects with the first job's error.
 *
 * @example
 * ```ts
 * import { playJobsOnWorkers, summarize, type EvalJob } from 'dialogym/infobot';
 * const kb = { kind: 'generate', kbSeed: 1, missing: 0.2 } as const;
 * const jobs: EvalJob[] = [1, 7].map((seed) => ({ agent: 'rule-soft', split: 'small', kb, seed, start: 0, end: 200 }));
 * const parts = await playJobsOnWorkers(jobs, { workers: 2, label: 'seeds worker' });
 * const reports = parts.map((p) => summarize(p.name, 'small', p.results)); // seed 1's, seed 7's
 * ```
 */
export async function playJobsOnWorkers(jobs: readonly EvalJob[], o: JobsOnWorkersOptions): Promise<EvalPart[]> {
  if (!Number.isInteger(o.workers) || o.workers < 1) throw new ConfigError(`workers must be a positive integer, got ${o.workers}`);
  if (jobs.length === 0) return [];
  const pool = new Pool<EvalJob, EvalPart, number>({ file: new URL('./evaluate-worker.js', import.meta.url), threads: Math.min(o.workers, jobs.length), label: o.label });
  const progress = jobs.map(() => 0);
  try {
    return await Promise.all(
      jobs.map((job, k) =>
        pool.run(job, {
          onMessage: (done) => {
            progress[k] = done;
            o.onEpisode?.(progress.reduce((a, b) => a + b, 0));
          },
        }),
      ),
    );
  } finally {
    await pool.destroy();
  }
}
