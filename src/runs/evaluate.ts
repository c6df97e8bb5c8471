/**
 * The `evaluate` run: an agent — one of dialogym's, a process, an HTTP endpoint or a language model
 * (`evaluation/open.ts`) — plays an online environment through the agent protocol over seeded tasks
 * and trials (`evaluation/evaluate.ts`): success, pass^k, turns, reward, failures by reason, the
 * tokens and cost of an LLM, each episode's record (the transcripts file, appended as each episode
 * ends, resumable). Generic: the environment's testbed is reached through what the list of
 * testbeds declared (its turn limit: `turnLimitOf`; its KB file: `declareKb`). `dialogym evaluate`
 * is this run's CLI; a library user calls `evaluateRun.run(options)`.
 */
import { ConfigError, errorText, optionName } from '../core/errors.js';
import { inShard, shardItems, type Shard, type ShardItem } from '../core/shard.js';
import type { AgentWay } from '../evaluation/open.js';
import { make } from '../env/env.js';
import { turnLimitOf } from '../env/turn-limit.js';
import type { EpisodeRecord, EvaluationSummary } from '../evaluation/evaluate.js';
import type { LlmStats } from '../llm/client/client.js';
import { costOf, type Prices } from '../llm/client/usage.js';
import { openLlmUserVoice, openRunAgent, type RunAgentOptions } from './agent-options.js';
import { kbOf, kbTestbeds } from './kb.js';
import { defineRun, type RunDefinition, type RunPart, type RunParts } from './run.js';

/**
 * Options of the `evaluate` run (schemas/run-evaluate.schema.json); the LLM options are those of
 * `LlmConnection` (an LLM agent's or user's endpoint, key, request members, limits, cache).
 *
 * @example
 * ```ts
 * import type { EvaluateRunOptions } from 'dialogym';
 * const o: EvaluateRunOptions = { env: 'restaurant-task5-v2', agent: { kind: 'builtin', name: 'rules' }, episodes: 20, transcripts: 't5.jsonl' };
 * ```
 */
export interface EvaluateRunOptions extends RunAgentOptions {
  /** The environment id. */
  readonly env: string;
  /** The agent: dialogym's (`builtin`), a process (`cmd`), an endpoint (`url`) or a language model (`llm`). */
  readonly agent: AgentWay;
  /** Options of the environment, checked against its schema. */
  readonly envOptions?: Readonly<Record<string, unknown>>;
  /** Tasks (episode seeds seed … seed + episodes − 1); default 100 (`EVALUATE_DEFAULTS`, as the library's `evaluate`). */
  readonly episodes?: number;
  /** Seed of the first task; default 1 (`EVALUATE_DEFAULTS`, as the library's `evaluate`). */
  readonly seed?: number;
  /** Trials per task (pass^1 … pass^k); default 1. */
  readonly trials?: number;
  /** Per-turn reply timeout of the agent, ms; default 5000. */
  readonly timeout?: number;
  /** Episodes in flight; default 1 (the records are the same whatever it is). */
  readonly concurrency?: number;
  /** Agent turns after which an episode ends: the environment's own limit where its testbed declares one, else the generic wrapper (`TurnLimit`). */
  readonly maxTurns?: number;
  /** A file of one JSON record per episode, appended as each ends, in episode order once the run is done. */
  readonly transcripts?: string;
  /** Continue an interrupted run from its transcripts file: its episodes kept, the others played and appended. */
  readonly resume?: string;
  /** A language model says the simulated user's turns (same connection options). */
  readonly userLlm?: string;
  /** A file with the LLM user's system prompt (default: the testbed's). */
  readonly userPrompt?: string;
  /** Price per million input tokens: the cost in the summary and the transcripts. */
  readonly priceIn?: number;
  /** Price per million output tokens. */
  readonly priceOut?: number;
}

/**
 * What the `evaluate` run reports as it goes.
 *
 * @example
 * ```ts
 * import type { EvaluateRunHooks } from 'dialogym';
 * const hooks: EvaluateRunHooks = { onProgress: (done, total) => console.error(`${done}/${total}`) };
 * ```
 */
export interface EvaluateRunHooks {
  /** `done` of the part's `total` episodes still to play (a resumed run's not counted). */
  onProgress?(done: number, total: number): void;
}

/**
 * The summary of an `evaluate` run (`dialogym evaluate --json` prints it): the episodes' summary,
 * the cost of the agent's and the user's tokens when prices are given, and what each LLM client
 * did (requests sent, cache hits, retries, latencies) when the run was played whole.
 *
 * @example
 * ```ts
 * import type { EvaluateRunSummary } from 'dialogym';
 * const line = (s: EvaluateRunSummary): string => `${s.env}: success ${s.success.toFixed(4)}${s.cost !== undefined ? ` cost ${s.cost}` : ''}`;
 * ```
 */
export type EvaluateRunSummary = EvaluationSummary & { readonly cost?: number; readonly userCost?: number; readonly llm?: LlmStats; readonly userLlm?: LlmStats };

/**
 * The result of the `evaluate` run: its summary and every episode's record, in episode order.
 *
 * @example
 * ```ts
 * import type { EvaluateRunResult } from 'dialogym';
 * const failed = (r: EvaluateRunResult) => r.records.filter((x) => !x.success).length;
 * ```
 */
export interface EvaluateRunResult {
  readonly summary: EvaluateRunSummary;
  readonly records: readonly EpisodeRecord[];
}

const pricesOf = (o: EvaluateRunOptions): Prices | undefined => (o.priceIn === undefined && o.priceOut === undefined ? undefined : { in: o.priceIn ?? 0, out: o.priceOut ?? 0 });

/** The environment's options: `envOptions`, the KB file's and the turn limit's (refused when `envOptions` sets them too); and the wrapper's limit, if any. */
async function envOptionsOf(o: EvaluateRunOptions): Promise<{ envOptions: Record<string, unknown>; wrapper?: number }> {
  const envOptions: Record<string, unknown> = { ...o.envOptions };
  const set = (key: string, by: string, value: unknown): void => {
    if (key in envOptions) throw new ConfigError(errorText`${optionName('envOptions')}: ${key} is set by ${optionName(by)} too; give it once`);
    envOptions[key] = value;
  };
  if (o.kb !== undefined) {
    const kb = kbOf(o.env);
    if (kb === undefined) throw new ConfigError(errorText`${optionName('kb')}: ${o.env} reads no restaurant KB (only the ${kbTestbeds().map((t) => `${t}-*`).join(' and ')} environments do)`);
    set(kb.option, 'kb', await kb.read(o.kb));
  }
  const limit = turnLimitOf(o.env, o.maxTurns);
  for (const [key, value] of Object.entries(limit.options ?? {})) set(key, 'maxTurns', value);
  return { envOptions, ...(limit.wrapper !== undefined ? { wrapper: limit.wrapper } : {}) };
}

async function part(o: EvaluateRunOptions, shard: Shard | undefined, hooks: EvaluateRunHooks = {}): Promise<RunPart<EvaluateRunOptions>> {
  const { evaluate, EVALUATE_DEFAULTS } = await import('../evaluation/evaluate.js');
  const episodes = o.episodes ?? EVALUATE_DEFAULTS.episodes;
  const seed = o.seed ?? EVALUATE_DEFAULTS.seed;
  const trials = o.trials ?? EVALUATE_DEFAULTS.trials;
  if (o.resume !== undefined && shard) throw new ConfigError(errorText`${optionName('resume')} continues a whole run; a shard is re-run with its own ${optionName('shard')} (merge reads the shards)`);
  if (o.resume !== undefined && o.transcripts !== undefined && o.transcripts !== o.resume) throw new ConfigError(errorText`${optionName('resume')} appends to the file it reads (${o.resume}); drop ${optionName('transcripts')} or give the same file`);
  const { envOptions, wrapper } = await envOptionsOf(o);
  // Checked (schema, unknown keys) before the agent starts or the transcripts are opened: a bad option costs nothing.
  make(o.env, envOptions);
  const transport = await openRunAgent(o.agent, o, seed);
  let log;
  try {
    if (o.userPrompt !== undefined && o.userLlm === undefined) throw new ConfigError(errorText`${optionName('userPrompt')} is the prompt of ${optionName('userLlm')}: give ${optionName('userLlm')} too`);
    const userVoice = o.userLlm !== undefined ? await openLlmUserVoice(o.userLlm, o, seed) : undefined;
    // Transcripts (and resume's file) get each record as its episode ends, so an interrupted run loses none; a shard's are written by merge.
    const file = o.resume ?? (shard ? undefined : o.transcripts);
    const { TranscriptLog } = await import('./transcript-log.js');
    log = file !== undefined ? new TranscriptLog(file, o.resume !== undefined, pricesOf(o)) : undefined;
    const done = log?.records ?? [];
    const total = shardItems(shard, episodes).length * trials - done.length;
    const appendTo = log;
    const { records } = await evaluate(o.env, transport, {
      envOptions,
      ...(wrapper !== undefined ? { maxTurns: wrapper } : {}),
      episodes,
      seed,
      trials,
      ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
      ...(o.timeout !== undefined ? { timeoutMs: o.timeout } : {}),
      include: (k) => inShard(shard, k),
      done,
      ...(userVoice ? { userVoice } : {}),
      ...(appendTo ? { onFinish: (rec: EpisodeRecord) => appendTo.append(rec) } : {}),
      onEpisode: (_rec, n) => hooks.onProgress?.(n, total),
    });
    // One item per task (k = its index; seed + k): the records of its trials.
    const items: ShardItem[] = [];
    for (const rec of records) {
      if (rec.trial === 0) items.push({ k: rec.episode, records: [] });
      (items[items.length - 1]?.['records'] as EpisodeRecord[]).push(rec);
    }
    const llm = 'client' in transport ? (transport.client as { stats(): LlmStats }).stats() : undefined;
    const userLlm = userVoice?.client.stats();
    return { run: 'evaluate', options: o, ...(shard ? { shard } : {}), total: episodes, items, meta: {}, info: { ...(llm ? { llm } : {}), ...(userLlm ? { userLlm } : {}) } };
  } finally {
    log?.close();
    await transport.close?.();
  }
}

/** The transcripts written whole, in episode order (atomically), and the summary of every episode. */
async function finish(p: RunParts<EvaluateRunOptions>): Promise<EvaluateRunResult> {
  const o = p.options;
  const { summarizeEpisodes, EVALUATE_DEFAULTS } = await import('../evaluation/evaluate.js');
  const { writeTranscripts } = await import('./transcript-log.js');
  const records = p.items.flatMap((it) => it['records'] as EpisodeRecord[]);
  const prices = pricesOf(o);
  const file = o.resume ?? o.transcripts;
  if (file !== undefined) writeTranscripts(file, records, prices);
  const s = summarizeEpisodes({ env: o.env, episodes: o.episodes ?? EVALUATE_DEFAULTS.episodes, trials: o.trials ?? EVALUATE_DEFAULTS.trials, seed: o.seed ?? EVALUATE_DEFAULTS.seed }, records);
  const cost = s.usage ? costOf(s.usage, prices) : undefined;
  const userCost = s.userUsage ? costOf(s.userUsage, prices) : undefined;
  // The LLM clients' figures are a process's: told for a run played whole, not for merged shards.
  const info = p.infos.length === 1 ? (p.infos[0] as { llm?: LlmStats; userLlm?: LlmStats }) : {};
  const summary: EvaluateRunSummary = { ...s, ...(cost !== undefined ? { cost } : {}), ...(userCost !== undefined ? { userCost } : {}), ...(info.llm ? { llm: info.llm } : {}), ...(info.userLlm ? { userLlm: info.userLlm } : {}) };
  return { summary, records };
}

/**
 * The `evaluate` run: `evaluateRun.run(options, hooks)` plays the agent on the environment and
 * returns the summary and the records (writing the transcripts file its options name); `part` /
 * `finish` split the tasks into shards and put them together (the same records and bytes).
 * Errors: a ConfigError naming the option (an unknown environment or agent, an option the
 * environment does not read, a KB for an environment without one, `resume` with a shard).
 *
 * @example
 * ```ts
 * import { evaluateRun } from 'dialogym';
 * const { summary, records } = await evaluateRun.run({ env: 'restaurant-task5-v2', agent: { kind: 'builtin', name: 'rules' }, episodes: 10 });
 * console.log(summary.success, summary.passK, records.length);
 * ```
 */
export const evaluateRun: RunDefinition<EvaluateRunOptions, EvaluateRunResult, EvaluateRunHooks> = defineRun<EvaluateRunOptions, EvaluateRunResult, EvaluateRunHooks>({
  id: 'evaluate',
  schema: 'run-evaluate',
  unrecorded: ['concurrency'], // the records are the same whatever it is
  part,
  finish,
});
