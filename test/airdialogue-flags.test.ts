/**
 * One meaning per flag in the airdialogue verbs: `--ood` is a level everywhere (generate's switch
 * is level 2, 0 is in-domain, 1 refused), `airdialogue splits` counts with `--train-dialogs` …
 * (its old `--train`/`--dev`/`--test` are hidden aliases), `airdialogue tables` reads `--data`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError } from './cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-air-flags-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

const generated = (name: string, ...ood: string[]): string => {
  const out = join(tmp, name);
  const r = cli('airdialogue', 'generate', '--dialogs', '20', '--seed', '4', '--out', out, ...ood);
  assert.equal(r.code, 0, r.stderr);
  return readFileSync(join(out, 'kb.json'), 'utf8') + readFileSync(join(out, 'data.json'), 'utf8');
};

test('airdialogue generate --ood is a level: no value = 2, 0 = in-domain, 1 refused in one line', () => {
  const plain = generated('plain');
  assert.equal(generated('zero', '--ood', '0'), plain);
  const ood = generated('switch', '--ood');
  assert.notEqual(ood, plain);
  assert.equal(generated('two', '--ood', '2'), ood);
  oneLineError(cli('airdialogue', 'generate', '--dialogs', '5', '--out', join(tmp, 'x'), '--ood', '1'), /^error: --ood 1: airdialogue generate writes in-domain \(0\) or out-of-domain \(2\) contexts; level 1 is for airdialogue splits, selfplay and rl$/, 2);
  oneLineError(cli('airdialogue', 'generate', '--dialogs', '5', '--out', join(tmp, 'x'), '--ood', '3'), /^error: --ood: expected 0, 1 or 2, got '3'$/, 2);
});

test('airdialogue splits counts with --train-dialogs/--dev-dialogs/--test-dialogs; the old --train/--dev/--test give the same files', () => {
  const a = join(tmp, 'a');
  const b = join(tmp, 'b');
  const r = cli('airdialogue', 'splits', '--out', a, '--train-dialogs', '6', '--dev-dialogs', '2', '--test-dialogs', '3', '--seed', '2');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `wrote 6 train, 2 dev, 3 test dialogues to ${a}\n`);
  assert.equal(cli('airdialogue', 'splits', '--out', b, '--train', '6', '--dev', '2', '--test', '3', '--seed', '2').code, 0);
  for (const f of ['train_data.json', 'dev_kb.json', 'test_data.json']) assert.equal(readFileSync(join(b, f), 'utf8'), readFileSync(join(a, f), 'utf8'), f);
  assert.equal(readFileSync(join(a, 'train_data.json'), 'utf8').trimEnd().split('\n').length, 6);
  oneLineError(cli('airdialogue', 'splits', '--out', a, '--train', 'x'), /^error: --train: expected an integer, got 'x'$/, 2);
  const help = cli('airdialogue', 'tables', '--help').stdout;
  assert.match(help, /--data <dir>/);
  assert.doesNotMatch(help, /--splits/);
});
