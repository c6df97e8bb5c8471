/**
 * Errors that name the mistake (issue 30's table, "Errors describe the parser"): a file of another
 * kind given to a flag says what it looks like and what the flag takes; the same file as --train
 * and --dev is refused; a missing candidates file names --candidates; a mistyped flag gets a
 * suggestion on every verb; an error quotes at most a short excerpt of a value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError, type Command } from 'commander';
import { cli, oneLineError } from './cli.js';
import { babiDir, dstc6Dir, skipUnless } from './shared-data.js';
import { buildProgram } from '../src/cli/program.js';

const skip = skipUnless(babiDir);
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-errors-'));
const B = (f: string): string => join(babiDir, f);
const KB = B('dialog-babi-kb-all.txt');
const CANDS = B('dialog-babi-candidates.txt');
const DEV = B('dialog-babi-task1-API-calls-dev.txt');
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a KB file as --data: it looks like a bAbI KB file; --data takes a bAbI dialog file', { skip }, () => {
  // Was: "a KB-result line must not hold a TAB".
  oneLineError(cli('eval', '--model', 'rules', '--data', KB), new RegExp(`^error: ${esc(KB)} looks like a bAbI KB file; --data takes a bAbI dialog file$`), 1);
});

test('a DSTC6 JSON file as --data: it looks like a DSTC6 dataset file', { skip: skip || skipUnless(dstc6Dir) }, () => {
  // Was: "line does not start with a numeric ID".
  const json = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', 'tst1', 'dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json');
  oneLineError(cli('eval', '--model', 'rules', '--data', json), new RegExp(`^error: ${esc(json)} looks like a DSTC6 dataset file \\(JSON\\); --data takes a bAbI dialog file$`), 1);
});

test('a candidates file as --train: it looks like a bAbI candidates file; --train takes a bAbI dialog file', { skip }, () => {
  // Was: bad attribute name "italian". The file is also the (right) --candidates: the message names the flag that took it wrongly.
  const r = cli('train', '--model', 'tfidf', '--train', CANDS, '--dev', DEV, '--candidates', CANDS, '--out', join(tmp, 'm.dgm'));
  oneLineError(r, new RegExp(`^error: ${esc(CANDS)} looks like a bAbI candidates file; --train takes a bAbI dialog file$`), 1);
  // A dialog file as --candidates, and a model file as --data.
  oneLineError(cli('eval', '--model', 'tfidf', '--data', DEV, '--candidates', DEV), new RegExp(`^error: ${esc(DEV)} looks like a bAbI dialog file; --candidates takes a bAbI candidates file$`), 1);
  const model = join(tmp, 'model.dgm');
  writeFileSync(model, Buffer.concat([Buffer.from('DIALOGYM'), Buffer.from([0, 0, 0, 1, 0xff, 0])]));
  oneLineError(cli('eval', '--model', 'rules', '--data', model), new RegExp(`^error: ${esc(model)} looks like a dialogym model file; --data takes a bAbI dialog file$`), 1);
});

test('the same file as --train and --dev is refused', { skip }, () => {
  // Was accepted silently (dev figures on the training dialogs). A second path to the same file is the same file.
  const again = join(babiDir, '..', 'dialog-bAbI-tasks', 'dialog-babi-task1-API-calls-dev.txt');
  oneLineError(cli('train', '--model', 'tfidf', '--train', DEV, '--dev', again, '--candidates', CANDS, '--out', join(tmp, 'm.dgm')), /^error: --train and --dev name the same file .*dialog-babi-task1-API-calls-dev\.txt: --dev must hold other dialogs than --train$/, 2);
});

test('a missing candidates file names --candidates', { skip }, () => {
  // Was: "give a candidates file".
  oneLineError(cli('eval', '--model', 'tfidf', '--data', DEV), /^error: model 'tfidf' ranks candidates: give a candidates file with --candidates$/, 2);
});

test('a user turn shaped like a KB fact before a TAB is refused, not read as a user/bot pair', () => {
  const f = join(tmp, 'kb-shaped.txt');
  writeFileSync(f, '1 hello\thello what can i help you with today\n2 resto_a R_phone resto_a\t_phone\n\n');
  oneLineError(cli('stats', f), /^error: .*kb-shaped\.txt:2: a KB-result line must not hold a TAB \(expected `ID name R_attr value` with spaces\): "resto_a R_phone resto_a\\t_phone"$/, 1);
});

test('an error quotes a short excerpt of the value: a fuzzed InfoBot KB with a 300 KB movie name', () => {
  const dir = join(tmp, 'ib');
  mkdirSync(dir);
  const big = 'x'.repeat(300_000);
  const table = `movie\tactor\tcritic_rating\tgenre\tmpaa_rating\tdirector\trelease_year\n${big}\ta\t1\tb\tc\td\t2000\n${big}\ta\t1\tb\tc\td\t2000\n`;
  writeFileSync(join(dir, 'db.txt'), table);
  writeFileSync(join(dir, 'incomplete_db_0.20.txt'), table);
  for (const workers of ['1', '2']) {
    const r = cli('infobot', 'eval', '--kb', dir, '--agent', 'rule-soft', '--episodes', '200', '--workers', workers);
    oneLineError(r, new RegExp(`^error: ${esc(join(dir, 'db.txt'))}:3: movie 'x{79}…' already listed on line 2$`), 1);
  }
});

/** Every verb and sub-verb without sub-verbs of its own, with its path of names. */
function leaves(c: Command, path: string[] = []): { path: string[]; cmd: Command }[] {
  return c.commands.flatMap((s) => (s.commands.length > 0 ? leaves(s, [...path, s.name()]) : [{ path: [...path, s.name()], cmd: s }]));
}

test('a mistyped flag gets a suggestion on every verb, before a required option is missed', async () => {
  const program = await buildProgram();
  let checked = 0;
  for (const { path, cmd } of leaves(program)) {
    const flag = cmd.options.find((o) => !o.hidden && o.long !== undefined && o.long.length > 4 && o.long !== '--help')?.long;
    if (flag === undefined) continue;
    const typo = `--${flag.slice(3, 4)}${flag.slice(2, 3)}${flag.slice(4)}`; // --model -> --omdel
    let err = '';
    program.configureOutput({ writeErr: (s) => (err += s), writeOut: () => {} });
    for (let c: Command | null = cmd; c; c = c.parent) c.configureOutput({ writeErr: (s) => (err += s), writeOut: () => {} });
    await assert.rejects(program.parseAsync(['node', 'dialogym', ...path, typo, 'x']), (e: unknown) => e instanceof CommanderError && e.code === 'commander.unknownOption', path.join(' '));
    assert.match(err, new RegExp(`unknown option '${esc(typo)}'\\n\\(Did you mean ${esc(flag)}\\?\\)`), `${path.join(' ')}: ${err}`);
    checked++;
  }
  assert.ok(checked >= 40, `${checked} verbs checked`);
});

test('the plain dstc6 score command line gets the suggestion too', () => {
  const r = cli('dstc6', 'score', '--reslt', 'r.json', '--answers', 'a.json');
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "error: unknown option '--reslt'\n(Did you mean --result?)\n");
});
