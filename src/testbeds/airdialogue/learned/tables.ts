/**
 * The paper's Tables 8–10 for the learned agents, in its layout with its figures beside ours:
 * Table 8 (supervised models given the true dialogue: perplexity, BLEU, state accuracy),
 * Table 9 (self-play scores: scaled name / flight / action / total and exact total, and the BLEU
 * of the generated turns against the simulator's dialogue on the same context; the human
 * row is the official scorer on the humans' own actions), Table 10 (self-play out of domain).
 * The paper's figures are those quoted in dialogym's issue (Wei et al. 2018); a cell the issue
 * does not quote stays empty rather than being guessed.
 */
import type { AirExample } from '../../../formats/airdialogue.js';
import { customerPolicies } from '../policies.js';
import { scoreHuman, type ScoreReport } from '../scorer.js';
import type { OodSetting } from './data.js';
import { learnedAgent, learnedCustomer, learnedSelfPlay, type LearnedSelfPlayReport } from './policy.js';
import { evaluateAirModels, type AirEvalReport, type AirModels } from './train.js';

/** One row of Table 8. */
export interface Table8Row {
  readonly data: string;
  readonly ours: AirEvalReport;
  readonly paper?: { readonly perplexity?: number; readonly bleu?: number };
}

/** One row of Tables 9 / 10. */
export interface SelfPlayRow {
  readonly setting: string;
  /** Scores; self-play rows also carry the BLEU of their generated turns (`bleu`). */
  readonly ours: LearnedSelfPlayReport | ScoreReport | null;
  readonly paperTotal?: number;
  readonly note?: string;
}

/** The three tables. */
export interface AirTables {
  readonly table8: Table8Row[];
  readonly table9: SelfPlayRow[];
  readonly table10: SelfPlayRow[];
}

/** Inputs of `airTables`. */
export interface AirTablesInput {
  /** Models trained on the synthesized training split. */
  readonly syn: AirModels;
  /** The synthesized models after RL self-play (`rlTrain`), optional. */
  readonly rl?: AirModels;
  readonly synDev: readonly AirExample[];
  readonly synTest: readonly AirExample[];
  /** Models trained on the real sample, and the real dev sample (optional). */
  readonly real?: AirModels;
  readonly realDev?: readonly AirExample[];
  /** Self-play dialogues per row (default 1000). */
  readonly n?: number;
  readonly seed?: number;
  readonly onStep?: (what: string) => void;
}

/** Computes the three tables (module description). */
export function airTables(i: AirTablesInput): AirTables {
  const n = i.n ?? 1000;
  const seed = i.seed ?? 0;
  const step = i.onStep ?? (() => {});
  const table8: Table8Row[] = [];
  step('Table 8: synthesized dev');
  table8.push({ data: 'synthesized dev', ours: evaluateAirModels(i.syn, i.synDev) });
  step('Table 8: synthesized test');
  table8.push({ data: 'synthesized test', ours: evaluateAirModels(i.syn, i.synTest), paper: { perplexity: 1.08, bleu: 68.7 } });
  if (i.real && i.realDev) {
    step('Table 8: AirDialogue dev sample');
    table8.push({ data: `AirDialogue dev sample (${i.realDev.length}; trained on ${String(i.real.meta['trainDialogues'] ?? '?')} of the paper's 321,459)`, ours: evaluateAirModels(i.real, i.realDev) });
  }
  const play = (m: AirModels, ood: OodSetting, label: string): ScoreReport => {
    step(`self-play: ${label}`);
    return learnedSelfPlay({ agent: learnedAgent(m), customer: learnedCustomer(m), n, seed, ood, bleu: true });
  };
  const table9: SelfPlayRow[] = [
    { setting: 'synthesized, supervised', ours: play(i.syn, 0, 'synthesized'), paperTotal: 0.22 },
    i.rl ? { setting: 'synthesized, self-play RL', ours: play(i.rl, 0, 'synthesized RL'), paperTotal: 0.41 } : { setting: 'synthesized, self-play RL', ours: null, paperTotal: 0.41, note: 'no RL model given' },
  ];
  if (i.real) table9.push({ setting: 'AirDialogue, supervised', ours: play(i.real, 0, 'AirDialogue model'), paperTotal: 0.14, note: `trained on the ${String(i.real.meta['trainDialogues'] ?? '?')}-dialogue sample; generated contexts` });
  table9.push({ setting: 'AirDialogue, self-play RL', ours: null, paperTotal: 0.22, note: 'not run' });
  if (i.realDev) table9.push({ setting: 'human (official scorer on the humans’ actions)', ours: scoreHuman(i.realDev), paperTotal: 0.94, note: 'AirDialogue dev sample' });
  table9.push({ setting: 'synthesized, learned agent vs rule customer', ours: learnedSelfPlay({ agent: learnedAgent(i.syn), customer: customerPolicies.get('rules'), n, seed, bleu: true }), note: 'learned agent vs the rule customer (not in the paper)' });
  const table10: SelfPlayRow[] = [
    { setting: 'OOD 1 (uniform goals, reservation 70%), supervised', ours: play(i.syn, 1, 'OOD 1') },
    { setting: 'OOD 2 (OOD 1 + unseen names and airports), supervised', ours: play(i.syn, 2, 'OOD 2') },
  ];
  return { table8, table9, table10 };
}

const f2 = (x: number | undefined) => (x === undefined ? '' : x.toFixed(2));
const f3 = (x: number | undefined) => (x === undefined ? '' : x.toFixed(3));
const pc = (x: number) => (100 * x).toFixed(1);

/** The tables as Markdown. */
export function airTablesMarkdown(t: AirTables): string {
  const o: string[] = [];
  o.push('### Table 8: supervised models given the true dialogue', '');
  o.push('| data | perplexity (both) | paper | BLEU-4 (both) | paper | name acc % | flight acc % | action acc % | state acc % |', '|---|---|---|---|---|---|---|---|---|');
  for (const r of t.table8) {
    const a = r.ours;
    o.push(`| ${r.data} | ${f3(a.perplexity.both)} | ${f2(r.paper?.perplexity)} | ${f2(a.bleu.both)} | ${f2(r.paper?.bleu)} | ${pc(a.accuracy.name)} | ${pc(a.accuracy.flight)} | ${pc(a.accuracy.status)} | ${pc(a.accuracy.state)} |`);
  }
  const playTable = (title: string, rows: readonly SelfPlayRow[]) => {
    o.push('', `### ${title}`, '');
    o.push('| setting | name | flight | action | total | exact total | paper total | BLEU-4 (both) | note |', '|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      const s = r.ours;
      const bleu = s && 'bleu' in s ? s.bleu?.both : undefined;
      o.push(`| ${r.setting} | ${f3(s?.name)} | ${f3(s?.flight)} | ${f3(s?.action)} | ${f3(s?.total)} | ${f3(s?.exact.total)} | ${f2(r.paperTotal)} | ${f2(bleu)} | ${r.note ?? ''} |`);
    }
  };
  playTable('Table 9: self-play (scaled scores; exact total)', t.table9);
  playTable('Table 10: self-play out of domain', t.table10);
  return o.join('\n') + '\n';
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Tables 9 and 10 as a bar chart (scaled total per row, the paper's total as a tick). */
export function airTablesSvg(t: AirTables): string {
  const rows = [...t.table9, ...t.table10];
  const W = 760;
  const rowH = 26;
  const L = 380;
  const H = 50 + rows.length * rowH + 30;
  const px = (x: number) => L + (W - L - 30) * x;
  const o: string[] = [];
  o.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  o.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  o.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">AirDialogue self-play, scaled total (bars: dialogym; ticks: paper)</text>`);
  for (let k = 0; k <= 4; k++) {
    const x = px(k / 4);
    o.push(`<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="36" y2="${H - 26}" stroke="#ddd"/><text x="${x.toFixed(1)}" y="${H - 10}" text-anchor="middle">${(k / 4).toFixed(2)}</text>`);
  }
  rows.forEach((r, i) => {
    const y = 40 + i * rowH;
    o.push(`<text x="${L - 8}" y="${y + 15}" text-anchor="end">${esc(r.setting)}</text>`);
    if (r.ours) o.push(`<rect x="${L}" y="${y + 4}" width="${(px(r.ours.total) - L).toFixed(1)}" height="16" fill="#1f77b4"/><text x="${(px(r.ours.total) + 4).toFixed(1)}" y="${y + 16}">${r.ours.total.toFixed(2)}</text>`);
    if (r.paperTotal !== undefined) o.push(`<line x1="${px(r.paperTotal).toFixed(1)}" x2="${px(r.paperTotal).toFixed(1)}" y1="${y + 1}" y2="${y + 23}" stroke="#d62728" stroke-width="3"/>`);
  });
  o.push('</svg>');
  return o.join('\n') + '\n';
}
