/** `dialogym train --model <name> [--profile paper --task n] --train f --dev f --candidates f --out m.dgm`. */
import type { Command } from 'commander';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../../formats/babi.js';
import { readDstc6Data, readDstc6Results } from '../../formats/dstc6.js';
import { existsSync } from 'node:fs';
import { dstc6TrainingDialogs } from '../../testbeds/restaurant/hcn/train.js';
import type { Dialog } from '../../core/dialog.js';
import { KbTypes } from '../../rankers/match-type.js';
import { loadModels, saveModel, trainModel, trainableModels, type SavableRanker, type TrainOptions } from '../../rankers/registry.js';
import { MEMN2N_TRAIN_DEFAULTS } from '../../rankers/memn2n-train.js';
import { EMBEDDINGS_TRAIN_DEFAULTS } from '../../rankers/embeddings-train.js';
import { HCN_DEV_FALLBACK, HCN_TRAIN_DEFAULTS } from '../../testbeds/restaurant/hcn/train.js';
import { ConfigError } from '../../core/errors.js';
import { didYouMean } from '../../core/suggest.js';
import { profileNamed, trainerOf } from '../../testbeds/restaurant/benchmark/benchmark.js';
import { BENCHMARK_MODELS, type BenchmarkModel } from '../../testbeds/restaurant/benchmark/paper.js';
import { writeModelFile } from '../../formats/model-file.js';
import { action, alias, checkHeldOut, floatFlag, inputFlag, inputListFlag, intFlag, out, outFileFlag } from '../run.js';
import { progress } from '../progress.js';
import { modelHelp } from '../model-flags.js';
import { SUMMARY } from './summaries.js';
import { agreementIssue, candidateCoverage, kbCoverage } from '../../testbeds/restaurant/agreement.js';
import { CANDIDATES_ADVICE, KB_ADVICE, checkAgreement } from '../agreement.js';

interface TrainFlags {
  model: string;
  profile?: string;
  task?: number;
  train: string;
  dev?: string;
  candidates?: string;
  hidden?: number;
  rulesAdvice?: boolean;
  adviceGate?: number;
  kb?: string;
  matchType?: boolean;
  hops?: number;
  dim?: number;
  lr?: number;
  epochs?: number;
  patience?: number;
  seed?: number;
  optimizer?: string;
  batch?: number;
  memory?: number;
  margin?: number;
  negatives?: number;
  hardNegatives?: number;
  sharedNegatives?: boolean;
  shareAb?: boolean;
  input?: string;
  out: string;
  json?: boolean;
  force?: boolean;
}

/**
 * Each trainer's default of a hyper-parameter flag, read from the trainers' defaults tables, for
 * `--help` ("(default: memn2n 30, embeddings 15, hcn 12)").
 */
const TRAINER_DEFAULTS: Readonly<Record<string, Partial<Record<keyof TrainFlags, string | number>>>> = {
  memn2n: {
    hops: MEMN2N_TRAIN_DEFAULTS.hops,
    dim: MEMN2N_TRAIN_DEFAULTS.dim,
    lr: MEMN2N_TRAIN_DEFAULTS.lr,
    epochs: MEMN2N_TRAIN_DEFAULTS.epochs,
    patience: MEMN2N_TRAIN_DEFAULTS.patience,
    seed: MEMN2N_TRAIN_DEFAULTS.seed,
    optimizer: MEMN2N_TRAIN_DEFAULTS.optimizer,
    batch: MEMN2N_TRAIN_DEFAULTS.batchSize,
    memory: MEMN2N_TRAIN_DEFAULTS.memorySize,
    negatives: MEMN2N_TRAIN_DEFAULTS.negatives,
    hardNegatives: MEMN2N_TRAIN_DEFAULTS.hardNegatives,
  },
  embeddings: {
    dim: EMBEDDINGS_TRAIN_DEFAULTS.dim,
    lr: EMBEDDINGS_TRAIN_DEFAULTS.lr,
    epochs: EMBEDDINGS_TRAIN_DEFAULTS.epochs,
    patience: EMBEDDINGS_TRAIN_DEFAULTS.patience,
    seed: EMBEDDINGS_TRAIN_DEFAULTS.seed,
    optimizer: EMBEDDINGS_TRAIN_DEFAULTS.optimizer,
    batch: EMBEDDINGS_TRAIN_DEFAULTS.batchSize,
    margin: EMBEDDINGS_TRAIN_DEFAULTS.margin,
    negatives: EMBEDDINGS_TRAIN_DEFAULTS.negatives,
    input: EMBEDDINGS_TRAIN_DEFAULTS.input,
  },
  tfidf: { input: 'chosen on dev' },
  hcn: {
    hidden: HCN_TRAIN_DEFAULTS.hidden,
    lr: HCN_TRAIN_DEFAULTS.lr,
    epochs: HCN_TRAIN_DEFAULTS.epochs,
    patience: HCN_TRAIN_DEFAULTS.patience,
    seed: HCN_TRAIN_DEFAULTS.seed,
    batch: HCN_TRAIN_DEFAULTS.batchSize,
  },
};

/** "(default: memn2n 30, embeddings 15, hcn 12)": the per-model defaults of a flag. */
function perModel(flag: keyof TrainFlags): string {
  const cells = Object.entries(TRAINER_DEFAULTS).flatMap(([m, d]) => (d[flag] === undefined ? [] : [[m, d[flag]] as const]));
  if (cells.length > 1 && cells.every(([, v]) => v === cells[0]?.[1])) return `(default: ${cells[0]?.[1]})`;
  return `(default: ${cells.map(([m, v]) => `${m} ${v}`).join(', ')})`;
}

export function registerTrain(program: Command): void {
  program
    .command('train')
    .summary(SUMMARY.train)
    .description(`${SUMMARY.train}\n${modelHelp([], true)}`)
    .requiredOption('--model <name>', 'model to train (see Models above)')
    .option('--profile <name>', "the benchmark profile's hyper-parameters for --task as defaults (paper: the appendix's Tables 8 and 9; full; quick); flags given override them (default: none, the trainer's defaults)")
    .option('--task <n>', 'bAbI task 1-6 of --profile (default: read from the --train file name, dialog-babi-task<n>-…)', intFlag('--task', 1, 6))
    .requiredOption('--train <file>', 'training dialogs (bAbI format, e.g. babi:task5-trn; hcn also takes DSTC6 JSON files with answers, several joined by commas)', inputListFlag('--train'))
    .option('--dev <file>', 'dev dialogs, for early stopping and model selection (required except for hcn)', inputFlag('--dev'))
    .option('--candidates <file>', 'candidate responses file (required except for hcn)', inputFlag('--candidates'))
    .option('--kb <file>', 'KB file (types for --match-type; hcn: its entities) (default: none)', inputFlag('--kb'))
    .option('--match-type', 'add match-type features (needs --kb)')
    .option('--hops <n>', `memn2n: memory hops ${perModel('hops')}`, intFlag('--hops', 1, 10))
    .option('--dim <n>', `embedding dimension ${perModel('dim')}`, intFlag('--dim', 1, 1024))
    .option('--lr <x>', `learning rate ${perModel('lr')}`, floatFlag('--lr', 1e-7, 10))
    .option('--epochs <n>', `maximum epochs ${perModel('epochs')}`, intFlag('--epochs', 1, 10000))
    .option('--patience <n>', `stop after n epochs without dev improvement (0 = never) ${perModel('patience')}`, intFlag('--patience', 0, 10000))
    .option('--seed <n>', `random seed ${perModel('seed')}`, intFlag('--seed', 0))
    .option('--optimizer <name>', `sgd or adam ${perModel('optimizer')}`)
    .option('--batch <n>', `examples per mini-batch (hcn: dialogs) ${perModel('batch')}`, intFlag('--batch', 1, 100000))
    .addOption(alias('--batch-size <n>', 'batch', intFlag('--batch-size', 1, 100000)))
    .option('--memory <n>', `memn2n: memories kept (most recent utterances) ${perModel('memory')}`, intFlag('--memory', 1, 10000))
    .option('--margin <x>', `embeddings: ranking margin ${perModel('margin')}`, floatFlag('--margin', 0, 100))
    .option('--negatives <n>', `embeddings: negative candidates per example; memn2n: sampled per mini-batch, 0 = softmax over all candidates ${perModel('negatives')}`, intFlag('--negatives', 0, 100000))
    .option('--hard-negatives <n>', `memn2n: also the n best-scoring wrong candidates per example ${perModel('hardNegatives')}`, intFlag('--hard-negatives', 0, 100000))
    .option('--shared-negatives', "embeddings: draw the negatives once per mini-batch, shared by its examples with the batch's other responses")
    .option('--share-ab', 'embeddings: one matrix for inputs and candidates (A = B)')
    .option('--input <mode>', `tfidf/embeddings input: last (user utterance) or history ${perModel('input')}`)
    .option('--hidden <n>', `hcn: GRU state size ${perModel('hidden')}`, intFlag('--hidden', 1, 4096))
    .option('--rules-advice', "hcn, task 6: the rules' response (dstc2-heard, learned from --train and --kb) as an input of every turn")
    .option('--advice-gate <p>', "hcn with --rules-advice: say its own choice only at this probability or more, else the rules' response (default: 0)", floatFlag('--advice-gate', 0, 1))
    .requiredOption('--out <model.dgm>', 'model file to write (it stores the --candidates, so eval/chat/serve need them no more)', outFileFlag('--out'))
    .option('--json', 'print {"model","dev","selected","seconds","missing","out","candidates"} as JSON')
    .option('--force', 'train even when the inputs disagree (a --kb naming fewer than half of the restaurants in the training dialogs, --candidates holding fewer than half of their answers): a warning instead of the refusal')
    .action(
      action(async (o: TrainFlags) => {
        await loadModels(); // the code of the declared models (hcn)
        run(o);
      }),
    );
}

/** The hyper-parameter flags each built-in trainer family reads (TrainOptions); any other one given is an error. */
const APPLIES: Record<string, readonly (keyof TrainFlags)[]> = {
  memn2n: ['matchType', 'kb', 'hops', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batch', 'memory', 'negatives', 'hardNegatives'],
  embeddings: ['matchType', 'kb', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batch', 'margin', 'negatives', 'sharedNegatives', 'shareAb', 'input'],
  tfidf: ['matchType', 'kb', 'input'],
  hcn: ['kb', 'hidden', 'lr', 'epochs', 'patience', 'seed', 'batch', 'rulesAdvice', 'adviceGate'],
  nn: [],
};

/** The trainer family of a registered name (`memn2n+match` → memn2n, `nn+prev` → nn). */
function familyOf(model: string): string {
  return model.split('+')[0] as string;
}

/**
 * One name per model: `--match-type` on a family with a `+match` (or `+type`) model is that
 * model, so `train --model memn2n --match-type` trains (and reports) `memn2n+match`.
 */
function canonicalModel(model: string, matchType: boolean | undefined): string {
  if (!matchType) return model;
  const typed = model === 'tfidf' ? 'tfidf+type' : model === 'memn2n' || model === 'embeddings' ? `${model}+match` : model;
  return trainableModels().includes(typed) ? typed : model;
}

/** The task of `--profile`: `--task`, or the `task<n>` of the training file's name. */
function taskOf(o: TrainFlags): number {
  if (o.task !== undefined) return o.task;
  const m = /task([1-6])/.exec(o.train);
  if (!m) throw new ConfigError(`--profile ${o.profile} needs --task <1-6> (the training file's name, ${o.train}, names no task)`);
  return Number(m[1]);
}
const MODEL_FLAGS: readonly (keyof TrainFlags)[] = ['kb', 'matchType', 'hops', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batch', 'memory', 'margin', 'negatives', 'hardNegatives', 'shareAb', 'input', 'hidden', 'rulesAdvice', 'adviceGate'];

function run(flags: TrainFlags): void {
  if (!trainableModels().includes(flags.model)) throw new ConfigError(`--model: cannot train '${flags.model}'${didYouMean(flags.model, trainableModels())} (trainable: ${trainableModels().join(', ')})`);
  if (flags.task !== undefined && flags.profile === undefined) throw new ConfigError('--task goes with --profile (the task whose hyper-parameters to use)');
  const o: TrainFlags = { ...flags, model: canonicalModel(flags.model, flags.matchType) };
  const applies = APPLIES[familyOf(o.model)];
  const stray = applies ? MODEL_FLAGS.find((k) => o[k] !== undefined && !applies.includes(k)) : undefined;
  if (stray) {
    const flag = `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new ConfigError(`${flag} does not apply to ${o.model} (its options: ${applies?.length ? applies.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(' ') : 'none'})`);
  }
  if (o.optimizer !== undefined && o.optimizer !== 'sgd' && o.optimizer !== 'adam') throw new ConfigError(`--optimizer: expected sgd or adam, got '${o.optimizer}'`);
  if (o.input !== undefined && o.input !== 'last' && o.input !== 'history') throw new ConfigError(`--input: expected last or history, got '${o.input}'`);
  if ((o.matchType || /\+(match|type)/.test(o.model)) && !o.kb) throw new ConfigError(o.matchType ? '--match-type needs --kb <file>' : `${o.model} needs --kb <file> (the KB's entity types)`);
  if (o.negatives === 0 && familyOf(o.model) !== 'memn2n') throw new ConfigError(`--negatives 0 (softmax over all candidates) is memn2n's; ${o.model} needs at least 1`);
  if (o.model !== 'hcn' && o.dev === undefined) throw new ConfigError("required option '--dev <file>' not specified");
  if (o.model !== 'hcn' && o.candidates === undefined) throw new ConfigError("required option '--candidates <file>' not specified");
  if (o.model === 'hcn' && !o.kb) throw new ConfigError('hcn needs --kb <file> (entity recognition)');
  checkHeldOut(['--train', o.train], ['--dev', o.dev]);
  const candidates = o.candidates !== undefined ? readBabiCandidates(o.candidates).candidates : [];
  // hcn: DSTC6 JSON files too (answers inline, or in the .answers.json beside a test-style file), several joined by commas.
  const readOne = (f: string): Dialog[] => {
    if (o.model !== 'hcn' || !f.endsWith('.json')) return readBabiDialogs(f).dialogs;
    const answers = f.replace(/\.json$/, '.answers.json');
    return dstc6TrainingDialogs(readDstc6Data(f), f, existsSync(answers) ? readDstc6Results(answers) : undefined);
  };
  const readDialogs = (f: string): Dialog[] => (o.model === 'hcn' ? f.split(',').flatMap(readOne) : readOne(f));
  const train = readDialogs(o.train);
  const dev = o.dev !== undefined ? readDialogs(o.dev) : [];
  const facts = o.kb ? readBabiKb(o.kb).facts : undefined;
  // Inputs that must agree, before the long work (issue 41: a KB naming none of the dialogs' restaurants trained for hours on nothing delexicalised).
  checkAgreement(
    [
      ['--kb', facts ? agreementIssue(kbCoverage(train, facts), 'restaurants', 'the training dialogs') : undefined, KB_ADVICE],
      ['--candidates', o.candidates !== undefined ? agreementIssue(candidateCoverage(train, candidates), 'answers', 'the training dialogs') : undefined, CANDIDATES_ADVICE],
    ],
    o.force,
  );
  const kb = facts ? KbTypes.fromFacts(facts) : undefined;
  // --profile: its options for the task, under the flags given.
  const profiled: TrainOptions = o.profile !== undefined && (BENCHMARK_MODELS as readonly string[]).includes(o.model) ? trainerOf(o.model as BenchmarkModel, profileNamed(o.profile), o.seed ?? 1, taskOf(o)).opts : {};
  const given: TrainOptions = {
    matchType: o.matchType === true,
    hops: o.hops,
    dim: o.dim,
    lr: o.lr,
    epochs: o.epochs,
    patience: o.patience,
    seed: o.seed,
    optimizer: o.optimizer as 'sgd' | 'adam' | undefined,
    batchSize: o.batch,
    memorySize: o.memory,
    margin: o.margin,
    negatives: o.negatives,
    hardNegatives: o.hardNegatives,
    sharedNegatives: o.sharedNegatives,
    shareAB: o.shareAb,
    input: o.input as 'last' | 'history' | undefined,
    hidden: o.hidden,
    rulesAdvice: o.rulesAdvice,
    adviceGate: o.adviceGate,
  };
  const opts: TrainOptions = { ...profiled, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v !== false)) };
  const label = `train ${o.model}${o.profile !== undefined ? ` (profile ${o.profile})` : ''}`;
  const family = familyOf(o.model);
  const epochs = opts.epochs ?? (family === 'hcn' ? HCN_TRAIN_DEFAULTS.epochs : family === 'memn2n' ? MEMN2N_TRAIN_DEFAULTS.epochs : family === 'embeddings' ? EMBEDDINGS_TRAIN_DEFAULTS.epochs : 0);
  const bar = progress(label, epochs);
  let training: SavableRanker | undefined;
  const r = trainModel(o.model, { train, dev, candidates, ...(kb ? { kb } : {}) }, opts, {
    onModel: (m) => (training = m),
    // Checkpoint: the best weights so far are on disk whenever dev improves (atomic write), marked as
    // a checkpoint of an unfinished run until the final save below.
    onBest: () => training && writeModelFile(o.out, { ...training.toModelFile(), checkpoint: true, ...(o.candidates !== undefined ? { candidates } : {}) }),
    onEpoch(e) {
      bar.update(e.epoch, `loss ${e.loss.toFixed(4)} dev ${(100 * e.dev).toFixed(2)}% best ${(100 * e.bestDev).toFixed(2)}% @${e.bestEpoch} (${e.seconds.toFixed(1)}s/epoch)`);
    },
  });
  bar.stop();
  saveModel(o.out, r.model, o.candidates !== undefined ? { candidates } : {});
  if (o.json) {
    out(JSON.stringify({ model: r.model.name, dev: r.dev, selected: r.selected, seconds: r.seconds, missing: r.missing, out: o.out, candidates: o.candidates !== undefined ? candidates.length : 0 }));
    return;
  }
  out(`${r.model.name}: dev per-response ${(100 * r.dev).toFixed(2)}% (${r.selected}), trained in ${r.seconds.toFixed(1)}s`);
  if (o.model === 'hcn' && dev.length === 0) out(`  note: no --dev: the epoch was selected on the first ${Math.min(HCN_DEV_FALLBACK, train.length)} training dialogs, which it also trained on (dev per-response above is on them)`);
  if (r.missing > 0) out(`  note: ${r.missing} training bot turns are not among the candidates and were skipped`);
  out(`  wrote ${o.out}`);
}
