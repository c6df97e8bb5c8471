/**
 * Sharded runs: a deterministic split of a run's work items (dialogs, episodes, files, benchmark
 * cells) into `n` shards, and the shard file a shard writes so that `dialogym merge` can rebuild
 * exactly what the unsharded run writes.
 *
 * - A shard is written `i/n`, 0-based: 0 ≤ i < n (Kubernetes' JOB_COMPLETION_INDEX and a SLURM
 *   array `--array=0-(n-1)` give i directly).
 * - Item k (0-based, in the order the unsharded run produces them) belongs to shard k mod n.
 *   Items are seeded per item (or per file), so which shard computes an item never changes it.
 * - A shard file is JSON Lines: a header line `{"format":"dialogym-shard/2","run","options",
 *   "print","meta","shard":"i/n","total","items","info"}`, then one line per item of the shard
 *   `{"k":…, …payload}` in increasing k. `run` is the run's id (`eval`, `benchmark`, `infobot
 *   eval`, …: src/runs/), `options` its options that decide the output (merge refuses shards whose
 *   run, options, meta, n or total differ); `print` how the CLI prints the result (e.g. `json`) and
 *   `info` (timings) are per shard and not compared. The files of dialogym-shard/1 (`verb` and the
 *   verb's flags where `run` and `options` are now) are still read: `version` says which it is.
 *
 * Generic: no testbed, serve or CLI import.
 */
import { ConfigError, FormatError } from './errors.js';
import { readTextFile, writeFileAtomic } from './files.js';

/** One shard of a run: `index` of `count` (0 ≤ index < count). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Format tag of the first line of a shard file. */
export const SHARD_FORMAT = 'dialogym-shard/2';

/** The format of the first shard files (`verb` and the CLI's flags where /2 has `run` and its options), still read. */
export const SHARD_FORMAT_1 = 'dialogym-shard/1';

/** At most this many shards. */
export const MAX_SHARDS = 100_000;

/** Parses `i/n` (0-based, 0 ≤ i < n ≤ 100000); anything else is a one-line ConfigError naming `option` (the CLI says its flag, `--shard`). */
export function parseShard(v: string, option = 'shard'): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(v);
  if (!m) throw new ConfigError(`expected i/n with 0 ≤ i < n (0-based, e.g. 0/4 … 3/4), got '${v}'`, { option });
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new ConfigError(`${v}: n must be in [1, ${MAX_SHARDS}]`, { option });
  if (index >= count) throw new ConfigError(`${v}: i must be below n (shards are 0-based: 0/${count} … ${count - 1}/${count})`, { option });
  return { index, count };
}

/** `i/n`. */
export function shardLabel(s: Shard): string {
  return `${s.index}/${s.count}`;
}

/** Whether item `k` belongs to the shard (k mod n = i); every item belongs to the whole run (`undefined`). */
export function inShard(s: Shard | undefined, k: number): boolean {
  return s === undefined || k % s.count === s.index;
}

/** The items of `0 … total − 1` that belong to the shard, in order. */
export function shardItems(s: Shard | undefined, total: number): number[] {
  const out: number[] = [];
  for (let k = s === undefined ? 0 : s.index; k < total; k += s === undefined ? 1 : s.count) out.push(k);
  return out;
}

/** One item of a shard file: its index in the whole run and what the verb stores for it. */
export type ShardItem = { readonly k: number } & Record<string, unknown>;

/** The header line of a shard file. */
export interface ShardHeader {
  readonly format: typeof SHARD_FORMAT;
  /** The run's id, e.g. `eval`, `generate restaurant`, `airdialogue selfplay` (the verb as typed). */
  readonly run: string;
  /** The run's options that decide the output (compared across shards); in a dialogym-shard/1 file, the verb's flags. */
  readonly options: Record<string, unknown>;
  /** How the CLI prints the result (e.g. `{ json: true }`): not compared. */
  readonly print?: Record<string, unknown>;
  /** What the shard derived from them and the data (compared across shards). */
  readonly meta: Record<string, unknown>;
  readonly shard: string;
  /** Items of the whole run. */
  readonly total: number;
  /** Items in this file. */
  readonly items: number;
  /** Per-shard facts, not compared (e.g. timings). */
  readonly info: Record<string, unknown>;
}

/** What a shard writes, besides its items. */
export interface ShardWrite {
  readonly run: string;
  readonly options: Record<string, unknown>;
  readonly print?: Record<string, unknown>;
  readonly meta?: Record<string, unknown>;
  readonly shard: Shard;
  readonly total: number;
  readonly info?: Record<string, unknown>;
}

/** Writes a shard file atomically; `items` must be the shard's items in increasing `k`. */
export function writeShardFile(file: string, w: ShardWrite, items: readonly ShardItem[]): void {
  const header: ShardHeader = { format: SHARD_FORMAT, run: w.run, options: w.options, ...(w.print ? { print: w.print } : {}), meta: w.meta ?? {}, shard: shardLabel(w.shard), total: w.total, items: items.length, info: w.info ?? {} };
  const lines = [JSON.stringify(header)];
  for (const it of items) lines.push(JSON.stringify(it));
  writeFileAtomic(file, lines.join('\n') + '\n');
}

/** A shard file read back. */
export interface ShardFile {
  readonly file: string;
  readonly header: ShardHeader;
  /** 2, or 1 for a dialogym-shard/1 file (its `options` are the verb's flags; `header.run` is its verb). */
  readonly version: 1 | 2;
  readonly shard: Shard;
  readonly items: ShardItem[];
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Reads one shard file; a damaged or foreign file is a FormatError `file:line: reason`. */
export function readShardFile(file: string): ShardFile {
  const lines = readTextFile(file).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const parse = (i: number): unknown => {
    try {
      return JSON.parse(lines[i] as string) as unknown;
    } catch {
      throw new FormatError(file, i + 1, i === 0 ? `not a dialogym shard file (expected a JSON header line with "format":"${SHARD_FORMAT}")` : 'not a JSON line (a damaged shard file?)');
    }
  };
  if (lines.length === 0) throw new FormatError(file, undefined, 'empty file, not a dialogym shard file');
  const h = parse(0);
  if (!isObject(h) || (h['format'] !== SHARD_FORMAT && h['format'] !== SHARD_FORMAT_1)) throw new FormatError(file, 1, `not a dialogym shard file (expected "format":"${SHARD_FORMAT}")`);
  const version = h['format'] === SHARD_FORMAT ? 2 : 1;
  const id = version === 2 ? 'run' : 'verb';
  if (typeof h[id] !== 'string' || !isObject(h['options']) || !isObject(h['meta']) || !isObject(h['info']) || typeof h['shard'] !== 'string' || !Number.isSafeInteger(h['total']) || !Number.isSafeInteger(h['items']) || (h['print'] !== undefined && !isObject(h['print']))) {
    throw new FormatError(file, 1, `shard header lacks ${id}, options, meta, info, shard, total or items`);
  }
  const header = (version === 2 ? h : { ...h, run: h['verb'] }) as unknown as ShardHeader;
  let shard: Shard;
  try {
    shard = parseShard(header.shard, 'shard');
  } catch (e) {
    throw new FormatError(file, 1, (e as Error).message);
  }
  const items: ShardItem[] = [];
  let expect = shard.index;
  for (let i = 1; i < lines.length; i++) {
    const it = parse(i);
    if (!isObject(it) || it['k'] !== expect) throw new FormatError(file, i + 1, `expected item k = ${expect} of shard ${header.shard}`);
    if (expect >= header.total) throw new FormatError(file, i + 1, `item ${expect} beyond the run's ${header.total} items`);
    items.push(it as ShardItem);
    expect += shard.count;
  }
  const want = shardItems(shard, header.total).length;
  if (items.length !== header.items || items.length !== want) {
    throw new FormatError(file, lines.length, `shard ${header.shard} of ${header.total} items should hold ${want} items, the file has ${items.length} (truncated?)`);
  }
  return { file, header, version, shard, items };
}

/** Canonical JSON (object keys sorted), to compare options whatever order they were recorded in. */
function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (isObject(x)) {
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(x) ?? 'null';
}

/** What the differing key of two records is, for the error message. */
function firstDifference(a: Record<string, unknown>, b: Record<string, unknown>): string {
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (canonical(a[k]) !== canonical(b[k])) return `${k}: ${canonical(a[k])} vs ${canonical(b[k])}`;
  }
  return '?';
}

/**
 * Checks that `files` are the n shards of one run (same verb, options, meta, n and total; every
 * index 0 … n − 1 exactly once) and returns the items of the whole run, in order, with the first
 * shard's header. A mismatch or a missing shard is a one-line ConfigError naming the files.
 */
export function combineShards(files: readonly ShardFile[]): { header: ShardHeader; version: 1 | 2; items: ShardItem[]; infos: Record<string, unknown>[] } {
  const first = files[0];
  if (first === undefined) throw new ConfigError('no shard file given');
  const n = first.shard.count;
  const byIndex = new Map<number, ShardFile>();
  for (const f of files) {
    const h = f.header;
    if (h.run !== first.header.run) throw new ConfigError(`${f.file}: shard of \`${h.run}\`, but ${first.file} is a shard of \`${first.header.run}\``);
    if (f.version !== first.version) throw new ConfigError(`${f.file}: a ${f.version === 1 ? SHARD_FORMAT_1 : SHARD_FORMAT} file, but ${first.file} is a ${first.version === 1 ? SHARD_FORMAT_1 : SHARD_FORMAT} one: make every shard of a run with the same dialogym`);
    if (canonical(h.options) !== canonical(first.header.options)) throw new ConfigError(`${f.file}: not the same run as ${first.file} (option ${firstDifference(first.header.options, h.options)})`);
    if (f.shard.count !== n) throw new ConfigError(`${f.file}: shard ${h.shard}, but ${first.file} is shard ${first.header.shard} (different n)`);
    if (h.total !== first.header.total) throw new ConfigError(`${f.file}: a run of ${h.total} items, but ${first.file} is one of ${first.header.total}`);
    if (canonical(h.meta) !== canonical(first.header.meta)) throw new ConfigError(`${f.file}: not the same run as ${first.file} (${firstDifference(first.header.meta, h.meta)})`);
    const dup = byIndex.get(f.shard.index);
    if (dup) throw new ConfigError(`shard ${h.shard} given twice: ${dup.file} and ${f.file}`);
    byIndex.set(f.shard.index, f);
  }
  const missing: string[] = [];
  for (let i = 0; i < n; i++) if (!byIndex.has(i)) missing.push(`${i}/${n}`);
  if (missing.length > 0) throw new ConfigError(`missing shard${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''} of \`${first.header.run}\` (have ${[...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${n}`).join(', ')})`);
  const items: ShardItem[] = new Array<ShardItem>(first.header.total);
  for (const f of byIndex.values()) for (const it of f.items) items[it.k] = it;
  const infos = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, f]) => f.header.info);
  return { header: first.header, version: first.version, items, infos };
}
