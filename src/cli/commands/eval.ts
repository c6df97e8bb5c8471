/** `dialogym eval --model <name> --data <file>`: per-response and per-dialog accuracy. */
import type { Command } from 'commander';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../../formats/babi.js';
import { checkModelName, createModel, isModelFile, modelFromContent } from '../../rankers/registry.js';
import { KbTypes } from '../../rankers/match-type.js';
import { ConfigError } from '../../core/errors.js';
import { checkAllowCheckpoint, checkContextFlags, modelArg, modelHelp } from '../model-flags.js';
import { loadModels } from '../../testbeds/index.js';
import { evaluateDialogs } from '../../rankers/evaluate-responses.js';
import { accuracy } from '../../metrics/ranking.js';
import { action, inputFlag, inputListFlag, out, outFileFlag } from '../run.js';
import { progress } from '../progress.js';
import { AtomicFileWriter } from '../../core/files.js';
import { shardItems, type ShardItem } from '../../core/shard.js';
import type { Dialog } from '../../core/dialog.js';
import { shardOf, shardOptions, writeShard, wholeRun, type MergedRun, type ShardFlags } from '../shard.js';
import { SUMMARY } from './summaries.js';
import { agreementIssue, candidateCoverage, kbCoverage, storedRestaurants } from '../../testbeds/restaurant/agreement.js';
import { CANDIDATES_ADVICE, KB_ADVICE, STORED_KB_ADVICE, checkAgreement } from '../agreement.js';

// The testbeds' models (rules, hcn) are named in the help and run by the verb.
await loadModels();

interface EvalOptions {
  model: string;
  data: string;
  candidates?: string;
  kb?: string;
  train?: string;
  json?: boolean;
  predictions?: string;
  allowCheckpoint?: boolean;
  force?: boolean;
}

export function registerEval(program: Command): void {
  const cmd = program
    .command('eval')
    .summary(SUMMARY.eval)
    .description(`${SUMMARY.eval}\n${modelHelp()}`)
    .requiredOption('--model <name|file>', 'a model (see Models above) or a model file written by `dialogym train` (*.dgm)')
    .requiredOption('--data <file>', 'bAbI dialog file, or a dataset reference such as babi:task5-tst-oov (docs/data.md)', inputFlag('--data'))
    .option('--candidates <file>', 'candidates file (for models that rank candidates; default for a model file: the candidates it stores)', inputFlag('--candidates'))
    .option('--kb <file>', 'KB file (match-type features; replaces the KB stored in a model file; default: none, or the stored one)', inputFlag('--kb'))
    .option('--train <file>', 'training dialogs, for a model that learns from them when built (rules-dstc2); several files joined by commas, e.g. trn and dev (default: none)', inputListFlag('--train'))
    .option('--json', 'print {"perResponse","perDialog","turns","dialogs"}')
    .option('--predictions <out.jsonl>', 'write one {"dialog","turn","prediction"} line per bot turn (default: none)', outFileFlag('--predictions'))
    .option('--allow-checkpoint', 'accept the checkpoint of an unfinished `train` run as --model')
    .option('--force', 'evaluate even when the inputs disagree (the KB — --kb, or the one a model file stores — naming fewer than half of the restaurants in the --data dialogs, candidates holding fewer than half of their answers): a warning instead of the refusal');
  shardOptions(cmd).action(action((o: EvalOptions & ShardFlags) => run(o)));
}

function run(o: EvalOptions & ShardFlags): void {
  const shard = shardOf(o);
  checkModelName(o.model); // unknown name: fail before reading data
  const isFile = isModelFile(o.model);
  checkAllowCheckpoint(o.model, isFile, o.allowCheckpoint);
  const m = modelArg(o.model, isFile);
  if (m.content?.checkpoint === true && !o.allowCheckpoint) {
    throw new ConfigError(`${o.model}: checkpoint of an unfinished run (the best epoch so far of a \`train\` that did not finish); pass --allow-checkpoint to evaluate it anyway`);
  }
  checkContextFlags(m, o, ['candidates', 'kb', 'train']);
  const { dialogs } = readBabiDialogs(o.data);
  // A model file that stores its candidates needs no --candidates (which still overrides them).
  const candidates = o.candidates ? readBabiCandidates(o.candidates).candidates : m.content?.candidates;
  const kbFacts = o.kb ? readBabiKb(o.kb).facts : undefined;
  const train = o.train ? o.train.split(',').flatMap((f) => readBabiDialogs(f).dialogs) : undefined;
  const stored = !kbFacts && m.content ? storedRestaurants(m.content) : undefined;
  checkAgreement(
    [
      ['--kb', kbFacts ? agreementIssue(kbCoverage(dialogs, kbFacts), 'restaurants', 'the --data dialogs') : undefined, KB_ADVICE],
      [`the KB stored in ${o.model}`, stored ? agreementIssue(kbCoverage(dialogs, stored), 'restaurants', 'the --data dialogs') : undefined, STORED_KB_ADVICE],
      [o.candidates ? '--candidates' : `the candidates stored in ${o.model}`, candidates ? agreementIssue(candidateCoverage(dialogs, candidates), 'answers', 'the --data dialogs') : undefined, CANDIDATES_ADVICE],
    ],
    o.force,
  );
  const model = m.content
    ? modelFromContent(m.content, o.model, kbFacts ? KbTypes.fromFacts(kbFacts) : undefined)
    : createModel(o.model, { ...(candidates ? { candidates } : {}), ...(kbFacts ? { kb: kbFacts } : {}), ...(train ? { train } : {}) });
  // One item per dialog (k = its index in the file): which of its bot turns were right ("1"/"0"), and the predictions when asked.
  // Unsharded, the predictions go to the file as they come (temp file, renamed at the end); a shard keeps them for its shard file.
  const ks = shardItems(shard, dialogs.length);
  const stream = !shard && o.predictions ? new AtomicFileWriter(o.predictions) : undefined;
  const items = ks.map((k) => ({ k, marks: '', ...(o.predictions && !stream ? { predictions: [] as string[] } : {}) }));
  const bar = progress(`eval ${o.model}`, ks.length, { quiet: o.json === true && !process.stderr.isTTY });
  try {
    evaluateDialogs(
      model,
      ks.map((k) => dialogs[k] as Dialog),
      {
        ...(candidates ? { candidates } : {}),
        onPrediction: (p) => {
          const it = items[p.dialog] as { marks: string; predictions?: string[] };
          it.marks += p.prediction === p.truth ? '1' : '0';
          if (stream) stream.write(predictionLine(ks[p.dialog] as number, it.marks.length - 1, p.prediction));
          else it.predictions?.push(p.prediction);
        },
        onProgress: (d) => bar.update(d),
      },
    );
    stream?.commit();
  } finally {
    stream?.abort();
    bar.stop();
  }
  if (shard) writeShard(o, 'eval', dialogs.length, items);
  else finishEval(wholeRun(o, items));
}

/** One line of the predictions file. */
function predictionLine(dialog: number, turn: number, prediction: string): string {
  return JSON.stringify({ dialog, turn, prediction }) + '\n';
}

/**
 * Prints the accuracies of a whole run (unsharded, or merged from its shards) and, for a merged run,
 * writes the predictions file from its items (an unsharded run streamed it already: its items hold no predictions).
 */
export function finishEval(run: MergedRun): void {
  const o = run.options as unknown as EvalOptions;
  let s = accuracy.empty();
  const items = run.items as readonly ShardItem[] as readonly (ShardItem & { marks: string; predictions?: string[] })[];
  const writer = o.predictions && items.some((it) => it.predictions) ? new AtomicFileWriter(o.predictions) : undefined;
  try {
    for (const it of items) {
      s = accuracy.addDialog(s, [...it.marks].map((c) => c === '1'));
      it.predictions?.forEach((prediction, turn) => writer?.write(predictionLine(it.k, turn, prediction)));
    }
    writer?.commit();
  } finally {
    writer?.abort();
  }
  const perResponse = accuracy.perResponse(s);
  const perDialog = accuracy.perDialog(s);
  if (o.json) out(JSON.stringify({ perResponse, perDialog, turns: s.turns, dialogs: s.dialogs }));
  else {
    out(`${o.data}`);
    out(`  per-response accuracy ${(100 * perResponse).toFixed(2)}% (${s.correctTurns}/${s.turns})`);
    out(`  per-dialog accuracy    ${(100 * perDialog).toFixed(2)}% (${s.correctDialogs}/${s.dialogs})`);
  }
}
