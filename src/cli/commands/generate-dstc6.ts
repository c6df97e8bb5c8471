/** `dialogym generate dstc6`: DSTC6 Track 1 dataset files (training or test sets) from the simulator. */
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/files.js';
import { DSTC6_KB, readKb } from '../../testbeds/restaurant/kb-dialects.js';
import { DSTC6_SETS, SET_SPECS, generateDstc6Files, type Dstc6Set } from '../../testbeds/dstc6/sim-dataset.js';
import { DSTC6_TASKS, type Dstc6Task } from '../../testbeds/dstc6/sim-dialog.js';
import { action, alias, intFlag, out } from '../run.js';

interface Flags {
  task?: string;
  set?: string;
  seed: number;
  out?: string;
  dialogs?: number;
  kb?: string;
}

function parseTask(v: string): Dstc6Task[] {
  if (v === 'all') return DSTC6_TASKS.slice();
  if (/^[1-5]$/.test(v)) return [Number(v) as Dstc6Task];
  throw new ConfigError(`--task: expected 1, 2, 3, 4, 5 or all, got '${v}'`);
}

function parseSet(v: string): Dstc6Set {
  if ((DSTC6_SETS as readonly string[]).includes(v)) return v as Dstc6Set;
  throw new ConfigError(`--set: expected one of ${DSTC6_SETS.join(', ')}, got '${v}'`);
}

export function registerGenerateDstc6(gen: Command): void {
  gen
    .command('dstc6')
    .description('DSTC6 Track 1 (extended restaurant KB, ranking entries): dataset files named like the originals, answers for test sets')
    .option('--task <task>', 'task: 1 (API), 2 (REFINE), 3 (OPTIONS), 4 (INFOS), 5 (FULL) or all (required)')
    .option('--set <set>', 'trn (KB 1, atmosphere), tst1 (KB 1), tst2 (KB 2, OOV), tst3 (KB 1 + restrictions), tst4 (KB 2 + restrictions) (required)')
    .option('--seed <n>', 'random seed (same seed, same files)', intFlag('--seed', 0), 1)
    .option('--out <dir>', 'output folder (required)')
    .option('--dialogs <n>', 'dialogs (entries) per file (default: 10000 for trn, 1000 for tst sets)', intFlag('--dialogs', 1, 10_000_000))
    .addOption(alias('--examples <n>', 'dialogs', intFlag('--examples', 1, 10_000_000)))
    .option('--kb <file>', 'use this extended KB (e.g. the real extendedkb1.txt / extendedkb2.txt) instead of generating one (default: a KB generated from --seed)')
    .action(
      action((flags: Flags) => {
        if (flags.task === undefined) throw new ConfigError('--task is required (1, 2, 3, 4, 5 or all)');
        const tasks = parseTask(flags.task);
        if (flags.set === undefined) throw new ConfigError(`--set is required (${DSTC6_SETS.join(', ')})`);
        const set = parseSet(flags.set);
        if (flags.out === undefined || flags.out.trim() === '') throw new ConfigError('--out is required');
        const restaurants = flags.kb !== undefined ? readKb(flags.kb, DSTC6_KB).restaurants : undefined;
        const perFile = flags.dialogs ?? SET_SPECS[set].examples;
        const total = tasks.length * perFile;
        const tty = process.stderr.isTTY === true;
        const bar = tty ? new cliProgress.SingleBar({ format: 'generate {bar} {value}/{total} entries | {label}', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
        bar?.start(total, 0, { label: '' });
        let done = 0;
        const start = Date.now();
        const files = generateDstc6Files({
          seed: flags.seed,
          tasks,
          set,
          ...(flags.dialogs !== undefined ? { examples: flags.dialogs } : {}),
          ...(restaurants ? { restaurants } : {}),
          onProgress: ({ task, done: d, total: t }) => {
            done++;
            if (bar) {
              if (d === t || done % 200 === 0) bar.update(done, { label: `task ${task} ${set}` });
            } else if (d === t) {
              process.stderr.write(`task ${task} ${set}: ${t} entries\n`);
            }
          },
        });
        bar?.stop();
        for (const f of files) writeFileAtomic(join(flags.out, f.name), f.text);
        out(`wrote ${files.length} files (${done} entries) to ${flags.out} in ${((Date.now() - start) / 1000).toFixed(1)} s`);
      }),
    );
}
