/** `dialogym walk <file> [--dialog N]`: a readable view of bAbI dialogs. */
import type { Command } from 'commander';
import { readBabiDialogs } from '../../formats/babi.js';
import type { Dialog } from '../../core/dialog.js';
import { SILENCE } from '../../formats/babi.js';
import { ConfigError } from '../../core/errors.js';
import { action, inputFlag, intFlag, out } from '../run.js';
import { SUMMARY } from './summaries.js';

const COLOURS = { user: '\x1b[36m', bot: '\x1b[33m', kb: '\x1b[2m', reset: '\x1b[0m', bold: '\x1b[1m' };

export function registerWalk(program: Command): void {
  program
    .command('walk')
    .description(SUMMARY.walk)
    .argument('<file>', 'bAbI dialog file (or a reference such as babi:task1-trn)', inputFlag('walk'))
    .option('--dialog <N>', 'only dialog N (1-based) (default: every dialog)', intFlag('--dialog', 1))
    .option('--no-color', 'no colours even on a terminal')
    .action(
      action((file: string, o: { dialog?: number; color: boolean }) => {
        const { dialogs } = readBabiDialogs(file);
        const colour = o.color && process.stdout.isTTY === true && !process.env.NO_COLOR;
        if (o.dialog !== undefined) {
          const d = dialogs[o.dialog - 1];
          if (!d) throw new ConfigError(`--dialog ${o.dialog}: ${file} has ${dialogs.length} dialogs`);
          show(d, o.dialog, dialogs.length, colour);
          return;
        }
        dialogs.forEach((d, i) => show(d, i + 1, dialogs.length, colour));
      }),
    );
}

function show(d: Dialog & { line?: number }, n: number, total: number, colour: boolean): void {
  const c = (k: keyof typeof COLOURS, s: string): string => (colour ? COLOURS[k] + s + COLOURS.reset : s);
  out(c('bold', `— dialog ${n}/${total}${d.line ? ` (line ${d.line})` : ''}`));
  for (const t of d.turns) {
    if (t.speaker === 'user' && t.text === SILENCE) continue;
    const tag = t.speaker === 'user' ? 'user' : t.speaker === 'bot' ? ' bot' : '  kb';
    out(c(t.speaker, `${tag}: ${t.text}`));
  }
  out('');
}
