import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter } from './lines.js';

test('LineSplitter: lines across chunks, CRLF, and a line over the bound reported at once without keeping it', () => {
  const s = new LineSplitter(10);
  assert.deepEqual(s.push(Buffer.from('ab')), { lines: [], tooLong: false });
  assert.deepEqual(s.push(Buffer.from('c\r\nde\n\nf')), { lines: ['abc', 'de', ''], tooLong: false });
  assert.equal(s.pending, 1);
  // One byte at a time up to the bound (10 bytes): still a line.
  for (const b of '123456789') assert.equal(s.push(Buffer.from(b)).tooLong, false);
  assert.deepEqual(s.push(Buffer.from('\n')), { lines: ['f123456789'], tooLong: false });
  // Exactly one byte over: too long, and it stays so (the stream is abandoned).
  assert.deepEqual(s.push(Buffer.from('x'.repeat(11))), { lines: [], tooLong: true });
  assert.equal(s.pending, 0);
  assert.deepEqual(s.push(Buffer.from('ok\n')), { lines: [], tooLong: true });
  // Multi-byte characters split across chunks are decoded whole.
  const u = new LineSplitter(100);
  const bytes = Buffer.from('héllo\n');
  assert.deepEqual(u.push(bytes.subarray(0, 2)).lines, []);
  assert.deepEqual(u.push(bytes.subarray(2)).lines, ['héllo']);
});
