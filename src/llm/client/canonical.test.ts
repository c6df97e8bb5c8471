import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, requestKey } from './canonical.js';
import { costOf, percentile } from './usage.js';

test('canonical JSON sorts keys at every depth and drops undefined members; the key ignores key order', () => {
  assert.equal(canonicalJson({ b: 1, a: [2, { d: 3, c: undefined }], e: 'x"y' }), '{"a":[2,{"d":3}],"b":1,"e":"x\\"y"}');
  assert.equal(canonicalJson([undefined, null, Number.NaN]), '[null,null,null]');
  const a = { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0 };
  const b = { temperature: 0, messages: [{ content: 'hi', role: 'user' }], model: 'm' };
  assert.equal(requestKey(a), requestKey(b));
  assert.match(requestKey(a), /^[0-9a-f]{64}$/);
  assert.notEqual(requestKey(a), requestKey({ ...a, temperature: 0.5 }));
});

test('percentiles by nearest rank; cost per million tokens', () => {
  assert.equal(percentile([5, 1, 4, 2, 3], 50), 3);
  assert.equal(percentile([5, 1, 4, 2, 3], 95), 5);
  assert.equal(percentile([7], 95), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
  assert.equal(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 95), 95);
  assert.equal(costOf({ requests: 3, tokensIn: 1_000_000, tokensOut: 500_000 }, { in: 0.15, out: 0.6 }), 0.45);
  assert.equal(costOf({ requests: 1, tokensIn: 1234, tokensOut: 56 }, { in: 2.5, out: 10 }), 0.003645);
  assert.equal(costOf({ requests: 1, tokensIn: 1, tokensOut: 1 }, undefined), undefined);
});
