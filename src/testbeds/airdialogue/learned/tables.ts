/**
 * The paper's Tables 8–10 for the learned agents, in its layout:
 * Table 8 (supervised models given the true dialogue: perplexity, BLEU, state accuracy),
 * Table 9 (self-play scores: scaled name / flight / action / total and exact total, and the BLEU
 * of the generated turns against the simulator's dialogue on the same context; the human
 * row is the official scorer on the humans' own actions), Table 10 (self-play out of domain).
 * The paper's figures are those quoted in dialogym's issue (Wei et al. 2018); a cell the issue
 * does not quote stays empty rather than being guessed. A paper figure is shown beside ours only
 * for the same setting (the human row: the official scorer on the humans' own actions). The
 * paper's synthesized data is not dialogym's templated splits, and its real-data models trained on
 * 321,459 dialogues, not our sample: those figures are listed apart, labelled, never drawn beside
 * ours.
 */
import { booktabsTable, latexEscape } from '../../../report/latex.js';
import { dotPlotSvg } from '../../../report/dotplot.js';
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
  /** The paper's figures for its own setting (`paperSetting`), not dialogym's: not comparable. */
  readonly paper?: { readonly perplexity?: number; readonly bleu?: number };
  readonly paperSetting?: string;
}

/** One row of Tables 9 / 10. */
export interface SelfPlayRow {
  readonly setting: string;
  /** Scores; self-play rows also carry the BLEU of their generated turns (`bleu`). */
  readonly ours: LearnedSelfPlayReport | ScoreReport | null;
  readonly paperTotal?: number;
  /** Where the paper's total was measured when that is not this row's setting (then it is not shown beside ours). */
  readonly paperSetting?: string;
  readonly note?: string;
}

const PAPER_SYNTHESIZED = "the paper's own synthesized data";
const PAPER_REAL = 'models trained on all 321,459 AirDialogue dialogues';

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
  table8.push({ data: 'synthesized test', ours: evaluateAirModels(i.syn, i.synTest), paper: { perplexity: 1.08, bleu: 68.7 }, paperSetting: PAPER_SYNTHESIZED });
  if (i.real && i.realDev) {
    step('Table 8: AirDialogue dev sample');
    table8.push({ data: `AirDialogue dev sample (${i.realDev.length}; trained on ${String(i.real.meta['trainDialogues'] ?? '?')} of the paper's 321,459)`, ours: evaluateAirModels(i.real, i.realDev) });
  }
  const play = (m: AirModels, ood: OodSetting, label: string): ScoreReport => {
    step(`self-play: ${label}`);
    return learnedSelfPlay({ agent: learnedAgent(m), customer: learnedCustomer(m), n, seed, ood, bleu: true });
  };
  const table9: SelfPlayRow[] = [
    { setting: 'synthesized, supervised', ours: play(i.syn, 0, 'synthesized'), paperTotal: 0.22, paperSetting: PAPER_SYNTHESIZED },
    i.rl
      ? { setting: 'synthesized, self-play RL', ours: play(i.rl, 0, 'synthesized RL'), paperTotal: 0.41, paperSetting: PAPER_SYNTHESIZED }
      : { setting: 'synthesized, self-play RL', ours: null, paperTotal: 0.41, paperSetting: PAPER_SYNTHESIZED, note: 'no RL model given' },
  ];
  if (i.real) table9.push({ setting: 'AirDialogue, supervised', ours: play(i.real, 0, 'AirDialogue model'), paperTotal: 0.14, paperSetting: PAPER_REAL, note: `trained on the ${String(i.real.meta['trainDialogues'] ?? '?')}-dialogue sample; generated contexts` });
  table9.push({ setting: 'AirDialogue, self-play RL', ours: null, paperTotal: 0.22, paperSetting: PAPER_REAL, note: 'not run' });
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

/** The paper's figures that are for another setting than ours, as one labelled line each. */
function elsewhere(t: AirTables): string[] {
  const out: string[] = [];
  for (const r of t.table8) if (r.paper && r.paperSetting) out.push(`Table 8, ${r.data}: perplexity ${f2(r.paper.perplexity)}, BLEU-4 ${f2(r.paper.bleu)} — ${r.paperSetting}`);
  for (const r of [...t.table9, ...t.table10]) if (r.paperTotal !== undefined && r.paperSetting) out.push(`${r.setting}: total ${f2(r.paperTotal)} — ${r.paperSetting}`);
  return out;
}

/** The tables as Markdown: the paper's figure beside ours only in the same setting; the others listed apart. */
export function airTablesMarkdown(t: AirTables): string {
  const o: string[] = [];
  o.push('### Table 8: supervised models given the true dialogue', '');
  o.push('| data | perplexity (both) | BLEU-4 (both) | name acc % | flight acc % | action acc % | state acc % |', '|---|---|---|---|---|---|---|');
  for (const r of t.table8) {
    const a = r.ours;
    o.push(`| ${r.data} | ${f3(a.perplexity.both)} | ${f2(a.bleu.both)} | ${pc(a.accuracy.name)} | ${pc(a.accuracy.flight)} | ${pc(a.accuracy.status)} | ${pc(a.accuracy.state)} |`);
  }
  const playTable = (title: string, rows: readonly SelfPlayRow[]) => {
    o.push('', `### ${title}`, '');
    o.push('| setting | name | flight | action | total | exact total | paper total (same setting) | BLEU-4 (both) | note |', '|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      const s = r.ours;
      const bleu = s && 'bleu' in s ? s.bleu?.both : undefined;
      o.push(`| ${r.setting} | ${f3(s?.name)} | ${f3(s?.flight)} | ${f3(s?.action)} | ${f3(s?.total)} | ${f3(s?.exact.total)} | ${r.paperSetting ? '' : f2(r.paperTotal)} | ${f2(bleu)} | ${r.note ?? ''} |`);
    }
  };
  playTable('Table 9: self-play (scaled scores; exact total)', t.table9);
  playTable('Table 10: self-play out of domain', t.table10);
  const other = elsewhere(t);
  if (other.length > 0) {
    o.push('', "### The paper's figures for other settings (not comparable with ours)", '');
    o.push("dialogym's synthesized splits come from its templated simulator, not from the paper's synthesized data, and its real-data model trains on a sample; these figures are therefore not set beside ours:", '');
    o.push(...other.map((x) => `- ${x}`));
  }
  return o.join('\n') + '\n';
}

/**
 * Tables 9 and 10 as a dot plot (SVG, column width): the scaled total score per setting; the
 * paper's total as a hollow ring only where the setting is the same (the human row).
 */
export function airTablesSvg(t: AirTables): string {
  const panel = (title: string, rows: readonly SelfPlayRow[]) => ({
    title,
    rows: rows.map((r) => ({
      label: `${r.setting.replace(/\s*\([^)]*\)/, '').replace(/^synthesized, (learned agent vs)/, '$1')}${r.ours ? '' : ' (not run)'}`,
      ...(r.ours ? { ours: { mean: r.ours.total } } : {}),
      ...(r.paperTotal !== undefined && !r.paperSetting ? { reference: r.paperTotal } : {}),
      title: `${r.setting}: ${r.ours ? r.ours.total.toFixed(3) : 'not run'}${r.paperTotal !== undefined ? (r.paperSetting ? ` (paper ${f2(r.paperTotal)}: ${r.paperSetting}, not comparable)` : `, paper ${f2(r.paperTotal)}`) : ''}`,
    })),
  });
  return dotPlotSvg([panel('Table 9: self-play', t.table9), panel('Table 10: self-play out of domain', t.table10)], {
    title: 'AirDialogue: scaled total score',
    subtitle: "dialogym's simulator data; the paper's value only in the same setting",
    xLabel: 'scaled total score',
    domain: [0, 1],
    ticks: [0, 0.25, 0.5, 0.75, 1],
    tickDigits: 2,
    columns: 1,
    labelWidth: 250,
    legend: { ours: 'dialogym', reference: 'Wei et al. (2018), same setting' },
  });
}

/**
 * Tables 8–10 in LaTeX (booktabs): Table 8 (ours), Tables 9 and 10 (ours; the paper's total only
 * in the same setting), and the paper's figures for other settings named in the captions.
 */
export function airTablesLatex(t: AirTables): string {
  const t8 = booktabsTable({
    align: 'lrrrrrr',
    header: [['Data', 'Perplexity', 'BLEU-4', 'Name', 'Flight', 'Action', 'State']],
    body: t.table8.map((r) => [latexEscape(r.data), f3(r.ours.perplexity.both), f2(r.ours.bleu.both), pc(r.ours.accuracy.name), pc(r.ours.accuracy.flight), pc(r.ours.accuracy.status), pc(r.ours.accuracy.state)]),
    caption:
      "AirDialogue, Table 8 of Wei et al.\\ (2018): supervised models given the true dialogue (accuracies in \\%), on dialogym's templated synthesized splits. " +
      latexEscape(t.table8.filter((r) => r.paper && r.paperSetting).map((r) => `The paper's ${r.data} figures (perplexity ${f2(r.paper?.perplexity)}, BLEU-4 ${f2(r.paper?.bleu)}) are for ${r.paperSetting} and are not comparable.`).join(' ')),
    label: 'tab:airdialogue-table8',
  });
  const dash = (x: string): string => x || '--';
  const rows = (rs: readonly SelfPlayRow[]) => rs.map((r) => [latexEscape(r.setting), ...[r.ours?.name, r.ours?.flight, r.ours?.action, r.ours?.total].map((x) => dash(f3(x))), r.paperSetting ? '--' : dash(f2(r.paperTotal))]);
  const other = [...t.table9, ...t.table10].filter((r) => r.paperTotal !== undefined && r.paperSetting);
  const t9 = booktabsTable({
    align: 'lrrrrr',
    header: [['Setting', 'Name', 'Flight', 'Action', 'Total', 'Paper']],
    body: [...rows(t.table9), 'midrule', ...rows(t.table10)],
    caption:
      'AirDialogue self-play, Tables 9 (top) and 10 (out of domain, bottom): scaled scores; the paper\'s total only in the same setting. ' +
      latexEscape(other.map((r) => `${r.setting}: the paper's ${f2(r.paperTotal)} is for ${r.paperSetting}`).join('; ')) +
      (other.length > 0 ? ' (not comparable).' : ''),
    label: 'tab:airdialogue-selfplay',
    size: 'footnotesize',
  });
  return `% dialogym airdialogue tables; needs \\usepackage{booktabs}\n\n${t8}\n${t9}`;
}
