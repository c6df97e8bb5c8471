import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { Gru, type GruCache } from './gru.js';
import { AxpyRows, GruBackprop, RowsBackprop } from './gru-backprop.js';
import { Linear } from './layers.js';
import { GruStepper } from './row-sums.js';
import { zeroGrads } from './params.js';

test('AxpyRows: rows added in order with float32 rounding after each (odd n, stride 0 on either side, a = 0 skipped)', (t) => {
  const k = AxpyRows.create(64);
  if (!k) return t.skip('no WebAssembly SIMD here');
  k.view(0, 3).set([1, 0, 2]);
  k.view(4, 3).set([1, 1, 1]);
  k.view(8, 9).set([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  k.axpy(0, 3, 4, 0, 8, 3, 3);
  assert.deepEqual([...k.view(4, 3)], [1 + 1 + 14, 1 + 2 + 16, 1 + 3 + 18]);
  // float32 rounding after each row: 1 + 2^-30 rounds back to 1 each time
  k.view(0, 2).set([2 ** -30, 2 ** -30]);
  k.view(20, 1).set([1]);
  k.view(24, 1).set([1]);
  k.axpy(0, 2, 20, 0, 24, 0, 1);
  assert.equal(k.view(20, 1)[0], 1);
  // outer product: dst rows, src the same vector
  k.view(0, 2).set([2, 3]);
  k.view(32, 6).fill(0);
  k.view(40, 3).set([1, 2, 3]);
  k.axpy(0, 2, 32, 3, 40, 0, 3);
  assert.deepEqual([...k.view(32, 6)], [2, 4, 6, 3, 6, 9]);
});

test('GruBackprop and GruStepper.stepCache: Gru.backward and Gru.step bit for bit (zero inputs, steps without a loss, dx, reload after a change)', (t) => {
  const rng = createRng(9);
  const gru = new Gru(38, 32, 'g');
  gru.init(rng.fork('gru'));
  for (let i = 0; i < gru.b.data.length; i++) gru.b.data[i] = rng.normal(0, 0.5);
  const bp = GruBackprop.create(gru);
  const st = GruStepper.create(gru);
  if (!bp || !st) return t.skip('no WebAssembly SIMD here');
  for (let round = 0; round < 3; round++) {
    if (round > 0) {
      for (let i = 0; i < gru.W.data.length; i++) gru.W.data[i] = gru.W.data[i]! + rng.normal(0, 0.1);
      st.reload(gru);
    }
    const T = 7;
    const xs = Array.from({ length: T }, (_, s) => Float32Array.from({ length: 38 }, (_, i) => (i >= 32 ? (i === 32 + (s % 6) ? 1 : 0) : i % 7 === s ? 0 : rng.normal(0, 1))));
    const js: GruCache[] = [];
    const wasm: GruCache[] = [];
    let h: Float32Array = new Float32Array(32);
    let hw: Float32Array = new Float32Array(32);
    for (const x of xs) {
      const c = gru.step(x, h);
      const cw = st.stepCache(x, hw);
      for (const key of ['z', 'r', 'n', 'rh', 'h', 'nz'] as const) assert.deepEqual(cw[key], c[key], key);
      js.push(c);
      wasm.push(cw);
      h = c.h;
      hw = cw.h;
    }
    const dhs = xs.map((_, s) => (s % 3 === 1 ? undefined : Float32Array.from({ length: 32 }, () => rng.normal(0, 1))));
    const run = (caches: GruCache[], f: (dxs: Float32Array[]) => Float32Array) => {
      zeroGrads(gru.params);
      for (const p of gru.params) for (let i = 0; i < p.grad.length; i++) p.grad[i] = i % 11 === 0 ? 0.25 : 0;
      const dxs = xs.map(() => Float32Array.from({ length: 38 }, (_, i) => i / 100));
      const dh0 = f(dxs);
      void caches;
      return { dh0, dxs, grads: gru.params.map((p) => p.grad.slice()) };
    };
    const want = run(js, (dxs) => gru.backward(js, dhs, dxs));
    const got = run(wasm, (dxs) => bp.backward(wasm, dhs, dxs));
    assert.deepEqual(got.dh0, want.dh0);
    assert.deepEqual(got.dxs, want.dxs);
    got.grads.forEach((g, i) => assert.deepEqual(g, want.grads[i], gru.params[i]!.name));
    const noDx = run(js, () => bp.backward(js, dhs));
    assert.deepEqual(noDx.grads, want.grads, 'without dx the same gradients');
  }
});

test('RowsBackprop: Linear.backward bit for bit over several calls (zero rows skipped, with and without dx)', (t) => {
  const rng = createRng(4);
  const lin = new Linear(32, 77, 'p');
  lin.init(rng.fork('lin'));
  const k = RowsBackprop.create(77, 32);
  if (!k) return t.skip('no WebAssembly SIMD here');
  const xs = Array.from({ length: 5 }, () => Float32Array.from({ length: 32 }, () => rng.normal(0, 1)));
  const dys = xs.map((_, s) => Float32Array.from({ length: 77 }, (_, r) => (r % 4 === s % 4 ? 0 : rng.normal(0, 1))));
  const run = (f: (x: Float32Array, dy: Float32Array, dx: Float32Array | undefined) => void) => {
    zeroGrads(lin.params);
    lin.W.grad.fill(0.125);
    const dxs = xs.map((_, s) => (s === 2 ? undefined : Float32Array.from({ length: 32 }, (_, i) => i / 7)));
    xs.forEach((x, s) => f(x, dys[s]!, dxs[s]));
    return { W: lin.W.grad.slice(), b: lin.b!.grad.slice(), dxs };
  };
  const want = run((x, dy, dx) => lin.backward(x, dy, dx));
  const got = run((x, dy, dx) => {
    k.begin(lin.W.data, lin.W.grad);
    k.backward(x, dy, dx, lin.b!.grad);
    k.end();
  });
  assert.deepEqual(got, want);
  assert.throws(() => k.backward(xs[0]!, dys[0]!), /before begin/);
});
