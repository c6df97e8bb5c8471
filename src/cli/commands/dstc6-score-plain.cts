/**
 * `dialogym dstc6 score` without commander and without the ES module loader: the plain
 * command-line reader, the answers file of each result, the output (score.py's lines, or a line
 * per file and the pooled total), and `runScoreFast`, which the CommonJS entry (../main.cts) runs
 * on a plain command line. ./dstc6-score.ts runs the same functions inside the ES modules (every
 * command line the fast path leaves: dataset references, files that are not exactly result files,
 * errors) and ./dstc6.ts registers the flags with commander; test/cli-plain.test.ts checks that
 * all of them read and print alike.
 */
import { basename, dirname } from 'node:path';
import { scoreFilesQuickly, type QuickScore } from '../../testbeds/dstc6/score-scan.cjs';
import { isFolder, listFiles, writeStdoutSync, writeSyncOut } from '../plain-io.cjs';

/** The options of `dstc6 score`, as commander gives them to the action. */
export interface ScoreFlags {
  readonly result: readonly string[];
  readonly answers: string;
  readonly nbCandidates: number;
  readonly json?: boolean;
}

/** `--nb-candidates`' default (score.py's --input-nb-candidate). */
export const NB_CANDIDATES = 10;
/** The k of P@k printed. */
export const SCORE_KS: readonly number[] = [1, 2, 5];

/** The long flags of `dstc6 score` the plain reader knows (`--truth`: the hidden alias of `--answers`); test/cli-plain.test.ts checks them against the commander command. */
export const PLAIN_SCORE_FLAGS: readonly string[] = ['--result', '--answers', '--truth', '--nb-candidates', '--json'];

/** A `--nb-candidates` value commander's parser takes (an integer >= 1), or undefined (commander then says why). */
function nbCandidates(v: string): number | undefined {
  if (!/^-?\d+$/.test(v.trim())) return undefined;
  const n = Number(v);
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The options of a plain `dstc6 score` command line (`args`: the words after `score`), read as
 * commander reads them, or undefined for anything else - help, an unknown or misspelt flag, a
 * missing or dash-led value, a bad `--nb-candidates`, a word that is no flag's value, `--` -, which
 * then goes through commander (same help, same errors). Plain means: `--result <file...>` (its
 * values up to the next word starting with `-`; repeatable), `--answers|--truth <file>`,
 * `--nb-candidates <n>`, each also as `--flag=value`, `--json`, and the global `--debug` anywhere.
 */
export function plainScoreFlags(args: readonly string[]): ScoreFlags | undefined {
  const result: string[] = [];
  let answers: string | undefined;
  let nb = NB_CANDIDATES;
  let json = false;
  let moreResults = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (moreResults && !arg.startsWith('-')) {
      result.push(arg);
      continue;
    }
    moreResults = false;
    if (arg === '--json') json = true;
    else if (arg === '--debug') continue;
    else {
      const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
      const flag = eq > 2 ? arg.slice(0, eq) : arg;
      const value = eq > 2 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === '' || (eq < 0 && value.startsWith('-'))) return undefined;
      if (flag === '--result') {
        result.push(value);
        moreResults = eq < 0;
      } else if (flag === '--answers' || flag === '--truth') answers = value;
      else if (flag === '--nb-candidates') {
        const n = nbCandidates(value);
        if (n === undefined) return undefined;
        nb = n;
      } else return undefined;
    }
  }
  if (result.length === 0 || answers === undefined) return undefined;
  return { result, answers, nbCandidates: nb, ...(json ? { json } : {}) };
}

const ANSWERS = '.answers.json';

/**
 * The answers file of each result. `truth` is one answers file (for every result), one per result
 * (comma-separated, in order), or a folder: there a result named `<name>.json`,
 * `<name>.answers.json` or `<name>.<anything>.json` takes `<name>.answers.json` (the longest such
 * name; among equal names, the one in a folder named like the result's). `list` lists the files
 * of `--answers` (./plain-io.cts `listFiles`); `fail` is called (and throws) with a reason.
 */
export function truthFiles(results: readonly string[], truth: string, list: (value: string, ext: string) => string[], fail: (reason: string) => never): string[] {
  const folder = !truth.includes(',') && isFolder(truth) === true;
  if (!folder) {
    const files = list(truth, '.json');
    if (files.length === 1) return results.map(() => files[0] as string);
    if (files.length === results.length) return files;
    fail(`--answers: ${files.length} answers files for ${results.length} results (give one, one per result in the same order, or a folder)`);
  }
  const byName = new Map<string, string[]>();
  for (const f of list(truth, ANSWERS)) {
    const name = basename(f).slice(0, -ANSWERS.length);
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  return results.map((r) => {
    const base = basename(r);
    let best: string | undefined;
    for (const name of byName.keys()) {
      if ((base === `${name}.json` || base.startsWith(`${name}.`)) && (best === undefined || name.length > best.length)) best = name;
    }
    if (best === undefined) fail(`--answers: no <name>${ANSWERS} in ${truth} for the result ${r} (its name must start with the test file's name)`);
    const found = byName.get(best) as string[];
    const same = found.length === 1 ? found : found.filter((f) => basename(dirname(f)) === basename(dirname(r)));
    if (same.length !== 1) fail(`--answers: ${found.length} files named ${best}${ANSWERS} in ${truth} for the result ${r}; put it in a folder named like theirs`);
    return same[0] as string;
  });
}

/** The warning for a result that lists dialogs more than once, or '' (stderr). */
export function duplicatedWarning(s: QuickScore, result: string): string {
  return s.duplicated > 0 ? `warning: ${s.duplicated} dialogs listed more than once in ${result}; the last listing counts\n` : '';
}

interface ScoreFigures {
  readonly p1: number;
  readonly p2: number;
  readonly p5: number;
  readonly mrr: number;
  readonly dialogs: number;
  readonly missing: number;
}

/** P@k as metrics/ranking.ts `precisionAtK.value` reads it (0 with no examples). */
function precision(s: QuickScore, k: number): number {
  return s.precision.examples === 0 ? 0 : (s.precision.hits[s.precision.ks.indexOf(k)] as number) / s.precision.examples;
}

function scoreFigures(s: QuickScore): ScoreFigures {
  const mrr = s.mrr.examples === 0 ? 0 : s.mrr.sum / s.mrr.examples;
  return { p1: precision(s, 1), p2: precision(s, 2), p5: precision(s, 5), mrr, dialogs: s.dialogs, missing: s.missing };
}

/** Several files' scores pooled over all their dialogs (sums in file order, as metrics/ranking.ts `merge`). */
function totalScore(scores: readonly QuickScore[]): QuickScore {
  return scores.reduce((a, b) => ({
    precision: { ks: a.precision.ks, examples: a.precision.examples + b.precision.examples, hits: a.precision.hits.map((h, i) => h + (b.precision.hits[i] as number)) },
    mrr: { examples: a.mrr.examples + b.mrr.examples, sum: a.mrr.sum + b.mrr.sum },
    dialogs: a.dialogs + b.dialogs,
    missing: a.missing + b.missing,
    duplicated: a.duplicated + b.duplicated,
  }));
}

/** A float as Python's str() prints it (0.0, 0.427), so output matches score.py's. */
function pyFloat(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/** What `dstc6 score` prints: one result's score as score.py prints it (plus MRR and counts), or a line per file and the total; or one JSON line. */
export function scoreOutput(results: readonly string[], truths: readonly string[], scores: readonly QuickScore[], json: boolean): string {
  return `${(results.length === 1 ? scoreLines(scores[0] as QuickScore, json) : tableLines(results, truths, scores, json)).join('\n')}\n`;
}

function scoreLines(s: QuickScore, json: boolean): string[] {
  const f = scoreFigures(s);
  if (json) return [JSON.stringify({ p1: f.p1, p2: f.p2, p5: f.p5, mrr: f.mrr, dialogs: f.dialogs, missing: f.missing })];
  return [
    `Precision @1: ${pyFloat(f.p1)}`,
    `Precision @2: ${pyFloat(f.p2)}`,
    `Precision @5: ${pyFloat(f.p5)}`,
    `MRR: ${f.mrr.toFixed(4)}`,
    `dialogs: ${f.dialogs} (missing from the result: ${f.missing})`,
  ];
}

function tableLines(results: readonly string[], truths: readonly string[], scores: readonly QuickScore[], json: boolean): string[] {
  const rows = scores.map((s, i) => ({ result: results[i] as string, truth: truths[i] as string, ...scoreFigures(s) }));
  const total = scoreFigures(totalScore(scores));
  if (json) return [JSON.stringify({ files: rows, total: { files: rows.length, ...total } })];
  const width = Math.max(...rows.map((r) => r.result.length));
  const line = (name: string, f: ScoreFigures): string =>
    `${name.padEnd(width)}  P@1 ${f.p1.toFixed(4)}  P@2 ${f.p2.toFixed(4)}  P@5 ${f.p5.toFixed(4)}  MRR ${f.mrr.toFixed(4)}  dialogs ${f.dialogs} (missing ${f.missing})`;
  return [...rows.map((r) => line(r.result, r)), line(`total (${rows.length} files)`, total)];
}

/** Thrown inside `runScoreFast` when the command line needs the full CLI. */
function notFast(): never {
  throw new Error('not for the fast path');
}

/**
 * Runs `dstc6 score` when `args` (the words after `score`) are a plain command line whose files are
 * all existing paths (no dataset reference) and exactly result files, and says whether it did;
 * false: nothing was printed, and the full CLI runs it (same output, or its one-line error).
 */
export function runScoreFast(args: readonly string[]): boolean {
  const o = plainScoreFlags(args);
  if (o === undefined) return false;
  let output: string;
  let warnings: string;
  try {
    // An existing path is a path (a dataset reference never shadows one: datasets/refs.ts); read
    // by statSync, which the listing calls anyway (one fs function fewer to compile: ~0.1 ms).
    const path = (v: string): string => (isFolder(v) !== undefined ? v : notFast());
    const results = listFiles(o.result, '.json', path, notFast);
    const truths = truthFiles(results, o.answers.split(',').map((p) => (p === '' ? p : path(p))).join(','), (v, ext) => listFiles(v, ext, path, notFast), notFast);
    const cache = new Map<string, ReadonlyMap<string, string> | undefined>();
    const scores = results.map((r, i) => scoreFilesQuickly(r, truths[i] as string, o.nbCandidates, SCORE_KS, cache) ?? notFast());
    warnings = scores.map((s, i) => duplicatedWarning(s, results[i] as string)).join('');
    output = scoreOutput(results, truths, scores, o.json === true);
  } catch {
    return false; // NotFast, or an error the full CLI reports in one line
  }
  if (warnings !== '') writeSyncOut(warnings, 2);
  writeStdoutSync(output);
  return true;
}
