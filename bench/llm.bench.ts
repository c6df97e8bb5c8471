/**
 * The LLM path's overhead: episodes per second of `evaluate` with the rule bot in process, and with
 * the same bot played by the local OpenAI-compatible test server through `--agent-llm`'s transport
 * (the conversation mapping, the `openai` client over HTTP, the server rebuilding the dialog from
 * the messages) — the ratio of the two in the same run, and the records checked equal.
 * LLM_BENCH_EPISODES (default 10,000) episodes of LLM_BENCH_ENV (default restaurant-task1-v1),
 * LLM_BENCH_CONCURRENCY (default 8) requests in flight; the server runs in its own process.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import '../src/index.js';
import { createAgent } from '../src/agents/registry.js';
import { llmTransport } from '../src/llm/agent.js';
import { llmSystemMessage } from '../src/llm/prompts.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { LlmClient } from '../src/llm/client/client.js';

const EPISODES = Number(process.env.LLM_BENCH_EPISODES ?? 10_000);
const ENV = process.env.LLM_BENCH_ENV ?? 'restaurant-task1-v1';
const CONCURRENCY = Number(process.env.LLM_BENCH_CONCURRENCY ?? 8);
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

const server = spawn(process.execPath, [fileURLToPath(new URL('./llm-server.js', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve) => createInterface({ input: server.stdout }).once('line', resolve));
process.stdout.write(`${EPISODES} episodes of ${ENV}, load ${load()}\n`);

let t0 = process.hrtime.bigint();
const local = await evaluate(ENV, () => createAgent('rules'), { episodes: EPISODES, seed: 0 });
const localS = Number(process.hrtime.bigint() - t0) / 1e9;
process.stdout.write(`in process     ${(EPISODES / localS).toFixed(1).padStart(9)} episodes/s  (${localS.toFixed(1)} s, success ${local.summary.success.toFixed(4)})\n`);

const client = new LlmClient({ model: 'test', baseUrl: url, maxRetries: 2 });
t0 = process.hrtime.bigint();
const llm = await evaluate(ENV, llmTransport({ client, system: (req) => llmSystemMessage(req) }), { episodes: EPISODES, seed: 0, concurrency: CONCURRENCY });
const llmS = Number(process.hrtime.bigint() - t0) / 1e9;
const st = client.stats();
process.stdout.write(`--agent-llm ×${CONCURRENCY} ${(EPISODES / llmS).toFixed(1).padStart(9)} episodes/s  (${llmS.toFixed(1)} s, success ${llm.summary.success.toFixed(4)}; ${st.sent} requests, ${(st.sent / llmS).toFixed(0)}/s, latency p50 ${st.latencyP50?.toFixed(1)} ms p95 ${st.latencyP95?.toFixed(1)} ms; tokens in ${llm.summary.usage?.tokensIn} out ${llm.summary.usage?.tokensOut})\n`);
const same = JSON.stringify(local.records.map((r) => [r.success, r.turns, r.failure])) === JSON.stringify(llm.records.map((r) => [r.success, r.turns, r.failure]));
process.stdout.write(`ratio LLM path / in process ${(localS / llmS).toFixed(4)}; outcomes of every episode equal: ${same}; load ${load()}\n`);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
if (!same) process.exitCode = 1;
