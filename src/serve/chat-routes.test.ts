/**
 * A chat mounted from its routes as data (`registerChat`): what each kind of route does, the
 * errors' statuses and one-line bodies, the page's files, the links to the other chats — with a
 * chat of the test's own, which the server knows nothing about.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../core/errors.js';
import { chatPageFiles, type ChatBackend } from '../testbeds/testbed.js';
import { registerChat, CHAT_PAGE_CSP } from './chat-routes.js';
import { bareServer } from './server.js';

/** A counting chat: `POST /api/count/sessions {start}`, `…/:id/add {n}`, `GET …/:id`, `GET /api/count/total` (the chat itself). */
function countChat(): ChatBackend {
  let total = 0;
  return {
    routes: [
      { method: 'GET', path: '/api/count', does: 'info' },
      { method: 'GET', path: '/api/count/total', does: 'ask', op: 'total' },
      { method: 'POST', path: '/api/count/sessions', does: 'create' },
      { method: 'POST', path: '/api/count/sessions/:id/add', does: 'answer', op: 'add' },
      { method: 'GET', path: '/api/count/sessions/:id', does: 'answer', op: 'view' },
      { method: 'DELETE', path: '/api/count/sessions/:id', does: 'delete' },
    ],
    files: chatPageFiles(['/count'], 'count.html', 'count.js', 'count.css'),
    banner: 'counter',
    info: (sessions) => ({ model: 'counter', sessions }),
    ask: () => ({ total }),
    startOptions(body) {
      const start = (body as { start?: unknown } | undefined)?.start ?? 0;
      if (typeof start !== 'number') throw new InputError('start must be a number');
      return start;
    },
    start(id, options) {
      let n = options as number;
      return {
        opened: () => ({ id, n }),
        answer(op, body) {
          if (op === 'add') {
            const k = (body as { n?: unknown } | undefined)?.n;
            if (typeof k !== 'number') throw new InputError('n must be a number');
            n += k;
            total += k;
          }
          return { id, n };
        },
      };
    },
    close() {},
  };
}

test('registerChat: a chat of its own, mounted from its routes as data', async () => {
  const web = mkdtempSync(join(tmpdir(), 'dialogym-chat-routes-'));
  writeFileSync(join(web, 'count.html'), '<input id="text" maxlength="1">');
  writeFileSync(join(web, 'count.js'), 'export {};');
  // no count.css: a missing file is not served
  let k = 0;
  const server = bareServer({ logError: () => {} });
  registerChat(server.app, countChat(), { webDir: web, maxSessions: 1, maxTextLength: 42, newId: () => `c${++k}`, others: { elsewhere: '/other' } });
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const r = await server.app.inject({ method, url, ...(payload ? { payload } : {}) });
    return { status: r.statusCode, body: r.body };
  };
  try {
    assert.deepEqual(await call('GET', '/api/count'), { status: 200, body: '{"model":"counter","sessions":0,"elsewhere":"/other"}' });
    assert.deepEqual(await call('POST', '/api/count/sessions', { start: 'x' }), { status: 400, body: '{"error":"start must be a number"}' });
    assert.deepEqual(await call('POST', '/api/count/sessions', { start: 2 }), { status: 201, body: '{"id":"c1","n":2}' });
    assert.deepEqual(await call('POST', '/api/count/sessions'), { status: 503, body: '{"error":"too many sessions (1); try again later"}' });
    assert.deepEqual(await call('POST', '/api/count/sessions/c1/add', { n: 3 }), { status: 200, body: '{"id":"c1","n":5}' });
    assert.deepEqual(await call('POST', '/api/count/sessions/c1/add', {}), { status: 400, body: '{"error":"n must be a number"}' });
    // an unknown session is a 404 whatever the body
    assert.deepEqual(await call('POST', '/api/count/sessions/c9/add', {}), { status: 404, body: '{"error":"unknown or expired session: c9"}' });
    assert.deepEqual(await call('GET', '/api/count/sessions/c1'), { status: 200, body: '{"id":"c1","n":5}' });
    assert.deepEqual(await call('GET', '/api/count/total'), { status: 200, body: '{"total":3}' });
    assert.deepEqual(await call('DELETE', '/api/count/sessions/c1'), { status: 204, body: '' });
    assert.deepEqual(await call('DELETE', '/api/count/sessions/c1'), { status: 404, body: '{"error":"unknown or expired session: c1"}' });
    const page = await server.app.inject({ method: 'GET', url: '/count' });
    assert.equal(page.body, '<input id="text" maxlength="42">');
    assert.equal(page.headers['content-security-policy'], CHAT_PAGE_CSP);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal((await call('GET', '/count.js')).body, 'export {};');
    assert.equal((await call('GET', '/count.css')).status, 404);
  } finally {
    await server.close();
    rmSync(web, { recursive: true, force: true });
  }
});
