import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { gradCheck } from './gradcheck.js';
import { Gru } from './gru.js';
import { gruBackwardPacked, gruForwardPacked } from './gru-batch.js';
import { zeroGrads } from './params.js';

const rand = (n: number, seed: number) => {
  const r = createRng(seed);
  return Float32Array.from({ length: n }, () => r.normal(0, 1));
};
const close = (a: Float32Array, b: Float32Array, what: string, tol = 2e-5) => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs((a[i] as number) - (b[i] as number)) <= tol * (1 + Math.abs(b[i] as number)), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

test('packed GRU: three sequences (lengths 5, 3, 1) at once give the states and gradients of Gru.forward / backward run one by one', () => {
  const [I, H] = [5, 7];
  const gru = new Gru(I, H);
  gru.init(createRng(2), 0.5);
  gru.b.data.set(rand(3 * H, 3));
  const lengths = [5, 3, 1];
  const seqs = lengths.map((L, s) => Array.from({ length: L }, (_, t) => rand(I, 10 * s + t + 20)));
  const h0s = lengths.map((_, s) => rand(H, 50 + s));
  const dhs = lengths.map((L, s) => Array.from({ length: L }, (_, t) => rand(H, 100 + 10 * s + t)));
  // one by one
  zeroGrads(gru.params);
  const states: Float32Array[][] = [];
  const dxs: Float32Array[][] = [];
  const dh0s: Float32Array[] = [];
  seqs.forEach((xs, s) => {
    const caches = gru.forward(xs, h0s[s]);
    states.push(caches.map((c) => c.h));
    const dx = xs.map(() => new Float32Array(I));
    dh0s.push(gru.backward(caches, dhs[s]!, dx));
    dxs.push(dx);
  });
  const grads = gru.params.map((p) => new Float32Array(p.grad));
  // packed: step t holds the sequences longer than t
  const sizes = [0, 1, 2, 3, 4].map((t) => lengths.filter((L) => L > t).length);
  const P = lengths.reduce((a, b) => a + b, 0);
  const x = new Float32Array(P * I);
  const dh = new Float32Array(P * H);
  const rowOf: [number, number][] = [];
  let row = 0;
  sizes.forEach((n, t) => {
    for (let s = 0; s < n; s++) {
      x.set(seqs[s]![t]!, row * I);
      dh.set(dhs[s]![t]!, row * H);
      rowOf.push([s, t]);
      row++;
    }
  });
  const h0 = new Float32Array(3 * H);
  h0s.forEach((h, s) => h0.set(h, s * H));
  zeroGrads(gru.params);
  const run = gruForwardPacked(gru, x, sizes, h0);
  const dx = new Float32Array(P * I);
  const dh0 = gruBackwardPacked(gru, run, dh, dx);
  rowOf.forEach(([s, t], i) => {
    close(run.rows.h.subarray(i * H, (i + 1) * H), states[s]![t]!, `h of sequence ${s} step ${t}`);
    close(dx.subarray(i * I, (i + 1) * I), dxs[s]![t]!, `dx of sequence ${s} step ${t}`);
  });
  dh0s.forEach((d, s) => close(dh0.subarray(s * H, (s + 1) * H), d, `dh0 of sequence ${s}`));
  gru.params.forEach((p, k) => close(p.grad, grads[k]!, p.name, 1e-4));
  assert.throws(() => gruForwardPacked(gru, x, [1, 2]), /step sizes must be positive and non-increasing, got 1,2/);
});

test('packed GRU: gradients of W, U, b, the inputs and h0 match finite differences', () => {
  const [I, H] = [3, 4];
  const gru = new Gru(I, H);
  gru.init(createRng(7));
  const sizes = [2, 2, 1];
  const x = rand(5 * I, 8);
  const h0 = rand(2 * H, 9);
  const wts = rand(5 * H, 10);
  const loss = () => {
    const h = gruForwardPacked(gru, x, sizes, h0).rows.h;
    let l = 0;
    for (let i = 0; i < h.length; i++) l += (h[i] as number) * (wts[i] as number);
    return l;
  };
  zeroGrads(gru.params);
  const run = gruForwardPacked(gru, x, sizes, h0);
  const dx = new Float32Array(x.length);
  const dh0 = gruBackwardPacked(gru, run, wts, dx);
  for (const p of gru.params) assert.ok(gradCheck(loss, p.data, p.grad).maxRelError < 2e-3, p.name);
  assert.ok(gradCheck(loss, x, dx).maxRelError < 2e-3, 'x');
  assert.ok(gradCheck(loss, h0, dh0).maxRelError < 2e-3, 'h0');
});
