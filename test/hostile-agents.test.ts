/**
 * Hostile agents (issue 32): `dialogym evaluate --agent-cmd` against agents that write 600 MB
 * without a newline, fork a child that holds stdout, are `yes`, start a `setsid` child, answer
 * with a million-element array or a million-deep one, exit at once, or never flush. Each time
 * `evaluate` exits 0 with a summary naming the right failure reason, its peak RSS stays bounded,
 * and no process the agent started is alive afterwards (found by a variable every one of them
 * inherits, scanned in /proc/<pid>/environ, so `setsid` and re-parenting do not hide them).
 * The wall time of each case is printed (a diagnostic, not asserted).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath } from './shared-data.js';

const skip = process.platform !== 'linux' || !existsSync('/proc/self/environ') ? 'needs Linux /proc' : false;
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-hostile-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const node = JSON.stringify(process.execPath);
const python = spawnSync('python3', ['--version']).status === 0;

/** Node scripts of the agents that need more than a shell line. */
function script(name: string, body: string): string {
  const file = join(tmp, `${name}.mjs`);
  writeFileSync(file, body);
  return `${node} ${JSON.stringify(file)}`;
}

/** Processes alive (not zombies) whose environment holds `HOSTILE_TOKEN=token`. */
function alive(token: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`).includes(`HOSTILE_TOKEN=${token}\0`)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** An exit hook that reports the evaluate process's peak RSS on stderr. */
const rssHook = `data:text/javascript,${encodeURIComponent("process.on('exit', () => process.stderr.write('\\nmaxRSS ' + process.resourceUsage().maxRSS + '\\n'))")}`;

interface Case {
  readonly name: string;
  readonly cmd: string;
  /** The failure reasons the summary must show (and no other). */
  readonly reasons: readonly string[];
  readonly flags?: readonly string[];
}

const CASES: readonly Case[] = [
  { name: '600 MB without a newline', cmd: 'head -c 600000000 /dev/zero', reasons: ['reply too long'] },
  { name: 'fork a child holding stdout, then exit', cmd: 'sleep 600 & exit 0', reasons: ['timeout'] },
  { name: 'yes', cmd: 'yes not-json', reasons: ['invalid json'] },
  { name: 'a setsid child, then answers', cmd: `setsid sleep 600 & while read l; do echo '{"action":"hello"}'; done`, reasons: ['max turns'], flags: ['--max-turns', '3'] },
  {
    name: 'a 1e6-element JSON array as the action',
    cmd: script('wide', `import { createInterface } from 'node:readline';\nconst big = JSON.stringify({ action: new Array(1e6).fill(0) }) + '\\n';\nfor await (const _ of createInterface({ input: process.stdin })) process.stdout.write(big);\n`),
    reasons: ['invalid action'],
  },
  {
    name: 'a 1e6-deep JSON array as the action',
    cmd: script('deep', `import { createInterface } from 'node:readline';\nconst deep = '{"action":' + '['.repeat(1e6) + ']'.repeat(1e6) + '}\\n';\nfor await (const _ of createInterface({ input: process.stdin })) process.stdout.write(deep);\n`),
    reasons: ['invalid json'],
  },
  { name: 'exit at once', cmd: 'exit 3', reasons: ['agent exited'] },
  {
    name: 'never flush',
    cmd: python
      ? // Block-buffered stdout (PYTHONUNBUFFERED would flush each write).
        `env -u PYTHONUNBUFFERED python3 -c 'import sys\nfor line in sys.stdin: sys.stdout.write("{\\"action\\": \\"hello\\"}\\n")'`
      : script('buffered', `process.stdin.on('data', () => {}); setInterval(() => {}, 1000);\n`),
    reasons: ['timeout'],
  },
];

test('hostile agents: evaluate finishes with the right failure reason, bounded memory, and no agent process left', { skip, timeout: 600_000 }, (t) => {
  const report: string[] = [];
  for (const [i, c] of CASES.entries()) {
    const token = `${process.pid}-${i}`;
    const t0 = process.hrtime.bigint();
    const r = spawnSync(
      process.execPath,
      ['--import', rssHook, cliPath, 'evaluate', '--env', 'restaurant-task1-v1', '--agent-cmd', c.cmd, '--episodes', '2', '--timeout', '700', '--startup-timeout', '300', '--json', ...(c.flags ?? [])],
      { encoding: 'utf8', timeout: 120_000, env: { ...process.env, HOSTILE_TOKEN: token }, maxBuffer: 64 * 1024 * 1024 },
    );
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    assert.equal(r.status, 0, `${c.name}: exit ${r.status} ${r.signal ?? ''}\n${r.stderr.slice(0, 2000)}`);
    const summary = JSON.parse(r.stdout) as { episodes: number; success: number; failures: Record<string, number> };
    assert.deepEqual(Object.keys(summary.failures).sort(), [...c.reasons].sort(), `${c.name}: ${r.stdout}`);
    assert.equal(Object.values(summary.failures).reduce((a, b) => a + b, 0), 2, c.name);
    const rss = Number(/maxRSS (\d+)/.exec(r.stderr)?.[1]);
    assert.ok(rss > 0, `${c.name}: no maxRSS in ${r.stderr.slice(-300)}`);
    // Well under the 600 MB the first agent writes (the bound is 4 MiB per reply).
    assert.ok(rss < 400 * 1024, `${c.name}: peak RSS ${Math.round(rss / 1024)} MB`);
    assert.deepEqual(alive(token), [], `${c.name}: agent processes left`);
    report.push(`${c.name}: exit ${r.status}, ${seconds.toFixed(2)} s, ${JSON.stringify(summary.failures)}, peak RSS ${Math.round(rss / 1024)} MB, left 0`);
  }
  for (const line of report) t.diagnostic(line);
});
