/** What the generate verbs share: their progress, their report line, their required flags. */
import cliProgress from 'cli-progress';
import { ConfigError } from '../../core/errors.js';
import type { GenerateHooks, GenerateResult } from '../../testbeds/restaurant/runs/generate.js';
import { out } from '../run.js';

/** When the run began (the verb's progress starts it; `merge` times its own finish). */
let started = Date.now();

/**
 * The progress of a generate run on stderr: on a terminal a bar of the `unit`s made with the file
 * being written, else a line per file finished (`task 1 trn: 1000 dialogs`).
 */
export function generateProgress(unit: 'dialogs' | 'entries'): { hooks: GenerateHooks; stop(): void } {
  started = Date.now();
  const tty = process.stderr.isTTY === true;
  const bar = tty ? new cliProgress.SingleBar({ format: `generate {bar} {value}/{total} ${unit} | {label}`, stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
  let done = 0;
  return {
    hooks: {
      onStart: (total) => bar?.start(total, 0, { label: '' }),
      onItem: ({ task, split, done: d, total: t }) => {
        done++;
        if (bar) {
          if (d === t || done % 200 === 0) bar.update(done, { label: `task ${task} ${split}` });
        } else if (d === t) process.stderr.write(`task ${task} ${split}: ${t} ${unit}\n`);
      },
    },
    stop: () => bar?.stop(),
  };
}

/** `wrote N files (D dialogs) to dir in S s`. */
export function printGenerated(r: GenerateResult, unit: 'dialogs' | 'entries'): void {
  out(`wrote ${r.files.length} files (${r.dialogs} ${unit}) to ${r.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** `--task 1…5|all` as task numbers. */
export function parseTask(v: string): number[] {
  if (v === 'all') return [1, 2, 3, 4, 5];
  if (/^[1-5]$/.test(v)) return [Number(v)];
  throw new ConfigError(`--task: expected 1, 2, 3, 4, 5 or all, got '${v}'`);
}

/** The flags every generate verb requires: `--task` and `--out`. */
export function requiredTaskAndOut(flags: { task?: string; out?: string }, set?: () => void): { tasks: number[]; out: string } {
  if (flags.task === undefined) throw new ConfigError('--task is required (1, 2, 3, 4, 5 or all)');
  const tasks = parseTask(flags.task);
  set?.();
  if (flags.out === undefined || flags.out.trim() === '') throw new ConfigError('--out is required');
  return { tasks, out: flags.out };
}
