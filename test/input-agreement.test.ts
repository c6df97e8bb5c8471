/**
 * Issue 41, case 7: inputs that must agree are checked against each other before long work
 * starts — a KB naming none of the dialogs' restaurants, candidates missing their answers — in
 * `train`, `eval` and `dstc6 rank`: one line with the figure, exit 2, nothing written; with
 * `--force` a warning and the run goes on. On generated data: DSTC6 task 4 with another seed's KB
 * (its restaurant names are all different), bAbI task 4 with the DSTC6 KB.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-agree-'));
const f = (...p: string[]): string => join(dir, ...p);
test.after(() => rmSync(dir, { recursive: true, force: true }));

const gen = (...args: string[]): void => assert.equal(cli('generate', ...args).code, 0);
gen('dstc6', '--task', '4', '--set', 'trn', '--dialogs', '40', '--seed', '1', '--out', f('d1'));
gen('dstc6', '--task', '4', '--set', 'trn', '--dialogs', '1', '--seed', '2', '--out', f('d2'));
gen('restaurant', '--task', '4', '--dialogs', '20', '--out', f('r'));
const trn = f('d1', readdirSync(f('d1')).find((n) => n.endsWith('.json')) as string);
const otherKb = f('d2', 'extendedkb1.txt');
const kbLine = (n: number, where: string): RegExp => new RegExp(`^error: --kb names 0 of the ${n} restaurants in ${where} \\(not \\S+, \\S+, \\S+, …\\); give the KB the dialogs were made with, or add --force to go on anyway$`);
const restaurants = new Set(JSON.parse(readFileSync(trn, 'utf8')).flatMap((e: { utterances: string[] }) => e.utterances.flatMap((u) => /^(\S+) r_\w+ /.exec(u)?.[1] ?? []))).size;

test('train: a KB naming none of the training dialogs\' restaurants is refused in one line before training (no model file); --force trains with a warning', () => {
  assert.ok(restaurants >= 10, `${restaurants} restaurants in the generated dialogs`);
  const out = f('m.dgm');
  oneLineError(cli('train', '--model', 'hcn', '--train', trn, '--kb', otherKb, '--out', out), kbLine(restaurants, 'the training dialogs'), 2);
  assert.equal(existsSync(out), false, 'nothing written: refused before the first epoch');
  const forced = cli('train', '--model', 'hcn', '--train', trn, '--kb', otherKb, '--out', out, '--epochs', '1', '--force');
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stderr.split('\n')[0] as string, new RegExp(`^warning: --kb names 0 of the ${restaurants} restaurants in the training dialogs \\(.*\\) \\(going on: --force\\)$`));
  assert.ok(existsSync(out));
  // The matching KB: no warning.
  const ok = cli('train', '--model', 'hcn', '--train', trn, '--kb', f('d1', 'extendedkb1.txt'), '--out', out, '--epochs', '1');
  assert.equal(ok.code, 0, ok.stderr);
  assert.doesNotMatch(ok.stderr, /warning/);
});

test('eval and dstc6 rank: the same check of --kb against the --data dialogs; eval also checks the candidates against their answers', () => {
  const tst = f('r', 'dialog-babi-task4-phone-address-tst.txt');
  const cands = f('r', 'dialog-babi-candidates.txt');
  const n = new Set(readFileSync(tst, 'utf8').split('\n').flatMap((l) => /^\d+ (\S+) R_\w+ /.exec(l)?.[1] ?? [])).size;
  oneLineError(cli('eval', '--model', 'tfidf+type', '--data', tst, '--candidates', cands, '--kb', otherKb), kbLine(n, 'the --data dialogs'), 2);
  assert.equal(cli('eval', '--model', 'tfidf+type', '--data', tst, '--candidates', cands, '--kb', f('r', 'dialog-babi-kb-all.txt'), '--json').code, 0);
  writeFileSync(f('three.txt'), readFileSync(cands, 'utf8').split('\n').slice(0, 3).join('\n') + '\n');
  oneLineError(cli('eval', '--model', 'tfidf', '--data', tst, '--candidates', f('three.txt')), /^error: --candidates holds 0 of the \d+ answers in the --data dialogs \(not .*\); give the candidates of this data, or add --force to go on anyway$/, 2);
  const forced = cli('eval', '--model', 'tfidf', '--data', tst, '--candidates', f('three.txt'), '--force', '--json');
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal((JSON.parse(forced.stdout) as { perResponse: number }).perResponse, 0);

  const res = f('res.json');
  oneLineError(cli('dstc6', 'rank', '--model', 'tfidf+type', '--data', trn, '--kb', otherKb, '--out', res), kbLine(restaurants, 'the --data dialogs'), 2);
  assert.equal(existsSync(res), false);
  assert.equal(cli('dstc6', 'rank', '--model', 'tfidf+type', '--data', trn, '--kb', f('d1', 'extendedkb1.txt'), '--out', res).code, 0);
});

test('dstc6 rank and eval: a model file whose stored KB names none of the --data restaurants is refused (a KB-1 model on KB-2 data without --kb); --kb of the data passes', () => {
  const model = f('hcn.dgm');
  assert.equal(cli('train', '--model', 'hcn', '--train', trn, '--kb', f('d1', 'extendedkb1.txt'), '--out', model, '--epochs', '1').code, 0);
  // Entries of the seed-2 KB: the test data of another KB.
  gen('dstc6', '--task', '4', '--set', 'tst1', '--dialogs', '20', '--seed', '2', '--out', f('t2'));
  const tst = f('t2', readdirSync(f('t2')).find((n) => n.endsWith('.json') && !n.endsWith('.answers.json')) as string);
  const n = new Set(JSON.parse(readFileSync(tst, 'utf8')).flatMap((e: { utterances: string[] }) => e.utterances.flatMap((u) => /^(\S+) r_\w+ /.exec(u)?.[1] ?? []))).size;
  const res = f('res2.json');
  const line = new RegExp(`^error: the KB stored in ${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} names 0 of the ${n} restaurants in the --data dialogs \\(not .*\\); give the KB of this data with --kb, or add --force to go on anyway$`);
  oneLineError(cli('dstc6', 'rank', '--model', model, '--data', tst, '--out', res), line, 2);
  assert.equal(existsSync(res), false);
  const given = cli('dstc6', 'rank', '--model', model, '--data', tst, '--kb', f('d2', 'extendedkb1.txt'), '--out', res);
  assert.equal(given.code, 0, given.stderr);
  assert.equal(cli('dstc6', 'rank', '--model', model, '--data', trn, '--out', res).code, 0, 'its own data: no --kb needed');
});
