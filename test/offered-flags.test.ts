/**
 * Flags and models a verb offers work, or are refused in one line: `--seed -1` (in the env
 * server's words), flags of another
 * model (`--hops` on tfidf), `rules-dstc2` outside `eval`, and `infobot eval --kb DIR` taking the
 * split from the folder. Also a text file over the size limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError, type CliRun } from './cli.js';

const oneLine = (r: CliRun, re: RegExp, code = 2): void => oneLineError(r, re, code);

test('--seed -1 and flags of another model are refused in one line', () => {
  oneLine(cli('generate', 'restaurant', '--task', '1', '--seed', '-1', '--out', join(tmpdir(), 'never')), /^error: --seed: must be >= 0, got -1$/);
  oneLine(cli('generate', 'dstc6', '--seed', '-1', '--out', join(tmpdir(), 'never')), /^error: --seed: must be >= 0, got -1$/);
  // evaluate words it as the env server and the library do ("seed" must be >= 0, got -1)
  oneLine(cli('evaluate', '--env', 'restaurant-task1-v2', '--agent', 'rules', '--seed', '-1'), /^error: --seed: must be >= 0, got -1$/);
  oneLine(cli('evaluate', '--env', 'restaurant-task1-v2', '--agent', 'rules', '--episodes', '0'), /^error: --episodes: must be >= 1, got 0$/);
  oneLine(cli('train', '--model', 'tfidf', '--hops', '2', '--train', 'a', '--dev', 'b', '--candidates', 'c', '--out', 'm.dgm'), /^error: --hops does not apply to tfidf \(its options: --match-type --kb --input\)$/);
  oneLine(cli('train', '--model', 'nn', '--seed', '3', '--train', 'a', '--dev', 'b', '--candidates', 'c', '--out', 'm.dgm'), /^error: --seed does not apply to nn \(its options: none\)$/);
  oneLine(cli('train', '--model', 'hcn', '--margin', '0.1', '--train', 'a', '--kb', 'k', '--out', 'm.dgm'), /^error: --margin does not apply to hcn/);
});

test('the task-6 model rules-dstc2 is refused with a pointer where it cannot run (chat, serve, dstc6 rank)', () => {
  for (const m of ['rules-dstc2']) {
    oneLine(cli('chat', '--model', m), new RegExp(`^error: model '${m}' is a bAbI task-6 \\(DSTC2\\) model.*dialogym eval --model ${m} --train`));
    oneLine(cli('serve', '--model', m, '--port', '0'), new RegExp(`^error: model '${m}' is a bAbI task-6 \\(DSTC2\\) model`));
    oneLine(cli('dstc6', 'rank', '--model', m, '--data', 'x.json', '--out', 'y.json'), new RegExp(`^error: model '${m}' is a bAbI task-6 \\(DSTC2\\) model, not a DSTC6 model`));
    assert.doesNotMatch(cli('dstc6', 'rank', '--help').stdout, new RegExp(m));
  }
});

test('infobot eval --kb DIR reads the split from the folder; a contradicting --split is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-kbsplit-'));
  try {
    assert.equal(cli('infobot', 'kb', '--split', 'small', '--seed', '2', '--out', join(dir, 'kb')).code, 0);
    const r = cli('infobot', 'eval', '--agent', 'rule-soft', '--kb', join(dir, 'kb'), '--episodes', '20', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { split: string }).split, 'small');
    oneLine(cli('infobot', 'eval', '--agent', 'rule-soft', '--kb', join(dir, 'kb'), '--split', 'large', '--episodes', '20'), /^error: --split large: the KB folder .* holds the small split \(277 movies\)/);
    // The official layout names the split by the folder.
    assert.equal(cli('infobot', 'kb', '--split', 'medium', '--seed', '2', '--out', join(dir, 'imdb-M')).code, 0);
    const m = cli('infobot', 'eval', '--agent', 'rule-soft', '--kb', join(dir, 'imdb-M'), '--episodes', '20', '--json');
    assert.equal((JSON.parse(m.stdout) as { split: string }).split, 'medium');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a text file over 256 MiB is refused before it is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-big-'));
  try {
    const f = join(dir, 'big.txt');
    writeFileSync(f, '');
    truncateSync(f, 300 * 1024 * 1024); // sparse: no disk used
    oneLine(cli('stats', f), /^error: .*big\.txt: file too large \(314572800 bytes; at most 268435456\)$/, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
