/**
 * Which DSTC2 system version speaks in a task-6 dialog, read off its bot turns' wording — for a
 * selection signal that imitates the shift from trn/dev to tst: train on the dialogs of one
 * version, score those of the other (bench/task6-versions.sh, docs/notes/hcn-dstc6-task6.md).
 *
 * The markers are wordings found in trn and dev under one version only (bot turns in trn / dev):
 * version A says `X is a nice place in the … and the prices are …` (579 / 0), `I'm sorry but there
 * is no restaurant serving …` (556 / 0), `Did you say …` (156 / 0), `Let me confirm …` (126 / 1),
 * `Ok , a restaurant in any part of town …` (86 / 0), `Sorry would you like something in the …`
 * (65 / 0), `Sorry but there is no …` (28 / 0); version B says `X is a nice restaurant in the …`
 * (449 / 475), `Sorry there is no …` (150 / 157), `I am sorry but there is no … that matches your
 * request` (74 / 75), `You are looking for a restaurant is that right?` (40 / 59), `X is in the …
 * part of town .` (20 / 56), `Can I help you with anything else?` (29 / 39).
 */
import type { Dialog } from '../../../core/dialog.js';

/** A DSTC2 system version of a task-6 dialog: A, B, `both` (markers of each) or `unknown` (none). */
export type Dstc2Version = 'A' | 'B' | 'both' | 'unknown';

const MARKERS_A: readonly RegExp[] = [
  / is a nice place in the .* and the prices are /,
  /^I'm sorry but there is no restaurant serving /,
  /^Did you say /,
  /^Let me confirm /,
  /^Ok , a restaurant in any /,
  /^Sorry would you like something in the /,
  /^Sorry but there is no /,
];
const MARKERS_B: readonly RegExp[] = [
  / is a nice restaurant in the /,
  /^Sorry there is no /,
  /^I am sorry but there is no .* that matches your request/,
  /^You are looking for a restaurant is that right/,
  / is in the \S+ part of town \.$/,
  /^Can I help you with anything else/,
];

/** The system version whose wording the dialog's bot turns use. */
export function dstc2Version(d: Dialog): Dstc2Version {
  let a = false;
  let b = false;
  for (const t of d.turns) {
    if (t.speaker !== 'bot') continue;
    a ||= MARKERS_A.some((r) => r.test(t.text));
    b ||= MARKERS_B.some((r) => r.test(t.text));
  }
  return a && b ? 'both' : a ? 'A' : b ? 'B' : 'unknown';
}
