/**
 * The AirDialogue runs: `airdialogue generate` (the templated simulator's dialogs written as the
 * original data.json + kb.json, with the rule agent's score) and `airdialogue selfplay` (an agent
 * policy or learned model against a customer policy or model in `airdialogue-v1`, scored by the
 * official scorer, with BLEU when a model plays). `dialogym airdialogue generate|selfplay` are
 * their CLI; a library user calls `airGenerateRun.run(options)` / `airSelfplayRun.run(options)`.
 */
import { join } from 'node:path';
import { AtomicFileWriter } from '../core/files.js';
import { inShard, shardItems, type Shard, type ShardItem } from '../core/shard.js';
import { writeAirLines, type DataLine, type KbLine } from '../formats/airdialogue.js';
import { addScore, agentPolicies, customerPolicies, emptyScoreSum, scoreReport, selfPlay, simulateDialogs, type Score, type ScoreReport } from '../testbeds/airdialogue/index.js';
import type { EpisodeWords } from '../testbeds/airdialogue/learned/policy.js';
import { defineRun, type RunDefinition, type RunPart, type RunParts } from './run.js';

/**
 * What the AirDialogue runs report as they go.
 *
 * @example
 * ```ts
 * import type { AirRunHooks } from 'dialogym';
 * const hooks: AirRunHooks = { onProgress: (done, total) => console.error(`${done}/${total}`) };
 * ```
 */
export interface AirRunHooks {
  /** `done` of the part's `total` dialogs or episodes. */
  onProgress?(done: number, total: number): void;
}

/** The mean of the episodes' scores, added in episode order (as `selfPlay` does). */
function meanScores(items: readonly ShardItem[]): ScoreReport {
  return scoreReport(items.reduce((sum, it) => addScore(sum, it['score'] as Score), emptyScoreSum()));
}

/** Progress of a part: `done` of its items, counted as they come. */
function counter(total: number, hooks: AirRunHooks): () => void {
  let done = 0;
  return () => hooks.onProgress?.(++done, total);
}

/**
 * Options of the `airdialogue generate` run (schemas/run-airdialogue-generate.schema.json).
 *
 * @example
 * ```ts
 * import type { AirGenerateOptions } from 'dialogym';
 * const o: AirGenerateOptions = { dialogs: 100, seed: 2, out: 'air', ood: true };
 * ```
 */
export interface AirGenerateOptions {
  readonly dialogs: number;
  /** Default 1. */
  readonly seed?: number;
  /** The folder of data.json and kb.json. */
  readonly out: string;
  /** Out-of-domain contexts (uniform goals, reservation 70 %, larger name and airport sets). */
  readonly ood?: boolean;
}

/**
 * The result of the `airdialogue generate` run: the files written, the expected statuses counted, the rule agent's mean score.
 *
 * @example
 * ```ts
 * import type { AirGenerateResult } from 'dialogym';
 * const r: AirGenerateResult = { dialogs: 2, data: 'air/data.json', kb: 'air/kb.json', statuses: { book: 1, no_flight: 1 }, score: 1 };
 * ```
 */
export interface AirGenerateResult {
  readonly dialogs: number;
  readonly data: string;
  readonly kb: string;
  /** Dialogs per expected status, in name order. */
  readonly statuses: Record<string, number>;
  readonly score: number;
}

async function generatePart(o: AirGenerateOptions, shard: Shard | undefined, hooks: AirRunHooks = {}): Promise<RunPart<AirGenerateOptions>> {
  const ks = shardItems(shard, o.dialogs);
  const r = simulateDialogs({ n: o.dialogs, seed: o.seed ?? 1, ood: o.ood === true, include: (k) => inShard(shard, k), onEpisode: counter(ks.length, hooks) });
  const items = ks.map((k, j) => ({ k, data: r.data[j], kb: r.kb[j], score: r.scores[j] }));
  return { run: 'airdialogue generate', options: o, ...(shard ? { shard } : {}), total: o.dialogs, items, meta: {}, info: {} };
}

/** Writes data.json and kb.json from every dialog, in order. */
async function generateFinish(p: RunParts<AirGenerateOptions>): Promise<AirGenerateResult> {
  const items = p.items as readonly (ShardItem & { data: DataLine; kb: KbLine })[];
  const data = join(p.options.out, 'data.json');
  const kb = join(p.options.out, 'kb.json');
  writeAirLines(kb, items.map((it) => it.kb));
  writeAirLines(data, items.map((it) => it.data));
  const statuses = new Map<string, number>();
  for (const { data: d } of items) statuses.set(d.expected_action.status, (statuses.get(d.expected_action.status) ?? 0) + 1);
  return { dialogs: items.length, data, kb, statuses: Object.fromEntries([...statuses].sort()), score: meanScores(items).total };
}

/**
 * The `airdialogue generate` run: the templated simulator's dialogs (rule customer vs rule agent),
 * written as data.json and kb.json of the original format; `part` / `finish` split the dialogs into
 * shards (each seeded on its own) and put them together.
 *
 * @example
 * ```ts
 * import { airGenerateRun } from 'dialogym';
 * const r = await airGenerateRun.run({ dialogs: 100, seed: 2, out: 'air' });
 * console.log(r.data, r.statuses, r.score);
 * ```
 */
export const airGenerateRun: RunDefinition<AirGenerateOptions, AirGenerateResult, AirRunHooks> = defineRun<AirGenerateOptions, AirGenerateResult, AirRunHooks>({
  id: 'airdialogue generate',
  schema: 'run-airdialogue-generate',
  part: generatePart,
  finish: generateFinish,
});

/**
 * Options of the `airdialogue selfplay` run (schemas/run-airdialogue-selfplay.schema.json).
 *
 * @example
 * ```ts
 * import type { AirSelfplayOptions } from 'dialogym';
 * const o: AirSelfplayOptions = { agent: 'rules', customer: 'rules', episodes: 100, seed: 1, ood: 2 };
 * ```
 */
export interface AirSelfplayOptions {
  /** An agent policy (`rules`, …) or a model file of `airdialogue train` (default `rules`). */
  readonly agent?: string;
  /** A customer policy or a model file (default `rules`). */
  readonly customer?: string;
  readonly episodes: number;
  /** Default 1. */
  readonly seed?: number;
  /** Out-of-domain contexts: 1 other goal/reservation priors, 2 those plus unseen names and airports (default 0, in-domain). */
  readonly ood?: 0 | 1 | 2;
  /** Utterances before an episode is truncated (default 40). */
  readonly maxTurns?: number;
  /** Where to write every episode (dialogue, action, expected action, score) as JSON Lines. */
  readonly transcripts?: string;
}

/**
 * The result of the `airdialogue selfplay` run: the official scores, and BLEU-4 of the generated
 * turns against the simulator's dialogue when a model plays.
 *
 * @example
 * ```ts
 * import type { AirSelfplayResult } from 'dialogym';
 * const show = (r: AirSelfplayResult) => `${r.total}${r.bleu ? ` BLEU ${r.bleu.both}` : ''}`;
 * ```
 */
export type AirSelfplayResult = ScoreReport & { readonly bleu?: { customer: number; agent: number; both: number } };

/** A model file (rather than a registered policy). */
const isModel = (x: string): boolean => x.endsWith('.dgm') || x.includes('/');

async function selfplayPart(o: AirSelfplayOptions, shard: Shard | undefined, hooks: AirRunHooks = {}): Promise<RunPart<AirSelfplayOptions>> {
  const agentName = o.agent ?? 'rules';
  const customerName = o.customer ?? 'rules';
  const ood = o.ood ?? 0;
  const ks = shardItems(shard, o.episodes);
  // One item per episode: its score, and its transcript line when asked.
  const items: ShardItem[] = [];
  const common = { n: o.episodes, seed: o.seed ?? 1, maxTurns: o.maxTurns ?? 40, include: (k: number) => inShard(shard, k), onEpisode: counter(ks.length, hooks) };
  if (isModel(agentName) || isModel(customerName) || ood === 1 || o.transcripts) {
    const { loadAirModels } = await import('../testbeds/airdialogue/learned/train.js');
    const { learnedAgent, learnedCustomer, learnedSelfPlay } = await import('../testbeds/airdialogue/learned/policy.js');
    const agent = isModel(agentName) ? learnedAgent(loadAirModels(agentName)) : agentPolicies.get(agentName);
    const customer = isModel(customerName) ? learnedCustomer(loadAirModels(customerName)) : customerPolicies.get(customerName);
    learnedSelfPlay({
      ...common,
      agent,
      customer,
      ood,
      // BLEU of the generated turns against the simulator's whenever a model plays (each episode's words kept, so that shards merge).
      bleu: isModel(agentName) || isModel(customerName),
      onResult: (e, i, words) => {
        const transcript = o.transcripts ? JSON.stringify({ episode: i, dialogue: e.dialogue.map((t) => `${t.speaker === 'user' ? 'customer' : 'agent'}: ${t.text}`), action: e.action, expected: e.context.expected, score: e.score, truncated: e.truncated }) : undefined;
        items.push({ k: i, score: e.score, ...(transcript !== undefined ? { transcript } : {}), ...(words ? { words } : {}) });
      },
    });
  } else {
    agentPolicies.get(agentName);
    customerPolicies.get(customerName);
    selfPlay({ ...common, agent: agentName, customer: customerName, ood: ood === 2, onResult: (e, i) => items.push({ k: i, score: e.score }) });
  }
  return { run: 'airdialogue selfplay', options: o, ...(shard ? { shard } : {}), total: o.episodes, items, meta: {}, info: {} };
}

/** Writes the transcripts and scores every episode, in order (BLEU over every episode's words when a model played). */
async function selfplayFinish(p: RunParts<AirSelfplayOptions>): Promise<AirSelfplayResult> {
  if (p.options.transcripts) {
    // a line at a time: the transcripts of a long run do not fit in one string
    const w = new AtomicFileWriter(p.options.transcripts);
    for (const it of p.items) w.write(`${it['transcript'] as string}\n`);
    w.commit();
  }
  const words = p.items.map((it) => it['words'] as EpisodeWords | undefined).filter((w) => w !== undefined);
  const bleu = words.length > 0 ? (await import('../testbeds/airdialogue/learned/policy.js')).selfPlayBleu(words) : undefined;
  return { ...meanScores(p.items), ...(bleu ? { bleu } : {}) };
}

/**
 * The `airdialogue selfplay` run: an agent policy or learned model against a customer policy or
 * model over seeded episodes, scored by the official scorer (the same scores for any sharding);
 * `part` / `finish` split the episodes into shards and put them together. Errors: a ConfigError
 * for an unknown policy, a ModelFileError for a bad model file.
 *
 * @example
 * ```ts
 * import { airSelfplayRun } from 'dialogym';
 * const r = await airSelfplayRun.run({ episodes: 200, seed: 1, ood: 2 });
 * console.log(r.total, r.exact.total);
 * ```
 */
export const airSelfplayRun: RunDefinition<AirSelfplayOptions, AirSelfplayResult, AirRunHooks> = defineRun<AirSelfplayOptions, AirSelfplayResult, AirRunHooks>({
  id: 'airdialogue selfplay',
  schema: 'run-airdialogue-selfplay',
  part: selfplayPart,
  finish: selfplayFinish,
});
