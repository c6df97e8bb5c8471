import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { createApp, gracefulClose } from './http.js';

/** A raw connection to `port` and everything it receives until the server closes it. */
async function raw(port: number, send: string): Promise<{ sock: Socket; received: Promise<string> }> {
  const sock = connect(port, '127.0.0.1');
  await once(sock, 'connect');
  let got = '';
  sock.on('data', (c: Buffer) => (got += c.toString()));
  sock.on('error', () => {});
  const received = once(sock, 'close').then(() => got);
  sock.write(send);
  return { sock, received };
}

test('http: a client that never finishes its headers gets 408 and is disconnected after the request timeout', async () => {
  const app = createApp({ bodyLimit: 1024, requestTimeoutMs: 1000 }, () => 'nothing here');
  app.get('/x', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = app.server.address() as { port: number };
    const { sock, received } = await raw(port, 'GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const drip = setInterval(() => sock.write('a'), 100);
    const got = await received;
    clearInterval(drip);
    assert.match(got, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  } finally {
    await app.close();
  }
});

test('http: JSON bodies of bounded nesting, 405 with Allow for a known path, the 404 worded by the server', async () => {
  const app = createApp({ bodyLimit: 1 << 16, maxDepth: 4 }, (req) => `no ${req.url}`);
  app.post('/items/:id', async (req) => ({ body: req.body }));
  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => void reply.code(err.statusCode ?? 500).send({ error: err.message }));
  const post = (payload: string, type = 'application/json') => app.inject({ method: 'POST', url: '/items/7', payload, headers: { 'content-type': type } });
  assert.deepEqual((await post('{"a":[[{"b":1}]]}')).json(), { body: { a: [[{ b: 1 }]] } });
  const deep = await post('{"a":[[{"b":[1]}]]}');
  assert.deepEqual([deep.statusCode, deep.json()], [400, { error: 'JSON body nested deeper than 4 levels' }]);
  // Brackets inside strings are not nesting; __proto__ is refused as fastify refuses it.
  assert.equal((await post('{"a":"[[[[[[[["}')).statusCode, 200);
  assert.equal((await post('{"__proto__":{"x":1}}')).statusCode, 400);
  assert.equal((await post('hello', 'text/plain')).statusCode, 415);
  const get = await app.inject({ method: 'GET', url: '/items/7?x=1' });
  assert.deepEqual([get.statusCode, get.headers['allow'], get.json()], [405, 'POST', { error: 'method GET not allowed on /items/7 (allowed: POST)' }]);
  const none = await app.inject({ method: 'GET', url: '/nothing' });
  assert.deepEqual([none.statusCode, none.json()], [404, { error: 'no /nothing' }]);
  await app.close();
});

test('http: gracefulClose lets a request in flight finish (answered with Connection: close), then cuts a half-sent one at the end of the grace', async () => {
  const app = createApp({ bodyLimit: 1024 }, () => 'nothing here');
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived: () => void = () => {};
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  app.get('/slow', async () => {
    arrived();
    await held;
    return { done: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const slow = await raw(port, 'GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const half = await raw(port, 'GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
  await inFlight;
  const closing = gracefulClose(app, 1000);
  release();
  const answer = await slow.received;
  assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(answer, /\r\nconnection: close\r\n/i);
  assert.match(answer, /\{"done":true\}$/);
  assert.deepEqual(await closing, { cut: 1 });
  assert.equal(await half.received, '');
  assert.equal(app.server.listening, false);
});
