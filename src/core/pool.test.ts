import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PinnedThreads, Pool, WorkerStartError } from './pool.js';
import { ConfigError, DialogymError, FormatError, ModelFileError } from './errors.js';
import type { FixtureTask } from './testing/pool-fixture.js';
import { placeOf } from './testing/place.js';

const FIXTURE = new URL('./testing/pool-fixture.js', import.meta.url);
class CustomError extends Error {}
Object.defineProperty(CustomError, 'name', { value: 'CustomError' });

const pool = (threads = 2, more: Partial<ConstructorParameters<typeof Pool>[0]> = {}): Pool<FixtureTask, unknown, number> =>
  new Pool<FixtureTask, unknown, number>({ file: FIXTURE, threads, label: 'test worker', workerData: { hello: 'there' }, ...more });

test('results come back in the order of the tasks, whichever thread finishes first', async () => {
  const p = pool(2);
  try {
    const tasks = Array.from({ length: 12 }, (_, i): FixtureTask => ({ kind: 'echo', value: i, spin: (12 - i) * 20_000 }));
    assert.deepEqual(await Promise.all(tasks.map((t) => p.run(t))), tasks.map((_, i) => i));
    assert.deepEqual(await p.run({ kind: 'data' }), { hello: 'there' });
  } finally {
    await p.destroy();
  }
});

test('errors are rebuilt as the project classes (exit codes and option marks kept), others name the pool', async () => {
  const p = pool(1, { errors: [CustomError] });
  try {
    await assert.rejects(p.run({ kind: 'throw', error: 'config' }), (e: unknown) => e instanceof ConfigError && e.exitCode === 2 && e.message === 'bad maxTurns' && JSON.stringify(e.text) === '["bad ",{"option":"maxTurns"}]');
    await assert.rejects(p.run({ kind: 'throw', error: 'format' }), (e: unknown) => e instanceof FormatError && e.file === 'a.txt' && e.line === 3 && e.reason === 'no tab' && e.exitCode === 1);
    await assert.rejects(p.run({ kind: 'throw', error: 'model' }), (e: unknown) => e instanceof ModelFileError && e.message === 'm.bin: corrupt');
    await assert.rejects(p.run({ kind: 'throw', error: 'custom' }), (e: unknown) => e instanceof CustomError && e.message === 'custom trouble');
    await assert.rejects(p.run({ kind: 'throw', error: 'plain' }), (e: unknown) => e instanceof Error && !(e instanceof DialogymError) && e.message === 'test worker: plain trouble');
    // The thread survives its tasks' errors.
    assert.equal(await p.run({ kind: 'echo', value: 7 }), 7);
  } finally {
    await p.destroy();
  }
});

test('a thread that dies fails its task with a DialogymError; the pool goes on', async () => {
  const p = pool(1);
  try {
    await assert.rejects(p.run({ kind: 'exit', code: 3 }), (e: unknown) => e instanceof DialogymError && /test worker failed: .*3/.test(e.message));
    assert.equal(await p.run({ kind: 'echo', value: 5 }), 5);
  } finally {
    await p.destroy();
  }
});

test('progress messages all arrive, in order, before the result', async () => {
  const p = pool(2);
  try {
    const seen: number[][] = [[], [], []];
    const results = await Promise.all(seen.map((s, k) => p.run({ kind: 'progress', n: 200 + k }, { onMessage: (m) => s.push(m) }).then((r) => ({ r, at: s.length }))));
    results.forEach(({ r, at }, k) => {
      assert.equal(r, 200 + k);
      assert.equal(at, 200 + k, 'every message delivered before the promise settles');
      assert.deepEqual(seen[k], Array.from({ length: 200 + k }, (_, i) => i + 1));
    });
  } finally {
    await p.destroy();
  }
});

test('pinned threads: a task runs on the thread it names, errors rebuilt, a dead thread reported', async () => {
  const p = new PinnedThreads<FixtureTask, unknown>({ file: FIXTURE, threads: 2, label: 'test worker', workerData: { hello: 'there' }, errors: [CustomError] });
  try {
    const [a, b] = [await p.run(0, { kind: 'thread' }), await p.run(1, { kind: 'thread' })];
    assert.notEqual(a, b);
    const all = await Promise.all(Array.from({ length: 40 }, (_, i) => p.run(i % 2, { kind: 'thread' })));
    assert.deepEqual(all, Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b)));
    // In order on one thread, whatever each task costs.
    assert.deepEqual(await Promise.all([3, 2, 1, 0].map((k) => p.run(1, { kind: 'echo', value: k, spin: k * 50_000 }))), [3, 2, 1, 0]);
    assert.deepEqual(await p.run(1, { kind: 'data' }), { hello: 'there' });
    await assert.rejects(p.run(0, { kind: 'throw', error: 'format' }), (e: unknown) => e instanceof FormatError && e.line === 3);
    await assert.rejects(p.run(0, { kind: 'throw', error: 'custom' }), (e: unknown) => e instanceof CustomError);
    await assert.rejects(p.run(1, { kind: 'throw', error: 'plain' }), /^Error: test worker: plain trouble$/);
    await assert.rejects(p.run(0, { kind: 'exit', code: 4 }), (e: unknown) => e instanceof DialogymError && /test worker failed: .*4/.test(e.message));
    await assert.rejects(p.run(0, { kind: 'echo', value: 1 }), DialogymError);
    assert.equal(await p.run(1, { kind: 'echo', value: 9 }), 9, 'the other thread goes on');
  } finally {
    await p.destroy();
  }
  const dead = new PinnedThreads<FixtureTask, unknown>({ file: new URL('./testing/no-such-module.js', import.meta.url), threads: 1, label: 'test worker' });
  await assert.rejects(dead.run(0, { kind: 'echo', value: 1 }), (e: unknown) => e instanceof WorkerStartError && /^test worker: a worker thread did not start: Cannot find module '.*no-such-module\.js'/.test(e.message));
  await dead.destroy();
});

const THROWS = new URL('./testing/pool-throws.js', import.meta.url);
/** The one line a thread whose module throws at import (testing/pool-throws.ts) answers with. */
const thrown = (label: string): string => `${label}: a worker thread did not start: pool fixture: cannot build from {"hello":"there"} (${placeOf(THROWS, 'throw new TypeError')})`;

test("a module that throws at import: every task, run or runSync on any thread, fails with one line naming the error and where it was thrown, without waiting for a start timeout", async () => {
  const p = pool(2, { file: THROWS, tasksPerThread: 100 });
  try {
    const results = await Promise.allSettled([1, 2, 3].map((value) => p.run({ kind: 'echo', value })));
    for (const r of results) assert.ok(r.status === 'rejected' && r.reason instanceof WorkerStartError && r.reason.message === thrown('test worker'), String(r.status === 'rejected' ? r.reason : r.value));
    // a caller blocked in Atomics.wait hears it too (a 10-minute start timeout: a generous guard)
    const joins = [1, 2].map((value) => p.runSync({ kind: 'echo', value }, 600_000));
    for (const join of joins) assert.throws(join, (e: unknown) => e instanceof WorkerStartError && e.message === thrown('test worker') && e.reason === thrown('test worker').slice('test worker: a worker thread did not start: '.length));
    assert.equal(p.failure, undefined, 'the threads stay up, answering');
  } finally {
    await p.destroy();
  }
  const pinned = new PinnedThreads<FixtureTask, unknown>({ file: THROWS, threads: 2, label: 'pinned', workerData: { hello: 'there' } });
  try {
    for (const k of [0, 1]) await assert.rejects(pinned.run(k, { kind: 'echo', value: 1 }), (e: unknown) => e instanceof WorkerStartError && e.message === thrown('pinned'));
  } finally {
    await pinned.destroy();
  }
});

test('a workerData that cannot be cloned: the pool is not made, one line saying so', () => {
  const want = 'test worker: a worker thread did not start: workerData: () => 0 could not be cloned.';
  assert.throws(() => pool(2, { workerData: { build: () => 0 } }), (e: unknown) => e instanceof WorkerStartError && e.message === want);
  assert.throws(() => new PinnedThreads({ file: FIXTURE, threads: 2, label: 'test worker', workerData: { build: () => 0 } }), (e: unknown) => e instanceof WorkerStartError && e.message === want);
});

test('runSync answers a caller that never yields to the event loop; errors rebuilt; a module not found says so; a thread ended under its task says so; a thread that died at import gives undefined', async () => {
  const p = pool(1, { tasksPerThread: 1000 });
  try {
    // Several rounds without returning to the event loop (piscina sees no answer meanwhile).
    for (let i = 0; i < 5; i++) assert.equal(p.runSync({ kind: 'echo', value: i }, 30_000)(), i);
    const join = p.runSync({ kind: 'throw', error: 'config' }, 30_000);
    assert.throws(join, (e: unknown) => e instanceof ConfigError && e.message === 'bad maxTurns' && JSON.stringify(e.text) === '["bad ",{"option":"maxTurns"}]');
  } finally {
    await p.destroy();
  }
  const dead = new Pool<FixtureTask, unknown>({ file: new URL('./testing/no-such-module.js', import.meta.url), threads: 1, label: 'test worker' });
  try {
    assert.throws(dead.runSync({ kind: 'echo', value: 1 }, 600_000), (e: unknown) => e instanceof WorkerStartError && /^test worker: a worker thread did not start: Cannot find module '\/.*\/no-such-module\.js'$/.test(e.message));
  } finally {
    await dead.destroy();
  }
  // a thread that ends under a synchronous caller's task: the caller hears it (it waited for ever before)
  const ending = pool(1, { tasksPerThread: 10 });
  try {
    assert.throws(ending.runSync({ kind: 'exit', code: 3 }, 600_000), (e: unknown) => e instanceof DialogymError && e.message === 'test worker failed: the thread ended with exit code 3 during the task');
  } finally {
    await ending.destroy();
  }
  // a thread that dies at import without a word (process.exit): join() gives undefined after the start timeout
  const silent = new Pool<FixtureTask, unknown>({ file: new URL('./testing/pool-exits.js', import.meta.url), threads: 1, label: 'test worker' });
  try {
    assert.equal(silent.runSync({ kind: 'echo', value: 1 }, 200)(), undefined);
  } finally {
    await silent.destroy();
  }
});

test('workers load their module with import(), not require(esm); a pool destroyed while its threads still load shuts down cleanly', async () => {
  const p = pool(2);
  try {
    const flags = (await p.run({ kind: 'flags' })) as string[];
    if (process.allowedNodeEnvironmentFlags.has('--no-experimental-require-module')) assert.ok(flags.includes('--no-experimental-require-module'), flags.join(' '));
  } finally {
    await p.destroy();
  }
  for (let i = 0; i < 10; i++) await pool(3).destroy();
});

test("a process started with flags a thread refuses (Node 26's test runner gives every test file some) still starts its pools' threads", async () => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-pool-flags-'));
  const file = join(dir, 'run.mjs');
  writeFileSync(file, `
    import { Pool, PinnedThreads, threadableFlags } from ${JSON.stringify(new URL('./pool.js', import.meta.url).href)};
    const p = new Pool({ file: new URL(${JSON.stringify(FIXTURE.href)}), threads: 1, label: 'w' });
    const flags = await p.run({ kind: 'flags' });
    await p.destroy();
    const s = new PinnedThreads({ file: new URL(${JSON.stringify(FIXTURE.href)}), threads: 1, label: 's' });
    const pinned = await s.run(0, { kind: 'echo', value: 7 });
    await s.destroy();
    console.log(JSON.stringify({ flags, pinned, none: threadableFlags([]) }));`);
  const r = spawnSync(process.execPath, ['--stack-trace-limit=12', '--v8-pool-size=2', '--enable-source-maps', file], { encoding: 'utf8', timeout: 60_000 });
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop() as string) as { flags: string[]; pinned: number; none: string[] };
  assert.ok(out.flags.includes('--enable-source-maps'), `the thread keeps the flags it accepts: ${out.flags.join(' ')}`);
  assert.ok(!out.flags.some((f) => f.startsWith('--stack-trace-limit') || f.startsWith('--v8-pool-size')), `the refused flags are left out: ${out.flags.join(' ')}`);
  assert.equal(out.pinned, 7);
  assert.deepEqual(out.none, []);
});
