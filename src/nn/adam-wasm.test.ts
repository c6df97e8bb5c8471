import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { AdamKernel } from './adam-wasm.js';
import { adam, clipGradNorm, initNormal, param, setAdamJs, type Param } from './params.js';

function model(seed: number): Param[] {
  const rng = createRng(seed);
  // odd and even sizes (the kernel pads odd tails), a 1-entry one
  return [param('W', [7, 5]), param('b', [1]), param('E', [64, 3])].map((p) => {
    initNormal(p, rng.fork(p.name), 0.5);
    return p;
  });
}

function train(jsLoop: boolean, steps: number): Float32Array[] {
  const was = setAdamJs(jsLoop);
  try {
    const ps = model(1);
    const opt = adam(0.01);
    const rng = createRng(2);
    for (let t = 0; t < steps; t++) {
      for (const p of ps) for (let i = 0; i < p.grad.length; i++) p.grad[i] = rng.normal(0, t % 3 === 0 ? 10 : 0.1);
      ps[1]!.grad[0] = 0; // a zero gradient still decays the moments
      clipGradNorm(ps, 5);
      if (t === 7) opt.lr = 0.003; // a schedule between steps
      opt.step(ps);
    }
    return ps.map((p) => p.data.slice());
  } finally {
    setAdamJs(was);
  }
}

test('adam on the WebAssembly kernel gives the JS loop\'s weights bit for bit (odd sizes, zero gradients, clipping, a changed lr)', (t) => {
  if (!AdamKernel.create()) return t.skip('no WebAssembly SIMD here');
  const js = train(true, 25);
  const wasm = train(false, 25);
  assert.deepEqual(wasm, js);
  // and the weights moved
  assert.notDeepEqual(js[0], model(1)[0]!.data);
});

test('clipGradNorm: the norm before clipping, gradients scaled to the bound', () => {
  const p = param('w', [3]);
  p.grad.set([3, 4, 12]);
  assert.equal(clipGradNorm([p], 6.5), 13);
  assert.deepEqual([...p.grad], [1.5, 2, 6]);
});
