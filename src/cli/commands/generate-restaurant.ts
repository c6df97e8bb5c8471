/** `dialogym generate restaurant`: regenerate the bAbI dialog tasks 1-5 with the simulator. */
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { ConfigError } from '../../core/errors.js';
import { writeFolder } from '../../core/files.js';
import { generateRestaurantDataset } from '../../testbeds/restaurant/dataset.js';
import { BABI_KB, readKb } from '../../testbeds/restaurant/kb-dialects.js';
import { TASKS, type TaskId } from '../../testbeds/restaurant/simulator.js';
import { action, inputFlag, intFlag, out, outFolderFlag } from '../run.js';
import { inShard, shardItems, type ShardItem } from '../../core/shard.js';
import { shardOf, shardOptions, writeShard, wholeRun, type MergedRun, type ShardFlags } from '../shard.js';

interface Flags {
  task?: string;
  seed: number;
  out?: string;
  dialogs: number;
  kb?: string;
}

function parseTask(v: string): TaskId[] {
  if (v === 'all') return TASKS.slice();
  if (/^[1-5]$/.test(v)) return [Number(v) as TaskId];
  throw new ConfigError(`--task: expected 1, 2, 3, 4, 5 or all, got '${v}'`);
}

export function registerGenerateRestaurant(gen: Command): void {
  const cmd = gen
    .command('restaurant')
    .description('bAbI dialog tasks 1-5 (restaurant booking): dialog files, KB and candidates with the original names')
    .option('--task <task>', 'task to generate: 1, 2, 3, 4, 5 or all (required)')
    .option('--seed <n>', 'random seed (same seed, same files)', intFlag('--seed', 0), 1)
    .option('--out <dir>', 'output folder (required)', outFolderFlag('--out'))
    .option('--dialogs <n>', 'dialogs per split', intFlag('--dialogs', 1, 1_000_000), 1000)
    .option('--kb <file>', 'use this bAbI KB file (e.g. the original dialog-babi-kb-all.txt) instead of generating one (default: a KB generated from --seed)', inputFlag('--kb'));
  shardOptions(cmd).action(
    action((flags: Flags & ShardFlags) => {
      const shard = shardOf(flags);
      if (flags.task === undefined) throw new ConfigError('--task is required (1, 2, 3, 4, 5 or all)');
      const tasks = parseTask(flags.task);
      if (flags.out === undefined || flags.out.trim() === '') throw new ConfigError('--out is required');
      const restaurants = flags.kb !== undefined ? readKb(flags.kb, BABI_KB).restaurants : undefined;
      // The items of a sharded run are the files (4 per task, then the KB and the candidates): each split has its own stream.
      const fileCount = tasks.length * 4 + 2;
      const dialogFiles = shardItems(shard, fileCount).filter((k) => k < tasks.length * 4).length;
      const total = dialogFiles * flags.dialogs;
      const tty = process.stderr.isTTY === true;
      const bar = tty ? new cliProgress.SingleBar({ format: 'generate {bar} {value}/{total} dialogs | {label}', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
      bar?.start(total, 0, { label: '' });
      let done = 0;
      const start = Date.now();
      const files = generateRestaurantDataset({
        seed: flags.seed,
        tasks,
        dialogs: flags.dialogs,
        ...(restaurants ? { restaurants } : {}),
        files: (k) => inShard(shard, k),
        onProgress: ({ task, split, done: d, total: t }) => {
          done++;
          if (bar) {
            if (d === t || done % 200 === 0) bar.update(done, { label: `task ${task} ${split}` });
          } else if (d === t) {
            process.stderr.write(`task ${task} ${split}: ${t} dialogs\n`);
          }
        },
      });
      bar?.stop();
      const items = files.map((f, j) => ({ k: shardItems(shard, fileCount)[j] as number, name: f.name, text: f.text }));
      if (shard) writeShard(flags, 'generate restaurant', fileCount, items);
      else finishGenerateRestaurant(wholeRun(flags, items), start);
    }),
  );
}

/** Writes the files of a whole run (unsharded, or merged from its shards). */
export function finishGenerateRestaurant(run: MergedRun, start = Date.now()): void {
  const dir = run.options['out'] as string;
  const items = run.items as readonly (ShardItem & { name: string; text: string })[];
  // All files or none: a run killed while writing leaves the folder as it was, or refused by its readers (core/files.ts StagedFolder).
  writeFolder(dir, 'dialogym generate restaurant', items.map((f) => ({ name: f.name, data: f.text })));
  const dialogs = items.reduce((n, f) => n + (f.name.startsWith('dialog-babi-task') ? (f.text.match(/^1 /gm)?.length ?? 0) : 0), 0);
  out(`wrote ${items.length} files (${dialogs} dialogs) to ${dir} in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}
