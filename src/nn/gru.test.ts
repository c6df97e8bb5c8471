import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { Gru } from './gru.js';
import { gradCheck } from './gradcheck.js';
import { zeroGrads } from './params.js';

const TOL = 2e-3;

function setup(I: number, H: number, T: number, seed = 3): { gru: Gru; xs: Float32Array[]; rs: Float32Array[]; h0: Float32Array } {
  const rng = createRng(seed);
  const gru = new Gru(I, H);
  gru.init(rng.fork('init'), 0.5);
  // Non-zero biases so every path is exercised.
  for (let i = 0; i < gru.b.data.length; i++) gru.b.data[i] = rng.normal(0, 0.3);
  const xs = Array.from({ length: T }, () => {
    const x = new Float32Array(I);
    for (let i = 0; i < I; i++) x[i] = rng.chance(0.4) ? 0 : rng.normal(0, 1);
    return x;
  });
  const rs = Array.from({ length: T }, () => Float32Array.from({ length: H }, () => rng.normal(0, 1)));
  const h0 = Float32Array.from({ length: H }, () => rng.normal(0, 0.5));
  return { gru, xs, rs, h0 };
}

/** L = Σ_t r_t · h_t (a fixed random read-out of every state). */
function lossOf(gru: Gru, xs: Float32Array[], rs: Float32Array[], h0: Float32Array): number {
  const cs = gru.forward(xs, h0);
  let l = 0;
  cs.forEach((c, t) => {
    const r = rs[t] as Float32Array;
    for (let i = 0; i < c.h.length; i++) l += (c.h[i] as number) * (r[i] as number);
  });
  return l;
}

test('GRU step matches the textbook equations on a tiny case', () => {
  const gru = new Gru(1, 1);
  gru.W.data.set([0.5, -1, 2]); // z, r, n rows
  gru.U.data.set([1, 0.5, -0.5]);
  gru.b.data.set([0, 0.1, 0.2]);
  const c = gru.step(Float32Array.from([1]), Float32Array.from([0.3]));
  const sig = (a: number): number => 1 / (1 + Math.exp(-a));
  const z = sig(0.5 + 0.3);
  const r = sig(-1 + 0.5 * 0.3 + 0.1);
  const n = Math.tanh(2 + -0.5 * r * 0.3 + 0.2);
  assert.ok(Math.abs((c.h[0] as number) - ((1 - z) * n + z * 0.3)) < 1e-6);
  assert.throws(() => gru.step(new Float32Array(2), new Float32Array(1)), /expected 1/);
});

test('GRU BPTT gradients (W, U, b, inputs, initial state) match finite differences', () => {
  const { gru, xs, rs, h0 } = setup(6, 5, 4);
  zeroGrads(gru.params);
  const caches = gru.forward(xs, h0);
  const dxs = xs.map((x) => new Float32Array(x.length));
  const dh0 = gru.backward(caches, rs, dxs);
  const loss = (): number => lossOf(gru, xs, rs, h0);
  for (const p of gru.params) {
    const res = gradCheck(loss, p.data, p.grad, 1e-2);
    assert.ok(res.maxRelError < TOL, `${p.name}: ${JSON.stringify(res)}`);
    assert.ok(p.grad.some((g) => g !== 0), `${p.name} has a gradient`);
  }
  const resH = gradCheck(loss, h0, dh0, 1e-2);
  assert.ok(resH.maxRelError < TOL, `h0: ${JSON.stringify(resH)}`);
  xs.forEach((x, t) => {
    const res = gradCheck(loss, x, dxs[t] as Float32Array, 1e-2);
    assert.ok(res.maxRelError < TOL, `x${t}: ${JSON.stringify(res)}`);
  });
});

test('GRU gradient of a loss at the first step only flows back through no later step', () => {
  const { gru, xs, rs, h0 } = setup(4, 3, 3, 9);
  zeroGrads(gru.params);
  const caches = gru.forward(xs, h0);
  gru.backward(caches, [rs[0], undefined, undefined]);
  const loss = (): number => {
    const c = gru.step(xs[0] as Float32Array, h0);
    let l = 0;
    for (let i = 0; i < 3; i++) l += (c.h[i] as number) * ((rs[0] as Float32Array)[i] as number);
    return l;
  };
  for (const p of gru.params) assert.ok(gradCheck(loss, p.data, p.grad, 1e-2).maxRelError < TOL, p.name);
  // Inputs that are zero get no W gradient (sparse input path).
  const x0 = xs[0] as Float32Array;
  const zeroCol = x0.findIndex((v) => v === 0);
  if (zeroCol >= 0) for (let row = 0; row < 9; row++) assert.equal(gru.W.grad[row * 4 + zeroCol], 0);
});
