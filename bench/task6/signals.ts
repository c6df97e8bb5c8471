/**
 * bAbI task 6 (DSTC2), issue 18: `rules-dstc2` (the paper's rule baseline) against the rejected
 * rule variants kept here — `dstc2-plus` (the same rules, each response worded as the dialog's
 * earlier wording makes most probable) and `dstc2-adapt` — and `dstc2-heard` (the rules that advise
 * `hcn`). All deterministic (no seed). Prints per-response accuracy for three selection signals that
 * use trn and dev only — trn 80 % → the other 20 % of trn (every fifth dialog held out), trn → dev
 * (another mix of DSTC2 system versions), dev → trn — then trn → tst, once. Figures and the
 * story: docs/notes/hcn-dstc6-task6.md. Not part of `npm run bench`; ~15 s of CPU.
 *
 *   node dist/bench/task6/signals.js [../shared/data/dialog-bAbI-tasks]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog } from '../../src/core/dialog.js';
import { readBabiDialogs, readBabiKb } from '../../src/formats/babi.js';
import { accuracy } from '../../src/metrics/ranking.js';
import { evaluateDialogs } from '../../src/rankers/evaluate-responses.js';
import type { ResponseModel } from '../../src/rankers/ranker.js';
import { createDstc2HeardBot } from '../../src/testbeds/restaurant/rules/dstc2-heard.js';
import { createDstc2RulesBot } from '../../src/testbeds/restaurant/rules/dstc2.js';
import { babiDir } from '../../test/shared-data.js';
import { createDstc2AdaptBot } from './dstc2-adapt.js';
import { createDstc2PlusBot } from './dstc2-plus.js';

const dir = process.argv[2] ?? babiDir;
if (!existsSync(dir)) {
  process.stdout.write(`task6 signals: skipped, ${dir} not found\n`);
  process.exit(0);
}
const P = (s: string): string => join(dir, `dialog-babi-task6-dstc2-${s}.txt`);
const kb = readBabiKb(P('kb')).facts;
const trn = readBabiDialogs(P('trn')).dialogs;
const dev = readBabiDialogs(P('dev')).dialogs;
const tst = readBabiDialogs(P('tst')).dialogs;
const fit = trn.filter((_, i) => i % 5 !== 0);
const held = trn.filter((_, i) => i % 5 === 0);
const SIGNALS: readonly (readonly [string, readonly Dialog[], readonly Dialog[]])[] = [
  ['trn80->trn20', fit, held],
  ['trn->dev', trn, dev],
  ['dev->trn', dev, trn],
  ['trn->tst', trn, tst],
];
const MODELS: readonly (readonly [string, (train: readonly Dialog[]) => ResponseModel])[] = [
  ['rules-dstc2', (tr) => createDstc2RulesBot(tr, { kb })],
  ['dstc2-plus', (tr) => createDstc2PlusBot(tr, { kb })],
  ['dstc2-heard', (tr) => createDstc2HeardBot(tr, { kb })],
  ['dstc2-adapt', (tr) => createDstc2AdaptBot(tr, { kb })],
];
process.stdout.write(`${'model'.padEnd(12)} ${SIGNALS.map(([n]) => n.padStart(13)).join(' ')}\n`);
for (const [name, make] of MODELS) {
  const cells = SIGNALS.map(([, tr, te]) => (100 * accuracy.perResponse(evaluateDialogs(make(tr), te))).toFixed(2).padStart(13));
  process.stdout.write(`${name.padEnd(12)} ${cells.join(' ')}\n`);
}
