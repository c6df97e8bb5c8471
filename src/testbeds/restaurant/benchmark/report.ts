/**
 * Benchmark outputs: `benchmark.json` (the rows, exact contract), `benchmark.md` (Table 2 layout,
 * ours beside the paper's) and `benchmark.svg` (grouped bars per test set, paper value as a tick).
 */
import { BENCHMARK_MODELS, BENCHMARK_TESTS, PAPER_MODEL_LABELS, isPaperModel, paperCellOf, type BenchmarkModel, type BenchmarkTest } from './paper.js';
import type { BenchmarkResult, BenchmarkRow } from './benchmark.js';

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
  /** Profile name (quick / full). */
  readonly profile: string;
  /** Human description of the data (generated / folder, sizes). */
  readonly data: string;
  readonly seed: number;
}

function present(rows: readonly BenchmarkRow[]): { models: BenchmarkModel[]; tests: BenchmarkTest[] } {
  return {
    models: BENCHMARK_MODELS.filter((m) => rows.some((r) => r.model === m)),
    tests: BENCHMARK_TESTS.filter((t) => rows.some((r) => r.test === t)),
  };
}

function find(rows: readonly BenchmarkRow[], model: BenchmarkModel, test: BenchmarkTest): BenchmarkRow | undefined {
  return rows.find((r) => r.model === model && r.test === test);
}

/** Training seconds of a model summed over tasks (a task's OOV test reuses the same training). */
export function trainSecondsOf(rows: readonly BenchmarkRow[], model: BenchmarkModel): number {
  return rows.filter((r) => r.model === model && !r.test.endsWith('-OOV')).reduce((s, r) => s + r.trainSeconds, 0);
}

/**
 * The benchmark result as pretty-printed JSON (`benchmark.json`: rows, profile, data, seed,
 * timings, workers, notes), ending in a newline. `info` names the profile and the data.
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
  return JSON.stringify({ rows, profile: info.profile, data: info.data, seed: info.seed, seconds: Number(result.seconds.toFixed(1)), cpuSeconds: Number(result.cpuSeconds.toFixed(1)), workers: result.workers, notes: result.notes }, null, 2) + '\n';
}

const pct = (x: number): string => (100 * x).toFixed(1);

/** A cell counts as reproduced when it is at most this many points below the paper (or above). */
export const PAPER_TOLERANCE = 5;

/**
 * Every row that has a paper value, with ours minus the paper's per-response accuracy (points)
 * and whether it is within `PAPER_TOLERANCE` points below the paper or better.
 *
 * @example
 * ```ts
 * import { paperVerdicts, type BenchmarkResult } from 'dialogym/restaurant';
 * declare const result: BenchmarkResult;
 * const failing = paperVerdicts(result.rows).filter((v) => !v.within);
 * ```
 */
export function paperVerdicts(rows: readonly BenchmarkRow[]): { model: BenchmarkModel; test: BenchmarkTest; ours: number; paper: number; diff: number; within: boolean }[] {
  const out: { model: BenchmarkModel; test: BenchmarkTest; ours: number; paper: number; diff: number; within: boolean }[] = [];
  for (const r of rows) {
    const p = paperCellOf(r.test, r.model);
    if (!p) continue;
    const ours = 100 * r.perResponse;
    const diff = Number((ours - p.perResponse).toFixed(1));
    out.push({ model: r.model, test: r.test, ours, paper: p.perResponse, diff, within: diff >= -PAPER_TOLERANCE });
  }
  return out;
}
const paperText = (test: BenchmarkTest, model: BenchmarkModel): string => {
  const p = paperCellOf(test, model);
  if (p === undefined) return '–';
  return p.perDialog === undefined ? `${p.perResponse}` : `${p.perResponse} (${p.perDialog})`;
};

function table(header: string[], body: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)];
}

/**
 * The benchmark result as Markdown: Table 2 with our values next to the paper's, then notes and
 * timings.
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
  const header = ['Test set', ...models.map((m) => PAPER_MODEL_LABELS[m])];
  const lines: string[] = [
    '# dialogym benchmark: Table 2 of Bordes, Boureau & Weston (2017)',
    '',
    `Profile \`${info.profile}\`, seed ${info.seed}; data: ${info.data}. Whole run ${result.seconds.toFixed(1)} s wall, ${result.cpuSeconds.toFixed(1)} s CPU, ${result.workers === 1 ? 'no worker thread' : `${result.workers} worker threads`}.`,
    '',
    '## Ours',
    '',
    'Test accuracy in %: per-response (per-dialog in parentheses).',
    '',
  ];
  const ours = tests.map((t) => [t, ...models.map((m) => {
    const r = find(result.rows, m, t);
    return r ? `${pct(r.perResponse)} (${pct(r.perDialog)})` : '–';
  })]);
  ours.push(['train time (s)', ...models.map((m) => trainSecondsOf(result.rows, m).toFixed(1))]);
  ours.push(['train + eval time (s)', ...models.map((m) => (result.modelSeconds[m] ?? 0).toFixed(1))]);
  lines.push(...table(header, ours), '', '## Paper', '', 'Table 2 of the paper: per-response accuracy in % (per-dialog in parentheses where published).', '');
  lines.push(...table(header, tests.map((t) => [t, ...models.map((m) => paperText(t, m))])));
  const verdicts = paperVerdicts(result.rows);
  const ok = verdicts.filter((v) => v.within).length;
  lines.push('', '## Ours minus paper', '');
  lines.push(
    `Per-response accuracy, percentage points; ✓ = within ${PAPER_TOLERANCE} points below the paper or better, ✗ = more than ${PAPER_TOLERANCE} points below. ` +
      `${ok} of ${verdicts.length} cells with a paper value are within ${PAPER_TOLERANCE} points or better.`,
    '',
  );
  lines.push(...table(header, tests.map((t) => [t, ...models.map((m) => {
    const v = verdicts.find((x) => x.model === m && x.test === t);
    if (!v) return '–';
    return `${v.diff >= 0 ? '+' : ''}${v.diff.toFixed(1)} ${v.within ? '✓' : '✗'}`;
  })])));
  const missing = models.filter((m) => !isPaperModel(m) && m !== 'hcn' && tests.every((t) => paperCellOf(t, m) === undefined));
  if (missing.length > 0) lines.push('', `No paper value shown for ${missing.join(', ')}: the values of the paper's appendix Table 10 could not be verified (its text was not available to us), so they are left out rather than guessed.`);
  if (result.notes.length > 0) lines.push('', '## Notes', '', ...result.notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

const COLOURS: Readonly<Record<BenchmarkModel, string>> = {
  tfidf: '#4e79a7',
  'tfidf+type': '#f28e2b',
  nn: '#e15759',
  embeddings: '#76b7b2',
  memn2n: '#59a14f',
  'memn2n+match': '#b07aa1',
  'embeddings+match': '#edc948',
  'embeddings+bigrams': '#ff9da7',
  hcn: '#9c755f',
};

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Grouped bar chart: one group per test set, one bar per model (ours), a dark tick at the paper's value.
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
  const barW = 14;
  const gap = 22;
  const groupW = Math.max(1, models.length) * barW + gap;
  const left = 64;
  const top = 48;
  const plotH = 300;
  const perRow = 3;
  const legendW = 290;
  const legendH = 24 * Math.ceil((models.length + 1) / perRow) + 12;
  const width = Math.max(perRow * legendW + left, left + tests.length * groupW + 20);
  const height = top + plotH + 30 + legendH;
  const y = (pctValue: number): number => top + plotH - (plotH * pctValue) / 100;
  const f = (x: number): string => x.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="bold">${esc(`Per-response test accuracy (%), profile ${info.profile}: bars = dialogym, black ticks = paper`)}</text>`,
    `<text transform="translate(16 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">per-response accuracy (%)</text>`,
  ];
  for (let v = 0; v <= 100; v += 20) {
    out.push(`<line x1="${left}" y1="${f(y(v))}" x2="${width - 10}" y2="${f(y(v))}" stroke="#dddddd"/>`);
    out.push(`<text x="${left - 6}" y="${f(y(v) + 4)}" text-anchor="end">${v}</text>`);
  }
  tests.forEach((t, gi) => {
    const gx = left + gap / 2 + gi * groupW;
    models.forEach((m, mi) => {
      const x = gx + mi * barW;
      const r = find(result.rows, m, t);
      if (r) {
        const v = 100 * r.perResponse;
        out.push(`<rect class="bar" data-model="${esc(m)}" data-test="${t}" x="${f(x)}" y="${f(y(v))}" width="${barW - 2}" height="${f(top + plotH - y(v))}" fill="${COLOURS[m]}"><title>${esc(`${m} ${t}: ${v.toFixed(1)}% (${paperCellOf(t, m) ? `paper ${paperCellOf(t, m)?.perResponse}%` : 'not in the paper'})`)}</title></rect>`);
      }
      const pc = paperCellOf(t, m);
      if (pc === undefined) return;
      const p = pc.perResponse;
      out.push(`<line class="paper" data-model="${esc(m)}" data-test="${t}" x1="${f(x - 1)}" y1="${f(y(p))}" x2="${f(x + barW - 1)}" y2="${f(y(p))}" stroke="#222222" stroke-width="2"/>`);
    });
    out.push(`<text x="${f(gx + (models.length * barW) / 2)}" y="${top + plotH + 18}" text-anchor="middle" font-weight="bold">${t}</text>`);
  });
  out.push(`<line x1="${left}" y1="${top + plotH}" x2="${width - 10}" y2="${top + plotH}" stroke="#444444"/>`);
  const legend = (i: number): { lx: number; ly: number } => ({ lx: left + (i % perRow) * legendW, ly: top + plotH + 42 + Math.floor(i / perRow) * 24 });
  models.forEach((m, i) => {
    const { lx, ly } = legend(i);
    out.push(`<rect x="${lx}" y="${ly - 11}" width="12" height="12" fill="${COLOURS[m]}"/><text x="${lx + 18}" y="${ly}">${esc(PAPER_MODEL_LABELS[m])}</text>`);
  });
  const { lx, ly } = legend(models.length);
  out.push(`<line x1="${lx}" y1="${ly - 5}" x2="${lx + 14}" y2="${ly - 5}" stroke="#222222" stroke-width="2"/><text x="${lx + 18}" y="${ly}">the paper's value</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}
