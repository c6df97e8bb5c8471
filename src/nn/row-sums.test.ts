import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { Gru } from './gru.js';
import { Linear } from './layers.js';
import { GruStepper, RowSums } from './row-sums.js';

test('RowSums: float64 row sums of Linear.forward, bit for bit (odd row count, rows subsets, listed columns)', (t) => {
  const rng = createRng(3);
  const lin = new Linear(48, 927, 'out');
  lin.init(rng.fork('lin'));
  for (let i = 0; i < lin.b!.data.length; i++) lin.b!.data[i] = rng.normal(0, 1);
  const rs = RowSums.create(lin.W.data, 927, 48);
  if (!rs) return t.skip('no WebAssembly SIMD here');
  for (let k = 0; k < 20; k++) {
    const x = Float32Array.from({ length: 48 }, () => rng.normal(0, 3));
    const want = lin.forward(x);
    rs.start(lin.b!.data);
    rs.add(x);
    assert.deepEqual(Float32Array.from(rs.sums), want);
  }
  // listed columns and a row range: only those rows, only those columns
  const x = Float32Array.from({ length: 48 }, (_, c) => c + 1);
  rs.start(null);
  rs.add(x, [0, 5, 47], 2, 5);
  assert.deepEqual([...rs.sums.subarray(0, 2)], [0, 0]);
  for (const r of [2, 3, 4]) assert.equal(rs.sums[r], lin.W.data[r * 48]! * 1 + lin.W.data[r * 48 + 5]! * 6 + lin.W.data[r * 48 + 47]! * 48);
  assert.equal(rs.sums[7], 0);
  assert.throws(() => rs.add(x, undefined, 1, 3), /from even/);
});

test('GruStepper: the states of Gru.step bit for bit, zero inputs skipped alike', (t) => {
  const rng = createRng(5);
  const gru = new Gru(24, 48, 'g');
  gru.init(rng.fork('gru'));
  for (let i = 0; i < gru.b.data.length; i++) gru.b.data[i] = rng.normal(0, 0.5);
  const s = GruStepper.create(gru);
  if (!s) return t.skip('no WebAssembly SIMD here');
  let a: Float32Array = new Float32Array(48);
  let b: Float32Array = new Float32Array(48);
  for (let k = 0; k < 30; k++) {
    const x = Float32Array.from({ length: 24 }, (_, i) => (i % 5 === k % 5 ? 0 : rng.normal(0, 1)));
    a = gru.step(x, a).h;
    b = s.step(x, b);
    assert.deepEqual(b, a);
  }
  assert.equal(GruStepper.create(new Gru(3, 5)), undefined, 'odd hidden sizes take the JS step');
});
