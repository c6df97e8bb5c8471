/**
 * One name per model (issue 30, item 5): every model name the benchmark prints is a registered
 * model that `train` trains and that the verbs using a model accept (a trained one: "has to be
 * trained first", naming the train command); `--match-type` on a family is its `+match` model; a
 * mistyped name is refused with the name meant. And the help of eval / train lists the task-6
 * models with one line each on when to use them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError } from './cli.js';
import { BENCHMARK_MODELS } from '../src/testbeds/restaurant/benchmark/paper.js';
import { creatableModels, trainableModels } from '../src/rankers/registry.js';
import '../src/index.js'; // every testbed, loaded
import { generateRestaurantDataset } from '../src/testbeds/restaurant/dataset.js';

test('every benchmark model is a registered model: train trains it, the verbs that use a model name it', () => {
  for (const m of BENCHMARK_MODELS) assert.ok(trainableModels().includes(m), `${m} is not trainable`);
  const trained = 'memn2n+match';
  const first = new RegExp(`^error: model '${trained.replace('+', '\\+')}' has to be trained first: dialogym train --model ${trained.replace('+', '\\+')} `);
  oneLineError(cli('eval', '--model', trained, '--data', 'x.txt'), first, 2);
  oneLineError(cli('chat', '--model', trained), first, 2);
  oneLineError(cli('serve', '--model', trained, '--port', '0'), first, 2);
  oneLineError(cli('dstc6', 'rank', '--model', trained, '--data', 'x.json', '--out', 'y.json'), first, 2);
  oneLineError(cli('evaluate', '--env', 'restaurant-task1-v1', '--agent', trained, '--episodes', '1'), first, 2);
  oneLineError(cli('agent', '--stdio', '--agent', trained), first, 2);
  // Ready to use untrained: tfidf+type (the paper's name) is accepted as such.
  assert.ok(creatableModels().includes('tfidf+type'));
});

test('a mistyped model name is refused with the name meant', () => {
  oneLineError(cli('train', '--model', 'memn2n_match', '--train', 'a', '--dev', 'b', '--candidates', 'c', '--out', 'm.dgm'), /^error: --model: cannot train 'memn2n_match' — did you mean memn2n\+match\? \(trainable: /, 2);
  oneLineError(cli('eval', '--model', 'embeddings-match', '--data', 'x.txt'), /^error: unknown model 'embeddings-match' — did you mean embeddings\+match\?/, 2);
  oneLineError(cli('eval', '--model', 'dstc2-plus', '--data', 'x.txt'), /^error: unknown model 'dstc2-plus'/, 2);
});

test('train --model memn2n --match-type is memn2n+match; memn2n+match trains under its own name (generated task 1)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-names-'));
  try {
    for (const f of generateRestaurantDataset({ seed: 2, tasks: [1], dialogs: 20 })) writeFileSync(join(dir, f.name), f.text);
    const d = (s: string): string => join(dir, `dialog-babi-task1-API-calls-${s}.txt`);
    const common = ['--train', d('trn'), '--dev', d('dev'), '--candidates', join(dir, 'dialog-babi-candidates.txt'), '--kb', join(dir, 'dialog-babi-kb-all.txt'), '--epochs', '1', '--json'];
    const a = cli('train', '--model', 'memn2n+match', ...common, '--out', join(dir, 'a.dgm'));
    assert.equal(a.code, 0, a.stderr);
    const b = cli('train', '--model', 'memn2n', '--match-type', ...common, '--out', join(dir, 'b.dgm'));
    assert.equal(b.code, 0, b.stderr);
    assert.equal(JSON.parse(a.stdout).dev, JSON.parse(b.stdout).dev, 'the same model, the same dev score');
    oneLineError(cli('train', '--model', 'memn2n+match', ...common.filter((x, i, xs) => x !== '--kb' && xs[i - 1] !== '--kb'), '--out', join(dir, 'c.dgm')), /^error: memn2n\+match needs --kb <file>/, 2);
    // --profile with a count-based model (no hyper-parameters): accepted, the task read from the file name.
    const p = cli('train', '--model', 'nn', '--profile', 'paper', ...common.filter((x, i, xs) => !['--kb', '--epochs'].includes(x) && !['--kb', '--epochs'].includes(xs[i - 1] as string)), '--out', join(dir, 'p.dgm'));
    assert.equal(p.code, 0, p.stderr);
    assert.equal(JSON.parse(p.stdout).selected, 'input=last,match=words');
    oneLineError(cli('train', '--model', 'memn2n', '--task', '2', '--train', 'a', '--dev', 'b', '--candidates', 'c', '--out', 'm.dgm'), /^error: --task goes with --profile/, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A help text with each wrapped description back on one line (its continuation lines are indented under it). */
const unwrap = (help: string): string => help.replace(/\n {8,}/g, ' ');

test('eval --help and train --help list the task-6 models with one line on when to use each', () => {
  const evalHelp = unwrap(cli('eval', '--help').stdout);
  assert.match(evalHelp, /^ {2}rules-dstc2 +task 6: the paper's rule baseline .*compare with the paper/m);
  assert.match(evalHelp, /^ {2}hcn +Hybrid Code Network .*task 6: our best, with --rules-advice --advice-gate 0\.98/m);
  assert.doesNotMatch(evalHelp, /dstc2-(plus|heard|adapt)/);
  const trainHelp = unwrap(cli('train', '--help').stdout);
  assert.match(trainHelp, /^ {2}hcn +Hybrid Code Network .*task 6: our best/m);
  assert.match(trainHelp, /^ {2}memn2n\+match +memory network with KB match types/m);
  assert.doesNotMatch(cli('chat', '--help').stdout, /rules-dstc2/);
});
