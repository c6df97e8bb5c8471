/** The JSON API over a real socket on 127.0.0.1 (random free port). */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { babiDir, skipUnless, skipUnlessSqlite } from './shared-data.js';
import { importKbFile, SqliteKbStore } from '../src/testbeds/restaurant/kb-sqlite.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import { chatModelOf } from '../src/testbeds/restaurant/chat/chat-model.js';
import type { ChatServer } from '../src/serve/server.js';
import { restaurantServer } from './chat-server.js';

const skip = skipUnless(babiDir) || skipUnlessSqlite();
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-serve-api-'));
const kbFile = join(tmp, 'kb.sqlite');
let store: SqliteKbStore;
let server: ChatServer;
let base = '';
let kbHash = '';
const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');

before(async () => {
  if (skip) return;
  importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), kbFile);
  kbHash = sha(kbFile);
  store = SqliteKbStore.open(kbFile);
  server = restaurantServer(chatModelOf(createRulesBot()), { store, dialect: store.dialect }, { bodyLimit: 1024, maxTextLength: 200, maxSessions: 5, logError: () => {} });
  base = await server.listen(0, '127.0.0.1');
});

after(async () => {
  if (skip) return;
  await server.close();
  store.close();
  rmSync(tmp, { recursive: true, force: true });
});

interface Res {
  status: number;
  type: string;
  json: unknown;
  text: string;
}

/** One raw HTTP request (node:http, so bodies and headers are exactly what the test says). */
function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = undefined;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), json, text });
      });
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function newSession(): Promise<string> {
  const r = await call('POST', '/api/sessions');
  assert.equal(r.status, 201);
  return (r.json as { id: string }).id;
}

async function say(id: string, text: string): Promise<{ replies: { text: string; kind: string; explanation?: { type: string } }[]; explanation: { type: string; rule?: string } | null }> {
  const r = await call('POST', `/api/sessions/${id}/messages`, JSON.stringify({ text }));
  assert.equal(r.status, 200, r.text);
  return r.json as never;
}

function assertError(r: Res, status: number, pattern: RegExp): void {
  assert.equal(r.status, status, r.text);
  assert.match(r.type, /^application\/json/);
  const e = (r.json as { error?: unknown }).error;
  assert.equal(typeof e, 'string', r.text);
  assert.match(e as string, pattern);
  assert.ok(!/\n\s+at /.test(r.text), 'no stack trace');
  assert.deepEqual(Object.keys(r.json as object), ['error']);
}

test('health', { skip }, async () => {
  const r = await call('GET', '/api/health');
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, { status: 'ok', model: 'rules', kb: { dialect: 'babi' }, sessions: 0 });
});

test('a full booking over HTTP: replies with kinds, KB lines from SQLite, explanation, transcript, delete', { skip }, async () => {
  const id = await newSession();
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.equal((await say(id, 'good morning')).replies[0]?.text, 'hello what can i help you with today');
  const req = await say(id, 'can you make a restaurant reservation in rome for four with italian cuisine');
  assert.deepEqual(req.replies.map((r) => r.text), ["i'm on it", 'which price range are looking for']);
  const found = await say(id, 'i am looking for a expensive restaurant');
  const kinds = found.replies.map((r) => r.kind);
  assert.deepEqual([kinds[0], kinds[1], kinds.at(-1)], ['utterance', 'api_call', 'utterance']);
  assert.equal(found.replies[1]?.text, 'api_call italian rome four expensive');
  const kbLines = found.replies.filter((r) => r.kind === 'kb').map((r) => r.text);
  assert.deepEqual(kbLines, kbLinesOf('api_call italian rome four expensive'));
  assert.ok(kbLines.length > 0);
  assert.equal(found.explanation?.type, 'rules');
  assert.match(found.explanation?.rule ?? '', /propose/);
  assert.equal(found.replies[1]?.explanation?.type, 'rules');
  assert.equal(found.replies[2]?.explanation, undefined);
  const best = kbLines[0]?.split(' ')[0] as string;
  assert.equal(found.replies.at(-1)?.text, `what do you think of this option: ${best}`);
  assert.deepEqual((await say(id, "let's do it")).replies.map((r) => r.text), ['great let me do the reservation']);
  assert.deepEqual((await say(id, 'may i have the phone number of the restaurant')).replies.map((r) => r.text), [`here it is ${best}_phone`]);
  assert.deepEqual((await say(id, 'can you provide the address')).replies.map((r) => r.text), [`here it is ${best}_address`]);
  const t = await call('GET', `/api/sessions/${id}`);
  assert.equal(t.status, 200);
  const turns = (t.json as { turns: { speaker: string; text: string; explanation?: unknown }[] }).turns;
  assert.deepEqual(turns.slice(0, 5).map((x) => `${x.speaker}: ${x.text}`), ['user: good morning', 'bot: hello what can i help you with today', 'user: can you make a restaurant reservation in rome for four with italian cuisine', "bot: i'm on it", 'user: <SILENCE>']);
  assert.ok(turns.filter((x) => x.speaker === 'bot').every((x) => x.explanation !== undefined));
  assert.equal((await call('DELETE', `/api/sessions/${id}`)).status, 204);
  assertError(await call('GET', `/api/sessions/${id}`), 404, /unknown or expired session/);
});

function kbLinesOf(apiCall: string): string[] {
  const [, cuisine, location, number, price] = apiCall.split(' ') as [string, string, string, string, string];
  return store
    .query({ cuisine, location, number, price })
    .sort((a, b) => b.rating - a.rating)
    .flatMap((r) => [`${r.name} R_phone ${r.phone}`, `${r.name} R_cuisine ${r.cuisine}`, `${r.name} R_address ${r.address}`, `${r.name} R_location ${r.location}`, `${r.name} R_number ${r.number}`, `${r.name} R_price ${r.price}`, `${r.name} R_rating ${r.rating}`]);
}

test('bad requests: 4xx JSON errors', { skip }, async () => {
  const id = await newSession();
  assertError(await call('POST', `/api/sessions/${id}/messages`, '{"text": "hi"'), 400, /^invalid JSON body$/);
  assertError(await call('POST', `/api/sessions/${id}/messages`, '', { 'content-type': 'application/json' }), 400, /empty JSON body|invalid JSON/);
  assertError(await call('POST', `/api/sessions/${id}/messages`, JSON.stringify({ text: 'x'.repeat(2000) })), 413, /^request body too large \(limit 1024 bytes\)$/);
  // over the limit (200): cut to it and answered, not refused; the transcript keeps the 200 characters read
  const long = `hello ${'y'.repeat(250)}`;
  const cut = await call('POST', `/api/sessions/${id}/messages`, JSON.stringify({ text: long }));
  assert.equal(cut.status, 200, cut.text);
  const seen = (await call('GET', `/api/sessions/${id}`)).json as { turns: { speaker: string; text: string }[] };
  assert.equal(seen.turns.filter((t) => t.speaker === 'user').at(-1)?.text, long.slice(0, 200));
  assertError(await call('POST', `/api/sessions/${id}/messages`, JSON.stringify({ msg: 'hi' })), 400, /^text must be a string$/);
  assertError(await call('POST', `/api/sessions/${id}/messages`, JSON.stringify({ text: 'hi', model: 'x' })), 400, /^unknown field "model": the body is \{"text": "\.\.\."\}$/);
  assertError(await call('POST', '/api/sessions', JSON.stringify({ model: 'x' })), 400, /^POST \/api\/sessions takes no body \(or \{\}\)$/);
  assertError(await call('POST', '/api/sessions', '[1]'), 400, /takes no body/);
  assertError(await call('POST', `/api/sessions/${id}/messages`, JSON.stringify(['hi'])), 400, /JSON object/);
  assertError(await call('POST', `/api/sessions/${id}/messages`, JSON.stringify({ text: '   ' })), 400, /^text is empty$/);
  assertError(await call('POST', `/api/sessions/${id}/messages`, 'text=hi', { 'content-type': 'text/plain' }), 415, /unsupported content type/);
  assertError(await call('POST', '/api/sessions/nope/messages', JSON.stringify({ text: 'hi' })), 404, /^unknown or expired session: nope$/);
  assertError(await call('GET', '/api/sessions/nope'), 404, /unknown or expired session/);
  assertError(await call('DELETE', '/api/sessions/nope'), 404, /unknown or expired session/);
  assertError(await call('GET', '/api/nothing'), 404, /^not found: GET \/api\/nothing$/);
  // A known path with another method: 405 naming the allowed ones (also in `Allow`).
  assertError(await call('PUT', '/api/sessions'), 405, /^method PUT not allowed on \/api\/sessions \(allowed: POST\)$/);
  assertError(await call('GET', `/api/sessions/${id}/messages`), 405, /\(allowed: POST\)$/);
  assertError(await call('POST', `/api/sessions/${id}`, '{}'), 405, /\(allowed: DELETE, GET, HEAD\)$/);
  // Nested deeper than 32 levels: refused before parsing.
  assertError(await call('POST', `/api/sessions/${id}/messages`, '{"text":' + '['.repeat(40) + ']'.repeat(40) + '}'), 400, /^JSON body nested deeper than 32 levels$/);
  // The session survived all of that.
  assert.equal((await say(id, 'hi')).replies[0]?.text, 'hello what can i help you with today');
  await call('DELETE', `/api/sessions/${id}`);
});

test("SQL-looking text is a turn like any other: the models read it without `;`, `=` or quotes, the transcript keeps it; quote tricks reach the KB as plain values; KB unchanged", { skip }, async () => {
  const id = await newSession();
  await say(id, 'hi');
  const sql = "i love '; DROP TABLE restaurants; -- food";
  await say(id, sql);
  await say(id, "' OR '1'='1");
  const t = (await call('GET', `/api/sessions/${id}`)).json as { turns: { speaker: string; text: string; read?: string }[] };
  const typed = t.turns.filter((x) => x.speaker === 'user' && x.text !== '<SILENCE>').map((x) => [x.text, x.read]);
  assert.deepEqual(typed, [['hi', undefined], [sql, 'i love drop table restaurants food'], ["' OR '1'='1", 'or one one']]);
  // A quote-laden cuisine goes through as one word and matches nothing.
  const r = await say(id, "may i have a table with x'or'1'like'1 cuisine in paris for six people in a cheap price range");
  const call1 = r.replies.find((x) => x.kind === 'api_call');
  assert.equal(call1?.text, "api_call x'or'1'like'1 paris six cheap");
  assert.deepEqual(r.replies.filter((x) => x.kind === 'kb').map((x) => x.text), ['api_call no result']);
  assert.equal(store.all().length, 1200);
  assert.equal(sha(kbFile), kbHash);
  await call('DELETE', `/api/sessions/${id}`);
});

test('session limit: 503 when full, room again after a delete', { skip }, async () => {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push(await newSession());
  assertError(await call('POST', '/api/sessions'), 503, /too many sessions \(5\)/);
  await call('DELETE', `/api/sessions/${ids[0]}`);
  ids[0] = await newSession();
  for (const id of ids) assert.equal((await call('DELETE', `/api/sessions/${id}`)).status, 204);
});

test('the web UI is served at / (no CDN), unknown static paths 404', { skip }, async () => {
  const r = await call('GET', '/');
  assert.equal(r.status, 200);
  assert.match(r.type, /^text\/html/);
  assert.match(r.text, /<script type="module" src="\/app\.js"><\/script>/);
  assert.ok(!/https?:\/\//.test(r.text), 'no external URL');
  assert.match(r.text, /<input id="text"[^>]*maxlength="200"/, 'the message box takes what the server accepts (--max-text 200)');
  const js = await call('GET', '/app.js');
  assert.equal(js.status, 200);
  assert.match(js.type, /^text\/javascript/);
  assert.ok(!/https?:\/\//.test(js.text));
  assert.equal((await call('GET', '/style.css')).status, 200);
  assertError(await call('GET', '/../package.json'), 404, /not found/);
  assertError(await call('GET', '/web/app.js'), 404, /not found/);
});
