/**
 * Benchmark outputs: `benchmark.json` (the rows, exact contract, plus every run and the spread
 * over seeds), `benchmark.md` (Table 2, the appendix's Table 10 and dialogym's variants, ours
 * beside the paper's), `benchmark.tex` (the same tables in LaTeX, booktabs) and `benchmark.svg`
 * (a dot plot per model: ours mean ± sd, the paper's value, the band that counts as reproduced).
 */
import { booktabsTable, latexEscape } from '../../../report/latex.js';
import { dotPlotSvg, type DotPanel } from '../../../report/dotplot.js';
import {
  BENCHMARK_MODELS,
  BENCHMARK_TESTS,
  PAPER_MODELS,
  PAPER_MODEL_LABELS,
  TABLE10_MODELS,
  VARIANT_MODELS,
  VARIANT_OF,
  isLearnedModel,
  paperCellOf,
  type BenchmarkModel,
  type BenchmarkTest,
} from './paper.js';
import type { BenchmarkResult, BenchmarkSummaryRow } from './benchmark.js';

/**
 * What a benchmark report says about its run besides the rows: profile, data and seed.
 *
 * @example
 * ```ts
 * import { runBenchmark, benchmarkMarkdown, QUICK_PROFILE, type ReportInfo } from 'dialogym/restaurant';
 * const result = await runBenchmark({ profile: QUICK_PROFILE, source: { kind: 'generate', seed: 1, dialogs: 50 }, models: ['tfidf'], tasks: [1], seed: 1 });
 * const info: ReportInfo = { profile: 'quick', data: 'generated, 50 dialogs per split', seed: 1 };
 * console.log(benchmarkMarkdown(result, info));
 * ```
 */
export interface ReportInfo {
  /** Profile name (quick / full / paper). */
  readonly profile: string;
  /** Human description of the data (generated / folder, sizes). */
  readonly data: string;
  readonly seed: number;
}

/** The rows of a result as the report reads them (a row without spread fields is one run). */
type Row = Pick<BenchmarkSummaryRow, 'model' | 'test' | 'perResponse' | 'perDialog' | 'trainSeconds'> & Partial<Pick<BenchmarkSummaryRow, 'runs' | 'perResponseSd' | 'perDialogSd'>>;

function present(rows: readonly Row[]): { models: BenchmarkModel[]; tests: BenchmarkTest[] } {
  return {
    models: BENCHMARK_MODELS.filter((m) => rows.some((r) => r.model === m)),
    tests: BENCHMARK_TESTS.filter((t) => rows.some((r) => r.test === t)),
  };
}

function find(rows: readonly Row[], model: BenchmarkModel, test: BenchmarkTest): Row | undefined {
  return rows.find((r) => r.model === model && r.test === test);
}

/** Training seconds of a model summed over tasks (a task's OOV test reuses the same training; a mean over runs). */
export function trainSecondsOf(rows: readonly Row[], model: BenchmarkModel): number {
  return rows.filter((r) => r.model === model && !r.test.endsWith('-OOV')).reduce((s, r) => s + r.trainSeconds, 0);
}

/** The training seeds of a result (its learned runs'), in order of first use. */
export function seedsUsed(result: Pick<BenchmarkResult, 'runs'>): number[] {
  return [...new Set((result.runs ?? []).flatMap((r) => (r.seed === undefined ? [] : [r.seed])))];
}

/** The most runs of any cell (1 when every cell ran once). */
function runsOf(rows: readonly Row[]): number {
  return Math.max(1, ...rows.map((r) => r.runs ?? 1));
}

/**
 * The benchmark result as pretty-printed JSON (`benchmark.json`), ending in a newline: `rows`
 * (the contract: model, test, perResponse, perDialog, trainSeconds — a learned cell's mean over
 * its runs), `spread` (per row: runs and the standard deviations), `runs` (every run's row, with
 * its training seed), `seeds`, then profile, data, seed, timings, workers, notes.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from 'dialogym';
 * import { benchmarkJson, type BenchmarkResult } from 'dialogym/restaurant';
 * declare const result: BenchmarkResult;
 * writeFileAtomic('out/benchmark.json', benchmarkJson(result, { profile: 'quick', data: 'original files', seed: 1 }));
 * ```
 */
export function benchmarkJson(result: BenchmarkResult, info: ReportInfo): string {
  const rows = result.rows.map((r) => ({ model: r.model, test: r.test, perResponse: r.perResponse, perDialog: r.perDialog, trainSeconds: r.trainSeconds }));
  const spread = result.rows.map((r) => ({ model: r.model, test: r.test, runs: r.runs, perResponseSd: r.perResponseSd, perDialogSd: r.perDialogSd }));
  const runs = result.runs.map((r) => ({ model: r.model, test: r.test, ...(r.seed !== undefined ? { seed: r.seed } : {}), perResponse: r.perResponse, perDialog: r.perDialog, trainSeconds: r.trainSeconds }));
  return (
    JSON.stringify(
      { rows, spread, runs, seeds: seedsUsed(result), profile: info.profile, data: info.data, seed: info.seed, seconds: Number(result.seconds.toFixed(1)), cpuSeconds: Number(result.cpuSeconds.toFixed(1)), workers: result.workers, notes: result.notes },
      null,
      2,
    ) + '\n'
  );
}

const pct = (x: number): string => (100 * x).toFixed(1);

/** A cell counts as reproduced when it is within this many points of the paper (learned models: at most this many below, or better). */
export const PAPER_TOLERANCE = 5;

/**
 * A row compared with the paper: ours (mean, in %) minus the paper's per-response accuracy, and
 * whether it counts as reproduced.
 *
 * @example
 * ```ts
 * import { paperVerdicts, type PaperVerdict, type BenchmarkResult } from 'dialogym/restaurant';
 * declare const result: BenchmarkResult;
 * const failing: PaperVerdict[] = paperVerdicts(result.rows).filter((v) => !v.within);
 * ```
 */
export interface PaperVerdict {
  readonly model: BenchmarkModel;
  readonly test: BenchmarkTest;
  /** Ours, per-response accuracy in % (the mean over runs). */
  readonly ours: number;
  /** Standard deviation over runs, in points (0 for one run). */
  readonly sd: number;
  readonly paper: number;
  /** Ours − paper, in points (one decimal). */
  readonly diff: number;
  /** A learned model (one-sided tolerance) or a count-based baseline (two-sided). */
  readonly learned: boolean;
  readonly within: boolean;
}

/**
 * Every row that has a paper value (Table 2, or the appendix's Table 10 for the embeddings
 * variants), with ours minus the paper's per-response accuracy (points) and whether it counts as
 * reproduced: a learned model (embeddings, MemN2N) when its mean is at most `PAPER_TOLERANCE`
 * points below the paper or better; a count-based baseline (TF-IDF, nearest neighbour), which has
 * no training to be better at, when it is within `PAPER_TOLERANCE` points either way.
 *
 * @example
 * ```ts
 * import { paperVerdicts, type BenchmarkResult } from 'dialogym/restaurant';
 * declare const result: BenchmarkResult;
 * const failing = paperVerdicts(result.rows).filter((v) => !v.within);
 * ```
 */
export function paperVerdicts(rows: readonly Row[]): PaperVerdict[] {
  const out: PaperVerdict[] = [];
  for (const r of rows) {
    const p = paperCellOf(r.test, r.model);
    if (!p) continue;
    const ours = 100 * r.perResponse;
    const diff = Number((ours - p.perResponse).toFixed(1));
    const learned = isLearnedModel(r.model);
    out.push({ model: r.model, test: r.test, ours, sd: 100 * (r.perResponseSd ?? 0), paper: p.perResponse, diff, learned, within: learned ? diff >= -PAPER_TOLERANCE : Math.abs(diff) <= PAPER_TOLERANCE });
  }
  return out;
}

/** The paper's value of a cell as the paper prints it (per-dialog in parentheses), or – . */
function paperText(test: BenchmarkTest, model: BenchmarkModel): string {
  const p = paperCellOf(test, model);
  if (p === undefined) return '–';
  return p.perDialog === undefined ? `${p.perResponse}` : `${p.perResponse} (${p.perDialog})`;
}

/** Ours as text: mean ± sd (per-dialog mean ± sd in parentheses); no ± for one run. */
function oursText(r: Row | undefined): string {
  if (!r) return '–';
  const sd = (x: number | undefined): string => ((r.runs ?? 1) > 1 ? ` ± ${pct(x ?? 0)}` : '');
  return `${pct(r.perResponse)}${sd(r.perResponseSd)} (${pct(r.perDialog)}${sd(r.perDialogSd)})`;
}

function table(header: string[], body: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)];
}

const verdictText = (v: PaperVerdict | undefined): string => (v ? `${v.diff >= 0 ? '+' : ''}${v.diff.toFixed(1)} ${v.within ? '✓' : '✗'}` : '–');

/** Ours / paper / ours − paper tables of one part of the report (models of that part present in the run). */
function part(result: BenchmarkResult, models: readonly BenchmarkModel[], tests: readonly BenchmarkTest[], paperTitle: string): string[] {
  const header = ['Test set', ...models.map((m) => PAPER_MODEL_LABELS[m])];
  const ours = tests.map((t) => [t, ...models.map((m) => oursText(find(result.rows, m, t)))]);
  ours.push(['train time (s)', ...models.map((m) => trainSecondsOf(result.rows, m).toFixed(1))]);
  ours.push(['train + eval time (s)', ...models.map((m) => (result.modelSeconds[m] ?? 0).toFixed(1))]);
  const verdicts = paperVerdicts(result.rows.filter((r) => models.includes(r.model)));
  const ok = verdicts.filter((v) => v.within).length;
  return [
    '### Ours',
    '',
    ...table(header, ours),
    '',
    `### ${paperTitle}`,
    '',
    ...table(header, tests.map((t) => [t, ...models.map((m) => paperText(t, m))])),
    '',
    '### Ours minus paper',
    '',
    `Per-response accuracy, percentage points (ours: the mean over runs). ${ok} of ${verdicts.length} cells reproduced.`,
    '',
    ...table(header, tests.map((t) => [t, ...models.map((m) => verdictText(verdicts.find((x) => x.model === m && x.test === t)))])),
  ];
}

/**
 * The benchmark result as Markdown: Table 2 and the appendix's Table 10 (ours, the paper's,
 * ours minus the paper's with ✓/✗), dialogym's variants apart (beside the paper's method each
 * strengthens, not counted), then notes and timings.
 *
 * @example
 * ```ts
 * import { benchmarkMarkdown, type BenchmarkResult } from 'dialogym/restaurant';
 * declare const result: BenchmarkResult;
 * console.log(benchmarkMarkdown(result, { profile: 'full', data: 'original files', seed: 1 }));
 * ```
 */
export function benchmarkMarkdown(result: BenchmarkResult, info: ReportInfo): string {
  const { models, tests } = present(result.rows);
  const k = runsOf(result.rows);
  const seeds = seedsUsed(result);
  const lines: string[] = [
    '# dialogym benchmark: Bordes, Boureau & Weston (2017), Table 2 and the appendix\'s Table 10',
    '',
    `Profile \`${info.profile}\`, seed ${info.seed}; data: ${info.data}. ` +
      (k > 1 ? `Each learned model (embeddings, MemN2N, HCN) trained ${k} times (seeds ${seeds.join(', ')}): its cells give mean ± standard deviation. ` : '') +
      `Whole run ${result.seconds.toFixed(1)} s wall, ${result.cpuSeconds.toFixed(1)} s CPU, ${result.workers === 1 ? 'no worker thread' : `${result.workers} worker threads`}.`,
    '',
    'Test accuracy in %: per-response (per-dialog in parentheses). A cell is reproduced (✓) when it is within ' +
      `${PAPER_TOLERANCE} points of the paper for the count-based baselines (TF-IDF, nearest neighbour: no training, so better is as far off as worse), ` +
      `and at most ${PAPER_TOLERANCE} points below the paper, or better, for the learned models (their mean over runs).`,
  ];
  const t2 = PAPER_MODELS.filter((m) => models.includes(m));
  const t10 = (['embeddings', ...TABLE10_MODELS] as BenchmarkModel[]).filter((m) => models.includes(m));
  const variants = VARIANT_MODELS.filter((m) => models.includes(m));
  const all = paperVerdicts(result.rows);
  if (t2.length > 0) lines.push('', '## Table 2', '', ...part(result, t2, tests, 'Paper (Table 2)'));
  if (t10.some((m) => m !== 'embeddings')) {
    lines.push('', "## Table 10 (appendix): supervised embeddings variants", '', "Its plain column is Table 2's supervised embeddings.", '', ...part(result, t10, tests, 'Paper (Table 10)'));
  }
  const distinct = all.length;
  if (t2.length > 0 || t10.length > 0) lines.push('', `**${all.filter((v) => v.within).length} of ${distinct} cells with a paper value reproduced** (Table 2 and Table 10 together, each cell once).`);
  if (variants.length > 0) {
    const header = ['Test set', ...variants.flatMap((m) => (VARIANT_OF[m] ? [PAPER_MODEL_LABELS[m], `paper: ${PAPER_MODEL_LABELS[VARIANT_OF[m] as BenchmarkModel]}`] : [PAPER_MODEL_LABELS[m]]))];
    const body = tests.map((t) => [t, ...variants.flatMap((m) => {
      const base = VARIANT_OF[m];
      return base ? [oursText(find(result.rows, m, t)), paperText(t, base)] : [oursText(find(result.rows, m, t))];
    })]);
    body.push(['train + eval time (s)', ...variants.flatMap((m) => (VARIANT_OF[m] ? [(result.modelSeconds[m] ?? 0).toFixed(1), ''] : [(result.modelSeconds[m] ?? 0).toFixed(1)]))]);
    lines.push(
      '',
      '## dialogym variants',
      '',
      "Not the paper's methods, so not counted: `tfidf+type-word` adds a matched KB type as its name word (R_phone → phone) or as a feature, chosen on dev; " +
        '`nn+prev` keys the nearest neighbour on the words in common with the last user utterance, or with it and the bot turn before it, chosen on dev; `hcn` is a Hybrid Code Network (Williams et al. 2017). ' +
        "Beside each count-based variant, the paper's value of the method it strengthens.",
      '',
      ...table(header, body),
    );
  }
  if (result.notes.length > 0) lines.push('', '## Notes', '', ...result.notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

/**
 * The benchmark result as a dot plot (SVG, readable at a paper's column width): one panel per
 * model, one row per test set; ours as a filled dot with ± one standard deviation over seeds, the
 * paper's value as a hollow ring, the band that counts as reproduced in grey.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from 'dialogym';
 * import { benchmarkSvg, type BenchmarkResult } from 'dialogym/restaurant';
 * declare const result: BenchmarkResult;
 * writeFileAtomic('out/benchmark.svg', benchmarkSvg(result, { profile: 'quick', data: 'generated', seed: 1 }));
 * ```
 */
export function benchmarkSvg(result: BenchmarkResult, info: ReportInfo): string {
  const { models, tests } = present(result.rows);
  const k = runsOf(result.rows);
  const panels: DotPanel[] = models.map((m) => ({
    title: `${PAPER_MODEL_LABELS[m]}${VARIANT_MODELS.includes(m as (typeof VARIANT_MODELS)[number]) ? ' (dialogym)' : ''}`,
    rows: tests.map((t) => {
      const r = find(result.rows, m, t);
      const p = paperCellOf(t, m)?.perResponse;
      const mean = r ? 100 * r.perResponse : undefined;
      const sd = r ? 100 * (r.perResponseSd ?? 0) : 0;
      const band: readonly [number, number] | undefined = p === undefined ? undefined : isLearnedModel(m) ? [p - PAPER_TOLERANCE, 100] : [p - PAPER_TOLERANCE, p + PAPER_TOLERANCE];
      const title = `${PAPER_MODEL_LABELS[m]}, ${t}: ${mean === undefined ? 'not run' : `${mean.toFixed(1)}%${sd > 0 ? ` ± ${sd.toFixed(1)}` : ''}`}${p === undefined ? ' (not in the paper)' : `, paper ${p}%`}`;
      return { label: t, ...(mean !== undefined ? { ours: { mean, sd } } : {}), ...(p !== undefined ? { reference: p } : {}), ...(band ? { band } : {}), title, data: { model: m, test: t } };
    }),
  }));
  return dotPlotSvg(panels, {
    title: 'Per-response test accuracy, bAbI dialog tasks',
    subtitle: `${info.data.startsWith('original') ? 'Original bAbI dialog test sets' : 'Simulated dialogs'}; ${k > 1 ? `dialogym: mean ± s.d. over ${k} training seeds` : 'dialogym: one training seed'}`,
    xLabel: 'accuracy (%)',
    domain: [0, 100],
    ticks: [0, 25, 50, 75, 100],
    legend: { ours: 'dialogym', reference: 'Bordes et al. (2017)', band: 'counts as reproduced' },
  });
}

/** A LaTeX cell: ours (± sd) with the paper's value in parentheses, a dagger when not reproduced. */
function latexCell(r: Row | undefined, v: PaperVerdict | undefined, paper: boolean): string {
  if (!r) return '--';
  const sd = (r.runs ?? 1) > 1 ? `\\,$\\pm$\\,${pct(r.perResponseSd ?? 0)}` : '';
  const p = paper && v ? ` (${v.paper.toFixed(1)})` : '';
  return `${pct(r.perResponse)}${sd}${p}${v && !v.within ? '$^\\dagger$' : ''}`;
}

/**
 * The benchmark's tables in LaTeX (booktabs; `\usepackage{booktabs}`): Table 2, the appendix's
 * Table 10 and dialogym's variants, each a `table` float: ours (± sd over seeds) with the paper's
 * value in parentheses, a dagger on a cell not reproduced.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from 'dialogym';
 * import { benchmarkLatex, type BenchmarkResult } from 'dialogym/restaurant';
 * declare const result: BenchmarkResult;
 * writeFileAtomic('out/benchmark.tex', benchmarkLatex(result, { profile: 'paper', data: 'original files', seed: 1 }));
 * ```
 */
export function benchmarkLatex(result: BenchmarkResult, info: ReportInfo): string {
  const { models, tests } = present(result.rows);
  const k = runsOf(result.rows);
  const verdicts = paperVerdicts(result.rows);
  const spread = k > 1 ? `mean\\,$\\pm$\\,s.d.\\ over ${k} training seeds for the learned models, ` : '';
  const tol = `$^\\dagger$: not reproduced (count-based baselines: more than ${PAPER_TOLERANCE} points from the paper; learned models: more than ${PAPER_TOLERANCE} points below it).`;
  const out: string[] = [`% dialogym benchmark, profile ${latexEscape(info.profile)}, seed ${info.seed}; ${latexEscape(info.data)}`, '% needs \\usepackage{booktabs}', ''];
  const tableOf = (ms: readonly BenchmarkModel[], caption: string, label: string, paper: boolean): string =>
    booktabsTable({
      align: `l${'r'.repeat(ms.length)}`,
      header: [['Test set', ...ms.map((m) => latexEscape(PAPER_MODEL_LABELS[m]))]],
      body: tests.map((t) => [t, ...ms.map((m) => latexCell(find(result.rows, m, t), verdicts.find((v) => v.model === m && v.test === t), paper))]),
      caption,
      label,
      size: ms.length > 4 ? 'footnotesize' : 'small',
      wide: ms.length > 3,
    });
  const t2 = PAPER_MODELS.filter((m) => models.includes(m));
  if (t2.length > 0) out.push(tableOf(t2, `Per-response test accuracy (\\%) on the bAbI dialog tasks: dialogym (${spread}the paper's Table 2 in parentheses). ${tol}`, 'tab:babi-table2', true));
  const t10 = (['embeddings', ...TABLE10_MODELS] as BenchmarkModel[]).filter((m) => models.includes(m));
  if (t10.some((m) => m !== 'embeddings')) out.push(tableOf(t10, `Supervised embeddings variants, per-response test accuracy (\\%): dialogym (${spread}the paper's appendix Table 10 in parentheses). ${tol}`, 'tab:babi-table10', true));
  const variants = VARIANT_MODELS.filter((m) => models.includes(m));
  if (variants.length > 0) out.push(tableOf(variants, `dialogym's variants (not in the paper), per-response test accuracy (\\%)${k > 1 ? ', mean\\,$\\pm$\\,s.d.\\ over seeds for the learned models' : ''}.`, 'tab:babi-variants', false));
  return out.join('\n');
}
