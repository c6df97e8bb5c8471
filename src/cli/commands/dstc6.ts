/**
 * `dialogym dstc6 …` — the DSTC6 Track 1 official tools: walk (dataset_walker.py), check
 * (check_validity.py, stricter), score (score.py), baseline random|tfidf (baseline_*.py), and
 * rank (any model of the registry).
 */
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { readDstc6Data, readDstc6Results, writeDstc6Results } from '../../formats/dstc6.js';
import { scoreDstc6Files, type Dstc6Score } from '../../testbeds/dstc6/score.js';
import { meanReciprocalRank, precisionAtK } from '../../metrics/ranking.js';
import { progress } from '../progress.js';
import { action, alias, fileList, intFlag, out } from '../run.js';

// Only what `walk`, `check`, `score` and the baselines need is imported above (light modules: no
// model code); `rank` loads the model registry when it is the subcommand being run (or asked about).

/** A float as Python's str() prints it (0.0, 0.427), so output matches score.py's. */
function pyFloat(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/** How many problems `check` lists before summarising. */
const MAX_LISTED_PROBLEMS = 100;

/** Whether the words after `dstc6` run (or ask for the help of) `rank`, whose help lists the models. */
function runsRank(args: readonly string[] | undefined): boolean {
  return args === undefined || args[0] === 'rank' || (args[0] === 'help' && args[1] === 'rank');
}

export async function registerDstc6(program: Command, args?: readonly string[]): Promise<void> {
  const cmd = program.command('dstc6').description('DSTC6 Track 1 tools: walk, check, score, baseline, rank');

  cmd
    .command('walk <data>')
    .description('print a dataset readably (utterances, candidates, the answer marked), or its statistics')
    .option('--answers <file>', 'answers file: mark each dialog\'s true candidate (default: none marked)')
    .option('--stats', 'print dataset_walker.py\'s statistics instead of the dialogs')
    .option('--limit <n>', 'print only the first n dialogs (default: all)', intFlag('--limit', 1))
    .option('--json', 'with --stats: print the statistics as JSON {"entries","utterances","utterancesPerEntry",…}')
    .action(
      action(async (data: string, o: { answers?: string; stats?: boolean; limit?: number; json?: boolean }) => {
        const { answerIds, dstc6Stats, formatDstc6Stats, walkEntry } = await import('../../testbeds/dstc6/walk.js');
        if (o.json && !o.stats) throw new ConfigError('--json goes with --stats (the dialogs themselves are printed as text)');
        const entries = readDstc6Data(data);
        if (o.stats) {
          const s = dstc6Stats(entries);
          if (o.json) {
            const { vocabularyTerms: _terms, vocabularyNonStopTerms: _nonStop, ...figures } = s;
            out(JSON.stringify({ file: data, ...figures }));
            return;
          }
          for (const line of formatDstc6Stats(s)) out(line);
          return;
        }
        const answers = o.answers ? answerIds(readDstc6Results(o.answers)) : undefined;
        const shown = o.limit === undefined ? entries : entries.slice(0, o.limit);
        for (const e of shown) for (const line of walkEntry(e, answers)) out(line);
      }),
    );

  cmd
    .command('check <result>')
    .description('check a result file against its dataset: every dialog once, valid candidate ids, ranks 1..n (exit 1 on problems)')
    .requiredOption('--data <file>', 'the dataset file the result ranks')
    .option('--json', 'print {"valid","ranked","dialogs","problems":[{"entry","dialogId","reason"}]} as JSON (every problem)')
    .action(
      action(async (result: string, o: { data: string; json?: boolean }) => {
        const { checkDstc6Result, formatProblem } = await import('../../testbeds/dstc6/check.js');
        const data = readDstc6Data(o.data);
        const res = readDstc6Results(result);
        const problems = checkDstc6Result(res, data);
        if (problems.length > 0) process.exitCode = 1;
        if (o.json) {
          out(JSON.stringify({ valid: problems.length === 0, ranked: res.length, dialogs: data.length, problems }));
          return;
        }
        if (problems.length === 0) {
          out(`valid: ${res.length} dialogs ranked, all ${data.length} dialogs of ${o.data} present`);
          return;
        }
        for (const p of problems.slice(0, MAX_LISTED_PROBLEMS)) out(`${result}: ${formatProblem(p)}`);
        if (problems.length > MAX_LISTED_PROBLEMS) out(`... and ${problems.length - MAX_LISTED_PROBLEMS} more`);
        out(`invalid: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
      }),
    );

  cmd
    .command('score')
    .description('score results against the answers (official score.py): P@1, P@2, P@5; several files (or folders) in one run, per file and in total')
    .requiredOption('--result <file...>', 'result file(s) to score: several, comma-separated or space-separated, or a folder (its *.json files, recursively)')
    .requiredOption(
      '--answers <file>',
      'answers file (rank 1 = the true candidate); with several results: one answers file for all, one per result (comma-separated, same order), or a folder where each result finds <name>.answers.json by its own name',
    )
    .addOption(alias('--truth <file>', 'answers'))
    .option('--nb-candidates <n>', 'ignore ranks above n, as score.py --input-nb-candidate', intFlag('--nb-candidates', 1), 10)
    .option('--json', 'print {"p1","p2","p5","mrr","dialogs","missing"} as JSON (several results: {"files": [...], "total": {...}})')
    .action(
      action((o: { result: string[]; answers: string; nbCandidates: number; json?: boolean }) => {
        const results = fileList('--result', o.result, '.json');
        const truths = truthFiles(results, o.answers);
        const scores = results.map((r, i) => {
          const truth = truths[i] as string;
          const s = scoreDstc6Files(r, truth, { nbCandidates: o.nbCandidates });
          if (s.duplicated > 0) process.stderr.write(`warning: ${s.duplicated} dialogs listed more than once in ${r}; the last listing counts\n`);
          return s;
        });
        if (results.length === 1) {
          printScore(scores[0] as Dstc6Score, o.json === true);
          return;
        }
        const rows = scores.map((s, i) => ({ result: results[i] as string, truth: truths[i] as string, ...scoreFigures(s) }));
        const total = scoreFigures(totalScore(scores));
        if (o.json) {
          out(JSON.stringify({ files: rows, total: { files: rows.length, ...total } }));
          return;
        }
        const width = Math.max(...rows.map((r) => r.result.length));
        const line = (name: string, f: ScoreFigures): string =>
          `${name.padEnd(width)}  P@1 ${f.p1.toFixed(4)}  P@2 ${f.p2.toFixed(4)}  P@5 ${f.p5.toFixed(4)}  MRR ${f.mrr.toFixed(4)}  dialogs ${f.dialogs} (missing ${f.missing})`;
        for (const r of rows) out(line(r.result, r));
        out(line(`total (${rows.length} files)`, total));
      }),
    );

  const baseline = cmd.command('baseline').description('the official baselines: random, tfidf');
  baseline
    .command('random')
    .description('rank every dialog\'s candidates in a random (seeded) order')
    .requiredOption('--data <file>', 'dataset file')
    .option('--seed <n>', 'random seed', intFlag('--seed', 0, 0xffffffff), 1)
    .requiredOption('--out <file>', 'result file to write')
    .action(
      action(async (o: { data: string; seed: number; out: string }) => {
        const { randomBaseline } = await import('../../testbeds/dstc6/random-baseline.js');
        const entries = readDstc6Data(o.data);
        const results = randomBaseline(entries, o.seed);
        writeDstc6Results(o.out, results);
        out(`wrote ${results.length} rankings to ${o.out}`);
      }),
    );
  baseline
    .command('tfidf')
    .description('the official TF-IDF baseline: candidates ranked by tf-idf similarity with the dialog')
    .requiredOption('--data <file>', 'dataset file')
    .requiredOption('--out <file>', 'result file to write')
    .action(
      action(async (o: { data: string; out: string }) => {
        const { tfidfBaseline } = await import('../../testbeds/dstc6/tfidf-baseline.js');
        const entries = readDstc6Data(o.data);
        const results = tfidfBaseline(entries);
        writeDstc6Results(o.out, results);
        out(`wrote ${results.length} rankings to ${o.out}`);
      }),
    );

  // The model list of `rank --help` needs the registry, so it is loaded only when rank is run.
  const registry = runsRank(args) ? await loadRegistry() : undefined;
  cmd
    .command('rank')
    .description('rank every dialog\'s candidates with a model of the registry')
    .requiredOption(
      '--model <name|file>',
      `model name (${registry ? registry.creatableModels().filter((m) => !registry.DSTC2_MODELS.includes(m)).join(', ') || 'none registered' : 'see `dialogym dstc6 rank --help`'}) or a model file written by \`dialogym train\` (*.dgm)`,
    )
    .requiredOption('--data <file>', 'dataset file')
    .option('--kb <file>', "the test set's KB (e.g. extendedkb2.txt for tst2/tst4): entity recognition of a model file (default: the KB the model file stores)")
    .requiredOption('--out <file>', 'result file to write')
    .option('--allow-checkpoint', 'accept the checkpoint of an unfinished `train` run as --model')
    .action(
      action(async (o: { model: string; data: string; out: string; kb?: string; allowCheckpoint?: boolean }) => {
        const { checkModelName, isModelFile, resolveModel } = registry ?? (await loadRegistry());
        const { checkAllowCheckpoint, checkContextFlags } = await import('../model-flags.js');
        const { readBabiKb } = await import('../../formats/babi.js');
        const { isResponder, responderAsRanker } = await import('../../rankers/ranker.js');
        const { distinctCandidates, rankDstc6 } = await import('../../testbeds/dstc6/rank.js');
        checkModelName(o.model); // unknown name: fail before reading data
        if ((registry ?? (await loadRegistry())).DSTC2_MODELS.includes(o.model)) throw new ConfigError(`model '${o.model}' is a bAbI task-6 (DSTC2) model, not a DSTC6 model: use \`dialogym eval --model ${o.model} --train <task6-trn> --data <task6 file>\``);
        checkAllowCheckpoint(o.model, isModelFile(o.model), o.allowCheckpoint);
        // The candidates are each dialog's own: only --kb is a model-specific flag here.
        checkContextFlags({ name: o.model }, o, ['kb'], isModelFile(o.model) ? ['kb'] : undefined);
        const kb = o.kb ? readBabiKb(o.kb).facts : undefined;
        const entries = readDstc6Data(o.data);
        const model = resolveModel(o.model, { candidates: distinctCandidates(entries), ...(kb ? { kb } : {}), ...(o.allowCheckpoint ? { allowCheckpoint: true } : {}) });
        const ranker = isResponder(model) ? responderAsRanker(model) : model;
        const bar = progress(`rank ${o.model}`, entries.length);
        const results = rankDstc6(entries, (h, c) => ranker.rank(h, c), { onProgress: (d) => bar.update(d) });
        bar.stop();
        writeDstc6Results(o.out, results);
        out(`wrote ${results.length} rankings to ${o.out}`);
      }),
    );
}

/** The model registry with every restaurant model registered, and the task-6 models `rank` does not offer. */
async function loadRegistry(): Promise<typeof import('../../rankers/registry.js') & { DSTC2_MODELS: readonly string[] }> {
  const { DSTC2_MODELS } = await import('../../testbeds/restaurant/models.js');
  return { ...(await import('../../rankers/registry.js')), DSTC2_MODELS };
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
function printScore(s: Dstc6Score, json: boolean): void {
  const f = scoreFigures(s);
  if (json) {
    out(JSON.stringify({ p1: f.p1, p2: f.p2, p5: f.p5, mrr: f.mrr, dialogs: f.dialogs, missing: f.missing }));
    return;
  }
  out(`Precision @1: ${pyFloat(f.p1)}`);
  out(`Precision @2: ${pyFloat(f.p2)}`);
  out(`Precision @5: ${pyFloat(f.p5)}`);
  out(`MRR: ${f.mrr.toFixed(4)}`);
  out(`dialogs: ${f.dialogs} (missing from the result: ${f.missing})`);
}

const ANSWERS = '.answers.json';

/**
 * The answers file of each result. `truth` is one answers file (for every result), one per result
 * (comma-separated, in order), or a folder: there a result named `<name>.json`,
 * `<name>.answers.json` or `<name>.<anything>.json` takes `<name>.answers.json` (the longest such
 * name; among equal names, the one in a folder named like the result's).
 */
function truthFiles(results: readonly string[], truth: string): string[] {
  const folder = !truth.includes(',') && isFolder(truth);
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

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
