/**
 * The hostile-endpoint fuzz of the LLM path through the CLI (`node dist/bench/fuzz.js --llm N`, see
 * bench/fuzz.ts): `dialogym evaluate` runs, as the agent and as the user's voice, against the test
 * server answering with replies drawn by test/fuzz/llm-endpoint.ts, until N replies each.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { faultOf, hostileReply, type HostileReply } from '../test/fuzz/llm-endpoint.js';
import { startLlmTestServer } from '../test/llm-server.js';
import { cliPath } from '../test/shared-data.js';

const TIMEOUT_MS = 1000;
/** A run of 10 episodes with 1 retry a request: far below this unless it hangs. */
const GUARD_MS = 300_000;

interface Run {
  readonly code: number | null;
  readonly signal: string | null;
  readonly rssMb: number;
  readonly stderr: string;
  readonly hung: boolean;
}

function timed(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    const c = spawn('/usr/bin/time', ['-v', process.execPath, cliPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let hung = false;
    const guard = setTimeout(() => {
      hung = true;
      c.kill('SIGKILL');
    }, GUARD_MS);
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    c.on('close', (code, signal) => {
      clearTimeout(guard);
      const at = stderr.lastIndexOf('\tCommand being timed:');
      const stats = at >= 0 ? stderr.slice(at) : '';
      const exit = /Exit status: (\d+)/.exec(stats);
      const sig = /Command terminated by signal (\d+)/.exec(stderr);
      resolve({
        code: exit ? Number(exit[1]) : sig ? null : code,
        signal: sig ? `signal ${sig[1]}` : signal,
        rssMb: Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stats)?.[1] ?? 0) / 1024,
        stderr: (at >= 0 ? stderr.slice(0, at) : stderr).replace(/^Command exited with non-zero status \d+\n?/m, ''),
        hung,
      });
    });
  });
}

/** One mode's campaign: runs until the server answered `replies` requests. */
async function campaign(user: boolean, replies: number, seed: number): Promise<{ bad: number }> {
  const draws = fc.sample(hostileReply(50_000_000), { numRuns: replies, seed });
  const server = await startLlmTestServer({ faults: (n) => faultOf(draws[(n - 1) % draws.length] as HostileReply, TIMEOUT_MS / 10) });
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-llm-fuzz-'));
  const envs = user ? ['restaurant-task5-v2', 'airdialogue-v2', 'dstc6-task5-tst1-v2'] : ['restaurant-task1-v1', 'restaurant-task5-v1', 'airdialogue-v1', 'dstc6-task3-tst1-v1'];
  const crashes: string[] = [];
  const failures: Record<string, number> = {};
  let runs = 0;
  let stopped = 0;
  let hangs = 0;
  let peak = 0;
  const t0 = performance.now();
  try {
    for (let k = 0; server.stats.requests < replies; k++) {
      const env = envs[k % envs.length] as string;
      const t = join(dir, `${k}.jsonl`);
      const who = user ? ['--agent', 'rules', '--user-llm', 'fuzz'] : ['--agent-llm', 'fuzz'];
      const r = await timed(['evaluate', '--env', env, ...who, '--llm-url', server.url, '--episodes', '10', '--seed', String(seed * 1000 + k), '--concurrency', '2', '--llm-timeout', String(TIMEOUT_MS), '--llm-retries', '1', '--llm-max-failures', '100000', '--transcripts', t, '--json']);
      runs++;
      peak = Math.max(peak, r.rssMb);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
      if (r.hung) hangs++;
      else if (r.code === 0) {
        const { readFileSync } = await import('node:fs');
        for (const l of readFileSync(t, 'utf8').split('\n')) {
          if (l === '') continue;
          const f = (JSON.parse(l) as { failure: string | null }).failure ?? 'success';
          failures[f] = (failures[f] ?? 0) + 1;
        }
      } else if (r.code === 1 && errors.length === 1 && !/\n\s+at /.test(r.stderr)) stopped++;
      else crashes.push(`${env} seed ${seed * 1000 + k}: exit ${r.code ?? r.signal}: ${r.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`);
      rmSync(t, { force: true });
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const s = ((performance.now() - t0) / 1000).toFixed(0);
  console.log(`${user ? '--user-llm ' : '--agent-llm'}  replies ${server.stats.requests}  runs ${runs}  crashes ${crashes.length}  hangs ${hangs}  stopped in one line ${stopped}  peak RSS ${peak.toFixed(0)} MB  refused requests ${server.stats.rejected.length}  ${s} s`);
  console.log(`    episode outcomes ${JSON.stringify(failures)}`);
  for (const c of crashes.slice(0, 5)) console.log(`    ${c}`);
  return { bad: crashes.length + hangs + server.stats.rejected.length };
}

/** Both campaigns; the exit code (1 on any crash, hang or refused request). */
export async function fuzzLlmCli(replies: number, seed: number): Promise<number> {
  const agent = await campaign(false, replies, seed);
  const user = await campaign(true, replies, seed + 1);
  return agent.bad + user.bad > 0 ? 1 : 0;
}
