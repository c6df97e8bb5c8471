/**
 * `dialogym dstc6 …` — the DSTC6 Track 1 official tools: walk (dataset_walker.py), check
 * (check_validity.py, stricter), score (score.py), baseline random|tfidf (baseline_*.py), and
 * rank (any model of the registry).
 */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { dstc6History, readDstc6Data, readDstc6Results, writeDstc6Results } from '../../formats/dstc6.js';
import { progress } from '../progress.js';
import { action, alias, inputFlag, inputPath, intFlag, out, outFileFlag } from '../run.js';
import { NB_CANDIDATES, nbCandidatesFlag, runScore, type ScoreFlags } from './dstc6-score.js';
import { SUMMARY } from './summaries.js';

// Only what `walk`, `check`, `score` and the baselines need is imported above (light modules: no
// model code); `rank` loads the model registry when it is the subcommand being run (or asked about).

/** How many problems `check` lists before summarising. */
const MAX_LISTED_PROBLEMS = 100;

/** Whether the words after `dstc6` run (or ask for the help of) `rank`, whose help lists the models. */
function runsRank(args: readonly string[] | undefined): boolean {
  return args === undefined || args[0] === 'rank' || (args[0] === 'help' && args[1] === 'rank');
}

export async function registerDstc6(program: Command, args?: readonly string[]): Promise<void> {
  const cmd = program.command('dstc6').description(SUMMARY.dstc6);

  cmd
    .command('walk <data>')
    .description('print a dataset readably (utterances, candidates, the answer marked), or its statistics')
    .option('--answers <file>', 'answers file: mark each dialog\'s true candidate (default: none marked)', inputFlag('--answers'))
    .option('--stats', 'print dataset_walker.py\'s statistics instead of the dialogs')
    .option('--limit <n>', 'print only the first n dialogs (default: all)', intFlag('--limit', 1))
    .option('--json', 'with --stats: print the statistics as JSON {"entries","utterances","utterancesPerEntry",…}')
    .action(
      action(async (data: string, o: { answers?: string; stats?: boolean; limit?: number; json?: boolean }) => {
        data = inputPath('dstc6 walk', data);
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
    .requiredOption('--data <file>', 'the dataset file the result ranks', inputFlag('--data'))
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
    .option('--nb-candidates <n>', 'ignore ranks above n, as score.py --input-nb-candidate', nbCandidatesFlag, NB_CANDIDATES)
    .option('--json', 'print {"p1","p2","p5","mrr","dialogs","missing"} as JSON (several results: {"files": [...], "total": {...}})')
    .action(action((o: ScoreFlags) => runScore(o)));

  const baseline = cmd.command('baseline').description('the official baselines: random, tfidf');
  baseline
    .command('random')
    .description('rank every dialog\'s candidates in a random (seeded) order')
    .requiredOption('--data <file>', 'dataset file', inputFlag('--data'))
    .option('--seed <n>', 'random seed', intFlag('--seed', 0, 0xffffffff), 1)
    .requiredOption('--out <file>', 'result file to write', outFileFlag('--out'))
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
    .requiredOption('--data <file>', 'dataset file', inputFlag('--data'))
    .requiredOption('--out <file>', 'result file to write', outFileFlag('--out'))
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
    .requiredOption('--data <file>', 'dataset file', inputFlag('--data'))
    .option('--kb <file>', "the test set's KB (e.g. extendedkb2.txt for tst2/tst4): entity recognition of a model file (default: the KB the model file stores)", inputFlag('--kb'))
    .requiredOption('--out <file>', 'result file to write', outFileFlag('--out'))
    .option('--allow-checkpoint', 'accept the checkpoint of an unfinished `train` run as --model')
    .option('--force', 'rank even when the KB (--kb, or the one a model file stores) names fewer than half of the restaurants in the --data dialogs: a warning instead of the refusal')
    .action(
      action(async (o: { model: string; data: string; out: string; kb?: string; allowCheckpoint?: boolean; force?: boolean }) => {
        const { checkModelName, isModelFile, resolveModel, resolveModelContent } = registry ?? (await loadRegistry());
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
        // A model file is read once: its stored KB is checked against the data too (when no --kb replaces it).
        const content = isModelFile(o.model) ? (await import('../../formats/model-file.js')).readModelFile(o.model) : undefined;
        const { agreementIssue, kbCoverage, storedRestaurants } = await import('../../testbeds/restaurant/agreement.js');
        const { checkAgreement, KB_ADVICE, STORED_KB_ADVICE } = await import('../agreement.js');
        const stored = !kb && content ? storedRestaurants(content) : undefined;
        if (kb || stored) {
          const dialogs = entries.map((e) => ({ id: e.dialog_id, turns: dstc6History(e.utterances) }));
          checkAgreement(
            [kb ? ['--kb', agreementIssue(kbCoverage(dialogs, kb), 'restaurants', 'the --data dialogs'), KB_ADVICE] : [`the KB stored in ${o.model}`, agreementIssue(kbCoverage(dialogs, stored as ReadonlySet<string>), 'restaurants', 'the --data dialogs'), STORED_KB_ADVICE]],
            o.force,
          );
        }
        const ctx = { candidates: distinctCandidates(entries), ...(kb ? { kb } : {}), ...(o.allowCheckpoint ? { allowCheckpoint: true } : {}) };
        const model = content ? resolveModelContent(content, o.model, ctx) : resolveModel(o.model, ctx);
        const ranker = isResponder(model) ? responderAsRanker(model) : model;
        const bar = progress(`rank ${o.model}`, entries.length);
        const results = rankDstc6(entries, (h, c) => ranker.rank(h, c), { onProgress: (d) => bar.update(d) });
        bar.stop();
        writeDstc6Results(o.out, results);
        out(`wrote ${results.length} rankings to ${o.out}`);
      }),
    );
}

/** The model registry with every testbed's models declared and loaded, and the task-6 models `rank` does not offer. */
async function loadRegistry(): Promise<typeof import('../../rankers/registry.js') & { DSTC2_MODELS: readonly string[] }> {
  const [{ DSTC2_MODELS }, { declareTestbeds }, registry] = await Promise.all([import('../../testbeds/restaurant/models.js'), import('../../testbeds/index.js'), import('../../rankers/registry.js')]);
  declareTestbeds();
  await registry.loadModels();
  return { ...registry, DSTC2_MODELS };
}
