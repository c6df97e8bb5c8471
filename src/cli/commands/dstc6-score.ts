/**
 * `dialogym dstc6 score`: the run itself (the official score.py's P@1/2/5, plus MRR and counts, for
 * one result file or several), and the plain command-line reader that lets a plain
 * `dialogym dstc6 score --result … --answers …` run without loading commander (the manifest's
 * `plain` entry for dstc6, ./index.ts). ./dstc6.ts registers the same flags with commander, for
 * help, errors and every unusual command line; test/cli-plain.test.ts checks that both read every
 * command line the plain reader accepts alike.
 */
import { basename, dirname } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { meanReciprocalRank, precisionAtK } from '../../metrics/ranking.js';
import { scoreDstc6FilesQuickly, type Dstc6Score } from '../../testbeds/dstc6/score-quick.js';
import { action, fileList, inputPath, intFlag, isFolder, writeStdoutSync } from '../plain.js';

/** The options of `dstc6 score`, as commander gives them to the action. */
export interface ScoreFlags {
  readonly result: readonly string[];
  readonly answers: string;
  readonly nbCandidates: number;
  readonly json?: boolean;
}

/**
 * Runs `dstc6 score` with parsed options: one result's score as score.py prints it, or a line per
 * file and the total, written in one piece by `write` (default: process.stdout). Files that are
 * exactly result files are scored by ./score-quick.ts alone; the checking readers (./score.ts,
 * the format code) are loaded only for another file.
 */
export async function runScore(o: ScoreFlags, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const results = fileList('--result', o.result, '.json');
  const truths = truthFiles(results, o.answers.split(',').map((p) => (p === '' ? p : inputPath('--answers', p))).join(','));
  const scores: Dstc6Score[] = [];
  for (const [i, r] of results.entries()) {
    const truth = truths[i] as string;
    const opts = { nbCandidates: o.nbCandidates };
    const s = scoreDstc6FilesQuickly(r, truth, opts) ?? (await import('../../testbeds/dstc6/score.js')).scoreDstc6Files(r, truth, opts);
    if (s.duplicated > 0) process.stderr.write(`warning: ${s.duplicated} dialogs listed more than once in ${r}; the last listing counts\n`);
    scores.push(s);
  }
  const lines = results.length === 1 ? scoreLines(scores[0] as Dstc6Score, o.json === true) : tableLines(results, truths, scores, o.json === true);
  write(lines.map((l) => `${l}\n`).join(''));
}

/** Several results' lines: one per file and the total, or one JSON line. */
function tableLines(results: readonly string[], truths: readonly string[], scores: readonly Dstc6Score[], json: boolean): string[] {
  const rows = scores.map((s, i) => ({ result: results[i] as string, truth: truths[i] as string, ...scoreFigures(s) }));
  const total = scoreFigures(totalScore(scores));
  if (json) return [JSON.stringify({ files: rows, total: { files: rows.length, ...total } })];
  const width = Math.max(...rows.map((r) => r.result.length));
  const line = (name: string, f: ScoreFigures): string =>
    `${name.padEnd(width)}  P@1 ${f.p1.toFixed(4)}  P@2 ${f.p2.toFixed(4)}  P@5 ${f.p5.toFixed(4)}  MRR ${f.mrr.toFixed(4)}  dialogs ${f.dialogs} (missing ${f.missing})`;
  return [...rows.map((r) => line(r.result, r)), line(`total (${rows.length} files)`, total)];
}

/** A float as Python's str() prints it (0.0, 0.427), so output matches score.py's. */
function pyFloat(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

interface ScoreFigures {
  readonly p1: number;
  readonly p2: number;
  readonly p5: number;
  readonly mrr: number;
  readonly dialogs: number;
  readonly missing: number;
}

function scoreFigures(s: Dstc6Score): ScoreFigures {
  const p = (k: number): number => precisionAtK.value(s.precision, k);
  return { p1: p(1), p2: p(2), p5: p(5), mrr: meanReciprocalRank.value(s.mrr), dialogs: s.dialogs, missing: s.missing };
}

/** Several files' scores pooled over all their dialogs. */
function totalScore(scores: readonly Dstc6Score[]): Dstc6Score {
  return scores.reduce((a, b) => ({
    precision: precisionAtK.merge(a.precision, b.precision),
    mrr: meanReciprocalRank.merge(a.mrr, b.mrr),
    dialogs: a.dialogs + b.dialogs,
    missing: a.missing + b.missing,
    duplicated: a.duplicated + b.duplicated,
  }));
}

/** One result's score, as score.py prints it (plus MRR and counts), or as JSON. */
function scoreLines(s: Dstc6Score, json: boolean): string[] {
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

const ANSWERS = '.answers.json';

/**
 * The answers file of each result. `truth` is one answers file (for every result), one per result
 * (comma-separated, in order), or a folder: there a result named `<name>.json`,
 * `<name>.answers.json` or `<name>.<anything>.json` takes `<name>.answers.json` (the longest such
 * name; among equal names, the one in a folder named like the result's).
 */
function truthFiles(results: readonly string[], truth: string): string[] {
  const folder = !truth.includes(',') && isFolder(truth) === true;
  if (!folder) {
    const files = fileList('--answers', truth, '.json');
    if (files.length === 1) return results.map(() => files[0] as string);
    if (files.length === results.length) return files;
    throw new ConfigError(`--answers: ${files.length} answers files for ${results.length} results (give one, one per result in the same order, or a folder)`);
  }
  const byName = new Map<string, string[]>();
  for (const f of fileList('--answers', truth, ANSWERS)) {
    const name = basename(f).slice(0, -ANSWERS.length);
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  return results.map((r) => {
    const base = basename(r);
    let best: string | undefined;
    for (const name of byName.keys()) {
      if ((base === `${name}.json` || base.startsWith(`${name}.`)) && (best === undefined || name.length > best.length)) best = name;
    }
    if (best === undefined) throw new ConfigError(`--answers: no <name>${ANSWERS} in ${truth} for the result ${r} (its name must start with the test file's name)`);
    const found = byName.get(best) as string[];
    const same = found.length === 1 ? found : found.filter((f) => basename(dirname(f)) === basename(dirname(r)));
    if (same.length !== 1) throw new ConfigError(`--answers: ${found.length} files named ${best}${ANSWERS} in ${truth} for the result ${r}; put it in a folder named like theirs`);
    return same[0] as string;
  });
}

/** `--nb-candidates`: the parser of its value and its default (score.py's --input-nb-candidate). */
export const nbCandidatesFlag = intFlag('--nb-candidates', 1);
export const NB_CANDIDATES = 10;

/** The long flags of `dstc6 score` the plain reader knows (`--truth`: the hidden alias of `--answers`); test/cli-plain.test.ts checks them against the commander command. */
export const PLAIN_SCORE_FLAGS: readonly string[] = ['--result', '--answers', '--truth', '--nb-candidates', '--json'];

/**
 * The options of a plain `dstc6 score` command line (`args`: the words after `score`), read as
 * commander reads them, or undefined for anything else — help, an unknown or misspelt flag, a
 * missing or dash-led value, a bad `--nb-candidates`, a word that is no flag's value, `--` —, which
 * then goes through commander (same help, same errors). Plain means: `--result <file...>` (its
 * values up to the next word starting with `-`; repeatable), `--answers|--truth <file>`,
 * `--nb-candidates <n>`, each also as `--flag=value`, `--json`, and the global `--debug` anywhere.
 */
export function plainScoreFlags(args: readonly string[]): ScoreFlags | undefined {
  const result: string[] = [];
  let answers: string | undefined;
  let nbCandidates = NB_CANDIDATES;
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
        try {
          nbCandidates = nbCandidatesFlag(value);
        } catch {
          return undefined;
        }
      } else return undefined;
    }
  }
  if (result.length === 0 || answers === undefined) return undefined;
  return { result, answers, nbCandidates, ...(json ? { json } : {}) };
}

/** Runs `dstc6 score` when `args` (the words after `score`) are a plain command line (`plainScoreFlags`); false otherwise. */
export async function runPlainScore(args: readonly string[]): Promise<boolean> {
  const flags = plainScoreFlags(args);
  if (flags === undefined) return false;
  await action(runScore)(flags, writeStdoutSync);
  return true;
}
