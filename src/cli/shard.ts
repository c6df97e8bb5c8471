/**
 * `--shard i/n --shard-out FILE` of the shardable verbs, each a library run (`VerbRun`). A verb
 * computes the items of its shard (or all of them), then either writes them to a shard file or
 * finishes: the unsharded run and `merge` call the run's same finish with the same items, so they
 * write the same bytes (see core/shard.ts for the split and the file).
 */
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.js';
import { parseShard, shardLabel, writeShardFile, type Shard } from '../core/shard.js';
import { wholeParts, type RunDefinition, type RunPart } from '../runs/run.js';
import type { Progress } from './progress.js';
import { out, outFileFlag } from './run.js';

/** The two flags, as commander gives them. */
export interface ShardFlags {
  shard?: Shard;
  shardOut?: string;
}

/** Adds `--shard` and `--shard-out` to a verb. */
export function shardOptions(cmd: Command): Command {
  return cmd
    .option('--shard <i/n>', 'compute only shard i of n (0-based: 0/n … n-1/n; item k goes to shard k mod n) and write it to --shard-out; `dialogym merge` combines the n shard files (default: none, the whole run)', (v: string) => parseShard(v))
    .option('--shard-out <file>', 'shard file to write with --shard, e.g. shards/3.shard (required with --shard)', outFileFlag('--shard-out'));
}

/** The shard of a run (undefined: the whole run); `--shard` and `--shard-out` go together. */
export function shardOf(o: ShardFlags): Shard | undefined {
  if (o.shard === undefined && o.shardOut === undefined) return undefined;
  if (o.shard === undefined) throw new ConfigError('--shard-out needs --shard i/n');
  if (o.shardOut === undefined || o.shardOut.trim() === '') throw new ConfigError(`--shard ${shardLabel(o.shard)} needs --shard-out <file> (where the shard is written)`);
  return o.shard;
}

function said(shard: Shard, run: string, items: number, total: number, file: string): void {
  out(`wrote shard ${shardLabel(shard)} of \`${run}\` (${items} of ${total} items) to ${file}`);
}

/**
 * Writes the shard file of a library run's part (`{ run, options }`: the options the run records)
 * and says so on stdout; `print` is how the verb prints the result (e.g. `{ json: true }`), for `merge`.
 */
export function writeRunShard<O>(o: ShardFlags, run: RunDefinition<O, unknown, never>, part: RunPart<O>, print?: Record<string, unknown>): void {
  const shard = o.shard as Shard;
  const file = o.shardOut as string;
  writeShardFile(file, { run: run.id, options: run.recorded(part.options), ...(print && Object.keys(print).length > 0 ? { print } : {}), shard, total: part.total, meta: part.meta, info: part.info }, part.items);
  said(shard, run.id, part.items.length, part.total, file);
}

/**
 * A verb that is a library run (`defineRun`, src/runs/run.ts; `evaluate` in src/runs/, the testbeds' in src/testbeds/<t>/runs/): its flags read as the run's options and print settings
 * (also for a shard file of dialogym-shard/1, which recorded the flags), its progress bar and its
 * printer. `runVerb` runs it; `merge` prints a merged run with it.
 */
export interface VerbRun<O = unknown, R = unknown> {
  readonly run: RunDefinition<O, R, never>;
  fromFlags(flags: Record<string, unknown>): { options: O; print?: Record<string, unknown> };
  print(result: R, print: Record<string, unknown>): void;
  /** The progress bar of a part of `total` items (default: none). */
  progress?(total: number, options: O, print: Record<string, unknown>): Progress;
  /** Hooks of the run besides its progress (e.g. warnings). */
  readonly hooks?: object;
  /** Progress of its own (hooks made for this run, stopped before the result is printed), instead of `progress`. */
  live?(): { hooks: object; stop(): void };
  /** Whether a shard file's options are the verb's flags (a shard of the verb from before it was a library run), read with `fromFlags`; dialogym-shard/1 files always are. */
  recordsFlags?(options: Record<string, unknown>): boolean;
}

/**
 * A verb's action: its flags as the run's options, the run's part (the shard's, or the whole run's)
 * with a progress bar, then the shard file, or the run's finish and the verb's printer.
 */
export async function runVerb<O, R>(flags: ShardFlags & object, v: VerbRun<O, R>): Promise<void> {
  const shard = shardOf(flags);
  const { options, print = {} } = v.fromFlags(flags as Record<string, unknown>);
  const run = v.run as unknown as RunDefinition<O, R, { onProgress?(done: number, total: number): void }>;
  const checked = run.checkOptions(options);
  let bar: Progress | undefined;
  const onProgress = (done: number, total: number): void => {
    bar ??= v.progress?.(total, checked, print);
    bar?.update(done);
  };
  const live = v.live?.();
  let part;
  try {
    part = await run.part(checked, shard, { ...v.hooks, ...live?.hooks, onProgress });
  } finally {
    bar?.stop();
    live?.stop();
  }
  if (shard) writeRunShard(flags, run, part, print);
  else v.print(await run.finish(wholeParts(part)), print);
}
