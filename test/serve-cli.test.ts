/** `dialogym kb`, `chat` (piped stdin) and `serve` (real process, SIGTERM) end to end. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { babiDir, cliPath, skipUnless, skipUnlessSqlite } from './shared-data.js';
import { trainTinyHcn } from './tiny-hcn.js';
import { startServer } from './cli.js';
import { readBabiKb } from '../src/formats/babi.js';
import { saveModel } from '../src/rankers/registry.js';
import { sqliteDriver } from '../src/core/sqlite.js';
import '../src/index.js'; // every testbed, loaded

const skip = skipUnless(babiDir) || skipUnlessSqlite();
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-serve-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const kbFile = join(tmp, 'kb.sqlite');

function cli(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], { input, encoding: 'utf8', timeout: 120_000 }); // a guard against a hang, generous: a loaded CI machine's fsyncs can take long
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function importKb(): void {
  const r = cli(['kb', 'import', join(babiDir, 'dialog-babi-kb-all.txt'), '--out', kbFile]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${kbFile}: 1200 restaurants (8400 facts, babi KB)\n`);
}

test('kb import / kb query', { skip }, () => {
  importKb();
  const q = cli(['kb', 'query', kbFile, 'api_call british london two cheap']);
  assert.equal(q.status, 0, q.stderr);
  const lines = q.stdout.trimEnd().split('\n');
  assert.equal(lines.length % 7, 0);
  assert.match(lines[0] ?? '', /^resto_london_cheap_british_\dstars R_phone resto_london_cheap_british_\dstars_phone$/);
  const max = cli(['kb', 'query', kbFile, 'api_call british london two cheap', '--max', '1', '--order', 'kb']);
  assert.equal(max.stdout.trimEnd().split('\n').length, 7);
  const bad = cli(['kb', 'query', kbFile, "api_call '; DROP TABLE restaurants; -- london two cheap"]);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'error: api_call takes 4 arguments (cuisine location number price) for a babi KB, got 8\n');
  const none = cli(['kb', 'query', kbFile, "api_call ';DROP/**/TABLE/**/restaurants;-- london two cheap"]);
  assert.equal(none.stdout, 'api_call no result\n');
  assert.deepEqual(cli(['kb', 'query', kbFile, 'api_call british london two cheap']).stdout, q.stdout, 'KB unchanged');
  const missing = cli(['kb', 'query', join(tmp, 'none.sqlite'), 'api_call a b c d']);
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr, `error: ${join(tmp, 'none.sqlite')}: no such file\n`);
  const badKb = join(tmp, 'bad-kb.txt');
  writeFileSync(badKb, '1 a R_cuisine\tx\nnot a fact\n');
  const imp = cli(['kb', 'import', badKb, '--out', join(tmp, 'bad.sqlite')]);
  assert.notEqual(imp.status, 0);
  assert.match(imp.stderr, /^error: .*bad-kb\.txt:2: .*\n$/);
  assert.ok(!readdirSync(tmp).some((f) => f.startsWith('bad.sqlite') || f.startsWith('.bad.sqlite')), 'no half-written KB');
});

// On Node 20 the WebAssembly driver's processes hung at exit (a Node deadlock, see settleV8 in
// src/core/sqlite.ts): 14 runs in 20 on a quiet machine, one in seven on a loaded one; 30 runs in a
// row all but surely catch one (run two at a time, they hung in none of 20).
test('kb query exits every time: 30 runs, each within the guard', { skip: skip || (sqliteDriver() === 'node-sqlite3-wasm' ? false : 'the exit hang was on the node-sqlite3-wasm driver only') }, async () => {
  importKb();
  const run = (): Promise<number | null> => new Promise((done) => {
    const child = spawn(process.execPath, [cliPath, 'kb', 'query', kbFile, 'api_call korean seoul four cheap'], { stdio: 'ignore' });
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => (clearTimeout(guard), done(code)));
  });
  const codes: (number | null)[] = [];
  for (let i = 0; i < 30; i++) codes.push(await run());
  assert.deepEqual(codes, Array<number>(30).fill(0), 'null: a run hung and was killed');
});

test('chat: a piped task-5 conversation, /explain and /reset', { skip }, () => {
  importKb();
  const script = [
    'hello',
    'can you book a table for six people with french food',
    'paris please',
    'in a moderate price range please',
    'no i don\'t like that',
    '/explain',
    'that looks great',
    'what is the address of the restaurant',
    'may i have the phone number of the restaurant',
    'thank you',
    '/reset',
    '/history',
  ].join('\n');
  const r = cli(['chat', '--model', 'rules', '--kb', kbFile], script + '\n');
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout.split('\n');
  // Piped input is echoed (`you: …`), so the transcript reads as a conversation.
  assert.deepEqual(out.slice(0, 6), ['you: hello', 'bot: hello what can i help you with today', 'you: can you book a table for six people with french food', "bot: i'm on it", 'bot: where should it be', 'you: paris please']);
  assert.ok(!out.some((l) => l.startsWith('you: /')), 'commands are not echoed as messages');
  assert.ok(out.includes('bot: api_call french paris six moderate'));
  assert.ok(out.includes('kb:  resto_paris_moderate_french_6stars R_rating 6'));
  assert.ok(out.includes('bot: what do you think of this option: resto_paris_moderate_french_6stars'));
  assert.ok(out.includes('bot: what do you think of this option: resto_paris_moderate_french_5stars'));
  assert.ok(out.some((l) => l.startsWith('model rules: rule silence after another → propose')), out.join('\n'));
  assert.ok(out.includes('bot: here it is resto_paris_moderate_french_5stars_address'));
  assert.ok(out.includes('bot: here it is resto_paris_moderate_french_5stars_phone'));
  assert.ok(out.includes('bot: is there anything i can help you with'));
  assert.deepEqual(out.slice(-3), ['(new conversation)', '(empty)', '']);
});

test('chat with a trained HCN model file: a full task-5 conversation, /explain shows template, entities and mask', { skip, timeout: 60_000 }, () => {
  importKb();
  const hcn = trainTinyHcn(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts);
  assert.equal(hcn.dev, 1);
  const modelFile = join(tmp, 'hcn.dgm');
  saveModel(modelFile, hcn.model);
  const script = [
    'good morning',
    'can you make a restaurant reservation in rome for four with italian cuisine',
    'i am looking for a expensive restaurant',
    '/explain',
    'no this does not work for me',
    "let's do it",
    'may i have the phone number of the restaurant',
    'can you provide the address',
    'thanks',
    'no thanks',
  ].join('\n');
  // No --candidates: an HCN writes its answers.
  const r = cli(['chat', '--model', modelFile, '--kb', kbFile], script + '\n');
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout.split('\n');
  const bot = out.filter((l) => l.startsWith('bot: ')).map((l) => l.slice(5));
  const kb = out.filter((l) => l.startsWith('kb:  ')).map((l) => l.slice(5));
  const names = [...new Set(kb.map((l) => l.split(' ')[0] as string))];
  const rating = (n: string): number => Number(kb.find((l) => l.startsWith(`${n} R_rating `))?.split(' ')[2]);
  assert.ok(names.length >= 2, 'rome italian four expensive has several options');
  assert.deepEqual(names.map(rating), names.map(rating).sort((a, b) => b - a), 'results by decreasing rating (from SQLite)');
  const [best, second] = names as [string, string];
  assert.deepEqual(bot, [
    'hello what can i help you with today',
    "i'm on it",
    'which price range are looking for',
    'ok let me look into some options for you',
    'api_call italian rome four expensive',
    `what do you think of this option: ${best}`,
    'sure let me find an other option for you',
    `what do you think of this option: ${second}`,
    'great let me do the reservation',
    `here it is ${second}_phone`,
    `here it is ${second}_address`,
    'is there anything i can help you with',
    "you're welcome",
  ]);
  const ex = out.findIndex((l) => l.startsWith('model hcn: template what do you think of this option: <name>'));
  assert.ok(ex >= 0, out.join('\n'));
  assert.match(out[ex + 1] ?? '', /^  entities: cuisine=italian location=rome number=four price=expensive/);
  assert.match(out[ex + 2] ?? '', /^  mask: \d+ of \d+ templates available$/);
});

test('chat: bad flags and files are one-line errors', { skip }, () => {
  const m = cli(['chat', '--model', 'nosuchmodel'], '');
  assert.notEqual(m.status, 0);
  assert.match(m.stderr, /^error: .*nosuchmodel.*\n$/);
  const k = cli(['chat', '--model', 'rules', '--kb', join(tmp, 'none.sqlite')], '');
  assert.equal(k.stderr, `error: ${join(tmp, 'none.sqlite')}: no such file\n`);
  const t = cli(['chat', '--model', 'tfidf', '--kb', join(babiDir, 'dialog-babi-kb-all.txt')], '');
  assert.equal(t.status, 2);
  assert.match(t.stderr, /^error: model 'tfidf' ranks candidates: give a candidates file.*\n$/);
});

for (const workers of [0, 2])
test(`serve${workers ? ` --workers ${workers}` : ''}: answers over HTTP, then SIGTERM drains and exits 0`, { skip, timeout: 60_000 }, async () => {
  importKb();
  const s = await startServer([cliPath, 'serve', '--model', 'rules', '--kb', kbFile, '--port', '0', '--workers', String(workers)], { timeoutMs: 45_000 });
  const url = s.url;
  const { id } = (await (await fetch(url + '/api/sessions', { method: 'POST' })).json()) as { id: string };
  const pending = fetch(`${url}/api/sessions/${id}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi' }) });
  const res = await pending;
  s.child.kill('SIGTERM');
  assert.equal(res.status, 200);
  assert.deepEqual(((await res.json()) as { replies: { text: string }[] }).replies.map((r) => r.text), ['hello what can i help you with today']);
  if (workers) assert.match(s.stderr(), new RegExp(`, ${workers} worker threads\\) on http`));
  assert.equal(await s.exited, 0);
  assert.match(s.stderr(), /SIGTERM: shutting down \(the requests in flight get 5000 ms to finish\)\nstopped\n$/);
});

test('serve: a taken port is a one-line error', { skip, timeout: 30_000 }, async () => {
  const { createServer } = await import('node:net');
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const port = (blocker.address() as { port: number }).port;
  const r = cli(['serve', '--model', 'rules', '--port', String(port)]);
  blocker.close();
  assert.equal(r.status, 1);
  assert.equal(r.stderr, `error: 127.0.0.1:${port} is already in use\n`);
});
