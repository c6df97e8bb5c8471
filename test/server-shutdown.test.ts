/**
 * `dialogym env-server` and `dialogym serve` stop on SIGTERM (the real CLI as a child process): a
 * client holding a half-sent request does not keep them alive past the grace period, and under
 * load from 50 keep-alive clients every request whose bytes were all written before the signal gets
 * its whole answer (none is reset), and the process exits 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { once } from 'node:events';
import { cliPath } from './shared-data.js';
import { startServer, type RunningServer } from './cli.js';

/** Starts the CLI and waits for the URL it prints. */
const start = (args: readonly string[]): Promise<RunningServer> => startServer([cliPath, ...args]);

/** SIGTERM; resolves to the exit code and the seconds it took. */
async function terminate(s: RunningServer): Promise<{ code: number | null; seconds: number }> {
  const t0 = process.hrtime.bigint();
  s.child.kill('SIGTERM');
  const code = await s.exited;
  return { code, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}

test('env-server and serve: SIGTERM with a client sending its headers byte by byte (never done) exits 0, cutting it at the end of the grace', { timeout: 120_000 }, async () => {
  for (const args of [['env-server', '--port', '0', '--grace', '1000'], ['serve', '--model', 'rules', '--port', '0', '--grace', '1000']]) {
    const s = await start(args);
    const { port } = new URL(s.url);
    const sock = connect(Number(port), '127.0.0.1');
    await once(sock, 'connect');
    sock.on('error', () => {});
    const closed = once(sock, 'close');
    sock.write('POST /envs/restaurant-task1-v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const drip = setInterval(() => sock.write('a'), 50);
    // The server has the half-sent request once it has read some of it; a request it answers on another connection proves it is serving.
    assert.equal((await fetch(s.url + (args[0] === 'serve' ? '/api/health' : '/envs'))).status, 200);
    const { code, seconds } = await terminate(s);
    clearInterval(drip);
    await closed;
    assert.equal(code, 0, s.stderr());
    assert.match(s.stderr(), /SIGTERM: shutting down \(the requests in flight get 1000 ms to finish\)\nstopped \(1 connection still open at the end of the grace period cut\)\n$/);
    process.stderr.write(`# ${args[0]} slowloris: exit ${code} after ${seconds.toFixed(2)} s (grace 1 s)\n`);
  }
});

/** What became of one request. */
interface Outcome {
  /** All its bytes were written (the request's `finish`) before the signal was sent. */
  readonly whole: boolean;
  /** Its full answer (status and a JSON body), or the error instead. */
  readonly status?: number;
  readonly body?: unknown;
  readonly error?: string;
}

/** One POST on a keep-alive agent. */
function post(agent: Agent, url: string, body: unknown, signalled: () => boolean): Promise<Outcome> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    let whole = false;
    const fail = (e: NodeJS.ErrnoException): void => resolve({ whole, error: e.code ?? e.message });
    const req = request(url, { method: 'POST', agent, headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('end', () => {
        try {
          resolve({ whole, status: res.statusCode as number, body: JSON.parse(Buffer.concat(chunks).toString()) });
        } catch (e) {
          fail(e as NodeJS.ErrnoException);
        }
      });
    });
    req.on('finish', () => (whole = !signalled()));
    req.on('error', fail);
    req.end(payload);
  });
}

/**
 * 50 clients, each on its own keep-alive connection, set up (`setup`), then send requests one after
 * the other (`next` gives a client's next URL and body from its previous answer); after `before`
 * answers the server gets SIGTERM, and each client stops at its first failure (the server no longer
 * listens).
 */
async function underLoad(s: RunningServer, setup: (agent: Agent) => Promise<string>, next: (ctx: string, last: Outcome | undefined) => { path: string; body?: unknown }, before = 500) {
  let signalled = false;
  let answered = 0;
  let stopped: Promise<{ code: number | null; seconds: number }> | undefined;
  const outcomes: Outcome[] = [];
  let ready = 0;
  let go: () => void = () => {};
  const allReady = new Promise<void>((resolve) => (go = resolve));
  const client = async (): Promise<void> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ctx = await setup(agent);
    if (++ready === 50) go();
    await allReady;
    let last: Outcome | undefined;
    for (;;) {
      const { path, body } = next(ctx, last);
      last = await post(agent, s.url + path, body, () => signalled);
      outcomes.push(last);
      if (last.error !== undefined) break;
      if (++answered === before) {
        signalled = true;
        stopped = terminate(s);
      }
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: 50 }, client));
  const { code, seconds } = await (stopped as Promise<{ code: number | null; seconds: number }>);
  const whole = outcomes.filter((o) => o.whole);
  return {
    code,
    seconds,
    sent: outcomes.length,
    wholeBeforeSignal: whole.length,
    answered: outcomes.filter((o) => o.status !== undefined).length,
    failed: outcomes.filter((o) => o.error !== undefined).map((o) => o.error as string),
    lostWhole: whole.filter((o) => o.status === undefined || o.status >= 500).map((o) => o.error ?? o.status),
  };
}

/** `ECONNREFUSED ×48, ECONNRESET ×2`. */
const count = (xs: readonly string[]): string => [...new Set(xs)].map((x) => `${x} ×${xs.filter((y) => y === x).length}`).join(', ');

const json = async (agent: Agent, url: string, body?: unknown): Promise<Record<string, unknown>> => {
  const o = await post(agent, url, body, () => false);
  assert.ok(o.status !== undefined && o.status < 300, `${url}: ${JSON.stringify(o)}`);
  return o.body as Record<string, unknown>;
};

test('env-server: SIGTERM under load from 50 keep-alive clients answers every request that had arrived whole, then exits 0', { timeout: 120_000 }, async () => {
  const s = await start(['env-server', '--port', '0', '--grace', '5000']);
  const r = await underLoad(
    s,
    async (agent) => {
      const sid = (await json(agent, `${s.url}/envs/restaurant-task5-v1`, {})).session as string;
      await json(agent, `${s.url}/sessions/${sid}/reset`, { seed: 1 });
      return sid;
    },
    (sid, last) => {
      const b = last?.body as { terminated?: boolean; truncated?: boolean } | undefined;
      return b?.terminated || b?.truncated || last?.status === 409 ? { path: `/sessions/${sid}/reset`, body: {} } : { path: `/sessions/${sid}/step`, body: { action: 'hello' } };
    },
  );
  process.stderr.write(`# env-server, 50 clients: sent ${r.sent}, whole before SIGTERM ${r.wholeBeforeSignal}, answered ${r.answered}, failed after it ${r.failed.length} (${count(r.failed)}), exit ${r.code} after ${r.seconds.toFixed(2)} s\n`);
  assert.equal(r.code, 0, s.stderr());
  assert.ok(r.wholeBeforeSignal >= 500);
  assert.deepEqual(r.lostWhole, []);
  assert.match(s.stderr(), /SIGTERM: shutting down .*\nstopped\n$/);
});

test('serve: SIGTERM under load from 50 keep-alive clients answers every request that had arrived whole, then exits 0', { timeout: 120_000 }, async () => {
  const s = await start(['serve', '--model', 'rules', '--port', '0', '--grace', '5000']);
  const r = await underLoad(
    s,
    async (agent) => (await json(agent, `${s.url}/api/sessions`)).id as string,
    (id) => ({ path: `/api/sessions/${id}/messages`, body: { text: 'hello' } }),
  );
  process.stderr.write(`# serve, 50 clients: sent ${r.sent}, whole before SIGTERM ${r.wholeBeforeSignal}, answered ${r.answered}, failed after it ${r.failed.length} (${count(r.failed)}), exit ${r.code} after ${r.seconds.toFixed(2)} s\n`);
  assert.equal(r.code, 0, s.stderr());
  assert.ok(r.wholeBeforeSignal >= 500);
  assert.deepEqual(r.lostWhole, []);
  assert.match(s.stderr(), /SIGTERM: shutting down .*\nstopped\n$/);
});
