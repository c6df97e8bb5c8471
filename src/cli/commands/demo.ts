/**
 * `dialogym demo`: a small end-to-end run — generate the restaurant tasks,
 * show their statistics and a dialog, evaluate the rule-based bot — printing each command it runs.
 */
import type { Command } from 'commander';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DialogymError } from '../../core/errors.js';
import { action, intFlag, out, outFolderFlag } from '../run.js';
import { SUMMARY } from './summaries.js';

const CLI = fileURLToPath(new URL('../index.js', import.meta.url));
const TASKS = ['task1-API-calls', 'task2-API-refine', 'task3-options', 'task4-phone-address', 'task5-full-dialogs'];

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(SUMMARY.demo)
    .option('--out <dir>', 'where to write the generated data (default: a new temporary folder)', outFolderFlag('--out'))
    .option('--seed <n>', 'random seed', intFlag('--seed', 0), 1)
    .option('--dialogs <n>', 'dialogs per split', intFlag('--dialogs', 1, 100000), 200)
    .action(
      action((o: { out?: string; seed: number; dialogs: number }) => {
        const dir = o.out ?? mkdtempSync(join(tmpdir(), 'dialogym-demo-'));
        const file = (t: string, s: string): string => join(dir, `dialog-babi-${t}-${s}.txt`);
        run(['generate', 'restaurant', '--task', 'all', '--seed', String(o.seed), '--out', dir, '--dialogs', String(o.dialogs)]);
        run(['stats', ...TASKS.map((t) => file(t, 'trn'))]);
        run(['walk', file('task5-full-dialogs', 'tst-OOV'), '--dialog', '1']);
        for (const t of TASKS) for (const s of ['tst', 'tst-OOV']) run(['eval', '--model', 'rules', '--data', file(t, s)]);
        out(`\nThe generated files are in ${dir}. Next: \`dialogym --help\`.`);
      }),
    );
}

function run(args: string[]): void {
  out(`\n$ dialogym ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [CLI, ...args], { stdio: 'inherit' });
  if (r.status !== 0) throw new DialogymError(`demo step failed: dialogym ${args.join(' ')} (exit ${r.status ?? r.signal})`);
}
