/**
 * A `train` run writes its best weights so far as a checkpoint (header `checkpoint: true`) while it
 * runs and a finished model at the end; `eval` refuses a checkpoint unless `--allow-checkpoint`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatBabiCandidates, formatBabiDialogs } from '../src/formats/babi.js';
import { readModelFile } from '../src/formats/model-file.js';
import { syntheticCandidates, syntheticDialogs } from '../src/rankers/testing/synthetic.js';
import { cliPath } from './shared-data.js';

test('train: a checkpoint while running, a finished model at the end; eval and chat refuse checkpoints', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-ckpt-'));
  try {
    const f = (n: string): string => join(dir, n);
    writeFileSync(f('trn.txt'), formatBabiDialogs(syntheticDialogs(60, 1)));
    writeFileSync(f('dev.txt'), formatBabiDialogs(syntheticDialogs(20, 2)));
    writeFileSync(f('cands.txt'), formatBabiCandidates({ candidates: syntheticCandidates() }));
    const common = ['train', '--model', 'embeddings', '--train', f('trn.txt'), '--dev', f('dev.txt'), '--candidates', f('cands.txt'), '--dim', '8', '--seed', '1'];
    // A run that never ends by itself (no early stopping): stopped once its first checkpoint is on disk.
    const child = spawn(process.execPath, [cliPath, ...common, '--epochs', '10000', '--patience', '0', '--out', f('ckpt.dgm')], { stdio: 'ignore' });
    while (!existsSync(f('ckpt.dgm')) && child.exitCode === null) await sleep(50);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    assert.equal(readModelFile(f('ckpt.dgm')).checkpoint, true);
    const refused = spawnSync(process.execPath, [cliPath, 'eval', '--model', f('ckpt.dgm'), '--data', f('dev.txt'), '--candidates', f('cands.txt')], { encoding: 'utf8' });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /^error: .*ckpt\.dgm: checkpoint of an unfinished run .*--allow-checkpoint.*\n$/);
    const allowed = spawnSync(process.execPath, [cliPath, 'eval', '--model', f('ckpt.dgm'), '--data', f('dev.txt'), '--candidates', f('cands.txt'), '--allow-checkpoint', '--json'], { encoding: 'utf8' });
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.ok((JSON.parse(allowed.stdout) as { turns: number }).turns > 0);
    // chat (and serve, dstc6 rank, which share resolveModel) refuse it too, unless --allow-checkpoint.
    const chat = (...extra: string[]) => spawnSync(process.execPath, [cliPath, 'chat', '--model', f('ckpt.dgm'), '--candidates', f('cands.txt'), ...extra], { encoding: 'utf8', input: 'hello\n' });
    const chatRefused = chat();
    assert.equal(chatRefused.status, 2);
    assert.match(chatRefused.stderr, /^error: .*ckpt\.dgm: checkpoint of an unfinished run .*--allow-checkpoint.*\n$/);
    const chatAllowed = chat('--allow-checkpoint');
    assert.equal(chatAllowed.status, 0, chatAllowed.stderr);
    assert.match(chatAllowed.stdout, /bot: /);
    // A run that finishes: the file is a finished model.
    const done = spawnSync(process.execPath, [cliPath, ...common, '--epochs', '2', '--out', f('done.dgm')], { encoding: 'utf8' });
    assert.equal(done.status, 0, done.stderr);
    assert.equal(readModelFile(f('done.dgm')).checkpoint, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
