/** `dialogym train --model <tfidf|nn|embeddings|memn2n> --train f --dev f --candidates f --out m.dgm`. */
import type { Command } from 'commander';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../../formats/babi.js';
import { readDstc6Data, readDstc6Results } from '../../formats/dstc6.js';
import { existsSync } from 'node:fs';
import { dstc6TrainingDialogs } from '../../testbeds/restaurant/hcn/train.js';
import type { Dialog } from '../../core/dialog.js';
import { KbTypes } from '../../rankers/match-type.js';
import { saveModel, trainModel, trainableModels, type SavableRanker, type TrainOptions } from '../../rankers/registry.js';
import '../../testbeds/restaurant/models.js';
import { MEMN2N_TRAIN_DEFAULTS } from '../../rankers/memn2n-train.js';
import { EMBEDDINGS_TRAIN_DEFAULTS } from '../../rankers/embeddings-train.js';
import { HCN_TRAIN_DEFAULTS } from '../../testbeds/restaurant/hcn/train.js';
import { ConfigError } from '../../core/errors.js';
import { writeModelFile } from '../../formats/model-file.js';
import { action, floatFlag, intFlag, out } from '../run.js';
import { progress } from '../progress.js';

interface TrainFlags {
  model: string;
  train: string;
  dev?: string;
  candidates?: string;
  hidden?: number;
  kb?: string;
  matchType?: boolean;
  hops?: number;
  dim?: number;
  lr?: number;
  epochs?: number;
  patience?: number;
  seed?: number;
  optimizer?: string;
  batchSize?: number;
  memory?: number;
  margin?: number;
  negatives?: number;
  sharedNegatives?: boolean;
  shareAb?: boolean;
  input?: string;
  out: string;
}

export function registerTrain(program: Command): void {
  program
    .command('train')
    .description('train a response ranker on bAbI dialog files, keep the best epoch on dev, write a model file')
    .requiredOption('--model <name>', `model to train (${trainableModels().join(', ')})`)
    .requiredOption('--train <file>', 'training dialogs (bAbI format; hcn also takes DSTC6 JSON files with answers, several joined by commas)')
    .option('--dev <file>', 'dev dialogs, for early stopping and model selection (required except for hcn)')
    .option('--candidates <file>', 'candidate responses file (required except for hcn)')
    .option('--kb <file>', 'KB file (types for --match-type)')
    .option('--match-type', 'add match-type features (needs --kb)')
    .option('--hops <n>', 'memn2n: memory hops', intFlag('--hops', 1, 10))
    .option('--dim <d>', 'embedding dimension', intFlag('--dim', 1, 1024))
    .option('--lr <x>', 'learning rate', floatFlag('--lr', 1e-7, 10))
    .option('--epochs <n>', 'maximum epochs', intFlag('--epochs', 1, 10000))
    .option('--patience <n>', 'stop after n epochs without dev improvement (0 = never)', intFlag('--patience', 0, 10000))
    .option('--seed <n>', 'random seed', intFlag('--seed', 0))
    .option('--optimizer <name>', 'sgd or adam')
    .option('--batch-size <n>', 'mini-batch size', intFlag('--batch-size', 1, 100000))
    .option('--memory <n>', 'memn2n: memories kept (most recent utterances)', intFlag('--memory', 1, 10000))
    .option('--margin <x>', 'embeddings: ranking margin', floatFlag('--margin', 0, 100))
    .option('--negatives <n>', 'embeddings: negative candidates per example; memn2n: sampled per mini-batch (default 100)', intFlag('--negatives', 1, 100000))
    .option('--shared-negatives', "embeddings: draw the negatives once per mini-batch, shared by its examples with the batch's other responses")
    .option('--share-ab', 'embeddings: one matrix for inputs and candidates (A = B)')
    .option('--input <mode>', 'tfidf/embeddings input: last (user utterance) or history (default: chosen on dev / history)')
    .option('--hidden <n>', 'hcn: GRU state size', intFlag('--hidden', 1, 4096))
    .requiredOption('--out <model.dgm>', 'model file to write')
    .action(action((o: TrainFlags) => run(o)));
}

/** The hyper-parameter flags each built-in trainer reads (TrainOptions); any other one given is an error. */
const APPLIES: Record<string, readonly (keyof TrainFlags)[]> = {
  memn2n: ['matchType', 'kb', 'hops', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batchSize', 'memory'],
  embeddings: ['matchType', 'kb', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batchSize', 'margin', 'negatives', 'sharedNegatives', 'shareAb', 'input'],
  tfidf: ['matchType', 'kb', 'input'],
  hcn: ['kb', 'hidden', 'lr', 'epochs', 'patience', 'seed', 'batchSize'],
  nn: [],
};
const MODEL_FLAGS: readonly (keyof TrainFlags)[] = ['kb', 'matchType', 'hops', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batchSize', 'memory', 'margin', 'negatives', 'sharedNegatives', 'shareAb', 'input', 'hidden'];

function run(o: TrainFlags): void {
  if (!trainableModels().includes(o.model)) throw new ConfigError(`--model: cannot train '${o.model}' (trainable: ${trainableModels().join(', ')})`);
  const applies = APPLIES[o.model];
  const stray = applies ? MODEL_FLAGS.find((k) => o[k] !== undefined && !applies.includes(k)) : undefined;
  if (stray) {
    const flag = `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new ConfigError(`${flag} does not apply to ${o.model} (its options: ${applies?.length ? applies.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(' ') : 'none'})`);
  }
  if (o.optimizer !== undefined && o.optimizer !== 'sgd' && o.optimizer !== 'adam') throw new ConfigError(`--optimizer: expected sgd or adam, got '${o.optimizer}'`);
  if (o.input !== undefined && o.input !== 'last' && o.input !== 'history') throw new ConfigError(`--input: expected last or history, got '${o.input}'`);
  if (o.matchType && !o.kb) throw new ConfigError('--match-type needs --kb <file>');
  if (o.model !== 'hcn' && o.dev === undefined) throw new ConfigError("required option '--dev <file>' not specified");
  if (o.model !== 'hcn' && o.candidates === undefined) throw new ConfigError("required option '--candidates <file>' not specified");
  if (o.model === 'hcn' && !o.kb) throw new ConfigError('hcn needs --kb <file> (entity recognition)');
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
  const kb = o.kb ? KbTypes.fromFacts(readBabiKb(o.kb).facts) : undefined;
  const opts: TrainOptions = {
    matchType: o.matchType === true,
    hops: o.hops,
    dim: o.dim,
    lr: o.lr,
    epochs: o.epochs,
    patience: o.patience,
    seed: o.seed,
    optimizer: o.optimizer as 'sgd' | 'adam' | undefined,
    batchSize: o.batchSize,
    memorySize: o.memory,
    margin: o.margin,
    negatives: o.negatives,
    sharedNegatives: o.sharedNegatives,
    shareAB: o.shareAb,
    input: o.input as 'last' | 'history' | undefined,
    hidden: o.hidden,
  };
  const label = `train ${o.model}${o.matchType ? '+match' : ''}`;
  const epochs = o.model === 'hcn' ? (o.epochs ?? HCN_TRAIN_DEFAULTS.epochs) : o.model === 'memn2n' ? (o.epochs ?? MEMN2N_TRAIN_DEFAULTS.epochs) : o.model === 'embeddings' ? (o.epochs ?? EMBEDDINGS_TRAIN_DEFAULTS.epochs) : 0;
  const bar = progress(label, epochs);
  let training: SavableRanker | undefined;
  const r = trainModel(o.model, { train, dev, candidates, ...(kb ? { kb } : {}) }, opts, {
    onModel: (m) => (training = m),
    // Checkpoint: the best weights so far are on disk whenever dev improves (atomic write), marked as
    // a checkpoint of an unfinished run until the final save below.
    onBest: () => training && writeModelFile(o.out, { ...training.toModelFile(), checkpoint: true }),
    onEpoch(e) {
      bar.update(e.epoch, `loss ${e.loss.toFixed(4)} dev ${(100 * e.dev).toFixed(2)}% best ${(100 * e.bestDev).toFixed(2)}% @${e.bestEpoch} (${e.seconds.toFixed(1)}s/epoch)`);
    },
  });
  bar.stop();
  saveModel(o.out, r.model);
  out(`${r.model.name}: dev per-response ${(100 * r.dev).toFixed(2)}% (${r.selected}), trained in ${r.seconds.toFixed(1)}s`);
  if (r.missing > 0) out(`  note: ${r.missing} training bot turns are not among the candidates and were skipped`);
  out(`  wrote ${o.out}`);
}
