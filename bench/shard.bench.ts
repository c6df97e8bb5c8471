/**
 * Sharded runs: a run as one process (one thread) vs the same run as n shards started at once
 * (one thread each) then `dialogym merge`, in the same benchmark run: wall and CPU times (each
 * shard loads the code and builds its environment again: the CPU overhead of sharding; on a loaded
 * machine the CPU ratio is the figure to trust), and that the merged report is the unsharded one
 * byte for byte. `npm run bench -- shard`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = fileURLToPath(new URL('../src/cli/index.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'dialogym-shard-bench-'));

// A preload that writes the process's CPU seconds (all its threads) to $CPU_OUT at exit.
const preload = join(dir, 'cpu.mjs');
writeFileSync(preload, "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.cpuUsage(); writeFileSync(process.env.CPU_OUT, String((u.user + u.system) / 1e6)); });\n");
let runs = 0;

/** Runs the CLI; resolves with its stdout and CPU seconds. */
function run(args: readonly string[]): Promise<{ stdout: string; cpu: number }> {
  const cpuFile = join(dir, `cpu-${runs++}.txt`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(preload).href, cli, ...args], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, CPU_OUT: cpuFile } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`dialogym ${args.join(' ')}: exit ${code}`));
      resolve({ stdout, cpu: Number(readFileSync(cpuFile, 'utf8')) });
    });
  });
}

async function measure(name: string, args: readonly string[], n: number): Promise<void> {
  const t0 = performance.now();
  const whole = await run(args);
  const wholeWall = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const shards = await Promise.all(Array.from({ length: n }, (_, i) => run([...args, '--shard', `${i}/${n}`, '--shard-out', join(dir, name, `${i}.shard`)])));
  const shardWall = (performance.now() - t1) / 1000;
  const merged = await run(['merge', join(dir, name)]);
  const mergeWall = (performance.now() - t1) / 1000 - shardWall;
  const cpu = shards.reduce((a, s) => a + s.cpu, 0);
  const same = merged.stdout === whole.stdout;
  console.log(
    `${name}: one process ${wholeWall.toFixed(2)} s wall, ${whole.cpu.toFixed(2)} s CPU | ${n} shards at once ${shardWall.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU ` +
      `(largest shard ${Math.max(...shards.map((s) => s.cpu)).toFixed(2)} s: ×${(whole.cpu / Math.max(...shards.map((s) => s.cpu))).toFixed(2)} less than one process), ` +
      `CPU overhead ×${(cpu / whole.cpu).toFixed(2)} | merge ${mergeWall.toFixed(2)} s wall, ${merged.cpu.toFixed(2)} s CPU | merged report ${same ? 'identical' : 'DIFFERENT'}`,
  );
  if (!same) process.exitCode = 1;
}

console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
try {
  await measure('infobot-eval', ['infobot', 'eval', '--agent', 'rule-soft', '--split', 'medium', '--episodes', '40000', '--seed', '1', '--json', '--workers', '1'], 2);
  await measure('airdialogue-selfplay', ['airdialogue', 'selfplay', '--n', '10000', '--seed', '1', '--json'], 2);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
