/** `dialogym stats <file...> [--json]`: the bAbI paper's Table 1 quantities per dialog file. */
import type { Command } from 'commander';
import { basename } from 'node:path';
import { readBabiDialogs } from '../../formats/babi.js';
import { babiStats, type BabiStats } from '../../formats/babi-stats.js';
import { action, inputArgs, out } from '../run.js';
import { SUMMARY } from './summaries.js';

const COLUMNS: [keyof BabiStats, string][] = [
  ['dialogs', 'dialogs'],
  ['botTurns', 'bot turns'],
  ['utterancesPerDialog', 'utts/dialog'],
  ['userPerDialog', 'user/dialog'],
  ['botPerDialog', 'bot/dialog'],
  ['kbPerDialog', 'kb/dialog'],
  ['vocabulary', 'vocab'],
];

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description(SUMMARY.stats)
    .argument('<file...>', 'bAbI dialog files (or references such as babi:task1-trn)', inputArgs('stats'))
    .option('--json', 'one JSON object per file (keys: file, dialogs, botTurns, utterancesPerDialog, userPerDialog, botPerDialog, kbPerDialog, vocabulary, …)')
    .action(
      action((files: string[], opts: { json?: boolean }) => {
        const rows = files.map((f) => babiStats(f, readBabiDialogs(f).dialogs));
        if (opts.json) {
          for (const r of rows) out(JSON.stringify(r));
          return;
        }
        const head = ['file', ...COLUMNS.map((c) => c[1])];
        const body = rows.map((r) => [
          basename(r.file),
          ...COLUMNS.map(([k]) => {
            const v = r[k] as number;
            return Number.isInteger(v) ? String(v) : v.toFixed(2);
          }),
        ]);
        const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
        const fmt = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
        out(fmt(head));
        for (const b of body) out(fmt(b));
      }),
    );
}
