/**
 * A study's report (KB-InfoBot's Figure 3, for any environment and agents): per agent the finished
 * dialogues, the success rate with its 95 % Wilson score interval, the mean turns and reward, the
 * answers to the questions (ratings: mean and counts); pairwise two-sided permutation tests of the
 * difference in success and in turns (`metrics/permutation.ts`: exact for successes and for small
 * samples, seeded Monte-Carlo otherwise); the turn distributions and success rates as print-ready
 * SVG charts; the same as LaTeX (booktabs), Markdown and JSON; and every finished session as an
 * `evaluate` transcript line with its `agent` (all in `transcripts.jsonl`, and one file per agent
 * under `transcripts/`, which `dialogym view` lists as runs to filter and compare). Open and
 * abandoned sessions are counted in the header, never in the figures.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../core/files.js';
import { hashString } from '../core/rng.js';
import { count } from '../core/text.js';
import { permutationTest, wilsonInterval, type PermutationResult } from '../metrics/permutation.js';
import { meanSd } from '../metrics/stats.js';
import { booktabsTable, latexEscape } from '../report/latex.js';
import { dotPlotSvg } from '../report/dotplot.js';
import { turnsChartSvg } from './chart.js';
import type { AdminSession, StudyStore } from './store.js';
import type { StudyConfig } from './config.js';

/** Options of the permutation tests of a report. */
export interface ReportOptions {
  /** Monte-Carlo draws of a test not computed exactly (default 20,000). */
  readonly samples?: number;
  /** Enumerate the relabellings up to this many (default 200,000). */
  readonly maxExact?: number;
}

/** The answers to one question for one agent. */
export interface QuestionSummary {
  readonly n: number;
  /** Mean rating (ratings only). */
  readonly mean?: number;
  /** rating → answers (ratings only). */
  readonly counts?: Readonly<Record<string, number>>;
}

/**
 * One agent's figures.
 *
 * @example
 * ```ts
 * import { StudyStore, studyReport, type AgentFigures } from 'dialogym';
 * const a: AgentFigures | undefined = studyReport(StudyStore.open('my-study')).agents[0];
 * console.log(a?.agent, a?.dialogues, a?.success, a?.interval, a?.avgTurns);
 * ```
 */
export interface AgentFigures {
  readonly agent: string;
  readonly dialogues: number;
  readonly successes: number;
  readonly success: number;
  /** 95 % Wilson score interval of the success rate. */
  readonly interval: readonly [number, number];
  readonly avgTurns: number;
  readonly sdTurns: number;
  readonly avgReward: number;
  /** turns → dialogues. */
  readonly turns: Readonly<Record<string, number>>;
  readonly questions: Readonly<Record<string, QuestionSummary>>;
}

/**
 * One pair of agents compared.
 *
 * @example
 * ```ts
 * import { StudyStore, studyReport, type PairFigures } from 'dialogym';
 * for (const p of studyReport(StudyStore.open('my-study')).pairs as PairFigures[]) console.log(p.a, p.b, p.success.p, p.turns.p);
 * ```
 */
export interface PairFigures {
  readonly a: string;
  readonly b: string;
  /** On success (1/0 per dialogue). */
  readonly success: PermutationResult;
  /** On turns per dialogue. */
  readonly turns: PermutationResult;
}

/**
 * What `report.json` holds.
 *
 * @example
 * ```ts
 * import { StudyStore, studyReport, type StudyReport } from 'dialogym';
 * const r: StudyReport = studyReport(StudyStore.open('my-study'), { samples: 50_000 });
 * console.log(r.finished, r.open, r.abandoned, r.interval);
 * ```
 */
export interface StudyReport {
  readonly title: string;
  readonly env: string;
  readonly role: StudyConfig['role'];
  readonly participants: number;
  readonly finished: number;
  readonly open: number;
  readonly abandoned: number;
  readonly interval: 'Wilson score, 95 %';
  readonly test: { readonly kind: 'two-sided permutation test on the difference of means'; readonly samples: number; readonly maxExact: number; readonly seed: number };
  readonly agents: readonly AgentFigures[];
  readonly pairs: readonly PairFigures[];
}

const turnsOf = (s: AdminSession): number => s.outcome?.turns ?? 0;

/**
 * The report's figures from a store (module description).
 *
 * @example
 * ```ts
 * import { StudyStore, studyReport } from 'dialogym';
 * const store = StudyStore.open('my-study');
 * const r = studyReport(store);
 * for (const a of r.agents) console.log(a.agent, a.success, a.interval);
 * ```
 */
export function studyReport(store: StudyStore, o: ReportOptions = {}): StudyReport {
  const config = store.config;
  const all = store.sessions();
  const finished = all.filter((s) => s.status === 'finished');
  const samples = o.samples ?? 20_000;
  const maxExact = o.maxExact ?? 200_000;
  const by = new Map<string, AdminSession[]>(config.agents.map((a) => [a.label, []]));
  for (const s of finished) by.get(s.agent)?.push(s);
  const agents: AgentFigures[] = config.agents.map((a) => {
    const ss = by.get(a.label) ?? [];
    const successes = ss.filter((s) => s.outcome?.success).length;
    const turns = ss.map(turnsOf);
    const { mean, sd } = ss.length > 0 ? meanSd(turns) : { mean: 0, sd: 0 };
    const counts: Record<string, number> = {};
    for (const t of [...turns].sort((x, y) => x - y)) counts[String(t)] = (counts[String(t)] ?? 0) + 1;
    const questions: Record<string, QuestionSummary> = {};
    for (const q of config.questions) {
      const answers = ss.map((s) => s.answers[q.id]).filter((v) => v !== undefined);
      if (q.type === 'rating') {
        const nums = answers.filter((v): v is number => typeof v === 'number');
        const c: Record<string, number> = {};
        for (let r = q.min; r <= q.max; r++) c[String(r)] = nums.filter((v) => v === r).length;
        questions[q.id] = { n: nums.length, ...(nums.length > 0 ? { mean: nums.reduce((x, y) => x + y, 0) / nums.length } : {}), counts: c };
      } else questions[q.id] = { n: answers.length };
    }
    return {
      agent: a.label,
      dialogues: ss.length,
      successes,
      success: ss.length > 0 ? successes / ss.length : 0,
      interval: wilsonInterval(successes, ss.length),
      avgTurns: mean,
      sdTurns: sd,
      avgReward: ss.length > 0 ? ss.reduce((x, s) => x + (s.outcome?.reward ?? 0), 0) / ss.length : 0,
      turns: counts,
      questions,
    };
  });
  const pairs: PairFigures[] = [];
  for (let i = 0; i < config.agents.length; i++) {
    for (let j = i + 1; j < config.agents.length; j++) {
      const a = (config.agents[i] as { label: string }).label;
      const b = (config.agents[j] as { label: string }).label;
      const sa = by.get(a) ?? [];
      const sb = by.get(b) ?? [];
      if (sa.length === 0 || sb.length === 0) continue;
      const test = (what: string, f: (s: AdminSession) => number): PermutationResult => permutationTest(sa.map(f), sb.map(f), { samples, maxExact, seed: hashString(`${config.seed} ${a} ${b} ${what}`) });
      pairs.push({ a, b, success: test('success', (s) => (s.outcome?.success ? 1 : 0)), turns: test('turns', turnsOf) });
    }
  }
  return {
    title: config.title,
    env: config.env,
    role: config.role,
    participants: store.participantLabels().length,
    finished: finished.length,
    open: all.filter((s) => s.status === 'open').length,
    abandoned: all.filter((s) => s.status === 'abandoned').length,
    interval: 'Wilson score, 95 %',
    test: { kind: 'two-sided permutation test on the difference of means', samples, maxExact, seed: config.seed },
    agents,
    pairs,
  };
}

const pct = (x: number): string => (100 * x).toFixed(1);
/** A p-value as printed: 3 significant places, `< 0.001` below. */
export function formatP(p: number): string {
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}
const how = (t: PermutationResult): string => (t.method === 'exact' ? 'exact' : `MC ${t.permutations}`);

/** The report as Markdown (one heading, the agents' table, the pairwise tests, the turn counts). */
export function reportMarkdown(r: StudyReport, config: StudyConfig): string {
  const qs = config.questions;
  const head = ['agent', 'dialogues', 'success %', '95 % interval (Wilson)', 'avg turns (sd)', 'avg reward', ...qs.map((q) => q.id)];
  const lines = [
    `# ${r.title}: report`,
    '',
    `${r.env}, people play the ${r.role}: ${count(r.finished, 'finished dialogue')} of ${count(r.participants, 'participant')} (not counted: ${r.open} open, ${r.abandoned} abandoned).`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 || i === 3 ? '---' : '---:')).join('|')}|`,
    ...r.agents.map((a) => {
      const answers = qs.map((q) => {
        const s = a.questions[q.id];
        return s === undefined || s.n === 0 ? '–' : s.mean !== undefined ? `${s.mean.toFixed(2)} (n ${s.n})` : `${s.n} answers`;
      });
      if (a.dialogues === 0) return `| ${[a.agent, '0', '–', '–', '–', '–', ...answers].join(' | ')} |`;
      return `| ${[a.agent, String(a.dialogues), pct(a.success), `${pct(a.interval[0])}–${pct(a.interval[1])}`, `${a.avgTurns.toFixed(2)} (${a.sdTurns.toFixed(2)})`, a.avgReward.toFixed(3), ...answers].join(' | ')} |`;
    }),
  ];
  if (qs.length > 0) lines.push('', ...qs.map((q) => `- ${q.id}: ${q.text}${q.type === 'rating' ? ` (${q.min}–${q.max})` : ''}`));
  if (r.pairs.length > 0) {
    lines.push('', '## Pairwise tests', '', `Two-sided permutation tests on the difference of means (exact where the relabellings are enumerated or the values are successes; MC n: Monte-Carlo with n draws, seed ${r.test.seed}).`, '');
    lines.push('| agents | Δ success (points) | p (success) | Δ turns | p (turns) |', '|---|---:|---:|---:|---:|');
    for (const p of r.pairs) lines.push(`| ${p.a} – ${p.b} | ${(100 * p.success.difference).toFixed(1)} | ${formatP(p.success.p)} (${how(p.success)}) | ${p.turns.difference.toFixed(2)} | ${formatP(p.turns.p)} (${how(p.turns)}) |`);
  }
  const maxT = Math.max(0, ...r.agents.flatMap((a) => Object.keys(a.turns).map(Number)));
  if (maxT > 0) {
    lines.push('', '## Turns per dialogue', '', `| turns | ${r.agents.map((a) => a.agent).join(' | ')} |`, `|---:|${r.agents.map(() => '---:').join('|')}|`);
    for (let t = 1; t <= maxT; t++) if (r.agents.some((a) => a.turns[String(t)])) lines.push(`| ${t} | ${r.agents.map((a) => String(a.turns[String(t)] ?? 0)).join(' | ')} |`);
  }
  lines.push('', 'Charts: `report.svg` (success with its interval), `turns.svg` (turns per dialogue). Transcripts: `transcripts.jsonl` (`dialogym view` shows them; one run per agent under `transcripts/`).');
  return lines.join('\n') + '\n';
}

/** A number for LaTeX: a negative one in math mode (a minus sign, not the text hyphen `-0.63` would print). */
const texNumber = (s: string): string => (s.startsWith('-') ? `$${s}$` : s);

/** The report as LaTeX: the agents' table and the pairwise tests (booktabs). */
export function reportLatex(r: StudyReport): string {
  const agents = booktabsTable({
    align: 'lrrcrr',
    header: [['Agent', 'Dialogues', 'Success (\\%)', '95\\,\\% interval', 'Turns', 'Reward']],
    body: r.agents.map((a) => (a.dialogues === 0 ? [latexEscape(a.agent), '0', '--', '--', '--', '--'] : [latexEscape(a.agent), String(a.dialogues), pct(a.success), `${pct(a.interval[0])}--${pct(a.interval[1])}`, `${a.avgTurns.toFixed(2)}`, texNumber(a.avgReward.toFixed(2))])),
    caption: `${latexEscape(r.title)}: ${r.finished} dialogue${r.finished === 1 ? '' : 's'} on ${latexEscape(r.env)}. Success rate with its 95\\,\\% Wilson score interval, mean turns and reward per dialogue.`,
    label: 'tab:study-agents',
  });
  if (r.pairs.length === 0) return agents;
  const pairs = booktabsTable({
    align: 'lrrrr',
    header: [['Agents', '$\\Delta$ success', '$p$', '$\\Delta$ turns', '$p$']],
    body: r.pairs.map((p) => [`${latexEscape(p.a)} -- ${latexEscape(p.b)}`, texNumber((100 * p.success.difference).toFixed(1)), formatP(p.success.p).replace('<', '$<$'), texNumber(p.turns.difference.toFixed(2)), formatP(p.turns.p).replace('<', '$<$')]),
    caption: `Pairwise two-sided permutation tests on the difference of means (success in points, turns per dialogue).`,
    label: 'tab:study-pairs',
  });
  return `${agents}\n${pairs}`;
}

/** The files {@link writeStudyReport} writes, relative to its folder. */
export const REPORT_FILES = ['report.json', 'report.md', 'report.tex', 'report.svg', 'turns.svg', 'transcripts.jsonl'] as const;

/**
 * Writes the report of the study in `store` into `outDir` (each file atomically): `REPORT_FILES`
 * and `transcripts/<agent>.jsonl` per agent with dialogues. Returns the report.
 *
 * @example
 * ```ts
 * import { StudyStore, writeStudyReport } from 'dialogym';
 * const store = StudyStore.open('my-study');
 * writeStudyReport(store, 'my-study/report');
 * store.close();
 * ```
 */
export function writeStudyReport(store: StudyStore, outDir: string, o: ReportOptions = {}): StudyReport {
  const r = studyReport(store, o);
  const config = store.config;
  writeFileAtomic(join(outDir, 'report.json'), JSON.stringify(r, null, 2) + '\n');
  writeFileAtomic(join(outDir, 'report.md'), reportMarkdown(r, config));
  writeFileAtomic(join(outDir, 'report.tex'), reportLatex(r));
  writeFileAtomic(
    join(outDir, 'report.svg'),
    dotPlotSvg([{ title: 'Success rate', rows: r.agents.map((a) => ({ label: `${a.agent} (n ${a.dialogues})`, ours: { mean: a.success }, band: a.interval, title: `${a.agent}: ${a.successes} of ${a.dialogues} (${pct(a.success)} %), 95 % interval ${pct(a.interval[0])}–${pct(a.interval[1])} %`, data: { agent: a.agent } })) }], {
      title: `${r.title}: success per agent`,
      subtitle: `${r.finished} dialogue${r.finished === 1 ? '' : 's'} on ${r.env} (n: the agent's dialogues)`,
      xLabel: 'success rate',
      domain: [0, 1],
      ticks: [0, 0.25, 0.5, 0.75, 1],
      tickDigits: 2,
      columns: 1,
      labelWidth: 120,
      legend: { ours: 'success rate', band: '95 % interval (Wilson)' },
    }),
  );
  writeFileAtomic(
    join(outDir, 'turns.svg'),
    turnsChartSvg(
      r.agents.map((a) => ({ label: a.agent, counts: new Map(Object.entries(a.turns).map(([t, c]) => [Number(t), c])), mean: a.avgTurns })),
      { title: `${r.title}: turns per dialogue`, subtitle: `share of each agent's dialogues by number of turns; ${r.env}` },
    ),
  );
  const finished = store.sessions('finished');
  const line = (s: AdminSession): string => JSON.stringify({ ...(s.record ?? { env: config.env, episode: s.id - 1, trial: 0, seed: s.seed, ...s.outcome, actions: [], observation: null }), agent: s.agent });
  writeFileAtomic(join(outDir, 'transcripts.jsonl'), finished.map((s) => line(s) + '\n').join(''));
  for (const a of config.agents) {
    const mine = finished.filter((s) => s.agent === a.label);
    if (mine.length > 0) writeFileAtomic(join(outDir, 'transcripts', `${a.label}.jsonl`), mine.map((s) => line(s) + '\n').join(''));
  }
  return r;
}
