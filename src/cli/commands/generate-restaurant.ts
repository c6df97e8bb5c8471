/** `dialogym generate restaurant`: regenerate the bAbI dialog tasks 1-5 with the simulator. */
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/files.js';
import { generateRestaurantDataset } from '../../testbeds/restaurant/dataset.js';
import { BABI_KB, readKb } from '../../testbeds/restaurant/kb-dialects.js';
import { TASKS, type TaskId } from '../../testbeds/restaurant/simulator.js';
import { action, intFlag, out } from '../run.js';

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
  gen
    .command('restaurant')
    .description('bAbI dialog tasks 1-5 (restaurant booking): dialog files, KB and candidates with the original names')
    .option('--task <task>', 'task to generate: 1, 2, 3, 4, 5 or all (required)')
    .option('--seed <n>', 'random seed (same seed, same files)', intFlag('--seed', 0), 1)
    .option('--out <dir>', 'output folder (required)')
    .option('--dialogs <n>', 'dialogs per split', intFlag('--dialogs', 1, 1_000_000), 1000)
    .option('--kb <file>', 'use this bAbI KB file (e.g. the original dialog-babi-kb-all.txt) instead of generating one (default: a KB generated from --seed)')
    .action(
      action((flags: Flags) => {
        if (flags.task === undefined) throw new ConfigError('--task is required (1, 2, 3, 4, 5 or all)');
        const tasks = parseTask(flags.task);
        if (flags.out === undefined || flags.out.trim() === '') throw new ConfigError('--out is required');
        const restaurants = flags.kb !== undefined ? readKb(flags.kb, BABI_KB).restaurants : undefined;
        const total = tasks.length * 4 * flags.dialogs;
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
        for (const f of files) writeFileAtomic(join(flags.out, f.name), f.text);
        out(`wrote ${files.length} files (${done} dialogs) to ${flags.out} in ${((Date.now() - start) / 1000).toFixed(1)} s`);
      }),
    );
}
