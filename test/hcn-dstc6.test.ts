/**
 * HCN in DSTC6 mode through the CLI, kept small: generate 300 task-4 training entries, train on
 * them (DSTC6 JSON, no candidates file), rank the real tst2 (out-of-vocabulary KB 2, given with
 * --kb) and score it with the official scorer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, dstc6Dir, skipUnless } from './shared-data.js';

const real = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0');

test('hcn: train on generated DSTC6 task 4, rank the real tst2 with its KB, P@1 = 1', { skip: skipUnless(dstc6Dir) }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hcn-d6-'));
  const cli = (...args: string[]): string => execFileSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    cli('generate', 'dstc6', '--task', '4', '--set', 'trn', '--seed', '3', '--examples', '300', '--out', dir);
    const trn = readdirSync(dir).find((f) => f.startsWith('dialog-task4') && f.endsWith('.json')) as string;
    const model = join(dir, 'd6.dgm');
    const t = cli('train', '--model', 'hcn', '--train', join(dir, trn), '--kb', join(dir, 'extendedkb1.txt'), '--epochs', '3', '--hidden', '16', '--out', model);
    assert.match(t, /^hcn: dev per-response/);
    const data = readdirSync(join(real, 'tst2')).find((f) => f.startsWith('dialog-task4') && !f.includes('answers')) as string;
    const result = join(dir, 'r.json');
    cli('dstc6', 'rank', '--model', model, '--kb', join(real, 'extendedkb2.txt'), '--data', join(real, 'tst2', data), '--out', result);
    const s = JSON.parse(cli('dstc6', 'score', '--json', '--result', result, '--truth', join(real, 'tst2', data.replace('.json', '.answers.json')))) as { p1: number; dialogs: number };
    assert.equal(s.dialogs, 1000);
    assert.equal(s.p1, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hcn under the challenge rules: trained on task-1 trn-style data (no restrictions slot), real tst3/tst4 with the new slot, P@1 ≥ 0.99', { skip: skipUnless(dstc6Dir) }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hcn-d6r-'));
  const cli = (...args: string[]): string => execFileSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    cli('generate', 'dstc6', '--task', '1', '--set', 'trn', '--seed', '3', '--examples', '300', '--out', dir);
    const trn = readdirSync(dir).find((f) => f.startsWith('dialog-task1') && f.endsWith('.json')) as string;
    const text = readFileSync(join(dir, trn), 'utf8');
    assert.doesNotMatch(text, /dietary|menu options|restrictions"/, 'no restrictions slot in the training data');
    const model = join(dir, 'd6.dgm');
    cli('train', '--model', 'hcn', '--train', join(dir, trn), '--kb', join(dir, 'extendedkb1.txt'), '--epochs', '3', '--hidden', '16', '--out', model);
    for (const [set, kb] of [['tst3', 'extendedkb1.txt'], ['tst4', 'extendedkb2.txt']] as const) {
      const data = readdirSync(join(real, set)).find((f) => f.startsWith('dialog-task1') && !f.includes('answers')) as string;
      const result = join(dir, `${set}.json`);
      cli('dstc6', 'rank', '--model', model, '--kb', join(real, kb), '--data', join(real, set, data), '--out', result);
      const s = JSON.parse(cli('dstc6', 'score', '--json', '--result', result, '--truth', join(real, set, data.replace('.json', '.answers.json')))) as { p1: number };
      assert.ok(s.p1 >= 0.99, `${set} task 1 P@1 ${s.p1}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
