/** The AirDialogue chat API of `dialogym serve --airdialogue` (fastify inject): both roles, the score, schema-checked bodies, one-line JSON errors. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultWebDir, serveChats, type ChatServer } from '../src/serve/server.js';
import { airChatBackend } from '../src/testbeds/airdialogue/chat/backend.js';
import { AirChat } from '../src/testbeds/airdialogue/chat/chat.js';
import { scoreAction } from '../src/testbeds/airdialogue/scorer.js';
import { saveAirModels } from '../src/testbeds/airdialogue/learned/train.js';
import { cliPath } from './shared-data.js';
import { tinyAirModels } from './airdialogue-chat-fixture.js';

const models = tinyAirModels();
let server: ChatServer;
let clock = 0;
let ids = 0;

before(async () => {
  server = serveChats([{ testbed: 'airdialogue', chat: airChatBackend({ model: 'tiny.dgm', models, maxTextLength: 100 }) }], { logError: () => {}, webDir: defaultWebDir(), maxSessions: 3, idleMs: 1000, maxTextLength: 100, now: () => clock, newId: () => `s${++ids}` });
  await server.app.ready();
});

after(async () => {
  await server.close();
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, raw?: string): Promise<{ status: number; json: any; type: string }> {
  const r = await server.app.inject({ method, url, ...(raw !== undefined ? { payload: raw, headers: { 'content-type': 'application/json' } } : body !== undefined ? { payload: body as object } : {}) });
  return { status: r.statusCode, json: r.body ? JSON.parse(r.body) : null, type: String(r.headers['content-type']) };
}

test('playing the agent over HTTP: context, the learned customer’s turns, an action button, the score', async () => {
  const c = await call('POST', '/api/airdialogue/sessions', { role: 'agent', seed: 11 });
  assert.equal(c.status, 201);
  const local = new AirChat(models, { role: 'agent', seed: 11 });
  assert.deepEqual(c.json, { id: c.json.id, role: 'agent', seed: 11, context: { kb: local.context.kb }, turns: local.turns, end: null });
  const m = await call('POST', `/api/airdialogue/sessions/${c.json.id}/messages`, { text: 'May I know your name, please?' });
  assert.equal(m.status, 200);
  assert.deepEqual(m.json, JSON.parse(JSON.stringify(local.say('May I know your name, please?'))));
  const flight = local.context.kb.kb[5]!.flight_number;
  const a = await call('POST', `/api/airdialogue/sessions/${c.json.id}/action`, { status: 'change', name: 'Jo Lee', flight });
  assert.equal(a.status, 200);
  const action = { status: 'change', name: 'Jo Lee', flight: [flight] };
  assert.deepEqual(a.json.end.action, action);
  assert.deepEqual(a.json.end.expected, local.context.expected);
  assert.deepEqual(a.json.end.score, scoreAction(action, local.context.expected, local.context.kb));
  const again = await call('POST', `/api/airdialogue/sessions/${c.json.id}/action`, { status: 'cancel' });
  assert.deepEqual(again, { status: 400, json: { error: 'the dialogue is over; start a new one' }, type: again.type });
  const g = await call('GET', `/api/airdialogue/sessions/${c.json.id}`);
  assert.equal(g.json.turns.length, 4);
  assert.equal(g.json.end.score.total, a.json.end.score.total);
  assert.equal((await call('DELETE', `/api/airdialogue/sessions/${c.json.id}`)).status, 204);
  assert.equal((await call('GET', `/api/airdialogue/sessions/${c.json.id}`)).status, 404);
});

test('playing the customer over HTTP: the goal is shown, the learned agent acts, the text end command is not the customer’s', async () => {
  const c = await call('POST', '/api/airdialogue/sessions', { role: 'customer', seed: 2, ood: 2 });
  assert.equal(c.status, 201);
  const local = new AirChat(models, { role: 'customer', seed: 2, ood: 2 });
  assert.deepEqual(c.json.context, { intent: local.context.intent });
  assert.deepEqual(c.json.turns, []);
  let last: any;
  let i = 0;
  for (; i < 13 && !last?.end; i++) {
    const text = i === 0 ? '/book 1000 me' : `I fly on June ${i}th`;
    last = (await call('POST', `/api/airdialogue/sessions/${c.json.id}/messages`, { text })).json;
    assert.deepEqual(last, JSON.parse(JSON.stringify(local.say(text))));
  }
  assert.ok(last.end, 'the learned agent acts within 12 turns');
  assert.deepEqual(last.turns[0], { speaker: 'customer', text: `I fly on June ${i - 1}th`, heard: `I fly on June ${i - 1}` });
  const act = await call('POST', `/api/airdialogue/sessions/${c.json.id}/action`, { status: 'book', name: 'x', flight: 1000 });
  assert.equal(act.status, 400);
});

test('bad bodies, unknown sessions, limits: one-line JSON errors', async () => {
  const bad = async (method: 'POST' | 'GET', url: string, body: unknown, status: number, error: RegExp, raw?: string) => {
    const r = await call(method, url, body, raw);
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.match(r.type, /^application\/json/);
    assert.deepEqual(Object.keys(r.json), ['error']);
    assert.match(r.json.error, error);
    assert.ok(!r.json.error.includes('\n'));
  };
  await bad('POST', '/api/airdialogue/sessions', { role: 'pilot' }, 400, /^"role" must be one of customer\/agent, got "pilot"$/);
  await bad('POST', '/api/airdialogue/sessions', {}, 400, /^missing "role"$/);
  await bad('POST', '/api/airdialogue/sessions', { role: 'agent', seed: -1 }, 400, /^"seed" must be >= 0, got -1$/);
  await bad('POST', '/api/airdialogue/sessions', { role: 'agent', colour: 'red' }, 400, /^unknown field "colour"$/);
  await bad('POST', '/api/airdialogue/sessions', [1], 400, /^body must be a JSON object \(session\)$/);
  await bad('POST', '/api/airdialogue/sessions', undefined, 400, /^invalid JSON body$/, '{"role": ');
  const id = (await call('POST', '/api/airdialogue/sessions', { role: 'agent' })).json.id as string;
  await bad('POST', `/api/airdialogue/sessions/${id}/messages`, { text: 5 }, 400, /^"text" must be a string, got 5$/);
  await bad('POST', `/api/airdialogue/sessions/${id}/messages`, { text: ' \t ' }, 400, /^empty message$/);
  await bad('POST', `/api/airdialogue/sessions/${id}/action`, { status: 'fly' }, 400, /^"status" must be one of book\/change\/cancel\/no_flight\/no_reservation, got "fly"$/);
  await bad('POST', `/api/airdialogue/sessions/${id}/action`, { status: 'book', name: 'x' }, 400, /^book needs one flight number from the table$/);
  await bad('POST', `/api/airdialogue/sessions/${id}/action`, { status: 'book', flight: 7 }, 400, /^flight 7 is not in the table$/);
  await bad('POST', `/api/airdialogue/sessions/${id}/action`, { status: 'book', flight: 1e300 }, 400, /^"flight" must be <= 1000000, got 1e\+300$/);
  await bad('POST', `/api/airdialogue/sessions/${id}/messages`, { text: 'hi', role: 'agent' }, 400, /^unknown field "role"$/);
  await bad('POST', '/api/airdialogue/sessions/nope/messages', { text: 5 }, 404, /^unknown or expired session: nope$/);
  await bad('GET', '/api/airdialogue/sessions/nope', undefined, 404, /^unknown or expired session: nope$/);
  // capacity (3) and idle expiry (1 s on the test clock)
  const live = (await call('GET', '/api/airdialogue')).json.sessions as number;
  for (let i = live; i < 3; i++) assert.equal((await call('POST', '/api/airdialogue/sessions', { role: 'customer' })).status, 201);
  await bad('POST', '/api/airdialogue/sessions', { role: 'customer' }, 503, /^too many sessions \(3\); try again later$/);
  clock += 5000;
  await bad('GET', `/api/airdialogue/sessions/${id}`, undefined, 404, /^unknown or expired session: /);
  assert.equal((await call('POST', '/api/airdialogue/sessions', { role: 'customer' })).status, 201);
  const info = await call('GET', '/api/airdialogue');
  assert.deepEqual(info.json, { model: 'tiny.dgm', vocabulary: models.vocab.size, sessions: 1 });
});

test('the page and its files are served with a content security policy', async () => {
  for (const [url, type] of [
    ['/airdialogue', 'text/html'],
    ['/airdialogue.js', 'text/javascript'],
    ['/airdialogue.css', 'text/css'],
  ] as const) {
    const r = await server.app.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 200, url);
    assert.match(String(r.headers['content-type']), new RegExp(`^${type}`));
    assert.match(String(r.headers['content-security-policy']), /script-src 'self'/);
  }
  const page = (await server.app.inject({ method: 'GET', url: '/airdialogue' })).body;
  assert.match(page, /<script type="module" src="\/airdialogue\.js"><\/script>/);
  // The layout it shares with the env page (src/serve/web/chat.css) comes first, then its own sheet.
  assert.match(page, /<link rel="stylesheet" href="\/chat\.css">\s*<link rel="stylesheet" href="\/airdialogue\.css">/);
  const shared = await server.app.inject({ method: 'GET', url: '/chat.css' });
  assert.equal(shared.statusCode, 200);
  assert.match(String(shared.headers['content-type']), /^text\/css/);
  assert.match(shared.body, /^#chat \{ flex: 3;/m);
  assert.deepEqual([shared.headers['x-content-type-options'], shared.headers['cache-control']], ['nosniff', 'no-store']);
  // The message box takes what the server keeps (maxTextLength 100 here, the file says 500).
  assert.match(page, /<input id="text"[^>]*maxlength="100"/);
});

test('dialogym serve --airdialogue: a corrupt model file is a one-line error before anything listens', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-air-serve-'));
  const file = join(dir, 'air.dgm');
  saveAirModels(file, models);
  const bad = join(dir, 'bad.dgm');
  (await import('node:fs')).writeFileSync(bad, (await import('node:fs')).readFileSync(file).subarray(0, 200));
  const child = spawn(process.execPath, [cliPath, 'serve', '--model', 'rules', '--airdialogue', bad, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((res) => child.on('close', res));
  assert.equal(code, 1);
  assert.equal(stderr.trimEnd().split('\n').length, 1, stderr);
  assert.match(stderr, /^error: .*bad\.dgm/);
});
