/**
 * Load on `dialogym serve` over 127.0.0.1: a server process (the real CLI) with a SQLite KB, and
 * 50 concurrent sessions, each replaying a task-5 conversation (greeting → request → slots →
 * api_call on SQLite → options → booking → phone/address) and starting a new session when done.
 * Bounded in time (SERVE_BENCH_SECONDS, default 10) and count (SERVE_BENCH_MAX_TURNS, default
 * 200,000). Prints user turns/s, p50/p99 latency of `POST /api/sessions/:id/messages`, errors.
 *
 * SERVE_BENCH_MODEL (default rules) may be a model file (*.dgm, e.g. memn2n), with
 * SERVE_BENCH_CANDIDATES (default: the bAbI candidates file). Targets: ≥ 1,000 turns/s, p99 < 10 ms.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { importKbFile } from '../src/domains/restaurant/kb-sqlite.js';
import { babiDir, cliPath } from '../test/shared-data.js';

if (!existsSync(babiDir)) {
  process.stdout.write(`skipped: ${babiDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}

const SECONDS = Number(process.env.SERVE_BENCH_SECONDS ?? 10);
const MAX_TURNS = Number(process.env.SERVE_BENCH_MAX_TURNS ?? 200_000);
const CONCURRENCY = Number(process.env.SERVE_BENCH_SESSIONS ?? 50);
const MODEL = process.env.SERVE_BENCH_MODEL ?? 'rules';
const CANDIDATES = process.env.SERVE_BENCH_CANDIDATES ?? join(babiDir, 'dialog-babi-candidates.txt');

const SCRIPT = [
  'good morning',
  'can you make a restaurant reservation in rome for four with italian cuisine',
  'i am looking for a expensive restaurant',
  'no this does not work for me',
  "let's do it",
  'may i have the phone number of the restaurant',
  'can you provide the address',
  'thanks',
];

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-serve-bench-'));
const kbFile = join(tmp, 'kb.sqlite');
importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), kbFile);

const args = [cliPath, 'serve', '--model', MODEL, '--kb', kbFile, '--port', '0', '--max-sessions', String(CONCURRENCY * 4)];
if (MODEL !== 'rules') args.push('--candidates', CANDIDATES);
const server = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
let serverErr = '';
const base = await new Promise<string>((resolve, reject) => {
  const t = setTimeout(() => reject(new Error('server did not start: ' + serverErr)), 60_000);
  server.stderr.on('data', (c: Buffer) => {
    serverErr += c.toString();
    const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(serverErr);
    if (m) {
      clearTimeout(t);
      resolve(m[1] as string);
    }
  });
  server.on('exit', () => reject(new Error('server exited: ' + serverErr)));
});

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(path: string, body?: unknown, method = 'POST'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(base + path, { method, agent, headers: data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (data !== undefined) req.write(data);
    req.end();
  });
}

const latencies: number[] = [];
let errors = 0;
let turns = 0;
let conversations = 0;
let apiCalls = 0;
const t0 = performance.now();
const deadline = t0 + SECONDS * 1000;
const running = (): boolean => performance.now() < deadline && turns < MAX_TURNS;

async function worker(): Promise<void> {
  while (running()) {
    const created = await post('/api/sessions');
    if (created.status !== 201) {
      errors++;
      continue;
    }
    const id = (JSON.parse(created.body) as { id: string }).id;
    for (const text of SCRIPT) {
      if (!running()) break;
      const s = performance.now();
      const r = await post(`/api/sessions/${id}/messages`, { text });
      latencies.push(performance.now() - s);
      turns++;
      if (r.status !== 200) errors++;
      else if (r.body.includes('"kind":"api_call"')) apiCalls++;
    }
    conversations++;
    if ((await post(`/api/sessions/${id}`, undefined, 'DELETE')).status !== 204) errors++;
  }
}

await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
const elapsed = (performance.now() - t0) / 1000;
server.kill('SIGTERM');
await new Promise((r) => server.on('exit', r));
agent.destroy();
rmSync(tmp, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const q = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
process.stdout.write(
  [
    `model ${MODEL}, ${CONCURRENCY} concurrent sessions, ${elapsed.toFixed(1)} s over 127.0.0.1 (server: dialogym serve, SQLite KB)`,
    `  user turns        ${turns} (${conversations} conversations, ${apiCalls} turns with an api_call)`,
    `  turns/s           ${(turns / elapsed).toFixed(0)}   (target ≥ 1000)`,
    `  latency p50       ${q(0.5).toFixed(2)} ms`,
    `  latency p99       ${q(0.99).toFixed(2)} ms   (target < 10 ms)`,
    `  errors            ${errors}`,
    '',
  ].join('\n'),
);
process.exit(errors === 0 ? 0 : 1);
