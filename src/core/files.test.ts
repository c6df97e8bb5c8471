import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AtomicFileWriter } from './files.js';

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
