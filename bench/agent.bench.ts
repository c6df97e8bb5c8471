/**
 * Agent protocol throughput: steps per second of `evaluate` with a trivial agent (always says
 * "hello"; the simulated user repeats itself until the 80-turn limit) over stdio (a Node child
 * process), over HTTP (a node:http agent in this process), and in process; and the bare
 * environment's steps per second (`env.step` in a loop, no protocol). Then stdio and HTTP with
 * `concurrency` 8 (8 agent processes / 8 requests in flight), whose records must equal
 * the in-process run's. AGENT_BENCH_EPISODES (default 200) episodes of restaurant-task1-v1 each.
 */
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../src/index.js'; // every testbed, loaded
import { make } from '../src/env/env.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { localTransport, type AgentTransport } from '../src/agents/agent.js';
import { stdioTransport } from '../src/agents/stdio.js';
import { httpTransport } from '../src/agents/http.js';

const EPISODES = Number(process.env.AGENT_BENCH_EPISODES ?? 200);
const ENV = 'restaurant-task1-v1';

let firstRecords: string | undefined;

async function measure(label: string, transport: AgentTransport, concurrency = 1): Promise<number> {
  const t0 = process.hrtime.bigint();
  const { records } = await evaluate(ENV, transport, { episodes: EPISODES, seed: 0, concurrency });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  // The same agent everywhere: every transport and concurrency gives the same records.
  const same = JSON.stringify(records);
  firstRecords ??= same;
  if (firstRecords !== same) throw new Error(`${label}: records differ from the in-process run's`);
  const steps = records.reduce((a, r) => a + r.turns, 0);
  process.stdout.write(`${label.padEnd(22)} ${steps} steps in ${s.toFixed(2)} s = ${Math.round(steps / s)} steps/s\n`);
  return steps / s;
}

const env = make(ENV);
let steps = 0;
const t0 = process.hrtime.bigint();
for (let i = 0; i < EPISODES; i++) {
  env.reset({ seed: i });
  for (;;) {
    steps++;
    const r = env.step('hello');
    if (r.terminated || r.truncated) break;
  }
}
const bare = steps / (Number(process.hrtime.bigint() - t0) / 1e9);
process.stdout.write(`${'env.step in process'.padEnd(22)} ${steps} steps = ${Math.round(bare)} steps/s\n`);

const local = await measure('evaluate, in process', localTransport({ name: 'hello', act: () => 'hello' }));

const dir = mkdtempSync(join(tmpdir(), 'dialogym-bench-agent-'));
const script = join(dir, 'hello-agent.mjs');
writeFileSync(script, `import { createInterface } from 'node:readline';\nfor await (const _ of createInterface({ input: process.stdin })) process.stdout.write('{"action":"hello"}\\n');\n`);
const stdio = await measure('evaluate, stdio', stdioTransport(`${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`));
const stdio8 = await measure('evaluate, stdio ×8', stdioTransport(`${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`), 8);

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.setHeader('content-type', 'application/json').end('{"action":"hello"}'));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/act`;
const http = await measure('evaluate, HTTP', httpTransport(url));
const http8 = await measure('evaluate, HTTP ×8', httpTransport(url), 8);
server.close();
process.stdout.write(`ratios: stdio/in-process ${(stdio / local).toFixed(3)}, HTTP/in-process ${(http / local).toFixed(3)}, in-process evaluate/bare env ${(local / bare).toFixed(3)}\n`);
process.stdout.write(`concurrency 8 / 1 (records identical): stdio ${(stdio8 / stdio).toFixed(3)}, HTTP ${(http8 / http).toFixed(3)}\n`);
