/** The sessions of a chat (`ChatSessions`): capacity, idle expiry, delete; the create request's body checked first. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CapacityError, InputError, SessionNotFoundError } from '../core/errors.js';
import type { ChatBackend } from '../testbeds/testbed.js';
import { ChatSessions, localSessions } from './chat-sessions.js';

/** A chat whose conversations echo: enough to see what the store does. */
function echoChat(): ChatBackend & { started: string[] } {
  const started: string[] = [];
  return {
    started,
    routes: [],
    files: [],
    banner: 'echo',
    info: (sessions) => ({ sessions }),
    startOptions(body) {
      if (body !== undefined && typeof body !== 'object') throw new InputError('body must be an object');
      return body;
    },
    start(id, _options, now) {
      started.push(id);
      return { opened: () => ({ id, at: now }), answer: (op, body) => ({ id, op, body }) };
    },
    close() {},
  };
}

test('session store: expired sessions make room for new ones at once, without a sweep or a get (issue 41)', () => {
  let now = 0;
  let k = 0;
  const store = new ChatSessions(echoChat(), { maxSessions: 2, idleMs: 60_000, now: () => now, newId: () => `s${k++}` });
  store.create(undefined);
  store.create(undefined);
  assert.throws(() => store.create(undefined), CapacityError);
  now = 60_001;
  assert.equal(store.create(undefined).id, 's2');
  assert.equal(store.create(undefined).id, 's3');
  assert.equal(store.size, 2);
});

test('session store: capacity, idle expiry, delete', () => {
  let now = 0;
  let k = 0;
  const store = new ChatSessions(echoChat(), { maxSessions: 2, idleMs: 1000, now: () => now, newId: () => `s${k++}` });
  const a = store.create(undefined);
  const b = store.create(undefined);
  assert.throws(() => store.create(undefined), CapacityError);
  now = 600;
  assert.equal(store.get(a.id), a.conversation); // touched at 600
  now = 1500; // b idle for 1500 ms, a for 900 ms
  assert.throws(() => store.get(b.id), (e: unknown) => e instanceof SessionNotFoundError && e.message === 'unknown or expired session: s1');
  assert.equal(store.get(a.id), a.conversation);
  const c = store.create(undefined);
  assert.equal(store.size, 2);
  assert.equal(store.delete(c.id), true);
  assert.equal(store.delete(c.id), false);
  now = 10_000;
  assert.equal(store.sweep(), 1);
  assert.equal(store.size, 0);
});

test('session store: a bad create body is an InputError before the capacity check and starts nothing; ids take the prefix', async () => {
  const chat = echoChat();
  const store = new ChatSessions(chat, { maxSessions: 1, newId: () => 'x' });
  assert.equal(store.create({}, '3.').id, '3.x');
  assert.throws(() => store.create(7), (e: unknown) => e instanceof InputError && e.message === 'body must be an object');
  assert.throws(() => store.create({}), CapacityError);
  assert.deepEqual(chat.started, ['3.x']);
  const local = localSessions(store);
  assert.deepEqual(await local.answer('3.x', 'message', { text: 'hi' }), { value: { id: '3.x', op: 'message', body: { text: 'hi' } } });
  assert.equal(await local.size(), 1);
  await assert.rejects(local.answer('nope', 'message', {}), SessionNotFoundError);
});
