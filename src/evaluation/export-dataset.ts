/**
 * Played episodes as their testbed's dataset: `exportDataset(transcripts, out)` reads `evaluate
 * --transcripts` lines (or a study report's `transcripts.jsonl`) and hands them to the dataset hook
 * the environment's family declared when it registered (`EnvFamily.dataset`: bAbI dialog text,
 * DSTC6 JSON, AirDialogue JSON lines, …). Nothing here knows a testbed: the exporter is looked up
 * by the records' env id.
 */
import { FormatError } from '../core/errors.js';
import { readLines } from '../core/files.js';
import { envDataset, envs, type DatasetWritten, type RecordedEpisode } from '../env/env.js';

/**
 * Options of `exportDataset`.
 *
 * @example
 * ```ts
 * import type { ExportDatasetOptions } from 'dialogym';
 * const o: ExportDatasetOptions = { env: 'restaurant-task5-v2', successOnly: true };
 * ```
 */
export interface ExportDatasetOptions {
  /** Export only the records of this environment (a file may hold several); default: the file's one environment. */
  readonly env?: string;
  /** Leave out the episodes that failed (they are counted in `skipped`); default false: every episode. */
  readonly successOnly?: boolean;
}

/**
 * What `exportDataset` did: the environment and its dataset format, the files written, the
 * dialogs in them, and the episodes left out with the reason (`t.jsonl:4: failed (wrong-call)`).
 *
 * @example
 * ```ts
 * import { exportDataset, type ExportDatasetResult } from 'dialogym';
 * const r: ExportDatasetResult = exportDataset('t.jsonl', 'collected');
 * console.log(r.format, r.dialogs, r.files);
 * ```
 */
export interface ExportDatasetResult extends DatasetWritten {
  readonly env: string;
  readonly format: string;
}

/**
 * The records of a file hold several environments and no `env` option chose one: `envs` lists
 * them with the line of their first record.
 *
 * @example
 * ```ts
 * import { exportDataset, MixedEnvsError } from 'dialogym';
 * try { exportDataset('all.jsonl', 'out'); } catch (e) { if (e instanceof MixedEnvsError) console.log(e.envs); }
 * ```
 */
export class MixedEnvsError extends FormatError {
  readonly envs: readonly string[];
  constructor(file: string, line: number, envIds: readonly string[], reason: string) {
    super(file, line, reason);
    this.envs = envIds;
  }
}

/**
 * One record with where it was read: `where` is `file:line`, `line` the line.
 *
 * @example
 * ```ts
 * import { readPlayedEpisodes, type PlacedEpisode } from 'dialogym';
 * const [first]: PlacedEpisode[] = readPlayedEpisodes('t.jsonl');
 * console.log(first?.where, first?.episode.env);
 * ```
 */
export interface PlacedEpisode {
  readonly where: string;
  readonly line: number;
  readonly episode: RecordedEpisode;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The first field of a transcript line that is missing or of the wrong type, or undefined. */
function recordIssue(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'expected a JSON object (an evaluate --transcripts line)';
  const r = v as Record<string, unknown>;
  if (typeof r['env'] !== 'string' || r['env'] === '') return '"env": expected the environment id (a string)';
  for (const k of ['episode', 'trial', 'seed'] as const) if (!isInt(r[k])) return `"${k}": expected an integer`;
  if (typeof r['success'] !== 'boolean') return '"success": expected true or false';
  if (typeof r['reward'] !== 'number') return '"reward": expected a number';
  if (!Array.isArray(r['actions'])) return '"actions": expected an array';
  if (!('observation' in r)) return '"observation": missing (the episode\'s last observation)';
  return undefined;
}

/**
 * Reads a transcripts file (one `evaluate --transcripts` record per line; empty lines skipped),
 * each record with its place. A line that is not JSON or lacks a record's fields throws a
 * FormatError `file:line: reason`.
 *
 * @example
 * ```ts
 * import { readPlayedEpisodes } from 'dialogym';
 * for (const { where, episode } of readPlayedEpisodes('t.jsonl')) console.log(where, episode.success);
 * ```
 */
export function readPlayedEpisodes(file: string): PlacedEpisode[] {
  const out: PlacedEpisode[] = [];
  for (const { text, line } of readLines(file)) {
    if (text.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new FormatError(file, line, `invalid JSON (${(e as Error).message})`);
    }
    const issue = recordIssue(v);
    if (issue !== undefined) throw new FormatError(file, line, issue);
    out.push({ where: `${file}:${line}`, line, episode: v as RecordedEpisode });
  }
  return out;
}

/**
 * Writes played episodes of one environment as its testbed's dataset into folder `out` (each
 * file atomically): `restaurant-*` as bAbI dialog text (a dialog file and its candidates file),
 * `dstc6-*` as DSTC6 JSON (entries with answers, and the answers file), `airdialogue-*` as
 * AirDialogue JSON lines (a data file and its aligned kb file), `infobot-*` as KB-InfoBot dialog
 * records (JSON lines, replayed from the episodes' seeds). `source` is a transcripts file or
 * the records themselves. Each fault is a one-line FormatError naming the place (`t.jsonl:7: …`):
 * records of several environments without `env` (a MixedEnvsError), an environment that is not
 * registered or whose testbed has no dataset format, a malformed record.
 *
 * @example
 * ```ts
 * import { evaluate, createAgent, exportDataset } from 'dialogym';
 * const { records } = await evaluate('restaurant-task5-v2', createAgent('rules'), { episodes: 20 });
 * const r = exportDataset(records, 'collected'); // collected/dialog-babi-task5-collected.txt, …
 * ```
 */
export function exportDataset(source: string | readonly RecordedEpisode[], out: string, o: ExportDatasetOptions = {}): ExportDatasetResult {
  const file = typeof source === 'string' ? source : '<records>';
  const all = typeof source === 'string' ? readPlayedEpisodes(source) : source.map((episode, i) => ({ where: `${file}:${i + 1}`, line: i + 1, episode }));
  if (all.length === 0) throw new FormatError(file, undefined, 'no records (a transcripts file of evaluate holds one JSON line per episode)');
  const firstOf = new Map<string, number>();
  for (const r of all) if (!firstOf.has(r.episode.env)) firstOf.set(r.episode.env, r.line);
  let env = o.env;
  if (env === undefined) {
    if (firstOf.size > 1) {
      const [a, b] = [...firstOf.entries()] as [[string, number], [string, number]];
      throw new MixedEnvsError(file, b[1], [...firstOf.keys()], `a record of ${b[0]} after records of ${a[0]} (line ${a[1]}): a dataset holds one environment's dialogs; export one of ${[...firstOf.keys()].join(', ')} at a time`);
    }
    env = all[0]!.episode.env;
  } else if (!firstOf.has(env)) {
    throw new FormatError(file, undefined, `no record of ${env} (the file holds ${[...firstOf.keys()].join(', ')})`);
  }
  const line = firstOf.get(env)!;
  if (!envs.has(env)) throw new FormatError(file, line, `unknown environment ${env}`);
  const dataset = envDataset(env);
  if (dataset === undefined) throw new FormatError(file, line, `${env} has no dataset format (its testbed declares no exporter)`);
  const chosen = all.filter((r) => r.episode.env === env);
  const kept = o.successOnly ? chosen.filter((r) => r.episode.success) : chosen;
  const failed = o.successOnly ? chosen.filter((r) => !r.episode.success).map((r) => `${r.where}: failed`) : [];
  const written = dataset.write(kept, out);
  return { env, format: dataset.format, files: written.files, dialogs: written.dialogs, skipped: [...failed, ...written.skipped] };
}
