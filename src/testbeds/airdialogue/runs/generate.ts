/**
 * The `airdialogue generate` run: the templated simulator's dialogs written as the original
 * data.json + kb.json, with the rule agent's score (and what the AirDialogue runs share: their
 * hooks, the mean of the episodes' scores, a progress counter). `dialogym airdialogue generate` is
 * its CLI; a library user calls `airGenerateRun.run(options)`.
 */
import { join } from 'node:path';
import { inShard, shardItems, type Shard, type ShardItem } from '../../../core/shard.js';
import { writeAirLines, type DataLine, type KbLine } from '../../../formats/airdialogue.js';
import { defineRun, type RunDefinition, type RunPart, type RunParts } from '../../../runs/run.js';
import { addScore, emptyScoreSum, scoreReport, simulateDialogs, type Score, type ScoreReport } from '../index.js';

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

/** The mean of the episodes' scores (both runs), added in episode order (as `selfPlay` does). */
export function meanScores(items: readonly ShardItem[]): ScoreReport {
  return scoreReport(items.reduce((sum, it) => addScore(sum, it['score'] as Score), emptyScoreSum()));
}

/** Progress of a part (both runs): `done` of its items, counted as they come. */
export function counter(total: number, hooks: AirRunHooks): () => void {
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

