/**
 * `dialogym compare restaurant <generated-dir> <original-dir>` and `dialogym compare dstc6 …`: how
 * faithful generated data is to the original files.
 */
import type { Command } from 'commander';
import { compareWithOriginal, formatComparison } from '../../testbeds/restaurant/delex.js';
import { compareDstc6Dirs, formatDirComparison } from '../../testbeds/dstc6/sim-compare-dirs.js';
import { action, inputFlag, out } from '../run.js';
import { SUMMARY } from './summaries.js';

export function registerCompare(program: Command): void {
  const cmp = program.command('compare').description(SUMMARY.compare);
  cmp
    .command('restaurant')
    .description('bAbI tasks 1-5: per-dialog lines / bot turns / KB lines per split, bot templates, user-utterance coverage and precision')
    .argument('<generated-dir>', 'folder written by `dialogym generate restaurant`')
    .argument('<original-dir>', 'folder with the original dialog-babi-task*.txt files (babi: the fetched ones)', inputFlag('compare restaurant'))
    .option('--json', 'print the whole comparison as JSON')
    .option('--skip-missing', 'compare only the files present in <generated-dir>')
    .action(
      action((gen: string, orig: string, o: { json?: boolean; skipMissing?: boolean }) => {
        const c = compareWithOriginal(gen, orig, { skipMissing: o.skipMissing === true });
        if (o.json) out(JSON.stringify(c));
        else for (const l of formatComparison(c)) out(l);
      }),
    );
  cmp
    .command('dstc6')
    .description('DSTC6 test sets tst1-tst4 per file and pooled per task: utterances per entry, candidate-count histogram, user-utterance coverage and precision')
    .argument('<generated-dir>', 'folder with tst1/ … tst4/ sub-folders written by `dialogym generate dstc6 --set tstN`')
    .argument('<real-dir>', 'the real test release (dstc6: the fetched one)', inputFlag('compare dstc6'))
    .option('--json', 'print the figures as JSON')
    .action(
      action((gen: string, real: string, o: { json?: boolean }) => {
        const c = compareDstc6Dirs(gen, real);
        if (o.json) out(JSON.stringify(c));
        else for (const l of formatDirComparison(c)) out(l);
      }),
    );
}
