import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { gradCheck } from './gradcheck.js';
import { zeroGrads } from './params.js';
import { Embedding, Linear, tanhBackward, tanhInPlace } from './layers.js';

const TOL = 2e-3;
const rand = (n: number, seed: number) => {
  const r = createRng(seed);
  return Float32Array.from({ length: n }, () => r.normal(0, 1));
};

test('Linear: y = Wx + b on a tiny case', () => {
  const lin = new Linear(2, 2);
  lin.W.data.set([1, 2, 3, 4]);
  lin.b!.data.set([0.5, -1]);
  assert.deepEqual([...lin.forward(new Float32Array([1, -1]))], [-0.5, -2]);
  assert.equal(new Linear(2, 3, 'x', false).params.length, 1);
  assert.throws(() => lin.forward(new Float32Array(3)), /input has 3 entries, expected 2/);
});

test('Linear + tanh: gradients of W, b and x match finite differences', () => {
  const lin = new Linear(5, 4, 'l');
  lin.init(createRng(1));
  lin.b!.data.set(rand(4, 2));
  const x = rand(5, 3);
  const r = rand(4, 4);
  const loss = () => {
    const y = tanhInPlace(lin.forward(x));
    let l = 0;
    for (let i = 0; i < 4; i++) l += (y[i] as number) * (r[i] as number);
    return l;
  };
  zeroGrads(lin.params);
  const y = tanhInPlace(lin.forward(x));
  const dx = new Float32Array(5);
  lin.backward(x, tanhBackward(y, r), dx);
  for (const p of lin.params) assert.ok(gradCheck(loss, p.data, p.grad).maxRelError < TOL, p.name);
  assert.ok(gradCheck(loss, x, dx).maxRelError < TOL, 'x');
});

test('Embedding: rows are views, gradients land in the used rows only', () => {
  const emb = new Embedding(4, 3, 'E');
  emb.init(createRng(5), 1);
  const r = rand(3, 6);
  const ids = [2, 0, 2];
  const loss = () => {
    let l = 0;
    for (const id of ids) {
      const v = emb.row(id);
      for (let k = 0; k < 3; k++) l += Math.sin(v[k] as number) * (r[k] as number);
    }
    return l;
  };
  zeroGrads(emb.params);
  for (const id of ids) {
    const v = emb.row(id);
    emb.backward(id, Float32Array.from({ length: 3 }, (_, k) => Math.cos(v[k] as number) * (r[k] as number)));
  }
  assert.ok(gradCheck(loss, emb.E.data, emb.E.grad).maxRelError < TOL);
  assert.deepEqual([...emb.E.grad.subarray(3, 6)], [0, 0, 0]);
  assert.throws(() => emb.row(4), /id 4 out of range \[0, 4\)/);
});
