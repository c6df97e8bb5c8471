import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, DialogymError } from '../core/errors.js';
import { WorkerStartError } from '../core/pool.js';
import { placeOf } from '../core/testing/place.js';
import { MAX_PARTS_HELD, PartRunner } from './parts.js';
import { toyWork, type ToyCommon, type ToySetup } from './testing/parts-toy.js';

const FIXTURE = new URL('./testing/parts-fixture.js', import.meta.url);
const SIZE = 7;
/** Parts whose float32 gradients add up to other bits in another order. */
const xs = (n: number): number[] => Array.from({ length: n }, (_, k) => 0.1 * (k + 1) + 1 / (k + 3));

function toy(threads: number, maxParts: number, file = FIXTURE, more = {}) {
  const work = toyWork({ size: SIZE });
  work.w.data.forEach((_, i) => (work.w.data[i] = 0.37 * (i + 1) - 1.1));
  work.c.data[0] = 1.3;
  const runner = new PartRunner<ToySetup, ToyCommon, number, number>(work, { threads, maxParts, worker: file, setup: { size: SIZE }, label: 'toy', answerBytes: 64, ...more });
  return { work, runner };
}

/** Each part's gradient alone from zero (float32), and their sum in `order`. */
function expected(work: ReturnType<typeof toy>['work'], parts: readonly number[], scale: number, order: readonly number[]) {
  const grads = parts.map((x) => {
    const k = Math.fround(work.c.data[0]! * x * scale);
    return Float32Array.from({ length: SIZE }, (_, i) => (i + 1) * k);
  });
  const sum = new Float32Array(SIZE);
  for (const p of order) for (let i = 0; i < SIZE; i++) sum[i] = sum[i]! + grads[p]![i]!;
  const losses = parts.map((x) => {
    const k = Math.fround(work.c.data[0]! * x * scale);
    let loss = 0;
    for (let i = 0; i < SIZE; i++) loss += work.w.data[i]! * (i + 1) * k;
    return loss;
  });
  return { sum, losses };
}

test('1, 2 and 3 threads: each part\'s result in order and the sum of the parts\' gradients in part order, bit for bit (also in rounds beyond MAX_PARTS_HELD parts)', () => {
  for (const n of [5, MAX_PARTS_HELD * 2 + 5]) {
    const parts = xs(n);
    const got = [1, 2, 3].map((threads) => {
      const { work, runner } = toy(threads, n);
      try {
        assert.equal(work.w.data.buffer instanceof SharedArrayBuffer, threads > 1, 'values shared only with workers');
        const losses = runner.run({ scale: 0.7 }, parts);
        const want = expected(work, parts, 0.7, parts.map((_, k) => k));
        assert.deepEqual(losses, want.losses);
        assert.deepEqual([...work.w.grad], [...want.sum], `${threads} threads, ${n} parts`);
        // the order matters to the bits: summed backwards they differ (so the equality above says the order was kept)
        assert.notDeepEqual([...expected(work, parts, 0.7, parts.map((_, k) => n - 1 - k)).sum], [...want.sum]);
        assert.equal(work.c.grad.every((g) => g === 0), true, 'only the trained parameters get gradients');
        return [...work.w.grad];
      } finally {
        runner.close();
      }
    });
    assert.deepEqual(got[1], got[0]);
    assert.deepEqual(got[2], got[0]);
  }
});

test('the workers read the values in place: a step\'s change is seen by the next run; without gradients the gradient buffers are left alone; close() gives ordinary memory back', () => {
  const { work, runner } = toy(2, 4);
  let open = true;
  try {
    const parts = xs(4);
    runner.run({ scale: 1 }, parts);
    for (let i = 0; i < SIZE; i++) work.w.data[i] = work.w.data[i]! - 0.01 * work.w.grad[i]!; // an optimizer's step, in place
    work.c.data[0] = 2;
    const before = [...work.w.grad];
    const losses = runner.run({ scale: 1 }, parts, false);
    assert.deepEqual(losses, expected(work, parts, 1, []).losses);
    assert.deepEqual([...work.w.grad], before);
    const values = [...work.w.data];
    runner.close();
    open = false;
    assert.ok(!(work.w.data.buffer instanceof SharedArrayBuffer) && !(work.c.data.buffer instanceof SharedArrayBuffer));
    assert.deepEqual([...work.w.data], values);
    assert.equal(work.c.data[0], 2);
  } finally {
    if (open) runner.close();
  }
});

test('no parts: no results and a zero gradient (the sum of none), not the last step\'s', () => {
  const { work, runner } = toy(2, 4);
  try {
    runner.run({ scale: 1 }, xs(3));
    assert.ok(work.w.grad.some((g) => g !== 0));
    assert.deepEqual(runner.run({ scale: 1 }, []), []);
    assert.deepEqual([...work.w.grad], new Array(SIZE).fill(0));
  } finally {
    runner.close();
  }
});

test('more threads than parts: no more workers than parts − 1 (one part: none, the values stay in ordinary memory)', () => {
  const { work, runner } = toy(4, 1);
  try {
    assert.ok(!(work.w.data.buffer instanceof SharedArrayBuffer));
    assert.deepEqual(runner.run({ scale: 2 }, [0.5]), expected(work, [0.5], 2, [0]).losses);
  } finally {
    runner.close();
  }
});

test('a part\'s error in a worker comes back as the project\'s error, its message kept', () => {
  const { runner } = toy(2, 3);
  try {
    assert.throws(() => runner.run({ scale: 1 }, [1, 2, -1]), (e: unknown) => e instanceof ConfigError && e.message === 'part -1: negative');
  } finally {
    runner.close();
  }
});

test('a worker whose module does not load: one line naming the work and why (the error, where it was thrown), at once: no start timeout waited', () => {
  const throws = new URL('./testing/parts-throws.js', import.meta.url);
  // 2 workers, both failing; a 10-minute start timeout (a generous guard: the answer comes at once)
  const { runner } = toy(3, 3, throws, { startTimeoutMs: 600_000 });
  try {
    const want = `toy: a worker thread did not start: toy setup of size ${SIZE}: no replica (${placeOf(throws, 'throw new RangeError')})`;
    assert.throws(
      () => runner.run({ scale: 1 }, [1, 2, 3]),
      (e: unknown) => e instanceof WorkerStartError && e.message === want,
    );
  } finally {
    runner.close();
  }
  const missing = toy(2, 2, new URL('./testing/no-such-worker.js', import.meta.url), { startTimeoutMs: 600_000 }).runner;
  try {
    assert.throws(
      () => missing.run({ scale: 1 }, [1, 2]),
      (e: unknown) => e instanceof DialogymError && /^toy: a worker thread did not start: Cannot find module '\/.*\/no-such-worker\.js'$/.test(e.message),
    );
  } finally {
    missing.close();
  }
});

test('a worker thread that ends at import without a word: one line naming the work, after the start timeout', () => {
  const { runner } = toy(2, 2, new URL('../core/testing/pool-exits.js', import.meta.url), { startTimeoutMs: 500 });
  try {
    assert.throws(
      () => runner.run({ scale: 1 }, [1, 2]),
      (e: unknown) => e instanceof DialogymError && /^toy: a worker thread did not start within 0\.5 s( \(.*\))?$/.test(e.message),
    );
  } finally {
    runner.close();
  }
});
