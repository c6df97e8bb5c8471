/**
 * The `airdialogue selfplay` run: an agent policy or learned model against a customer policy or
 * model in `airdialogue-v1`, scored by the official scorer, with BLEU when a model plays.
 * `dialogym airdialogue selfplay` is its CLI; a library user calls `airSelfplayRun.run(options)`.
 */
import { AtomicFileWriter } from '../../../core/files.js';
import { inShard, shardItems, type Shard, type ShardItem } from '../../../core/shard.js';
import { defineRun, type RunDefinition, type RunPart, type RunParts } from '../../../runs/run.js';
import { agentPolicies, customerPolicies, selfPlay, type ScoreReport } from '../index.js';
import type { EpisodeWords } from '../learned/policy.js';
import { counter, meanScores, type AirRunHooks } from './generate.js';

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
    const { loadAirModels } = await import('../learned/train.js');
    const { learnedAgent, learnedCustomer, learnedSelfPlay } = await import('../learned/policy.js');
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
  const bleu = words.length > 0 ? (await import('../learned/policy.js')).selfPlayBleu(words) : undefined;
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
