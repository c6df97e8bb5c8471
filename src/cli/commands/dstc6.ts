/**
 * `dialogym dstc6 …` — the DSTC6 Track 1 official tools: walk (dataset_walker.py), check
 * (check_validity.py, stricter), score (score.py), baseline random|tfidf (baseline_*.py), and
 * rank (any model of the registry).
 */
import type { Command } from 'commander';
import { readDstc6Data, readDstc6Results, writeDstc6Results } from '../../formats/dstc6.js';
import { checkDstc6Result, formatProblem } from '../../testbeds/dstc6/check.js';
import { randomBaseline } from '../../testbeds/dstc6/random-baseline.js';
import { distinctCandidates, rankDstc6 } from '../../testbeds/dstc6/rank.js';
import { scoreDstc6 } from '../../testbeds/dstc6/score.js';
import { tfidfBaseline } from '../../testbeds/dstc6/tfidf-baseline.js';
import { answerIds, dstc6Stats, formatDstc6Stats, walkEntry } from '../../testbeds/dstc6/walk.js';
import { meanReciprocalRank, precisionAtK } from '../../metrics/ranking.js';
import { checkModelName, creatableModels, resolveModel } from '../../rankers/registry.js';
import '../../testbeds/restaurant/models.js';
import { readBabiKb } from '../../formats/babi.js';
import { isResponder, responderAsRanker } from '../../rankers/ranker.js';
import { progress } from '../progress.js';
import { action, intFlag, out } from '../run.js';
import { ConfigError } from '../../core/errors.js';

/** A float as Python's str() prints it (0.0, 0.427), so output matches score.py's. */
function pyFloat(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/** How many problems `check` lists before summarising. */
const MAX_LISTED_PROBLEMS = 100;

export function registerDstc6(program: Command): void {
  const cmd = program.command('dstc6').description('DSTC6 Track 1 tools: walk, check, score, baseline, rank');

  cmd
    .command('walk <data>')
    .description('print a dataset readably (utterances, candidates, the answer marked), or its statistics')
    .option('--answers <file>', 'answers file: mark each dialog\'s true candidate')
    .option('--stats', 'print dataset_walker.py\'s statistics instead of the dialogs')
    .option('--limit <n>', 'print only the first n dialogs', intFlag('--limit', 1))
    .action(
      action((data: string, o: { answers?: string; stats?: boolean; limit?: number }) => {
        const entries = readDstc6Data(data);
        if (o.stats) {
          for (const line of formatDstc6Stats(dstc6Stats(entries))) out(line);
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
    .action(
      action((result: string, o: { data: string }) => {
        const data = readDstc6Data(o.data);
        const res = readDstc6Results(result);
        const problems = checkDstc6Result(res, data);
        if (problems.length === 0) {
          out(`valid: ${res.length} dialogs ranked, all ${data.length} dialogs of ${o.data} present`);
          return;
        }
        for (const p of problems.slice(0, MAX_LISTED_PROBLEMS)) out(`${result}: ${formatProblem(p)}`);
        if (problems.length > MAX_LISTED_PROBLEMS) out(`... and ${problems.length - MAX_LISTED_PROBLEMS} more`);
        out(`invalid: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
        process.exitCode = 1;
      }),
    );

  cmd
    .command('score')
    .description('score a result against the answers (official score.py): P@1, P@2, P@5')
    .requiredOption('--result <file>', 'result file to score')
    .requiredOption('--truth <file>', 'answers file (rank 1 = the true candidate)')
    .option('--nb-candidates <n>', 'ignore ranks above n, as score.py --input-nb-candidate', intFlag('--nb-candidates', 1), 10)
    .option('--json', 'print {"p1","p2","p5","dialogs"} as JSON')
    .action(
      action((o: { result: string; truth: string; nbCandidates: number; json?: boolean }) => {
        const result = readDstc6Results(o.result);
        const truth = readDstc6Results(o.truth);
        const s = scoreDstc6(result, truth, { nbCandidates: o.nbCandidates, truthFile: o.truth });
        const p = (k: number): number => precisionAtK.value(s.precision, k);
        if (o.json) {
          out(JSON.stringify({ p1: p(1), p2: p(2), p5: p(5), dialogs: s.dialogs }));
          return;
        }
        out(`Precision @1: ${pyFloat(p(1))}`);
        out(`Precision @2: ${pyFloat(p(2))}`);
        out(`Precision @5: ${pyFloat(p(5))}`);
        out(`MRR: ${meanReciprocalRank.value(s.mrr).toFixed(4)}`);
        out(`dialogs: ${s.dialogs} (missing from the result: ${s.missing})`);
        if (s.duplicated > 0) process.stderr.write(`warning: ${s.duplicated} dialogs listed more than once in ${o.result}; the last listing counts\n`);
      }),
    );

  const baseline = cmd.command('baseline').description('the official baselines: random, tfidf');
  baseline
    .command('random')
    .description('rank every dialog\'s candidates in a random (seeded) order')
    .requiredOption('--data <file>', 'dataset file')
    .requiredOption('--seed <n>', 'random seed', intFlag('--seed', 0, 0xffffffff))
    .requiredOption('--out <file>', 'result file to write')
    .action(
      action((o: { data: string; seed: number; out: string }) => {
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
      action((o: { data: string; out: string }) => {
        const entries = readDstc6Data(o.data);
        const results = tfidfBaseline(entries);
        writeDstc6Results(o.out, results);
        out(`wrote ${results.length} rankings to ${o.out}`);
      }),
    );

  cmd
    .command('rank')
    .description('rank every dialog\'s candidates with a model of the registry')
    .requiredOption('--model <name|file>', `model name (${creatableModels().filter((m) => m !== 'rules-dstc2').join(', ') || 'none registered'}) or a model file written by \`dialogym train\` (*.dgm)`)
    .requiredOption('--data <file>', 'dataset file')
    .option('--kb <file>', "the test set's KB (e.g. extendedkb2.txt for tst2/tst4): entity recognition of a model file")
    .requiredOption('--out <file>', 'result file to write')
    .action(
      action((o: { model: string; data: string; out: string; kb?: string }) => {
        checkModelName(o.model); // unknown name: fail before reading data
        if (o.model === 'rules-dstc2') throw new ConfigError("model 'rules-dstc2' is the bAbI task-6 (DSTC2) baseline, not a DSTC6 model: use `dialogym eval --model rules-dstc2 --train <task6-trn> --data <task6 file>`");
        const kb = o.kb ? readBabiKb(o.kb).facts : undefined;
        const entries = readDstc6Data(o.data);
        const model = resolveModel(o.model, { candidates: distinctCandidates(entries), ...(kb ? { kb } : {}) });
        const ranker = isResponder(model) ? responderAsRanker(model) : model;
        const bar = progress(`rank ${o.model}`, entries.length);
        const results = rankDstc6(entries, (h, c) => ranker.rank(h, c), { onProgress: (d) => bar.update(d) });
        bar.stop();
        writeDstc6Results(o.out, results);
        out(`wrote ${results.length} rankings to ${o.out}`);
      }),
    );
}
