/**
 * core/pool (piscina) against the hand-written worker pools it replaced, measured in the same run:
 *   1. per-task overhead: round trips of a trivial task, one at a time (latency) and 64 in flight
 *      over 2 threads (throughput): `Pool` (piscina) vs `PinnedThreads` (plain postMessage
 *      request/reply, what `serve --workers` keeps: piscina measured slower for that job);
 *   2. the synchronous join (`runSync`, Atomics.wait) of the MemN2N trainer's dev evaluation;
 *   3. a real job: `infobot eval` rl-soft on Medium over 1 and 2 workers (report identical).
 * Rounds alternate between the contenders and the best round counts (the machine is shared).
 * The load average is printed: timings under load are inflated.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { PinnedThreads, Pool } from '../src/core/pool.js';
import { defaultPolicyFile, evaluateAgentOnWorkers } from '../src/testbeds/infobot/index.js';
import type { EchoTask } from './pool/echo-task.js';

const ROUNDS = 5;
const SEQ = 2000;
const BURST = 20_000;
const IN_FLIGHT = 64;
const policyDir = process.env.DIALOGYM_POLICIES ?? fileURLToPath(new URL('../../policies/infobot/', import.meta.url));
process.stdout.write(`load average ${loadavg()[0]?.toFixed(2)}\n`);

type Caller = (k: number, t: EchoTask) => Promise<number>;

async function sequential(call: Caller): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < SEQ; i++) if ((await call(i % 2, { n: i, spin: 0 })) !== i) throw new Error('wrong answer');
  return ((performance.now() - t0) * 1000) / SEQ;
}

async function burst(call: Caller): Promise<number> {
  const t0 = performance.now();
  let sent = 0;
  const lane = async (): Promise<void> => {
    while (sent < BURST) {
      const i = sent++;
      if ((await call(i % 2, { n: i, spin: 0 })) !== i) throw new Error('wrong answer');
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return BURST / ((performance.now() - t0) / 1000);
}

const ECHO = new URL('./pool/echo-task.js', import.meta.url);
const pinned = new PinnedThreads<EchoTask, number>({ file: ECHO, threads: 2, label: 'bench' });
const pool = new Pool<EchoTask, number>({ file: ECHO, threads: 2, label: 'bench', tasksPerThread: 1 << 30 });
const callPinned: Caller = (k, t) => pinned.run(k, t);
const callPool: Caller = (_, t) => pool.run(t);
const best = { pinnedSeq: Infinity, poolSeq: Infinity, pinnedBurst: 0, poolBurst: 0, syncJoin: Infinity };
for (let r = 0; r < ROUNDS; r++) {
  best.pinnedSeq = Math.min(best.pinnedSeq, await sequential(callPinned));
  best.poolSeq = Math.min(best.poolSeq, await sequential(callPool));
  best.pinnedBurst = Math.max(best.pinnedBurst, await burst(callPinned));
  best.poolBurst = Math.max(best.poolBurst, await burst(callPool));
}
await pinned.destroy();
await pool.destroy();
const sync = new Pool<EchoTask, number>({ file: new URL('./pool/echo-task.js', import.meta.url), threads: 1, label: 'bench', tasksPerThread: 1 << 30 });
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  for (let i = 0; i < SEQ; i++) if (sync.runSync({ n: i, spin: 0 }, 30_000)() !== i) throw new Error('wrong answer');
  best.syncJoin = Math.min(best.syncJoin, ((performance.now() - t0) * 1000) / SEQ);
}
await sync.destroy();
process.stdout.write(`round trip, one at a time (best of ${ROUNDS} x ${SEQ}): PinnedThreads ${best.pinnedSeq.toFixed(1)} µs, Pool (piscina) ${best.poolSeq.toFixed(1)} µs (x${(best.poolSeq / best.pinnedSeq).toFixed(2)} the PinnedThreads time)\n`);
process.stdout.write(`${IN_FLIGHT} in flight over 2 threads (best of ${ROUNDS} x ${BURST}): PinnedThreads ${Math.round(best.pinnedBurst)} tasks/s, Pool (piscina) ${Math.round(best.poolBurst)} tasks/s (x${(best.poolBurst / best.pinnedBurst).toFixed(2)} the PinnedThreads rate)\n`);
process.stdout.write(`runSync + join from a caller that never yields (best of ${ROUNDS} x ${SEQ}): ${best.syncJoin.toFixed(1)} µs per task (x${(best.syncJoin / best.pinnedSeq).toFixed(2)} the PinnedThreads async round trip)\n`);

if (existsSync(defaultPolicyFile(policyDir, 'rl-soft', 'medium'))) {
  const EPISODES = 2000;
  const times: Record<number, number> = { 1: Infinity, 2: Infinity };
  const reports: Record<number, string> = {};
  for (let r = 0; r < 3; r++) {
    for (const workers of [1, 2]) {
      const t0 = performance.now();
      const rep = await evaluateAgentOnWorkers({ agent: 'rl-soft', split: 'medium', kb: { kind: 'generate', kbSeed: 1, missing: 0.2 }, episodes: EPISODES, seed: 1, policyDir, workers });
      times[workers] = Math.min(times[workers] as number, (performance.now() - t0) / 1000);
      reports[workers] = JSON.stringify(rep);
    }
  }
  const [t1, t2] = [times[1] as number, times[2] as number];
  process.stdout.write(`infobot eval rl-soft medium ${EPISODES} episodes on core/pool (best of 3, incl. worker start-up): 1 worker ${t1.toFixed(2)} s, 2 workers ${t2.toFixed(2)} s (x${(t1 / t2).toFixed(2)} speed-up); reports ${reports[1] === reports[2] ? 'identical' : 'DIFFERENT'}\n`);
}
