import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AtomicFileWriter, INCOMPLETE_MARKER, StagedFolder, countLines, lineOffset, readLines, readTextFile, removeLeftovers, writeFolder } from './files.js';
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

/** The pid of a process that has ended (a writer killed before it finished). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test('StagedFolder: a new folder appears whole at commit (the staging folder renamed); nothing is left beside it', () => {
  const root = mkdtempSync(join(tmpdir(), 'dialogym-staged-'));
  try {
    const dir = join(root, 'a', 'gen');
    const f = new StagedFolder(dir, 'dialogym generate restaurant');
    f.write('x.txt', 'one\n');
    f.write('y.txt', 'two\n');
    assert.equal(existsSync(dir), false, 'nothing at the target before commit');
    assert.deepEqual(f.commit(), ['x.txt', 'y.txt']);
    assert.deepEqual(readdirSync(dir).sort(), ['x.txt', 'y.txt']);
    assert.deepEqual(readdirSync(join(root, 'a')), ['gen'], 'no staging folder left');
    assert.throws(() => f.write('z.txt', ''), /write after commit or abort/);
    const bad = new StagedFolder(dir, 'w');
    for (const name of ['../z', 'sub/z', '..', INCOMPLETE_MARKER, '.z.txt.1.0.tmp']) assert.throws(() => bad.path(name), /cannot be a file of a staged folder/);
    bad.abort();
    // abort: the folder is as it was, the staging folder gone.
    const g = new StagedFolder(dir, 'w');
    g.write('x.txt', 'changed\n');
    g.abort();
    assert.equal(readFileSync(join(dir, 'x.txt'), 'utf8'), 'one\n');
    assert.deepEqual(readdirSync(dir).sort(), ['x.txt', 'y.txt']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('StagedFolder: a folder of its own files is swapped whole (a fresh folder: files of the old run that the new one does not write go); one holding the user\'s files gets the files one by one and keeps the user\'s', () => {
  const root = mkdtempSync(join(tmpdir(), 'dialogym-staged-'));
  try {
    const owned = join(root, 'owned');
    writeFolder(owned, 'w', [
      { name: 'a.txt', data: 'old a\n' },
      { name: 'b.txt', data: 'old b\n' },
    ]);
    const before = statSync(owned).ino;
    writeFolder(owned, 'w', [
      { name: 'a.txt', data: 'new a\n' },
      { name: 'b.txt', data: 'new b\n' },
      { name: 'c.txt', data: 'new c\n' },
    ]);
    assert.notEqual(statSync(owned).ino, before, 'swapped: another folder');
    assert.deepEqual(readdirSync(owned).sort(), ['a.txt', 'b.txt', 'c.txt']);
    assert.equal(readFileSync(join(owned, 'a.txt'), 'utf8'), 'new a\n');
    assert.deepEqual(readdirSync(root), ['owned'], 'no staging or old folder left beside');

    const shared = join(root, 'shared');
    mkdirSync(shared);
    writeFileSync(join(shared, 'notes.md'), 'mine\n');
    writeFileSync(join(shared, 'a.txt'), 'old a\n');
    const ino = statSync(shared).ino;
    assert.deepEqual(writeFolder(shared, 'w', [{ name: 'a.txt', data: 'new a\n' }]), ['a.txt']);
    assert.equal(statSync(shared).ino, ino, 'the same folder');
    assert.deepEqual(readdirSync(shared).sort(), ['a.txt', 'notes.md'], 'no marker, no staging folder left');
    assert.equal(readFileSync(join(shared, 'notes.md'), 'utf8'), 'mine\n');
    assert.equal(readFileSync(join(shared, 'a.txt'), 'utf8'), 'new a\n');

    // The current directory is never swapped away (a shell sitting in it would be left in a removed folder).
    const cwd = process.cwd();
    const swapped = statSync(owned).ino;
    process.chdir(owned);
    try {
      writeFolder('.', 'w', [{ name: 'a.txt', data: 'newer a\n' }]);
    } finally {
      process.chdir(cwd);
    }
    assert.equal(statSync(owned).ino, swapped, 'the same folder: files replaced one by one');
    assert.deepEqual(readdirSync(owned).sort(), ['a.txt', 'b.txt', 'c.txt']);
    assert.equal(readFileSync(join(owned, 'a.txt'), 'utf8'), 'newer a\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a half-replaced folder: its marker makes every reader refuse the files it names, in one line; the next commit clears what it rewrites', () => {
  const root = mkdtempSync(join(tmpdir(), 'dialogym-staged-'));
  try {
    const dir = join(root, 'gen');
    mkdirSync(dir);
    for (const n of ['a.txt', 'b.txt', 'mine.txt']) writeFileSync(join(dir, n), `${n}\n`);
    writeFileSync(join(dir, INCOMPLETE_MARKER), JSON.stringify({ writer: 'dialogym generate restaurant', files: ['a.txt', 'b.txt'] }) + '\n');
    const line = `${join(dir, 'a.txt')}: incomplete: \`dialogym generate restaurant\` was stopped while it replaced the files of this folder (part old, part new); run it again`;
    assert.throws(() => readTextFile(join(dir, 'a.txt')), (e: unknown) => e instanceof FormatError && e.message === line);
    assert.throws(() => [...readLines(join(dir, 'a.txt'))], (e: unknown) => e instanceof FormatError && e.message === line);
    assert.throws(() => countLines(join(dir, 'b.txt')), FormatError);
    assert.equal(readTextFile(join(dir, 'mine.txt')), 'mine.txt\n', 'a file the marker does not name reads');
    // A commit of a.txt alone: b.txt stays named (it may still be the killed run's).
    writeFolder(dir, 'w', [{ name: 'a.txt', data: 'a2\n' }]);
    assert.equal(readTextFile(join(dir, 'a.txt')), 'a2\n');
    assert.throws(() => readTextFile(join(dir, 'b.txt')), /incomplete: `dialogym generate restaurant`|incomplete: `w`/);
    writeFolder(dir, 'w', [{ name: 'b.txt', data: 'b2\n' }]);
    assert.equal(readTextFile(join(dir, 'b.txt')), 'b2\n');
    assert.equal(existsSync(join(dir, INCOMPLETE_MARKER)), false);
    // A marker that cannot be read names every file.
    writeFileSync(join(dir, INCOMPLETE_MARKER), '{"writer": "x", "fil');
    assert.throws(() => readTextFile(join(dir, 'mine.txt')), /mine\.txt: incomplete: `a write` was stopped/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('removeLeftovers: temp files and staging folders of ended processes go, a running writer\'s stay; a folder killed between the two renames of a swap is put back', () => {
  const root = mkdtempSync(join(tmpdir(), 'dialogym-staged-'));
  try {
    const dead = deadPid();
    const dir = join(root, 'gen');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, `.a.txt.${dead}.0.tmp`), 'half');
    writeFileSync(join(dir, `.b.txt.${process.pid}.7.tmp`), 'mine, in progress');
    mkdirSync(join(dir, `.dialogym-staging.${dead}.3`));
    mkdirSync(join(root, `.gen.${dead}.1.staging`));
    writeFileSync(join(root, `.other.${dead}.0.tmp`), 'not this folder\'s');
    assert.equal(removeLeftovers(dir), 3);
    assert.deepEqual(readdirSync(dir).sort(), [`.b.txt.${process.pid}.7.tmp`, 'a.txt']);
    assert.deepEqual(readdirSync(root).sort(), [`.other.${dead}.0.tmp`, 'gen']);
    // Killed after `gen` was renamed aside and before the new one was renamed in.
    rmSync(join(dir, `.b.txt.${process.pid}.7.tmp`));
    renameSync(dir, join(root, `.gen.${dead}.4.old`));
    mkdirSync(join(root, `.gen.${dead}.4.staging`));
    assert.equal(existsSync(dir), false);
    // Opening a writer into it puts the old folder back, then writes.
    const f = new StagedFolder(dir, 'w');
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'a\n');
    f.write('a.txt', 'a2\n');
    f.commit();
    assert.deepEqual(readdirSync(root).sort(), [`.other.${dead}.0.tmp`, 'gen']);
    assert.deepEqual(readdirSync(dir), ['a.txt']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
