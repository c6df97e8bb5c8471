/** `dialogym generate dstc6`: DSTC6 Track 1 dataset files (training or test sets) from the simulator. */
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { ConfigError } from '../../core/errors.js';
import { writeFolder } from '../../core/files.js';
import { DSTC6_KB, readKb } from '../../testbeds/restaurant/kb-dialects.js';
import { DSTC6_SETS, SET_SPECS, dstc6SetFiles, generateDstc6Sets, type DatasetOptions, type Dstc6Set, type GeneratedSet } from '../../testbeds/dstc6/sim-dataset.js';
import type { Dstc6Entry, Dstc6Result } from '../../formats/dstc6.js';
import { inShard, shardItems, type ShardItem } from '../../core/shard.js';
import { shardOf, shardOptions, writeShard, wholeRun, type MergedRun, type ShardFlags } from '../shard.js';
import { DSTC6_TASKS, type Dstc6Task } from '../../testbeds/dstc6/sim-dialog.js';
import { action, alias, inputFlag, intFlag, out, outFolderFlag } from '../run.js';

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
  const cmd = gen
    .command('dstc6')
    .description('DSTC6 Track 1 (extended restaurant KB, ranking entries): dataset files named like the originals, answers for test sets')
    .option('--task <task>', 'task: 1 (API), 2 (REFINE), 3 (OPTIONS), 4 (INFOS), 5 (FULL) or all (required)')
    .option('--set <set>', 'trn (KB 1, atmosphere), tst1 (KB 1), tst2 (KB 2, OOV), tst3 (KB 1 + restrictions), tst4 (KB 2 + restrictions) (required)')
    .option('--seed <n>', 'random seed (same seed, same files)', intFlag('--seed', 0), 1)
    .option('--out <dir>', 'output folder (required)', outFolderFlag('--out'))
    .option('--dialogs <n>', `dialogs (entries) per file (default: ${SET_SPECS.trn.examples} for trn, ${SET_SPECS.tst1.examples} for tst sets)`, intFlag('--dialogs', 1, 10_000_000))
    .addOption(alias('--examples <n>', 'dialogs', intFlag('--examples', 1, 10_000_000)))
    .option('--kb <file>', 'use this extended KB (e.g. the real extendedkb1.txt / extendedkb2.txt) instead of generating one (default: a KB generated from --seed)', inputFlag('--kb'));
  shardOptions(cmd).action(
    action((flags: Flags & ShardFlags) => {
      const shard = shardOf(flags);
      const opts = datasetOptions(flags);
      const perFile = flags.dialogs ?? SET_SPECS[opts.set].examples;
      // The items of a sharded run are the entries (task position × entries per file + entry): each entry has its own stream.
      const total = opts.tasks.length * perFile;
      const mine = shardItems(shard, total);
      const tty = process.stderr.isTTY === true;
      const bar = tty ? new cliProgress.SingleBar({ format: 'generate {bar} {value}/{total} entries | {label}', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
      bar?.start(mine.length, 0, { label: '' });
      let done = 0;
      const start = Date.now();
      const sets = generateDstc6Sets({
        ...opts,
        include: (k) => inShard(shard, k),
        onProgress: ({ task, done: d, total: t }) => {
          done++;
          if (bar) {
            if (d === t || done % 200 === 0) bar.update(done, { label: `task ${task} ${opts.set}` });
          } else if (d === t) {
            process.stderr.write(`task ${task} ${opts.set}: ${t} entries\n`);
          }
        },
      });
      bar?.stop();
      const flat = sets.flatMap((s) => s.entries.map((entry, j) => ({ entry, answer: s.answers[j] })));
      const items = flat.map((x, j) => ({ k: mine[j] as number, entry: x.entry, answer: x.answer }));
      if (shard) writeShard(flags, 'generate dstc6', total, items, { perFile });
      else finishGenerateDstc6(wholeRun(flags, items, { perFile }), start);
    }),
  );
}

function datasetOptions(flags: Flags): DatasetOptions {
  if (flags.task === undefined) throw new ConfigError('--task is required (1, 2, 3, 4, 5 or all)');
  const tasks = parseTask(flags.task);
  if (flags.set === undefined) throw new ConfigError(`--set is required (${DSTC6_SETS.join(', ')})`);
  const set = parseSet(flags.set);
  if (flags.out === undefined || flags.out.trim() === '') throw new ConfigError('--out is required');
  const restaurants = flags.kb !== undefined ? readKb(flags.kb, DSTC6_KB).restaurants : undefined;
  return { seed: flags.seed, tasks, set, ...(flags.dialogs !== undefined ? { examples: flags.dialogs } : {}), ...(restaurants ? { restaurants } : {}) };
}

/** Writes the files of a whole run (unsharded, or merged from its shards). */
export function finishGenerateDstc6(run: MergedRun, start = Date.now()): void {
  const flags = run.options as unknown as Flags;
  const opts = datasetOptions(flags);
  const perFile = run.meta['perFile'] as number;
  const sets: GeneratedSet[] = opts.tasks.map(() => ({ entries: [], answers: [] }));
  for (const it of run.items as readonly (ShardItem & { entry: Dstc6Entry; answer: Dstc6Result })[]) {
    const s = sets[Math.floor(it.k / perFile)] as GeneratedSet;
    s.entries.push(it.entry);
    s.answers.push(it.answer);
  }
  const files = dstc6SetFiles(opts, sets);
  writeFolder(flags.out as string, 'dialogym generate dstc6', files.map((f) => ({ name: f.name, data: f.text }))); // all files or none (core/files.ts StagedFolder)
  out(`wrote ${files.length} files (${run.items.length} entries) to ${flags.out} in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}
