import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelFileError } from '../core/errors.js';
import { decodeModelFile, encodeModelFile, readModelFile, writeModelFile, tensorOf } from './model-file.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-modelfile-'));
const content = {
  model: 'memn2n',
  meta: { config: { dim: 2 }, vocab: ['a', 'b', 'é'] },
  tensors: [
    { name: 'A', shape: [3, 2], data: Float32Array.from([1, 2, 3, 4, 5, 6.5]) },
    { name: 'R', shape: [1, 1], data: Float32Array.from([-0.25]) },
  ],
};

test('model file round trip keeps model, metadata and tensors bit for bit', () => {
  const f = join(dir, 'm.dgm');
  writeModelFile(f, content);
  const back = readModelFile(f);
  assert.equal(back.model, 'memn2n');
  assert.deepEqual(back.meta, content.meta);
  assert.deepEqual([...tensorOf(back, 'A', [3, 2], f)], [1, 2, 3, 4, 5, 6.5]);
  assert.deepEqual([...tensorOf(back, 'R', [1, 1], f)], [-0.25]);
  assert.equal(readFileSync(f).toString('latin1', 0, 8), 'DIALOGYM');
  assert.deepEqual(readdirSync(dir), ['m.dgm'], 'no temp file left behind');
  assert.throws(() => tensorOf(back, 'A', [2, 3], f), /tensor 'A' has shape 3×2, expected 2×3/);
  assert.throws(() => tensorOf(back, 'W', [1], f), /no tensor 'W'/);
});

test('corrupt, truncated, wrong-version and foreign files give one clear ModelFileError', () => {
  const good = encodeModelFile(content);
  const cases: [string, Buffer, RegExp][] = [
    ['truncated weights', good.subarray(0, good.length - 3), /truncated model file \(expected \d+ bytes, got \d+\)/],
    ['truncated header', good.subarray(0, 30), /truncated model file \(header needs/],
    ['flipped weight byte', Buffer.from(good).fill(0x7f, good.length - 2, good.length - 1), /corrupt model file \(checksum mismatch\)/],
    ['extra bytes', Buffer.concat([good, Buffer.from([1, 2, 3, 4])]), /unexpected bytes after the weights/],
    ['empty', Buffer.alloc(0), /empty file, not a dialogym model file/],
    ['text file', Buffer.from('1 hello\tworld\n\n'), /not a dialogym model file \(bad magic bytes\)/],
  ];
  const v2 = Buffer.from(good);
  v2.writeUInt32LE(2, 8);
  cases.push(['version 2', v2, /model file format version 2 is not supported \(this dialogym reads version 1\)/]);
  const hdr = Buffer.from(good);
  hdr[22] = 0x00; // break the JSON header
  cases.push(['broken header', hdr, /corrupt model file/]);
  for (const [name, buf, re] of cases) {
    assert.throws(
      () => decodeModelFile(buf, 'x.dgm'),
      (e: unknown) => e instanceof ModelFileError && re.test(e.message) && e.message.startsWith('x.dgm: ') && !e.message.includes('\n'),
      name,
    );
  }
  assert.throws(() => readModelFile(join(dir, 'missing.dgm')), /missing\.dgm: no such file/);
});

test('writing over an existing model file is atomic (old file intact if encoding fails)', () => {
  const f = join(dir, 'keep.dgm');
  writeModelFile(f, content);
  const before = readFileSync(f);
  assert.throws(() => writeModelFile(f, { model: 'x', meta: {}, tensors: [{ name: 'bad', shape: [5], data: new Float32Array(2) }] }), /does not match/);
  assert.deepEqual(readFileSync(f), before);
  writeFileSync(join(dir, 'other'), 'x');
  assert.ok(existsSync(f));
});
