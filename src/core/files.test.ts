import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AtomicFileWriter, countLines, lineOffset, readLines, readTextFile } from './files.js';
import { FormatError } from './errors.js';
import { createRng } from './rng.js';

test('AtomicFileWriter: pieces go to a temp file as they come (64 KiB buffer), the target appears only at commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-atomic-'));
  try {
    const file = join(dir, 'sub', 'out.jsonl');
    writeFileSync(join(dir, 'keep.txt'), 'x');
    const w = new AtomicFileWriter(file);
    const line = JSON.stringify({ dialog: 0, turn: 0, prediction: 'x'.repeat(1000) }) + '\n';
    for (let i = 0; i < 100; i++) w.write(line); // ~100 KB: one flush of ≥ 64 KiB happened
    assert.equal(existsSync(file), false, 'no target before commit');
    const onDisk = readFileSync(w.tmp, 'utf8');
    assert.ok(onDisk.length >= 65536 && onDisk.length < 100 * line.length, `streamed ${onDisk.length} characters before commit`);
    assert.equal(onDisk.length % line.length, 0, 'whole pieces only');
    w.commit();
    assert.equal(readFileSync(file, 'utf8'), line.repeat(100));
    assert.deepEqual(readdirSync(join(dir, 'sub')), ['out.jsonl'], 'no temp file left');
    assert.throws(() => w.write('late'), /write after commit or abort/);
    // abort: no target, no temp file; a second abort is harmless.
    const a = new AtomicFileWriter(join(dir, 'never.txt'));
    a.write('some');
    a.flush();
    assert.ok(existsSync(a.tmp));
    a.abort();
    a.abort();
    assert.deepEqual(readdirSync(dir).sort(), ['keep.txt', 'sub']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The lines `readLines` must give for `text`: split on newlines, without the empty string after a final one. */
function splitLines(text: string): string[] {
  const raw = text.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  return raw;
}

function expectFormatError(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => e instanceof FormatError && e.message === message);
}

test('readLines gives the lines of readTextFile(...).split, with lines and multi-byte characters cut across reads of 1-7 bytes; countLines and lineOffset agree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-lines-'));
  try {
    const rng = createRng(7);
    const pieces = ['a', 'bc', ' ', '\n', '\n', '\r\n', 'é', '€', '😀', '{"k": 1}', '\ufeff'];
    const texts = ['', '\n', '\n\n', 'x', 'x\n', '\ufeffbom\nline', 'a\r\nb\r\n', '\ufeff'];
    for (let k = 0; k < 60; k++) texts.push(Array.from({ length: rng.int(40) }, () => rng.pick(pieces)).join(''));
    texts.forEach((text, k) => {
      const file = join(dir, `t${k}.txt`);
      writeFileSync(file, text);
      const want = splitLines(readTextFile(file));
      for (const chunkBytes of [1, 2, 3, 7, 1 << 20]) {
        const got = [...readLines(file, { chunkBytes })];
        assert.deepEqual(got.map((l) => l.text), want, `${JSON.stringify(text)} in reads of ${chunkBytes}`);
        assert.deepEqual(got.map((l) => l.line), want.map((_, i) => i + 1));
        if (got.length > 0) assert.equal(got.at(-1)?.end, Buffer.byteLength(text), 'the last line ends at the end of the file');
      }
      assert.equal(countLines(file), want.length, JSON.stringify(text));
      for (let n = 1; n <= want.length + 1; n++) {
        const at = lineOffset(file, n);
        if (n > want.length) assert.deepEqual(at, { offset: undefined, lines: want.length }, `line ${n} of ${JSON.stringify(text)}`);
        else {
          assert.ok(at.offset !== undefined, `line ${n} of ${JSON.stringify(text)} found`);
          const from = [...readLines(file, { start: at.offset, firstLine: n })];
          // A BOM is dropped at the start of the file only.
          assert.deepEqual(from.map((l) => l.text), n === 1 ? want : want.slice(n - 1), `from line ${n} of ${JSON.stringify(text)}`);
          assert.equal(countLines(file, at.offset), want.length - n + 1);
        }
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readLines errors: missing file, folder, a line over the bound (found without buffering it), NUL and invalid UTF-8 at their line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-lines-'));
  try {
    const put = (name: string, data: string | Buffer) => {
      writeFileSync(join(dir, name), data);
      return join(dir, name);
    };
    expectFormatError(() => [...readLines(join(dir, 'nope.txt'))], `${join(dir, 'nope.txt')}: no such file`);
    expectFormatError(() => [...readLines(dir)], `${dir}: is a directory, not a file`);
    expectFormatError(() => countLines(dir), `${dir}: is a directory, not a file`);
    const long = put('long.txt', 'ok\n' + 'x'.repeat(100) + '\nok\n');
    assert.equal([...readLines(long, { maxLineBytes: 100, chunkBytes: 7 })].length, 3, 'a line of exactly the bound is read');
    for (const chunkBytes of [7, 1 << 20]) expectFormatError(() => [...readLines(long, { maxLineBytes: 99, chunkBytes })], `${long}:2: line longer than 99 bytes`);
    // A 3 MB line without a newline: refused after the bound, holding at most bound + one read.
    const huge = put('huge.txt', 'y'.repeat(3_000_000));
    const lines = readLines(huge, { maxLineBytes: 1000, chunkBytes: 4096 });
    expectFormatError(() => lines.next(), `${huge}:1: line longer than 1000 bytes`);
    const nul = put('nul.txt', 'a\nb\u0000\nc\n');
    expectFormatError(() => [...readLines(nul, { chunkBytes: 2 })], `${nul}:2: binary data (NUL byte), not a text file`);
    expectFormatError(() => readTextFile(nul), `${nul}:2: binary data (NUL byte), not a text file`);
    const bad = put('bad.txt', Buffer.concat([Buffer.from('a\nb\nc'), Buffer.from([0xc3]), Buffer.from('\n')]));
    expectFormatError(() => [...readLines(bad, { chunkBytes: 3 })], `${bad}:3: binary data (invalid UTF-8), not a text file`);
    expectFormatError(() => readTextFile(bad), `${bad}:3: binary data (invalid UTF-8), not a text file`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file just over the whole-file bound: readTextFile refuses it, readLines reads it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-lines-'));
  try {
    const file = join(dir, 'big.txt');
    const text = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n') + '\n';
    writeFileSync(file, text);
    const size = Buffer.byteLength(text);
    expectFormatError(() => readTextFile(file, { maxBytes: size - 1 }), `${file}: file too large (${size} bytes; at most ${size - 1})`);
    assert.equal(readTextFile(file, { maxBytes: size }), text);
    assert.deepEqual([...readLines(file, { chunkBytes: 64 })].map((l) => l.text), splitLines(text));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
