/** `dialogym compare restaurant <generated-dir> <original-dir>`: how faithful generated bAbI data is. */
import type { Command } from 'commander';
import { compareWithOriginal, formatComparison } from '../../domains/restaurant/delex.js';
import { action, out } from '../run.js';

export function registerCompare(program: Command): void {
  const cmp = program.command('compare').description('compare generated data with the original files');
  cmp
    .command('restaurant')
    .description('bAbI tasks 1-5: per-dialog lines / bot turns / KB lines per split, bot templates, user-utterance coverage and precision')
    .argument('<generated-dir>', 'folder written by `dialogym generate restaurant`')
    .argument('<original-dir>', 'folder with the original dialog-babi-task*.txt files')
    .option('--json', 'print the whole comparison as JSON')
    .option('--skip-missing', 'compare only the files present in <generated-dir>')
    .action(
      action((gen: string, orig: string, o: { json?: boolean; skipMissing?: boolean }) => {
        const c = compareWithOriginal(gen, orig, { skipMissing: o.skipMissing === true });
        if (o.json) out(JSON.stringify(c));
        else for (const l of formatComparison(c)) out(l);
      }),
    );
}
