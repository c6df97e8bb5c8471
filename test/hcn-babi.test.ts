/**
 * HCN on the original bAbI data, kept small: train on 100 task-5 dialogs for a few epochs, check
 * the out-of-vocabulary test dialogs (unseen entities, KB given at run time), the model file
 * round trip and the CLI (`train --model hcn`, `eval --model file.dgm --kb`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { trainHcn, hcnAccuracy, encodedScorer } from '../src/testbeds/restaurant/hcn/train.js';
import { evaluateDialogs } from '../src/rankers/evaluate-responses.js';
import { accuracy } from '../src/metrics/ranking.js';
import { loadModel, saveModel } from '../src/rankers/registry.js';
import '../src/index.js'; // every testbed, loaded
import { KbTypes } from '../src/rankers/match-type.js';
import { Hcn } from '../src/testbeds/restaurant/hcn/hcn.js';
import { babiDir, cliPath, skipUnless } from './shared-data.js';

const f = (name: string): string => join(babiDir, name);
const t5 = (split: string): string => f(`dialog-babi-task5-full-dialogs-${split}.txt`);

test('hcn trained on 100 task-5 dialogs answers unseen OOV dialogs; reloads with identical rankings', { skip: skipUnless(babiDir) }, () => {
  const facts = readBabiKb(f('dialog-babi-kb-all.txt')).facts;
  const train = readBabiDialogs(t5('trn')).dialogs.slice(0, 100);
  const dev = readBabiDialogs(t5('dev')).dialogs.slice(0, 30);
  const r = trainHcn({ train, dev, facts }, { hidden: 32, epochs: 3, patience: 0 });
  assert.equal(r.maskViolations, 0);
  assert.equal(r.model.templates.size, 16, 'the 16 bot templates of task 5');
  const oov = readBabiDialogs(t5('tst-OOV')).dialogs.slice(0, 60);
  const s = hcnAccuracy(r.model, oov);
  assert.ok(accuracy.perResponse(s) >= 0.99, `OOV per-response ${accuracy.perResponse(s)}`);
  // As a ranker over the 4,212 candidates: same answers as its own responses.
  const candidates = readBabiCandidates(f('dialog-babi-candidates.txt')).candidates;
  const few = oov.slice(0, 15);
  const ranked = evaluateDialogs(r.model, few, { candidates });
  assert.equal(ranked.correctTurns, hcnAccuracy(r.model, few).correctTurns);
  // Save and load.
  const dir = mkdtempSync(join(tmpdir(), 'hcn-'));
  try {
    const file = join(dir, 'm.dgm');
    saveModel(file, r.model);
    const back = loadModel(file, KbTypes.fromFacts(facts));
    assert.ok(back instanceof Hcn);
    const d = few[0]?.turns ?? [];
    for (let i = 0; i < d.length; i++) {
      if (d[i]?.speaker !== 'bot') continue;
      assert.deepEqual([...back.rank(d.slice(0, i), candidates)], [...r.model.rank(d.slice(0, i), candidates)]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI: train --model hcn (no candidates needed), eval --model file.dgm --kb, clear errors', { skip: skipUnless(babiDir) }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hcn-cli-'));
  try {
    const model = join(dir, 't1.dgm');
    const trn = f('dialog-babi-task1-API-calls-trn.txt');
    // Trained on the task-1 dev file (1,000 dialogs; dev = its first 200 when --dev is absent).
    const outTrain = execFileSync(
      process.execPath,
      [cliPath, 'train', '--model', 'hcn', '--train', f('dialog-babi-task1-API-calls-dev.txt'), '--kb', f('dialog-babi-kb-all.txt'), '--epochs', '2', '--hidden', '16', '--out', model],
      { encoding: 'utf8' },
    );
    assert.match(outTrain, /^hcn: dev per-response \d+\.\d\d% \(epoch=\d\)/);
    assert.match(outTrain, /\n  note: no --dev: the epoch was selected on the first 200 training dialogs, which it also trained on/);
    assert.ok(existsSync(model));
    const ev = execFileSync(
      process.execPath,
      [cliPath, 'eval', '--json', '--model', model, '--kb', f('dialog-babi-kb-all.txt'), '--candidates', f('dialog-babi-candidates.txt'), '--data', f('dialog-babi-task1-API-calls-tst-OOV.txt')],
      { encoding: 'utf8' },
    );
    const j = JSON.parse(ev) as { perResponse: number; perDialog: number; dialogs: number };
    assert.equal(j.dialogs, 1000);
    assert.ok(j.perResponse >= 0.99, ev);
    // Errors: no KB, one line, no stack trace, nothing written.
    const bad = spawnSync(process.execPath, [cliPath, 'train', '--model', 'hcn', '--train', trn, '--out', join(dir, 'x.dgm')], { encoding: 'utf8' });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /^error: hcn needs --kb <file>/);
    assert.doesNotMatch(bad.stderr, /at .*\.js:\d+/);
    const noDev = spawnSync(process.execPath, [cliPath, 'train', '--model', 'memn2n', '--train', trn, '--out', join(dir, 'y.dgm')], { encoding: 'utf8' });
    assert.match(noDev.stderr, /--dev <file>' not specified/);
    assert.deepEqual(readdirSync(dir).sort(), ['t1.dgm']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hcn on task 6: the dev score of training (dialogs encoded once) is hcnAccuracy, epoch after epoch', { skip: skipUnless(babiDir) }, () => {
  const facts = readBabiKb(f('dialog-babi-task6-dstc2-kb.txt')).facts;
  const t6 = (split: string): string => f(`dialog-babi-task6-dstc2-${split}.txt`);
  const train = readBabiDialogs(t6('trn')).dialogs.slice(0, 60);
  const dev = readBabiDialogs(t6('dev')).dialogs.slice(0, 40);
  const devs: number[] = [];
  const r = trainHcn({ train, dev, facts }, { hidden: 16, epochs: 2, patience: 0 }, { onEpoch: (e) => void devs.push(e.dev) });
  const scorer = encodedScorer(r.model, dev);
  const want = hcnAccuracy(r.model, dev);
  assert.deepEqual(scorer(), want);
  assert.ok(want.correctTurns > 0 && want.correctTurns < want.turns, `${want.correctTurns} of ${want.turns}`);
  assert.equal(devs.length, 2);
  assert.equal(r.fit.bestDev, Math.max(...devs));
  assert.equal(accuracy.perResponse(want), r.fit.bestDev, 'the best epoch is the model returned');
});
