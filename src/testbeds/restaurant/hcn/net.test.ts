import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../../core/rng.js';
import { zeroGrads } from '../../../nn/params.js';
import { setMatMulScalar } from '../../../nn/matmul.js';
import { HcnNet } from './net.js';

/** A dialog of `steps` sparse 0/1 feature vectors with random masks, each allowing its target. */
function dialog(seed: number, F: number, T: number, steps: number): { xs: Float32Array[]; targets: number[]; masks: Uint8Array[] } {
  const rng = createRng(seed);
  const xs: Float32Array[] = [];
  const targets: number[] = [];
  const masks: Uint8Array[] = [];
  for (let k = 0; k < steps; k++) {
    const x = new Float32Array(F);
    for (let i = 0; i < 4; i++) x[rng.int(F)] = 1;
    const m = new Uint8Array(T);
    for (let t = 0; t < T; t++) m[t] = rng.int(3) > 0 ? 1 : 0;
    const target = rng.int(T);
    m[target] = 1;
    xs.push(x);
    targets.push(target);
    masks.push(m);
  }
  return { xs, targets, masks };
}

/** Loss and every gradient of one path, after zeroing the gradients. */
function run(net: HcnNet, path: 'lossAndGrad' | 'lossAndGradSteps', d: ReturnType<typeof dialog>): { loss: number; grads: Float32Array[] } {
  zeroGrads(net.params);
  const loss = net[path](d.xs, d.targets, d.masks);
  return { loss, grads: net.params.map((p) => Float32Array.from(p.grad)) };
}

for (const scalar of [false, true]) {
  test(`HcnNet.lossAndGrad (matrix products${scalar ? ', scalar matMul' : ''}) equals the step-by-step path within 1e-5`, () => {
    const was = setMatMulScalar(scalar);
    try {
      const net = new HcnNet(37, 24, 11);
      net.init(createRng(5));
      // the output weights' direct term and bias non-zero, so every product matters
      for (let i = 0; i < net.Vo.data.length; i++) net.Vo.data[i] = ((i * 7919) % 13) / 50 - 0.12;
      for (let t = 0; t < 11; t++) net.bo.data[t] = t / 20 - 0.2;
      const d = dialog(9, 37, 11, 17);
      const a = run(net, 'lossAndGrad', d);
      const b = run(net, 'lossAndGradSteps', d);
      assert.ok(a.loss > 1, `a real loss (${a.loss})`);
      assert.ok(Math.abs(a.loss - b.loss) <= 1e-5 * b.loss, `loss ${a.loss} vs ${b.loss}`);
      net.params.forEach((p, i) => {
        const ga = a.grads[i] as Float32Array;
        const gb = b.grads[i] as Float32Array;
        let scale = 0;
        for (const v of gb) scale = Math.max(scale, Math.abs(v));
        assert.ok(scale > 0, `${p.name}: a non-zero gradient`);
        for (let j = 0; j < gb.length; j++) assert.ok(Math.abs((ga[j] as number) - (gb[j] as number)) <= 1e-5 * scale, `${p.name}[${j}]: ${ga[j]} vs ${gb[j]}`);
      });
    } finally {
      setMatMulScalar(was);
    }
  });
}

test('HcnNet.lossAndGradBatch: each dialog its own loss, the gradients summed, as one dialog at a time within 1e-5', () => {
  const net = new HcnNet(29, 16, 9);
  net.init(createRng(3));
  for (let t = 0; t < 9; t++) net.bo.data[t] = t / 30;
  // lengths 5, 0 (no steps), 9, 5: packing sorts them, ties kept in order
  const ds = [dialog(1, 29, 9, 5), dialog(2, 29, 9, 0), dialog(3, 29, 9, 9), dialog(4, 29, 9, 5)];
  zeroGrads(net.params);
  const losses = net.lossAndGradBatch(ds);
  const batched = net.params.map((p) => Float32Array.from(p.grad));
  zeroGrads(net.params);
  const single = ds.map((d) => (d.xs.length > 0 ? net.lossAndGradSteps(d.xs, d.targets, d.masks) : 0));
  assert.equal(losses.length, 4);
  assert.equal(losses[1], 0);
  losses.forEach((l, i) => assert.ok(Math.abs(l - (single[i] as number)) <= 1e-5 * Math.max(1, single[i] as number), `dialog ${i}: ${l} vs ${single[i]}`));
  net.params.forEach((p, i) => {
    const ga = batched[i] as Float32Array;
    let scale = 0;
    for (const v of p.grad) scale = Math.max(scale, Math.abs(v));
    for (let j = 0; j < ga.length; j++) assert.ok(Math.abs((ga[j] as number) - (p.grad[j] as number)) <= 1e-5 * scale, `${p.name}[${j}]: ${ga[j]} vs ${p.grad[j]}`);
  });
});
