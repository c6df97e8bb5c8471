import { test } from 'node:test';
import assert from 'node:assert/strict';
import { param } from './params.js';
import { paramSize, sumParts, viewParams } from './param-buffers.js';

test('viewParams: the parameters view one flat buffer in order (copied in on request); the layers see the new storage', () => {
  const ps = [param('W', [2, 3]), param('b', [2])];
  ps[0]!.data.set([1, 2, 3, 4, 5, 6]);
  ps[1]!.data.set([7, 8]);
  const held = ps[0]!; // a layer holds the Param object
  const flat = viewParams(ps, 'data', new SharedArrayBuffer(4 * paramSize(ps)), true);
  assert.equal(paramSize(ps), 8);
  assert.deepEqual([...flat], [1, 2, 3, 4, 5, 6, 7, 8]);
  flat[6] = 70;
  assert.equal(ps[1]!.data[0], 70);
  assert.ok(held.data.buffer instanceof SharedArrayBuffer);
  // without copy the contents are the buffer's
  const g = viewParams(ps, 'grad', new ArrayBuffer(32));
  g.fill(2);
  assert.deepEqual([...ps[1]!.grad], [2, 2]);
  assert.throws(() => viewParams(ps, 'grad', new ArrayBuffer(28)), /viewParams: 28 bytes for 8 float32 entries/);
});

test('sumParts: the parts added in order in float32, into a separate buffer or into the first part', () => {
  // 1 + 1e-8 + 1e-8 … in float32 stays 1 left to right; the order matters and is the parts' order
  const parts = [new Float32Array([1, 3]), new Float32Array([1e-8, 1]), new Float32Array([-1, 0.5])];
  const out = new Float32Array(2);
  sumParts(out, parts, 3);
  assert.deepEqual([...out], [Math.fround(Math.fround(1 + Math.fround(1e-8)) - 1), 4.5]);
  sumParts(out, parts, 2);
  assert.deepEqual([...out], [1, 4]);
  sumParts(parts[0]!, parts, 2);
  assert.deepEqual([...parts[0]!], [1, 4]);
  assert.throws(() => sumParts(out, parts, 4), /sumParts: 4 of 3 parts/);
});
