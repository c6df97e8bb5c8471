import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelFileError } from '../core/errors.js';
import { decodeModelFile, encodeModelFile, readModelFile, writeModelFile, tensorOf } from './model-file.js';
import { fillTensor, forgeModelFile } from './testing/forge-model-file.js';

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

/** Three tensors A (3×2), R (1×1), C (2×3): 6 + 1 + 6 floats back to back, bytes 0–24–28–52. */
const three = encodeModelFile({ ...content, tensors: [...content.tensors, { name: 'C', shape: [2, 3], data: Float32Array.from([1, -1, 2, -2, 3, -3]) }] });
type Tensors = { tensors: Record<string, unknown>[] };
const at = (h: Tensors, i: number): Record<string, unknown> => h.tensors[i] as Record<string, unknown>;

test('forged files with a valid checksum: non-finite weights and bad tensor regions, one line naming the tensor', () => {
  const cases: [string, Buffer, RegExp][] = [
    ['all-NaN tensor', forgeModelFile(three, (p) => fillTensor(p, 0)), /^x\.dgm: tensor "A" \(index 0\): 6 non-finite values of 6 \(value 0 is NaN\)$/],
    ['one +Infinity', forgeModelFile(three, (p) => p.data.writeFloatLE(Infinity, 28 + 4 * 5)), /^x\.dgm: tensor "C" \(index 2\): 1 non-finite value of 6 \(value 5 is Infinity\)$/],
    ['-Infinity', forgeModelFile(three, (p) => fillTensor(p, 1, -Infinity)), /^x\.dgm: tensor "R" \(index 1\): 1 non-finite value of 1 \(value 0 is -Infinity\)$/],
    ['aliased offsets', forgeModelFile(three, (p) => { at(p.header, 2).offset = 0; p.header.dataBytes = 28; p.data = p.data.subarray(0, 28); }), /^x\.dgm: tensor "C" \(index 2\): bytes 0–24 alias the weights of tensor "A" \(index 0\) \(same offset\)$/],
    ['overlapping', forgeModelFile(three, (p) => { at(p.header, 2).offset = 20; p.header.dataBytes = 44; p.data = p.data.subarray(0, 44); }), /^x\.dgm: tensor "C" \(index 2\): bytes 20–44 overlap tensor "A" \(index 0\) \(bytes 0–24\)$/],
    ['out of range', forgeModelFile(three, (p) => (at(p.header, 2).offset = 32)), /^x\.dgm: tensor "C" \(index 2\): bytes 32–56 lie outside the 52 bytes of tensor data$/],
    ['gap', forgeModelFile(three, (p) => { at(p.header, 2).offset = 32; p.header.dataBytes = 56; p.data = Buffer.concat([p.data, Buffer.alloc(4)]); }), /^x\.dgm: tensor "C" \(index 2\): starts at byte 32, leaving bytes 28–32 to no tensor/],
    ['bytes after the last tensor', forgeModelFile(three, (p) => { p.header.dataBytes = 56; p.data = Buffer.concat([p.data, Buffer.alloc(4)]); }), /^x\.dgm: bytes 52–56 of the tensor data belong to no tensor$/],
    ['misaligned', forgeModelFile(three, (p) => (at(p.header, 1).offset = 26)), /^x\.dgm: corrupt model file \(header: tensors\[1\]: "offset" must be a multiple of 4, got 26\)$/],
    ['swapped order', forgeModelFile(three, (p) => { at(p.header, 0).offset = 28; at(p.header, 2).offset = 0; }), /^x\.dgm: tensor "A" \(index 0\): starts at byte 28, leaving bytes 0–28 to no tensor/],
    ['repeated name', forgeModelFile(three, (p) => (at(p.header, 2).name = 'A')), /^x\.dgm: tensor "A" \(index 2\): name repeated \(index 0 has it too\)$/],
    ['length not the shape', forgeModelFile(three, (p) => (at(p.header, 0).shape = [2, 2])), /^x\.dgm: tensor "A" \(index 0\): length 6 does not match shape 2×2 = 4$/],
  ];
  for (const [name, buf, re] of cases) {
    assert.throws(() => decodeModelFile(buf, 'x.dgm'), (e: unknown) => e instanceof ModelFileError && re.test(e.message) && !e.message.includes('\n'), name);
  }
  // The same edits that keep the layout and the values are accepted: the checks are not the checksum.
  assert.deepEqual(decodeModelFile(forgeModelFile(three, (p) => fillTensor(p, 1, 3.5)), 'x.dgm').tensors[1]?.data, Float32Array.from([3.5]));
  assert.equal(decodeModelFile(forgeModelFile(three, () => {}), 'x.dgm').tensors.length, 3);
});

test('non-finite weights are refused when written too: nothing is written, the message names the file and tensor', () => {
  const f = join(dir, 'nan.dgm');
  const bad = { model: 'x', meta: {}, tensors: [{ name: 'W', shape: [2], data: Float32Array.from([1, Number.NaN]) }] };
  assert.throws(() => writeModelFile(f, bad), /^DialogymError: .*nan\.dgm: tensor "W" \(index 0\): 1 non-finite value of 2 \(value 1 is NaN\); a model file holds finite weights only$/);
  assert.equal(existsSync(f), false);
  assert.throws(() => encodeModelFile({ ...bad, tensors: [{ name: 'W', shape: [1], data: Float32Array.from([-Infinity]) }] }), /tensor "W" \(index 0\): 1 non-finite value of 1 \(value 0 is -Infinity\)/);
});
