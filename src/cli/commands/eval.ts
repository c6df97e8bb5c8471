/** `dialogym eval --model <name> --data <file>`: per-response and per-dialog accuracy (the library's `evalRun`, src/testbeds/restaurant/runs/eval.ts). */
import type { Command } from 'commander';
import { evalRun, type EvalOptions, type EvalResult } from '../../testbeds/restaurant/runs/eval.js';
import { modelHelp } from '../model-flags.js';
import { action, inputFlag, inputListFlag, out, outFileFlag } from '../run.js';
import { progress } from '../progress.js';
import { runVerb, shardOptions, type ShardFlags, type VerbRun } from '../shard.js';
import { warnForCli } from '../agreement.js';
import { SUMMARY } from './summaries.js';

interface Flags {
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
  shardOptions(cmd).action(action((f: Flags & ShardFlags) => runVerb(f, evalVerb)));
}

/** The flags as the run's options (a shard file of dialogym-shard/1 recorded these flags). */
function fromFlags(f: Record<string, unknown>): { options: EvalOptions; print: { json?: true } } {
  const g = f as unknown as Flags;
  const options: EvalOptions = {
    model: g.model,
    data: g.data,
    ...(g.candidates ? { candidates: g.candidates } : {}),
    ...(g.kb ? { kb: g.kb } : {}),
    ...(g.train ? { train: g.train.split(',') } : {}),
    ...(g.predictions ? { predictions: g.predictions } : {}),
    ...(g.allowCheckpoint ? { allowCheckpoint: true } : {}),
    ...(g.force ? { force: true } : {}),
  };
  return { options, print: g.json ? { json: true } : {} };
}

/** Prints the accuracies (`--json`: one JSON line). */
function printEval(r: EvalResult, print: Record<string, unknown>): void {
  if (print['json']) out(JSON.stringify({ perResponse: r.perResponse, perDialog: r.perDialog, turns: r.turns, dialogs: r.dialogs }));
  else {
    out(`${r.data}`);
    out(`  per-response accuracy ${(100 * r.perResponse).toFixed(2)}% (${r.correctTurns}/${r.turns})`);
    out(`  per-dialog accuracy    ${(100 * r.perDialog).toFixed(2)}% (${r.correctDialogs}/${r.dialogs})`);
  }
}

/** The verb: the library's `evalRun`, its progress (quiet for `--json` off a terminal), its warnings on stderr, its printer (also `merge`'s). */
export const evalVerb: VerbRun<EvalOptions, EvalResult> = {
  run: evalRun,
  fromFlags,
  print: printEval,
  progress: (total, o, p) => progress(`eval ${o.model}`, total, { quiet: p['json'] === true && !process.stderr.isTTY }),
  hooks: { onWarning: warnForCli },
};
