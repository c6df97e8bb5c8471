/**
 * Load on `dialogym serve` over 127.0.0.1: a server process (the real CLI) with a SQLite KB, and
 * 50 concurrent sessions, each replaying a task-5 conversation (greeting → request → slots →
 * api_call on SQLite → options → booking → phone/address) and starting a new session when done.
 *
 * Four measurements in the same run, so the ratios hold on a shared machine:
 *   1. engine, naive   — in process, no HTTP, the first increment's path: each bot turn from the
 *                        whole history, twice (rules: replay to answer, replay to explain; memn2n:
 *                        `rank`, a second forward pass for the attention, a sort of all candidates);
 *   2. engine          — in process, no HTTP, the sessions' incremental path (what the server runs);
 *   3. HTTP, saturated — 50 sessions, each sends its next turn as soon as the last reply arrived
 *                        (closed loop: the most turns/s; latency there is 50 / (turns/s) by Little's law);
 *   4. HTTP, paced     — 50 sessions sending at SERVE_BENCH_RATE turns/s in total (default 1,000: the
 *                        issue's target), latency measured from each turn's scheduled time, so a late
 *                        server is charged for the queue (no coordinated omission).
 * Phases 3–4 run once per server configuration in SERVE_BENCH_WORKERS (default `0,2`: sessions in
 * the HTTP thread, then `serve --workers 2`).
 * Each phase is bounded in time (SERVE_BENCH_SECONDS per phase, default 5) and count
 * (SERVE_BENCH_MAX_TURNS, default 200,000). Targets: ≥ 1,000 turns/s, p99 < 10 ms at that rate.
 *
 * SERVE_BENCH_MODEL (default rules) may be a model file (*.dgm, e.g. memn2n or hcn), with
 * SERVE_BENCH_CANDIDATES (default: the bAbI candidates file) for rankers. SERVE_BENCH_NODE_ARGS
 * passes flags to the server's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { importKbFile } from '../src/testbeds/restaurant/kb-sqlite.js';
import { trackState } from '../src/testbeds/restaurant/rules/state.js';
import { restaurantsToKbFacts } from '../src/testbeds/restaurant/kb-dialects.js';
import { readBabiCandidates } from '../src/formats/babi.js';
import { MemN2N } from '../src/rankers/memn2n.js';
import { argmax, isResponder, type ResponseModel } from '../src/rankers/ranker.js';
import { resolveModel } from '../src/rankers/registry.js';
import '../src/index.js'; // every testbed, loaded
import { Session } from '../src/testbeds/restaurant/chat/session.js';
import { chatModelOf, explainRulesState, type ChatModel } from '../src/testbeds/restaurant/chat/chat-model.js';
import type { ScoredCandidate } from '../src/testbeds/restaurant/chat/explanation.js';
import { memn2nAttention } from '../src/rankers/memn2n-attention.js';
import { setupBot } from '../src/testbeds/restaurant/chat/setup.js';
import { babiDir, cliPath } from '../test/shared-data.js';
import { startServer } from '../test/cli.js';
import { RawHttpConnection, type RawResponse } from './raw-http.js';

if (!existsSync(babiDir)) {
  process.stdout.write(`skipped: ${babiDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}

const SECONDS = Number(process.env.SERVE_BENCH_SECONDS ?? 5);
const MAX_TURNS = Number(process.env.SERVE_BENCH_MAX_TURNS ?? 200_000);
const CONCURRENCY = Number(process.env.SERVE_BENCH_SESSIONS ?? 50);
const RATE = Number(process.env.SERVE_BENCH_RATE ?? 1000);
const MODEL = process.env.SERVE_BENCH_MODEL ?? 'rules';
const CANDIDATES = process.env.SERVE_BENCH_CANDIDATES ?? join(babiDir, 'dialog-babi-candidates.txt');
const NODE_ARGS = (process.env.SERVE_BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const WORKERS = (process.env.SERVE_BENCH_WORKERS ?? '0,2').split(',').map(Number);
// Every model but the rules bot may rank candidates (an HCN model file ignores them).
const needsCandidates = MODEL !== 'rules';

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

interface Figures {
  turns: number;
  seconds: number;
  latencies: number[];
  errors: number;
  apiCalls: number;
  conversations: number;
  /** HTTP phases: CPU seconds the server process used. */
  serverCpu?: number;
}

const q = (xs: number[], p: number): number => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

function line(name: string, f: Figures): string {
  const l = f.latencies.slice().sort((a, b) => a - b);
  return `  ${name.padEnd(30)} ${(f.turns / f.seconds).toFixed(0).padStart(7)} turns/s   p50 ${q(l, 0.5).toFixed(3).padStart(8)} ms   p99 ${q(l, 0.99).toFixed(3).padStart(8)} ms   ${f.turns} turns, ${f.errors} errors`;
}

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-serve-bench-'));
const kbFile = join(tmp, 'kb.sqlite');
importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), kbFile);
const loadAtStart = load();

// ---- 1-2: the engine in process -----------------------------------------------------------------

function engine(model: ChatModel, bot: ReturnType<typeof setupBot>): Figures {
  const f: Figures = { turns: 0, seconds: 0, latencies: [], errors: 0, apiCalls: 0, conversations: 0 };
  // CONCURRENCY sessions interleaved turn by turn, as the server sees them.
  const sessions = Array.from({ length: CONCURRENCY }, (_, i) => ({ s: new Session(`b${i}`, model, bot.kb), k: 0 }));
  const t0 = performance.now();
  const deadline = t0 + SECONDS * 1000;
  while (performance.now() < deadline && f.turns < MAX_TURNS) {
    for (const x of sessions) {
      const s = performance.now();
      const r = x.s.send(SCRIPT[x.k] as string);
      f.latencies.push(performance.now() - s);
      f.turns++;
      if (r.replies.some((y) => y.kind === 'api_call')) f.apiCalls++;
      if (++x.k === SCRIPT.length) {
        x.k = 0;
        x.s.reset();
        f.conversations++;
      }
    }
  }
  f.seconds = (performance.now() - t0) / 1000;
  return f;
}

/**
 * The naive path (the first increment's): each bot turn from the whole history, twice — the rules
 * bot replays the history to answer and again to explain; a ranker scores, then runs a second
 * forward pass for the attention, then sorts every candidate for the top 5.
 */
function naiveModel(raw: ResponseModel, candidates: readonly string[] | undefined): ChatModel {
  const fullTop = (scores: Float32Array, k: number): ScoredCandidate[] =>
    Array.from(scores.keys())
      .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b)
      .slice(0, k)
      .map((i) => ({ text: candidates?.[i] as string, score: scores[i] as number }));
  let answer: ChatModel['answer'];
  if (isResponder(raw)) {
    answer = (h) => {
      const text = raw.respond(h);
      return { text, explanation: explainRulesState(raw.name, trackState(h), text) };
    };
  } else if (raw instanceof MemN2N && candidates) {
    const plain = memn2nAttention(raw);
    answer = (h) => {
      const scores = raw.rank(h, candidates);
      const a = plain.rankWithAttention(h, candidates);
      return { text: candidates[argmax(scores)] as string, explanation: { type: 'attention', model: raw.name, memories: a.memories, hops: a.hops.map((w) => ({ weights: w })), candidates: candidates.length, top: fullTop(scores, 5) } };
    };
  } else {
    const chat = chatModelOf(raw, candidates ? { candidates } : {});
    answer = (h) => chat.answer(h);
  }
  return { name: raw.name, answer, conversation: () => ({ answer }) };
}

const bot = setupBot({ model: MODEL, kb: kbFile, ...(needsCandidates ? { candidates: CANDIDATES } : {}) });
const candidateList = needsCandidates ? readBabiCandidates(CANDIDATES).candidates : undefined;
const raw = resolveModel(MODEL, { kb: restaurantsToKbFacts(bot.kb.store.all(), bot.kb.dialect), ...(candidateList ? { candidates: candidateList } : {}) });
const naive = engine(naiveModel(raw, candidateList), bot);
const cached = engine(bot.model, bot);
bot.close();

// ---- 3-4: over HTTP ------------------------------------------------------------------------------

interface HttpRun {
  readonly workers: number;
  readonly saturated: Figures;
  readonly paced: Figures;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Starts `dialogym serve` (with `workers` worker threads), runs the saturated and paced phases, stops it. */
async function httpRun(workers: number): Promise<HttpRun> {
  const args = [...NODE_ARGS, cliPath, 'serve', '--model', MODEL, '--kb', kbFile, '--port', '0', '--max-sessions', String(CONCURRENCY * 4), '--workers', String(workers)];
  if (needsCandidates) args.push('--candidates', CANDIDATES);
  const started = await startServer(args);
  const server = started.child;
  const base = started.url;
  const { hostname, port } = new URL(base);

  /** CPU seconds the server process (all its threads) has used so far, from /proc. */
  function serverCpu(): number {
    try {
      const stat = readFileSync(`/proc/${server.pid}/stat`, 'latin1');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100 on Linux)
    } catch {
      return NaN;
    }
  }

  /** `rate` = total turns/s to offer (paced), or undefined (each session as fast as it can). */
  async function overHttp(rate: number | undefined, seconds = SECONDS): Promise<Figures> {
    const f: Figures = { turns: 0, seconds: 0, latencies: [], errors: 0, apiCalls: 0, conversations: 0 };
    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    const running = (): boolean => performance.now() < deadline && f.turns < MAX_TURNS;
    const interval = rate === undefined ? 0 : (1000 * CONCURRENCY) / rate;
    async function worker(j: number): Promise<void> {
      const conn = new RawHttpConnection(hostname, Number(port));
      const call = (path: string, body?: unknown, method = 'POST'): Promise<RawResponse> => conn.request(method, path, body);
      // Session j's turns are due at t0 + (j / CONCURRENCY + k) · interval.
      let due = t0 + (j / CONCURRENCY) * interval;
      while (running()) {
        const created = await call('/api/sessions');
        if (created.status !== 201) {
          f.errors++;
          continue;
        }
        const id = (JSON.parse(created.body) as { id: string }).id;
        for (const text of SCRIPT) {
          if (rate !== undefined) await sleep(due - performance.now());
          if (!running()) break;
          const start = rate === undefined ? performance.now() : due;
          const r = await call(`/api/sessions/${id}/messages`, { text });
          f.latencies.push(performance.now() - start);
          f.turns++;
          due += interval;
          if (r.status !== 200) f.errors++;
          else if (r.body.includes('"kind":"api_call"')) f.apiCalls++;
        }
        f.conversations++;
        if ((await call(`/api/sessions/${id}`, undefined, 'DELETE')).status !== 204) f.errors++;
      }
      conn.close();
    }
    const cpu0 = serverCpu();
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, j) => worker(j)));
    f.seconds = (performance.now() - t0) / 1000;
    f.serverCpu = serverCpu() - cpu0;
    return f;
  }

  await overHttp(undefined, Math.min(2, SECONDS)); // warm-up (JIT, SQLite page cache) — not reported
  const saturated = await overHttp(undefined);
  const paced = await overHttp(RATE);
  server.kill('SIGTERM');
  await started.exited;
  return { workers, saturated, paced };
}

const runs: HttpRun[] = [];
for (const w of WORKERS) runs.push(await httpRun(w));
rmSync(tmp, { recursive: true, force: true });

const rate = (f: Figures): number => f.turns / f.seconds;
const p99 = (f: Figures): number => q(f.latencies.slice().sort((a, b) => a - b), 0.99);
const errors = naive.errors + cached.errors + runs.reduce((n, r) => n + r.saturated.errors + r.paced.errors, 0);
const where = (w: number): string => (w === 0 ? 'in-thread' : `${w} workers`);
const best = runs.reduce((a, b) => (rate(b.saturated) > rate(a.saturated) ? b : a));
const lines = [
  `model ${bot.model.name}${MODEL !== bot.model.name ? ` (${MODEL})` : ''}, ${CONCURRENCY} concurrent sessions, ${SECONDS} s per phase, SQLite KB; load average ${loadAtStart} at start, ${load()} at end (2 cores)`,
  line('engine, naive', naive),
  line('engine', cached),
];
for (const r of runs) lines.push(line(`HTTP ${where(r.workers)}, saturated`, r.saturated), line(`HTTP ${where(r.workers)}, ${RATE}/s`, r.paced));
lines.push(`  engine vs naive engine: ×${(rate(cached) / rate(naive)).toFixed(2)} turns/s`);
for (const r of runs) {
  const cpu = r.saturated.serverCpu ?? NaN;
  lines.push(
    `  HTTP ${where(r.workers)} saturated vs engine: ×${(rate(r.saturated) / rate(cached)).toFixed(2)} turns/s; server CPU ${((1e6 * cpu) / r.saturated.turns).toFixed(0)} µs per turn (${(r.saturated.turns / cpu).toFixed(0)} turns per CPU-second, all threads)`,
  );
}
if (runs.length > 1) lines.push(`  HTTP ${where(runs[runs.length - 1]!.workers)} vs in-thread, saturated: ×${(rate(runs[runs.length - 1]!.saturated) / rate(runs[0]!.saturated)).toFixed(2)} turns/s`);
lines.push(
  `  targets (best configuration, ${where(best.workers)}): ≥ 1000 turns/s: ${rate(best.saturated) >= 1000 ? 'met' : 'NOT met'} (${rate(best.saturated).toFixed(0)}); p99 < 10 ms at ${RATE}/s: ${Math.min(...runs.map((r) => p99(r.paced))) < 10 ? 'met' : 'NOT met'} (${Math.min(...runs.map((r) => p99(r.paced))).toFixed(2)} ms); errors ${errors}`,
  '',
);
process.stdout.write(lines.join('\n'));
process.exit(errors === 0 ? 0 : 1);
