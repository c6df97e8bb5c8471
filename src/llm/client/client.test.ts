import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ResponseCache } from './cache.js';
import { requestKey } from './canonical.js';
import { LlmClient, LlmError, retryAfterMs, type LlmClientOptions } from './client.js';
import { startStub, type Step, type Stub } from './testing/stub-server.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const OK: Step = { reply: { content: 'hello there' }, usage: [12, 3] };
const messages = [{ role: 'user' as const, content: 'hi' }];

async function withStub<T>(script: Step[], f: (stub: Stub) => Promise<T>): Promise<T> {
  const stub = await startStub(script);
  try {
    return await f(stub);
  } finally {
    await stub.close();
  }
}

function client(stub: Stub, o: Partial<LlmClientOptions> = {}, sleeps?: number[]): LlmClient {
  return new LlmClient({ model: 'm1', baseUrl: stub.url, sleep: async (ms) => void sleeps?.push(ms), ...o });
}

test('the body: model, messages, tools, temperature 0 unless an option overrides it, any option passed; the key as Bearer', async () => {
  await withStub([OK], async (stub) => {
    const tools = [{ type: 'function' as const, function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } } }];
    const r = await client(stub, { apiKey: 'sk-test', options: { max_tokens: 50, seed: 7 } }).chat({ messages, tools });
    assert.deepEqual(stub.received[0]?.body, { model: 'm1', messages, tools, temperature: 0, max_tokens: 50, seed: 7 });
    assert.equal(stub.received[0]?.authorization, 'Bearer sk-test');
    assert.equal(r.message.content, 'hello there');
    assert.deepEqual(r.usage, { requests: 1, tokensIn: 12, tokensOut: 3 });
    assert.equal(r.cached, false);
    await client(stub, { options: { temperature: 0.7 } }).chat({ messages, tools: [] });
    assert.deepEqual(stub.received[1]?.body, { model: 'm1', messages, temperature: 0.7 });
  });
});

test('429 with retry-after-ms / Retry-After: waits what the server asks (plus at most 10 %), then succeeds', async () => {
  await withStub([{ status: 429, headers: { 'retry-after-ms': '250' } }, { status: 429, headers: { 'retry-after': '2' } }, OK], async (stub) => {
    const sleeps: number[] = [];
    const c = client(stub, {}, sleeps);
    const r = await c.chat({ messages });
    assert.equal(r.message.content, 'hello there');
    assert.equal(sleeps.length, 2);
    assert.ok((sleeps[0] as number) >= 250 && (sleeps[0] as number) <= 275, String(sleeps[0]));
    assert.ok((sleeps[1] as number) >= 2000 && (sleeps[1] as number) <= 3000, String(sleeps[1]));
    assert.deepEqual({ ...c.stats(), latencyP50: null, latencyP95: null }, { sent: 3, cacheHits: 0, retries: 2, failed: 0, latencyP50: null, latencyP95: null });
  });
});

test('a server asking for the same short wait again and again: from the third retry on, at least the backoff', async () => {
  const again = { status: 429, headers: { 'retry-after-ms': '10' } };
  await withStub([again, again, again, again, OK], async (stub) => {
    const sleeps: number[] = [];
    await client(stub, { retryBaseMs: 100 }, sleeps).chat({ messages });
    assert.equal(sleeps.length, 4);
    assert.ok(sleeps.slice(0, 2).every((w) => w >= 10 && w <= 11), String(sleeps));
    assert.ok((sleeps[2] as number) >= 50 && (sleeps[2] as number) <= 100, String(sleeps));
    assert.ok((sleeps[3] as number) >= 100 && (sleeps[3] as number) <= 200, String(sleeps));
  });
});

test('5xx: exponential backoff with jitter drawn from the seed (same seed, same waits; another seed, others)', async () => {
  const waits = async (seed: number): Promise<number[]> =>
    withStub([{ status: 500 }, { status: 502 }, { status: 503 }, OK], async (stub) => {
      const sleeps: number[] = [];
      await client(stub, { seed, retryBaseMs: 100 }, sleeps).chat({ messages });
      return sleeps;
    });
  const a = await waits(1);
  assert.deepEqual(await waits(1), a);
  assert.notDeepEqual(await waits(2), a);
  assert.equal(a.length, 3);
  a.forEach((w, i) => assert.ok(w >= 50 * 2 ** i && w <= 100 * 2 ** i, `wait ${i}: ${w}`));
});

test('a request failing after its retries is an LlmError for the episode; past the budget, a fatal one', async () => {
  await withStub([{ status: 500 }], async (stub) => {
    // Not stopped before the budget by the endpoint's failures before any answer (5 by default).
    const c = client(stub, { maxRetries: 2, maxFailures: 1, maxFailuresBeforeReply: 100 });
    const e1 = await c.chat({ messages }).catch((e: unknown) => e);
    assert.ok(e1 instanceof LlmError && !e1.fatal, String(e1));
    assert.match(e1.message, /HTTP 500: .* after 3 attempts$/);
    assert.equal(stub.received.length, 3);
    const e2 = await c.chat({ messages }).catch((e: unknown) => e);
    assert.ok(e2 instanceof LlmError && e2.fatal);
    assert.match(e2.message, /2 requests failed, more than the failure budget of 1; the last: HTTP 500/);
  });
});

test('401 and 404 stop the run at once (no retry), naming the key or the model', async () => {
  await withStub([{ status: 401 }], async (stub) => {
    const e = await client(stub).chat({ messages }).catch((x: unknown) => x);
    assert.ok(e instanceof LlmError && e.fatal && e.reason === 'HTTP 401');
    assert.match(e.message, /OPENAI_API_KEY or llmKeyEnv/);
    assert.equal(stub.received.length, 1);
  });
  await withStub([{ status: 404 }], async (stub) => {
    const e = await client(stub).chat({ messages }).catch((x: unknown) => x);
    assert.ok(e instanceof LlmError && e.fatal);
    assert.match(e.message, /model m1\).*check llmUrl and the model name/);
  });
  await withStub([{ status: 400 }], async (stub) => {
    const e = await client(stub).chat({ messages }).catch((x: unknown) => x);
    assert.ok(e instanceof LlmError && !e.fatal && e.reason === 'HTTP 400');
    assert.equal(stub.received.length, 1);
  });
});

test('a Retry-After longer than retryMaxMs fails the request without waiting', async () => {
  await withStub([{ status: 429, headers: { 'retry-after': '3600' } }], async (stub) => {
    const sleeps: number[] = [];
    const e = await client(stub, { retryMaxMs: 60_000 }, sleeps).chat({ messages }).catch((x: unknown) => x);
    assert.ok(e instanceof LlmError && !e.fatal);
    assert.match(e.message, /asks to wait 3600 s, more than the 60 s allowed/);
    assert.deepEqual(sleeps, []);
  });
});

test('timeouts, cut bodies and bodies without choices are retried', async () => {
  await withStub([{ delayMs: 400, then: OK }, { truncate: true }, { raw: '{"object":"chat.completion"}' }, OK], async (stub) => {
    const c = client(stub, { timeoutMs: 100 });
    const r = await c.chat({ messages });
    assert.equal(r.message.content, 'hello there');
    assert.equal(c.stats().retries, 3);
  });
  await withStub([{ delayMs: 400, then: OK }], async (stub) => {
    const e = await client(stub, { timeoutMs: 50, maxRetries: 1 }).chat({ messages }).catch((x: unknown) => x);
    assert.ok(e instanceof LlmError && e.reason === 'timeout', String(e));
    assert.match(e.message, /no whole reply within 50 ms after 2 attempts/);
  });
});

test('the cache: a second client answers from the files, with the server gone, the same reply and latency', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-llm-cache-'));
  dirs.push(dir);
  let first;
  let url;
  {
    const stub = await startStub([OK]);
    url = stub.url;
    first = await client(stub, { cache: new ResponseCache(dir) }).chat({ messages });
    await stub.close();
  }
  const key = requestKey({ model: 'm1', messages, temperature: 0 });
  assert.ok(existsSync(join(dir, key.slice(0, 2), `${key}.json`)));
  assert.equal(JSON.parse(readFileSync(join(dir, key.slice(0, 2), `${key}.json`), 'utf8')).key, key);
  const c = new LlmClient({ model: 'm1', baseUrl: url, cache: new ResponseCache(dir), maxRetries: 0 });
  const again = await c.chat({ messages });
  assert.deepEqual(again, { ...first, cached: true });
  assert.equal(c.stats().cacheHits, 1);
  assert.equal(c.stats().sent, 0);
});

test('retryAfterMs reads retry-after-ms, seconds and HTTP dates', () => {
  const h = (o: Record<string, string>) => new Headers(o);
  assert.equal(retryAfterMs(h({ 'retry-after-ms': '12.5' })), 12.5);
  assert.equal(retryAfterMs(h({ 'retry-after': '3' })), 3000);
  assert.equal(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2015 07:28:10 GMT' }), Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')), 10_000);
  assert.equal(retryAfterMs(h({ 'retry-after': 'soon' })), undefined);
  assert.equal(retryAfterMs(h({})), undefined);
});

test('options the evaluation cannot use are refused at once', () => {
  assert.throws(() => new LlmClient({ model: 'm', options: { stream: true } }), /streamed replies are not supported/);
  assert.throws(() => new LlmClient({ model: ' ' }), /model name is empty/);
  assert.throws(() => new LlmClient({ model: 'm', timeoutMs: 0 }), /timeoutMs must be a positive number/);
});

test('a request longer than maxRequestBytes is not sent: its request fails (replies under the reply limit cannot grow a conversation without end)', async () => {
  await withStub([OK], async (stub) => {
    const c = client(stub, { maxRequestBytes: 1000 });
    assert.equal((await c.chat({ messages })).message.content, 'hello there');
    const long = [...messages, { role: 'assistant' as const, content: 'x'.repeat(1000) }, { role: 'user' as const, content: 'and?' }];
    const e = await c.chat({ messages: long }).catch((x: unknown) => x);
    assert.ok(e instanceof LlmError && !e.fatal && e.reason === 'request too long', String(e));
    assert.match(e.message, /the request's JSON is \d+ characters, more than maxRequestBytes \(1000\)$/);
    assert.equal(stub.received.length, 1);
  });
});
