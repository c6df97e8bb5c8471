/**
 * Issue 15's acceptance run: the rule bot through `dialogym agent --agent rules --stdio` and in
 * process on the 30 online restaurant environments (bAbI tasks 1–5 in- and out-of-vocabulary,
 * DSTC6 tasks 1–5 × tst1–tst4), AGENT_BENCH_EPISODES (default 1000) episodes each: success rate
 * both ways and whether every per-episode record is identical. AGENT_BENCH_ENVS (a substring)
 * keeps only the matching ids.
 */
import { fileURLToPath } from 'node:url';
import '../src/index.js';
import { envs } from '../src/env/env.js';
import { createAgent } from '../src/agents/registry.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { stdioTransport } from '../src/agents/stdio.js';

const EPISODES = Number(process.env.AGENT_BENCH_EPISODES ?? 1000);
const filter = process.env.AGENT_BENCH_ENVS ?? '';
const cli = fileURLToPath(new URL('../src/cli/index.js', import.meta.url));
const ids = envs.names().filter((id) => /^(restaurant|dstc6)-task/.test(id) && id.includes(filter));
const stdio = stdioTransport(`${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} agent --agent rules --stdio`);
let allSame = true;
let minSuccess = 1;
const t0 = Date.now();
let steps = 0;
let stdioSeconds = 0;
for (const id of ids) {
  const opts = { episodes: EPISODES, seed: 0 };
  const a = await evaluate(id, createAgent('rules'), opts);
  const t1 = Date.now();
  const b = await evaluate(id, stdio, opts);
  stdioSeconds += (Date.now() - t1) / 1000;
  steps += b.records.reduce((x, r) => x + r.turns, 0);
  const same = JSON.stringify(a.records) === JSON.stringify(b.records);
  allSame &&= same;
  minSuccess = Math.min(minSuccess, a.summary.success, b.summary.success);
  process.stdout.write(`${id.padEnd(24)} in process ${a.summary.success.toFixed(4)}  stdio ${b.summary.success.toFixed(4)}  identical ${same}  avg turns ${a.summary.avgTurns.toFixed(2)}  failures ${JSON.stringify(a.summary.failures)}\n`);
}
process.stdout.write(`${ids.length} envs × ${EPISODES} episodes: min success ${minSuccess.toFixed(4)}, all per-episode records identical: ${allSame}; stdio ${steps} steps in ${stdioSeconds.toFixed(1)} s = ${Math.round(steps / stdioSeconds)} steps/s (rules agent); total ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
