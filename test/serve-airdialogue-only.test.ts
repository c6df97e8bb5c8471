/**
 * `dialogym serve --airdialogue m.dgm` without `--model`: `/` redirects to `/airdialogue`, the
 * restaurant API answers a one-line JSON 404 saying no restaurant model is hosted. With both,
 * the two pages link to each other (in process, on the CLI, and in a browser when chromium is here).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultWebDir, serveChats, type ChatServer } from '../src/serve/server.js';
import { restaurantServer } from './chat-server.js';
import { setupBot } from '../src/testbeds/restaurant/chat/setup.js';
import { restaurantModelsReady } from '../src/testbeds/restaurant/model-list.js';
import { airChatBackend } from '../src/testbeds/airdialogue/chat/backend.js';
import { tinyAirModelFile, tinyAirModels } from './airdialogue-chat-fixture.js';
import { launchChromium, noChromium, pageWithErrors } from './browser.js';
import { cli, oneLineError } from './cli.js';
import { cliPath } from './shared-data.js';

// `setupBot` below runs the registry's `rules`.
await restaurantModelsReady();

const models = tinyAirModels();
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-air-only-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function get(server: ChatServer, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object): Promise<{ status: number; json: any; headers: Record<string, unknown>; body: string }> {
  const r = await server.app.inject({ method, url, ...(payload ? { payload } : {}) });
  return { status: r.statusCode, json: /json/.test(String(r.headers['content-type'])) ? JSON.parse(r.body) : null, headers: r.headers, body: r.body };
}

test('no restaurant model: / redirects to /airdialogue, the restaurant API is a one-line JSON 404, the AirDialogue chat works', async () => {
  const server = serveChats([{ testbed: 'airdialogue', chat: airChatBackend({ model: 'tiny.dgm', models }) }], { logError: () => {}, webDir: defaultWebDir() });
  try {
    for (const url of ['/', '/index.html']) {
      const r = await get(server, 'GET', url);
      assert.equal(r.status, 302, url);
      assert.equal(r.headers['location'], '/airdialogue');
    }
    assert.deepEqual((await get(server, 'GET', '/api/health')).json, { status: 'ok', model: null, airdialogue: '/airdialogue' });
    for (const [method, url] of [['POST', '/api/sessions'], ['GET', '/api/kb'], ['POST', '/api/sessions/abc/messages'], ['GET', '/api/sessions/abc'], ['DELETE', '/api/sessions/abc']] as const) {
      const r = await get(server, method, url, method === 'POST' ? { text: 'hi' } : undefined);
      assert.equal(r.status, 404, `${method} ${url}`);
      assert.deepEqual(Object.keys(r.json), ['error']);
      assert.equal(r.json.error, 'no restaurant model is hosted here (the server was started without one); the AirDialogue chat is at /airdialogue');
    }
    assert.equal((await get(server, 'GET', '/airdialogue')).status, 200);
    const info = (await get(server, 'GET', '/api/airdialogue')).json;
    assert.equal(info.restaurant, undefined, 'no link back to a restaurant chat');
    const c = await get(server, 'POST', '/api/airdialogue/sessions', { role: 'customer', seed: 1 });
    assert.equal(c.status, 201);
    assert.equal((await get(server, 'POST', `/api/airdialogue/sessions/${c.json.id}/messages`, { text: 'hello' })).status, 200);
  } finally {
    await server.close();
  }
});

test('both hosted: /api/health gives the AirDialogue page, /api/airdialogue the restaurant page; each page has the link', async () => {
  const bot = setupBot({ model: 'rules' });
  const server = restaurantServer(bot.model, bot.kb, { logError: () => {}, webDir: defaultWebDir() }, [{ testbed: 'airdialogue', chat: airChatBackend({ model: 'tiny.dgm', models }) }]);
  try {
    assert.equal((await get(server, 'GET', '/api/health')).json.airdialogue, '/airdialogue');
    assert.equal((await get(server, 'GET', '/api/airdialogue')).json.restaurant, '/');
    assert.match((await get(server, 'GET', '/')).body, /<a id="air-link" href="\/airdialogue"[^>]*hidden>/);
    assert.match((await get(server, 'GET', '/airdialogue')).body, /<a id="restaurant-link" href="\/"[^>]*hidden>/);
    // A restaurant server alone does not announce the page.
    const alone = restaurantServer(bot.model, bot.kb, { logError: () => {} });
    assert.equal((await get(alone, 'GET', '/api/health')).json.airdialogue, undefined);
    await alone.close();
  } finally {
    await server.close();
    bot.close();
  }
});

/** Starts `dialogym serve …` and resolves with its URL once it listens (the child is returned to be stopped). */
function startServe(args: readonly string[]): Promise<{ url: string; stderr: string; stop: () => void }> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`serve did not start: ${stderr}`))), 60_000);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /on (http:\/\/[\d.:]+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1] as string, stderr, stop: () => child.kill('SIGTERM') });
      }
    });
    child.on('exit', () => (clearTimeout(timer), reject(new Error(`serve exited: ${stderr}`))));
  });
}

test('dialogym serve --airdialogue without --model serves the AirDialogue chat; neither is a one-line error', { timeout: 120_000 }, async () => {
  const file = tinyAirModelFile(join(tmp, 'air.dgm'));
  const s = await startServe(['--airdialogue', file]);
  try {
    assert.match(s.stderr, /^serving AirDialogue models .*air\.dgm on http:\/\/127\.0\.0\.1:\d+\/airdialogue\n$/);
    const root = await fetch(s.url + '/', { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/airdialogue');
    const api = await fetch(s.url + '/api/sessions', { method: 'POST' });
    assert.equal(api.status, 404);
    assert.match(((await api.json()) as { error: string }).error, /^no restaurant model is hosted here/);
    assert.equal((await fetch(s.url + '/airdialogue')).status, 200);
  } finally {
    s.stop();
  }
  oneLineError(cli('serve', '--port', '0'), /^error: serve: give --model \(the restaurant chat\), --airdialogue \(the AirDialogue chat\) or both$/, 2);
  oneLineError(cli('serve', '--port', '0', '--airdialogue', file, '--kb', 'kb.sqlite'), /^error: --kb applies to the restaurant chat: give --model too$/, 2);
  oneLineError(cli('serve', '--port', '0', '--airdialogue', file, '--workers', '2'), /^error: --workers applies to the restaurant chat/, 2);
});

test('in a browser: the restaurant page links to /airdialogue and back when both are hosted', { skip: noChromium, timeout: 120_000 }, async () => {
  const bot = setupBot({ model: 'rules' });
  const server = restaurantServer(bot.model, bot.kb, { logError: () => {}, webDir: defaultWebDir() }, [{ testbed: 'airdialogue', chat: airChatBackend({ model: 'tiny.dgm', models }) }]);
  const base = await server.listen(0, '127.0.0.1');
  const context = await launchChromium(tmp);
  try {
    const { page, errors } = await pageWithErrors(context);
    await page.goto(base + '/');
    await page.waitForSelector('[data-testid=status][data-ready=true]');
    await page.click('[data-testid=air-link]');
    await page.waitForURL(base + '/airdialogue');
    await page.waitForSelector('[data-testid=status][data-ready=true]');
    await page.click('[data-testid=restaurant-link]');
    await page.waitForURL(base + '/');
    await page.waitForSelector('[data-testid=status][data-ready=true]');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server.close();
    bot.close();
  }
});
