/** `dialogym airdialogue chat` through the real CLI, stdin piped: both roles, a data-file context, one-line errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { airDir, cliPath } from './shared-data.js';
import { tinyAirModelFile } from './airdialogue-chat-fixture.js';
import { loadAirModels } from '../src/testbeds/airdialogue/learned/train.js';
import { readAirDialogue } from '../src/formats/airdialogue.js';
import { AirChat, contextOfExample, describeAction, describeScore } from '../src/testbeds/airdialogue/chat/chat.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-air-chat-cli-'));
const modelFile = tinyAirModelFile(join(tmp, 'air.dgm'));
const models = loadAirModels(modelFile);

function cli(args: string[], stdin: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, 'airdialogue', 'chat', ...args], { input: stdin, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function oneLineError(r: { code: number; stderr: string }, code: number, pattern: RegExp): void {
  assert.equal(r.code, code, r.stderr);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one error line expected, got:\n${r.stderr}`);
  assert.match(lines[0] as string, pattern);
}

test('playing the customer: the goal is shown, the learned agent answers and acts, the score is printed', () => {
  const said = Array.from({ length: 14 }, (_, i) => (i === 0 ? 'Hi, I need to book a flight from $500' : `my name is Sarah Lee, June 12th ${i}`));
  const r = cli(['--model', modelFile, '--role', 'customer', '--seed', '7'], ['/book 1000 Sarah Lee', ...said].join('\n') + '\n');
  assert.equal(r.code, 0, r.stderr);
  const chat = new AirChat(models, { role: 'customer', seed: 7 });
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'You play the customer; the learned agent answers. (context seed 7)');
  assert.deepEqual(lines.slice(1, 4), chat.describeContext());
  assert.match(lines[1]!, /^You are [A-Z][a-z]+ [A-Z][a-z]+\. Goal: /);
  // the same conversation in process: the CLI prints each turn, then the end
  assert.equal(lines[4], '(only the agent ends the dialogue with an action; you play the customer)');
  let k = 5;
  for (const s of said) {
    if (chat.end) break;
    const step = chat.say(s);
    assert.equal(lines[k++], `customer: ${s}${step.turns[0]!.heard !== undefined ? `   [read as: ${step.turns[0]!.heard}]` : ''}`);
    assert.match(lines[k++]!, /^agent: /);
  }
  assert.ok(chat.end, 'the learned agent acts within 12 turns');
  assert.match(lines[5]!, /\[read as: Hi, I need to book a flight from 500 dollars\]$/);
  assert.equal(lines[k++], `end: the agent acted: ${describeAction(chat.end.action)}`);
  assert.equal(lines[k++], `expected: ${describeAction(chat.end.expected)}`);
  assert.equal(lines[k++], describeScore(chat.end.score));
  assert.match(lines[k - 1]!, /^score [01]\.\d{3} \(name [01]\.\d{3}, flight [01]\.\d{3}, action [01]\.000\); exact [01]\.\d{3}$/);
  assert.equal(lines[k++], '(dialogue over: /new for another, /quit to leave)');
});

test('playing the agent: the flight table and reservation are shown, the customer talks, /book … is scored; /new', () => {
  const chat = new AirChat(models, { role: 'agent', seed: 3 });
  const x = chat.context.expected;
  const flight = x.flight[0] ?? chat.context.kb.kb[0]!.flight_number;
  const status = x.status === 'book' || x.status === 'change' ? x.status : 'book';
  const script = ['Hello, how can I help you?', '/help', '/fly away', '/book 99 Jo Lee', 'May I know your name?', `/${status} ${flight} ${x.name}`, 'still there?', '/new', '/quit', 'never read'];
  const r = cli(['--model', modelFile, '--role', 'agent', '--seed', '3'], script.join('\n') + '\n');
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  const lines = out.split('\n');
  assert.deepEqual(lines.slice(1, 33), chat.describeContext());
  assert.match(lines[1]!, /^Reservation: (none|flight 10\d\d)/);
  assert.equal(lines[2], 'Flights (30):');
  assert.match(lines[3]!, /^ {2}1000 {2}\S+ +[A-Z]{3}→[A-Z]{3} {2}out [A-Z][a-z]+ \d+ \d\dh/);
  assert.equal(lines[33], `customer: ${chat.turns[0]!.text || '(says nothing)'}`);
  assert.ok(out.includes('agent: Hello, how can I help you?\ncustomer: '));
  assert.ok(out.includes('  /book <flight> <name>     e.g. /book 1004 Emily Edwards'));
  assert.ok(out.includes('(flight 99 is not in the table)'));
  assert.ok(out.includes('(unknown command /fly: try /help)'));
  const end = chat.act({ status, name: x.name, flight: [flight] }).end!;
  assert.ok(out.includes(`agent: (${describeAction(end.action)})\nend: the agent acted: ${describeAction(end.action)}\nexpected: ${describeAction(x)}\n${describeScore(end.score)}\n`));
  if (x.status === status) assert.equal(end.score.total, 1);
  assert.ok(out.includes('(the dialogue is over; start a new one)'));
  assert.ok(out.includes('(new dialogue)\nYou play the agent; the learned customer talks.'));
  assert.ok(out.includes('(context seed 4)'));
  assert.ok(!out.includes('never read'));
});

test('--data/--kb: the contexts of a data file', { skip: existsSync(join(airDir, 'dev_data.json')) ? false : `${airDir} not found` }, () => {
  const [, second] = readAirDialogue(join(airDir, 'dev_data.json'), join(airDir, 'dev_kb.json'));
  const r = cli(['--model', modelFile, '--role', 'customer', '--data', join(airDir, 'dev_data.json'), '--kb', join(airDir, 'dev_kb.json'), '--line', '2'], '/context\n');
  assert.equal(r.code, 0, r.stderr);
  const shown = new AirChat(models, { role: 'customer', context: contextOfExample(second!) }).describeContext();
  assert.equal(r.stdout, [`You play the customer; the learned agent answers. (${join(airDir, 'dev_data.json')} line 2)`, ...shown, ...shown, ''].join('\n'));
});

test('bad flags and files: one-line errors', () => {
  oneLineError(cli(['--model', modelFile, '--role', 'pilot'], ''), 2, /^error: --role: expected customer or agent, got 'pilot'$/);
  oneLineError(cli(['--model', modelFile, '--ood', '3'], ''), 2, /^error: --ood: expected 0, 1 or 2, got '3'$/);
  oneLineError(cli(['--model', modelFile, '--data', 'x.json'], ''), 2, /^error: --data and --kb go together$/);
  const bad = join(tmp, 'bad.dgm');
  writeFileSync(bad, 'not a model');
  oneLineError(cli(['--model', bad], ''), 1, new RegExp(`^error: .*${bad.replace(/[.]/g, '\\.')}.*`));
  oneLineError(cli(['--model', join(tmp, 'none.dgm')], ''), 1, /^error: .*none\.dgm/);
});
