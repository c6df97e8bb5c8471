/**
 * The hostile-endpoint figures of the LLM path (issue 41), by hand: `node dist/bench/llm-hostile.bench.js`.
 * For each case a local test server (test/llm-server.ts) misbehaves and `dialogym evaluate` runs
 * against it under `/usr/bin/time -v`; one line per case: exit code, wall time, peak RSS, the
 * episodes' failures (or the error line), the longest transcript line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmTestServer, type Fault } from '../test/llm-server.js';
import { cliPath } from '../test/shared-data.js';

interface Case {
  readonly name: string;
  readonly fault: Fault;
  readonly args: readonly string[];
}

const AGENT = ['--env', 'restaurant-task1-v1', '--agent-llm', 'test'];
const USER = ['--env', 'restaurant-task5-v2', '--agent', 'rules', '--user-llm', 'test'];
const CASES: readonly Case[] = [
  { name: 'a faithful server (for comparison)', fault: {}, args: [...AGENT, '--episodes', '20'] },
  { name: 'body trickled 1 byte/s, --llm-timeout 3000 --llm-retries 0', fault: { trickleMs: 1000 }, args: [...AGENT, '--episodes', '1', '--llm-timeout', '3000', '--llm-retries', '0'] },
  { name: 'headers then silence, --llm-timeout 3000 --llm-retries 0', fault: { stall: true }, args: [...AGENT, '--episodes', '1', '--llm-timeout', '3000', '--llm-retries', '0'] },
  { name: '50 MB content, agent, defaults', fault: { padBytes: 50_000_000 }, args: [...AGENT, '--episodes', '3'] },
  { name: '50 MB content, --user-llm, defaults', fault: { padBytes: 50_000_000 }, args: [...USER, '--episodes', '3'] },
  { name: '100 MB content, --user-llm, defaults', fault: { padBytes: 100_000_000 }, args: [...USER, '--episodes', '1'] },
  { name: '500 forever, defaults, 100 episodes', fault: { status: 500 }, args: [...AGENT, '--episodes', '100'] },
  { name: 'HTML with 200 forever, defaults, 100 episodes', fault: { raw: { body: '<!DOCTYPE html><html><body><h1>It works!</h1></body></html>' } }, args: [...AGENT, '--episodes', '100'] },
  { name: 'HTML with 200 forever, --user-llm, defaults, 100 episodes', fault: { raw: { body: '<html>login</html>' } }, args: [...USER, '--episodes', '100'] },
];

/** Runs the CLI under /usr/bin/time -v: exit code, wall seconds, peak RSS (MB), stderr. */
function timed(args: readonly string[]): Promise<{ code: number; wall: number; rssMb: number; stderr: string }> {
  return new Promise((resolve) => {
    const c = spawn('/usr/bin/time', ['-v', process.execPath, cliPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    c.on('close', (code) => {
      const at = stderr.indexOf('\tCommand being timed:');
      const stats = stderr.slice(at);
      const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stats)?.[1] ?? NaN) / 1024;
      const w = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(stats);
      const wall = w ? Number(w[1] ?? 0) * 3600 + Number(w[2]) * 60 + Number(w[3]) : NaN;
      resolve({ code: /Exit status: (\d+)/.exec(stats) ? Number(/Exit status: (\d+)/.exec(stats)?.[1]) : (code ?? -1), wall, rssMb: rss, stderr: stderr.slice(0, at) });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'dialogym-llm-hostile-bench-'));
try {
  for (const c of CASES) {
    const server = await startLlmTestServer({ faults: () => c.fault });
    const t = join(dir, 'transcripts.jsonl');
    rmSync(t, { force: true });
    try {
      const r = await timed(['evaluate', ...c.args, '--llm-url', server.url, '--transcripts', t, '--json']);
      let outcome = r.stderr.split('\n').filter((l) => l.startsWith('error: ')).at(-1) ?? '';
      let longest = 0;
      try {
        const lines = readFileSync(t, 'utf8').split('\n').filter((l) => l !== '');
        longest = Math.max(0, ...lines.map((l) => l.length));
        const failures: Record<string, number> = {};
        for (const l of lines) {
          const f = (JSON.parse(l) as { failure: string | null }).failure ?? 'success';
          failures[f] = (failures[f] ?? 0) + 1;
        }
        if (r.code === 0) outcome = JSON.stringify(failures);
      } catch {
        // no transcripts: the run stopped before the first episode ended
      }
      console.log(`${c.name}: exit ${r.code}  wall ${r.wall.toFixed(1)} s  peak RSS ${r.rssMb.toFixed(0)} MB  requests ${server.stats.requests}  hostile bytes written ${server.stats.bytesSent}  longest transcript line ${longest}  ${outcome.slice(0, 240)}`);
    } finally {
      await server.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
