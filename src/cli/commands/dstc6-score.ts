/**
 * `dialogym dstc6 score`: the run itself (the official score.py's P@1/2/5, plus MRR and counts, for
 * one result file or several) inside the ES modules, with dataset references resolved and files
 * that are not exactly result files read by the checking readers; ./dstc6-score-plain.cts holds
 * the plain command-line reader, the answers matching and the output it shares with the CommonJS
 * entry's fast path (../main.cts). ./dstc6.ts registers the same flags with commander, for help,
 * errors and every unusual command line; test/cli-plain.test.ts checks that all paths read every
 * command line the plain reader accepts alike.
 */
import { ConfigError } from '../../core/errors.js';
import { scoreDstc6FilesQuickly } from '../../testbeds/dstc6/score-quick.js';
import { action, fileList, inputPath, intFlag, writeStdoutSync } from '../plain.js';
import { duplicatedWarning, plainScoreFlags, scoreOutput, truthFiles, type ScoreFlags } from './dstc6-score-plain.cjs';

export { NB_CANDIDATES, PLAIN_SCORE_FLAGS, plainScoreFlags, type ScoreFlags } from './dstc6-score-plain.cjs';

/**
 * Runs `dstc6 score` with parsed options: one result's score as score.py prints it, or a line per
 * file and the total, written in one piece by `write` (default: process.stdout). Files that are
 * exactly result files are scored by ../../testbeds/dstc6/score-quick.ts alone; the checking
 * readers (score.ts, the format code) are loaded only for another file.
 */
export async function runScore(o: ScoreFlags, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const results = fileList('--result', o.result, '.json');
  const fail = (reason: string): never => {
    throw new ConfigError(reason);
  };
  const answers = o.answers.split(',').map((p) => (p === '' ? p : inputPath('--answers', p))).join(',');
  const truths = truthFiles(results, answers, (v, ext) => fileList('--answers', v, ext), fail);
  const cache = new Map<string, ReadonlyMap<string, string> | undefined>();
  const scores = [];
  for (const [i, r] of results.entries()) {
    const truth = truths[i] as string;
    const opts = { nbCandidates: o.nbCandidates };
    const s = scoreDstc6FilesQuickly(r, truth, opts, cache) ?? (await import('../../testbeds/dstc6/score.js')).scoreDstc6Files(r, truth, opts);
    const warning = duplicatedWarning(s, r);
    if (warning !== '') process.stderr.write(warning);
    scores.push(s);
  }
  write(scoreOutput(results, truths, scores, o.json === true));
}

/** `--nb-candidates`: the parser of its value (commander's; the plain reader takes the same values). */
export const nbCandidatesFlag = intFlag('--nb-candidates', 1);

/** Runs `dstc6 score` when `args` (the words after `score`) are a plain command line (`plainScoreFlags`); false otherwise. */
export async function runPlainScore(args: readonly string[]): Promise<boolean> {
  const flags = plainScoreFlags(args);
  if (flags === undefined) return false;
  await action(runScore)(flags, writeStdoutSync);
  return true;
}
