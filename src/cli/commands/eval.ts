/** `dialogym eval --model <name> --data <file>`: per-response and per-dialog accuracy. */
import type { Command } from 'commander';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../../formats/babi.js';
import { checkModelName, createModel, isModelFile, modelFromContent } from '../../rankers/registry.js';
import { KbTypes } from '../../rankers/match-type.js';
import { ConfigError } from '../../core/errors.js';
import { checkContextFlags, modelArg } from '../model-flags.js';
import '../../testbeds/restaurant/models.js';
import { evaluateDialogs } from '../../rankers/evaluate-responses.js';
import { accuracy } from '../../metrics/ranking.js';
import { action, out } from '../run.js';
import { progress } from '../progress.js';

interface EvalOptions {
  model: string;
  data: string;
  candidates?: string;
  kb?: string;
  train?: string;
  json?: boolean;
  predictions?: string;
  allowCheckpoint?: boolean;
}

export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('evaluate a model on a bAbI dialog file: per-response and per-dialog accuracy')
    .requiredOption('--model <name|file>', `model name (${'rules'}, tfidf, …) or a model file written by \`dialogym train\` (*.dgm)`)
    .requiredOption('--data <file>', 'bAbI dialog file')
    .option('--candidates <file>', 'candidates file (for models that rank candidates; default for a model file: the candidates it stores)')
    .option('--kb <file>', 'KB file (match-type features; replaces the KB stored in a model file; default: none, or the stored one)')
    .option('--train <file>', 'training dialog file, for models that learn from it when built (rules-dstc2 only) (default: none)')
    .option('--json', 'print {"perResponse","perDialog","turns","dialogs"}')
    .option('--predictions <out.jsonl>', 'write one {"dialog","turn","prediction"} line per bot turn (default: none)')
    .option('--allow-checkpoint', 'accept the checkpoint of an unfinished `train` run as --model')
    .action(action((o: EvalOptions) => run(o)));
}

function run(o: EvalOptions): void {
  checkModelName(o.model); // unknown name: fail before reading data
  const m = modelArg(o.model, isModelFile(o.model));
  if (m.content?.checkpoint === true && !o.allowCheckpoint) {
    throw new ConfigError(`${o.model}: checkpoint of an unfinished run (the best epoch so far of a \`train\` that did not finish); pass --allow-checkpoint to evaluate it anyway`);
  }
  checkContextFlags(m, o, ['candidates', 'kb', 'train']);
  const { dialogs } = readBabiDialogs(o.data);
  // A model file that stores its candidates needs no --candidates (which still overrides them).
  const candidates = o.candidates ? readBabiCandidates(o.candidates).candidates : m.content?.candidates;
  const kbFacts = o.kb ? readBabiKb(o.kb).facts : undefined;
  const train = o.train ? readBabiDialogs(o.train).dialogs : undefined;
  const model = m.content
    ? modelFromContent(m.content, o.model, kbFacts ? KbTypes.fromFacts(kbFacts) : undefined)
    : createModel(o.model, { ...(candidates ? { candidates } : {}), ...(kbFacts ? { kb: kbFacts } : {}), ...(train ? { train } : {}) });
  const tmp = o.predictions ? `${o.predictions}.${process.pid}.tmp` : undefined;
  const fd = tmp ? openSync(tmp, 'w') : undefined;
  const bar = progress(`eval ${o.model}`, dialogs.length, { quiet: o.json === true && !process.stderr.isTTY });
  try {
    const s = evaluateDialogs(model, dialogs, {
      ...(candidates ? { candidates } : {}),
      onPrediction: fd === undefined ? undefined : (p) => writeSync(fd, JSON.stringify({ dialog: p.dialog, turn: p.turn, prediction: p.prediction }) + '\n'),
      onProgress: (d) => bar.update(d),
    });
    bar.stop();
    if (fd !== undefined && tmp && o.predictions) {
      closeSync(fd);
      renameSync(tmp, o.predictions);
    }
    const perResponse = accuracy.perResponse(s);
    const perDialog = accuracy.perDialog(s);
    if (o.json) out(JSON.stringify({ perResponse, perDialog, turns: s.turns, dialogs: s.dialogs }));
    else {
      out(`${o.data}`);
      out(`  per-response accuracy ${(100 * perResponse).toFixed(2)}% (${s.correctTurns}/${s.turns})`);
      out(`  per-dialog accuracy    ${(100 * perDialog).toFixed(2)}% (${s.correctDialogs}/${s.dialogs})`);
    }
  } catch (e) {
    bar.stop();
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
    }
    if (tmp) rmSync(tmp, { force: true });
    throw e;
  }
}
