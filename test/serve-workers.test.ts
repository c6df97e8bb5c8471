/**
 * The JSON API with the sessions in worker threads (`serve --workers n`): the same answers as the
 * in-thread server, sessions routed to their worker, the same error statuses, capacity shared.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { babiDir, skipUnless, skipUnlessSqlite } from './shared-data.js';
import { importKbFile, SqliteKbStore } from '../src/testbeds/restaurant/kb-sqlite.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import { chatModelOf } from '../src/testbeds/restaurant/chat/chat-model.js';
import { serveChats, type ChatServer, type ServerOptions } from '../src/serve/server.js';
import { restaurantChat } from '../src/testbeds/restaurant/chat/backend.js';
import type { ChatBackend } from '../src/testbeds/testbed.js';
import { restaurantServer } from './chat-server.js';
import { startWorkerPool } from '../src/serve/worker-pool.js';
import { restaurantModelsReady } from '../src/testbeds/restaurant/model-list.js';

const skip = skipUnless(babiDir) || skipUnlessSqlite();
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-serve-workers-'));
const kbFile = join(tmp, 'kb.sqlite');
let store: SqliteKbStore;
let pooled: ChatServer;
let local: ChatServer;
let pooledChat: ChatBackend | undefined;
let pooledBase = '';
let localBase = '';
const opts: ServerOptions = { maxSessions: 4, maxTextLength: 200, logError: () => {} };

before(async () => {
  if (skip) return;
  await restaurantModelsReady(); // `restaurantChat.open` below runs the registry's `rules`
  importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), kbFile);
  store = SqliteKbStore.open(kbFile);
  local = restaurantServer(chatModelOf(createRulesBot()), { store, dialect: store.dialect }, opts);
  localBase = await local.listen(0, '127.0.0.1');
  // As `serve --model rules --kb … --workers 2`: this thread opens the chat too (GET /api/kb, /api/health), each worker its own.
  const options = { model: 'rules', kb: kbFile, maxTextLength: 200 };
  const pool = await startWorkerPool({ workers: 2, testbed: 'restaurant', options, store: { maxSessions: 4 } });
  pooledChat = restaurantChat.open(options);
  pooled = serveChats([{ testbed: 'restaurant', chat: pooledChat, sessions: pool }], opts);
  pooledBase = await pooled.listen(0, '127.0.0.1');
  assert.equal(((await call(pooledBase, 'GET', '/api/health')).json as { model: string }).model, 'rules');
});

after(async () => {
  if (skip) return;
  await pooled?.close();
  await local?.close();
  pooledChat?.close();
  store?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const r = await fetch(base + path, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
}

const SCRIPT = ['hello', 'can you book a table in london for two', 'i love british food', 'in a cheap price range please', 'no this does not work for me', "let's do it", 'what is the address of the restaurant', 'thanks'];

test('two workers answer a booking exactly like the in-thread server (replies, explanations, transcript)', { skip, timeout: 60_000 }, async () => {
  const ids: string[] = [];
  for (const base of [pooledBase, pooledBase, localBase]) ids.push(((await call(base, 'POST', '/api/sessions')).json as { id: string }).id);
  const [a, b, c] = ids as [string, string, string];
  // Round-robin: the two pooled sessions live in different workers.
  assert.notEqual(a.split('.')[0], b.split('.')[0]);
  for (const text of SCRIPT) {
    const ra = await call(pooledBase, 'POST', `/api/sessions/${a}/messages`, { text });
    const rb = await call(pooledBase, 'POST', `/api/sessions/${b}/messages`, { text });
    const rc = await call(localBase, 'POST', `/api/sessions/${c}/messages`, { text });
    assert.equal(ra.status, 200);
    assert.deepEqual(ra.json, rc.json, text);
    assert.deepEqual(rb.json, rc.json, text);
  }
  const ta = (await call(pooledBase, 'GET', `/api/sessions/${a}`)).json as { id: string; turns: unknown[] };
  const tc = (await call(localBase, 'GET', `/api/sessions/${c}`)).json as { id: string; turns: unknown[] };
  assert.equal(ta.id, a);
  assert.deepEqual(ta.turns, tc.turns);
  assert.equal(((await call(pooledBase, 'GET', '/api/health')).json as { sessions: number }).sessions, 2);
  for (const id of [a, b]) assert.equal((await call(pooledBase, 'DELETE', `/api/sessions/${id}`)).status, 204);
  assert.equal((await call(pooledBase, 'DELETE', `/api/sessions/${a}`)).status, 404);
});

test('workers: bad requests keep their statuses; capacity is shared across workers', { skip, timeout: 60_000 }, async () => {
  assert.deepEqual(await call(pooledBase, 'POST', '/api/sessions/0.nope/messages', { text: 'hi' }), { status: 404, json: { error: 'unknown or expired session: 0.nope' } });
  assert.equal((await call(pooledBase, 'POST', '/api/sessions/9.x/messages', { text: 'hi' })).status, 404);
  assert.equal((await call(pooledBase, 'GET', '/api/sessions/garbage')).status, 404);
  const id = ((await call(pooledBase, 'POST', '/api/sessions')).json as { id: string }).id;
  assert.deepEqual(await call(pooledBase, 'POST', `/api/sessions/${id}/messages`, { text: '' }), { status: 400, json: { error: 'text is empty' } });
  // over the limit (200): cut to it and answered, not refused
  assert.equal((await call(pooledBase, 'POST', `/api/sessions/${id}/messages`, { text: `hello ${'x'.repeat(201)}` })).status, 200);
  assert.deepEqual(await call(pooledBase, 'POST', `/api/sessions/${id}/messages`, { text: 7 }), { status: 400, json: { error: 'text must be a string' } });
  // 4 sessions in all (2 per worker): the 5th is a 503.
  for (let i = 0; i < 3; i++) assert.equal((await call(pooledBase, 'POST', '/api/sessions')).status, 201);
  assert.deepEqual(await call(pooledBase, 'POST', '/api/sessions'), { status: 503, json: { error: 'too many sessions (4); try again later' } });
  assert.equal((await call(pooledBase, 'DELETE', `/api/sessions/${id}`)).status, 204);
  assert.equal((await call(pooledBase, 'POST', '/api/sessions')).status, 201);
});

test('workers: a setup error (unknown model) is reported, no worker left running', { skip, timeout: 60_000 }, async () => {
  await assert.rejects(startWorkerPool({ workers: 2, testbed: 'restaurant', options: { model: 'nosuchmodel', kb: kbFile }, store: {} }), /nosuchmodel/);
});
