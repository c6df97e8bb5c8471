import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../core/errors.js';
import { param } from './params.js';
import { rmsprop } from './rmsprop.js';

test('rmsprop: the first step moves each weight by about lr against its gradient sign', () => {
  const p = param('w', [3]);
  p.data.set([1, 1, 1]);
  p.grad.set([2, -0.5, 0]);
  const opt = rmsprop({ lr: 0.1, rho: 0.9, eps: 1e-8 });
  opt.step([p]);
  // r = 0.1·g², step = lr·g/√r = lr·sign(g)/√0.1
  assert.ok(Math.abs((p.data[0] as number) - (1 - 0.1 / Math.sqrt(0.1))) < 1e-5);
  assert.ok(Math.abs((p.data[1] as number) - (1 + 0.1 / Math.sqrt(0.1))) < 1e-5);
  assert.equal(p.data[2], 1);
  assert.throws(() => rmsprop({ lr: 0 }), (e: Error) => e instanceof ConfigError && /lr > 0/.test(e.message));
});

test('rmsprop with ε under the root (Lasagne, the official KB-InfoBot agents): a gradient far below √ε takes a step far below lr', () => {
  const p = param('w', [2]);
  p.grad.set([1e-3, 1]);
  rmsprop({ lr: 0.1, eps: 1e-4, epsUnderRoot: true }).step([p]);
  // r = 0.1·g²: step = lr·g/√(r + ε) = 0.1·1e-3/√(1e-7 + 1e-4) ≈ 0.0099 (ε outside the root: ≈ 0.316).
  assert.ok(Math.abs((p.data[0] as number) + (0.1 * 1e-3) / Math.sqrt(1e-7 + 1e-4)) < 1e-6, String(p.data[0]));
  assert.ok(Math.abs((p.data[1] as number) + 0.1 / Math.sqrt(0.1 + 1e-4)) < 1e-5, String(p.data[1]));
});
