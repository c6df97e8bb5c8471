import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { adam, clipGradNorm, param, sgd } from './params.js';
import { SparseAdam, SparseSgd, TouchedRows } from './sparse-rows.js';

test('sparse SGD over touched rows = dense clip + SGD (untouched rows have zero gradient)', () => {
  for (const maxNorm of [0.5, 100]) {
    const rng = createRng(1);
    const make = (): ReturnType<typeof param>[] => [param('E', [50, 4]), param('R', [4, 4])];
    const [E, R] = make() as [ReturnType<typeof param>, ReturnType<typeof param>];
    const [E2, R2] = make() as [ReturnType<typeof param>, ReturnType<typeof param>];
    for (let i = 0; i < E.data.length; i++) E.data[i] = E2.data[i] = rng.normal(0, 1);
    for (let i = 0; i < R.data.length; i++) R.data[i] = R2.data[i] = rng.normal(0, 1);
    const rows = new TouchedRows(E);
    const opt = new SparseSgd(0.1, [rows], [R]);
    for (const r of [3, 17, 3, 42, -1]) {
      rows.touch(r);
      if (r < 0) continue;
      for (let j = 0; j < 4; j++) E.grad[r * 4 + j] = E2.grad[r * 4 + j] = (E2.grad[r * 4 + j] ?? 0) + rng.normal(0, 1);
    }
    for (let i = 0; i < 16; i++) R.grad[i] = R2.grad[i] = rng.normal(0, 1);
    assert.equal(rows.size, 3);
    const norm = opt.clipAndStep(maxNorm);
    assert.ok(Math.abs(norm - clipGradNorm([E2, R2], maxNorm)) < 1e-4);
    sgd(0.1).step([E2, R2]);
    for (let i = 0; i < E.data.length; i++) assert.ok(Math.abs(E.data[i]! - E2.data[i]!) < 1e-6, `E[${i}]`);
    for (let i = 0; i < R.data.length; i++) assert.ok(Math.abs(R.data[i]! - R2.data[i]!) < 1e-6, `R[${i}]`);
    opt.zero();
    assert.equal(rows.size, 0);
    assert.ok(E.grad.every((g) => g === 0) && R.grad.every((g) => g === 0));
  }
});

test('sparse Adam: rows touched in every step move exactly as dense clip + Adam; untouched rows do not move', () => {
  const rng = createRng(2);
  const E = param('E', [20, 4]);
  const R = param('R', [4, 4]);
  const E2 = param('E', [20, 4]);
  const R2 = param('R', [4, 4]);
  for (let i = 0; i < E.data.length; i++) E.data[i] = E2.data[i] = rng.normal(0, 1);
  for (let i = 0; i < R.data.length; i++) R.data[i] = R2.data[i] = rng.normal(0, 1);
  const rows = new TouchedRows(E);
  const opt = new SparseAdam(0.05, [rows], [R]);
  const dense = adam(0.05);
  const touched = [2, 9, 11];
  for (let step = 0; step < 5; step++) {
    opt.zero();
    E2.grad.fill(0);
    R2.grad.fill(0);
    for (const r of touched) {
      rows.touch(r);
      for (let j = 0; j < 4; j++) E.grad[r * 4 + j] = E2.grad[r * 4 + j] = rng.normal(0, 3);
    }
    for (let i = 0; i < 16; i++) R.grad[i] = R2.grad[i] = rng.normal(0, 3);
    const norm = opt.clipAndStep(2);
    assert.ok(Math.abs(norm - clipGradNorm([E2, R2], 2)) < 1e-4);
    dense.step([E2, R2]);
  }
  for (const r of touched) for (let j = 0; j < 4; j++) assert.ok(Math.abs(E.data[r * 4 + j]! - E2.data[r * 4 + j]!) < 1e-5, `E[${r}][${j}]`);
  for (let i = 0; i < 16; i++) assert.ok(Math.abs(R.data[i]! - R2.data[i]!) < 1e-5, `R[${i}]`);
  const fresh = createRng(2);
  const start = Array.from({ length: 80 }, () => fresh.normal(0, 1));
  for (const r of [0, 5, 19]) for (let j = 0; j < 4; j++) assert.equal(E.data[r * 4 + j], Math.fround(start[r * 4 + j]!));
});
