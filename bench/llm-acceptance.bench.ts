/**
 * The LLM path's acceptance figures, against the local OpenAI-compatible test server (its own
 * process): for every restaurant and DSTC6 env and AirDialogue of version LLM_ACCEPT_VERSION
 * (default v2), the success of dialogym's rule agent in process, through `--agent-llm`'s transport
 * (the server plays the rule agent from the messages), and — on -v2 — of the in-process rule agent
 * with the test LLM user saying the user's turns (`--user-llm`). LLM_ACCEPT_EPISODES (default 1,000)
 * episodes each, LLM_ACCEPT_CONCURRENCY (default 8) in flight, LLM_ACCEPT_ENVS (comma-separated
 * substrings) to run some envs only. Prints one line per env and the server's count of refused
 * requests and replay mismatches (both must be 0); exit 1 when a figure differs.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import '../src/index.js';
import { envs } from '../src/env/env.js';
import { createAgent } from '../src/agents/registry.js';
import { llmTransport } from '../src/llm/agent.js';
import { llmSystemMessage, llmUserPrompt, llmUserSystemMessage } from '../src/llm/prompts.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { llmUserVoice } from '../src/llm/user.js';
import { LlmClient } from '../src/llm/client/client.js';

const EPISODES = Number(process.env.LLM_ACCEPT_EPISODES ?? 1000);
const VERSION = process.env.LLM_ACCEPT_VERSION ?? 'v2';
const CONCURRENCY = Number(process.env.LLM_ACCEPT_CONCURRENCY ?? 8);
const ONLY = (process.env.LLM_ACCEPT_ENVS ?? '').split(',').filter((x) => x !== '');
const ids = [...envs].filter((id) => /^(restaurant|dstc6|airdialogue)-/.test(id) && id.endsWith(`-${VERSION}`) && (ONLY.length === 0 || ONLY.some((w) => id.includes(w))));

const server = spawn(process.execPath, [fileURLToPath(new URL('./llm-server.js', import.meta.url))], { stdio: ['ignore', 'pipe', 'pipe'] });
const url = await new Promise<string>((resolve) => createInterface({ input: server.stdout }).once('line', resolve));
const client = new LlmClient({ model: 'test', baseUrl: url, maxRetries: 2 });
const userClient = new LlmClient({ model: 'test-user', baseUrl: url, maxRetries: 2 });
process.stdout.write(`${ids.length} envs × ${EPISODES} episodes, load ${loadavg()[0]?.toFixed(1)}\n`);
process.stdout.write(`${'env'.padEnd(26)} ${'in process'.padStart(10)} ${'--agent-llm'.padStart(11)} ${VERSION === 'v2' ? '--user-llm'.padStart(10) : ''}\n`);
let differ = 0;
const t0 = Date.now();
for (const id of ids) {
  const local = await evaluate(id, () => createAgent('rules'), { episodes: EPISODES, seed: 0 });
  const viaLlm = await evaluate(id, llmTransport({ client, system: (req) => llmSystemMessage(req) }), { episodes: EPISODES, seed: 0, concurrency: CONCURRENCY });
  const same = viaLlm.records.every((r, i) => r.success === local.records[i]?.success);
  let user = '';
  if (VERSION === 'v2') {
    const voice = llmUserVoice({ client: userClient, system: (turn) => llmUserSystemMessage(turn), prompt: (turn) => llmUserPrompt(turn) });
    const withUser = await evaluate(id, () => createAgent('rules'), { episodes: EPISODES, seed: 0, concurrency: CONCURRENCY, userVoice: voice });
    user = withUser.summary.success.toFixed(4).padStart(10);
    if (withUser.summary.success !== local.summary.success) differ++;
  }
  if (!same) differ++;
  process.stdout.write(`${id.padEnd(26)} ${local.summary.success.toFixed(4).padStart(10)} ${viaLlm.summary.success.toFixed(4).padStart(11)}${same ? ' ' : '≠'} ${user}\n`);
}
server.kill('SIGTERM');
const counts = await new Promise<string>((resolve) => createInterface({ input: server.stderr }).once('line', resolve));
const c = JSON.parse(counts) as { requests: number; rejected: number; mismatches: number };
process.stdout.write(`server: ${c.requests} requests, ${c.rejected} refused, ${c.mismatches} replay mismatches; ${differ} envs differ; ${((Date.now() - t0) / 60000).toFixed(1)} min, load ${loadavg()[0]?.toFixed(1)}\n`);
if (differ > 0 || c.rejected > 0 || c.mismatches > 0) process.exitCode = 1;
