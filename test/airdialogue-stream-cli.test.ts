/**
 * The AirDialogue verbs read their files as streams (docs/airdialogue.md, "At full size"): score
 * with --pred and its alignment errors, train/eval --max-dialogues, chat --line that never parses
 * the lines before it. Small generated files here; bench/airdialogue-full.bench.ts runs the
 * full-size ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError, runCli } from './cli.js';
import { tinyAirModelFile } from './airdialogue-chat-fixture.js';
import { readAirDialogue, readAirPredictions } from '../src/formats/airdialogue.js';
import { scorePredictions } from '../src/testbeds/airdialogue/scorer.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-air-stream-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

const gen = cli('airdialogue', 'generate', '--n', '60', '--seed', '2', '--out', tmp);
const data = join(tmp, 'data.json');
const kb = join(tmp, 'kb.json');
const dataLines = readFileSync(data, 'utf8').trimEnd().split('\n');
const kbLines = readFileSync(kb, 'utf8').trimEnd().split('\n');

function put(name: string, lines: readonly string[]): string {
  writeFileSync(join(tmp, name), lines.map((l) => `${l}\n`).join(''));
  return join(tmp, name);
}

test('score --pred streams three files in step: the scores of the in-memory scorer; a predictions file one line short is refused at its end', () => {
  assert.equal(gen.code, 0, gen.stderr);
  const expected = dataLines.map((l) => JSON.stringify((JSON.parse(l) as { expected_action: unknown }).expected_action));
  const pred = put('pred.json', expected);
  const r = cli('airdialogue', 'score', '--data', data, '--kb', kb, '--pred', pred, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(scorePredictions(readAirDialogue(data, kb), readAirPredictions(pred)))));
  const short = put('short.json', expected.slice(0, 59));
  oneLineError(cli('airdialogue', 'score', '--data', data, '--kb', kb, '--pred', short), new RegExp(`^error: ${short}:60: missing line: ${data} has 60 lines, this file has 59 \\(files must be aligned line by line\\)$`));
  const kb58 = put('kb58.json', kbLines.slice(0, 58));
  oneLineError(cli('airdialogue', 'logic', '--data', data, '--kb', kb58), new RegExp(`^error: ${kb58}:59: missing line: ${data} has 60 lines, this file has 58 \\(files must be aligned line by line\\)$`));
});

test('train and eval --max-dialogues read the first lines only: a broken line after them is never parsed', () => {
  const broken = put('broken_data.json', [...dataLines.slice(0, 30), '{not json', ...dataLines.slice(31)]);
  const model = join(tmp, 'm.dgm');
  const small = ['--epochs', '1', '--dim', '4', '--hidden', '6', '--out', model];
  const t = cli('airdialogue', 'train', '--data', broken, '--kb', kb, '--max-dialogues', '20', ...small);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /^read 18 training and 2 dev dialogues \([\d.]+ MiB as word ids, [\d.]+s\)$/m);
  const withDev = cli('airdialogue', 'train', '--data', broken, '--kb', kb, '--max-dialogues', '25', '--dev-data', data, '--dev-kb', kb, '--max-dev-dialogues', '7', ...small);
  assert.equal(withDev.code, 0, withDev.stderr);
  assert.match(withDev.stdout, /^read 25 training and 7 dev dialogues /m);
  oneLineError(cli('airdialogue', 'train', '--data', broken, '--kb', kb, ...small), new RegExp(`^error: ${broken}:31: invalid JSON`));
  oneLineError(cli('airdialogue', 'train', '--data', data, '--kb', kb, '--max-dev-dialogues', '3', ...small), /^error: --max-dev-dialogues needs --dev-data and --dev-kb/);
  const e = cli('airdialogue', 'eval', '--model', model, '--data', broken, '--kb', kb, '--max-dialogues', '9', '--no-bleu', '--json');
  assert.equal(e.code, 0, e.stderr);
  assert.equal((JSON.parse(e.stdout) as { dialogues: number }).dialogues, 9);
});

test('chat --data --line n: the lines before n are not parsed (broken ones are fine); /new plays the next line; past the end is refused', () => {
  const model = tinyAirModelFile(join(tmp, 'chat.dgm'));
  const d = put('chat_data.json', ['{broken', 'not json either', ...dataLines.slice(2, 4)]);
  const k = put('chat_kb.json', ['{broken', '[]', ...kbLines.slice(2, 4)]);
  const r = runCli(['airdialogue', 'chat', '--model', model, '--role', 'customer', '--data', d, '--kb', k, '--line', '3'], { input: '/new\n' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^You play the customer; the learned agent answers\\. \\(${d} line 3\\)$`, 'm'));
  assert.match(r.stdout, new RegExp(`\\(${d} line 4\\)$`, 'm'));
  oneLineError(cli('airdialogue', 'chat', '--model', model, '--data', d, '--kb', k, '--line', '5'), new RegExp(`^error: --line: 5 is past the end of ${d} \\(4 lines\\)$`), 2);
  const k3 = put('chat_kb3.json', ['{broken', '[]', kbLines[2]!]);
  const r4 = runCli(['airdialogue', 'chat', '--model', model, '--data', d, '--kb', k3, '--line', '4'], { input: '' });
  assert.equal(r4.code, 1);
  assert.match(r4.stderr, new RegExp(`^error: ${k3}:4: missing line: ${d} has 4 lines, this file has 3 `));
});
