import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { ConfigError, FormatError } from './errors.js';
import { combineShards, inShard, parseShard, readShardFile, shardItems, writeShardFile, type Shard } from './shard.js';

test('parseShard takes 0-based i/n and refuses the rest with the option named (the CLI says --shard)', () => {
  assert.deepEqual(parseShard('0/1'), { index: 0, count: 1 });
  assert.deepEqual(parseShard(' 7 / 8 '), { index: 7, count: 8 });
  for (const [v, re] of [
    ['8/8', /^shard: 8\/8: i must be below n \(shards are 0-based: 0\/8 … 7\/8\)$/],
    ['1/0', /n must be in \[1, 100000\]/],
    ['0/100001', /n must be in/],
    ['a/b', /^shard: expected i\/n/],
    ['3', /expected i\/n/],
    ['1.5/3', /expected i\/n/],
    ['', /expected i\/n/],
  ] as const) {
    assert.throws(() => parseShard(v), (e: unknown) => e instanceof ConfigError && re.test(e.message), v);
  }
});

test('the shards of a run partition its items: every item in exactly one shard, in order', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 20 }), (total, n) => {
      const seen: number[] = [];
      for (let i = 0; i < n; i++) {
        const s: Shard = { index: i, count: n };
        const ks = shardItems(s, total);
        assert.deepEqual(ks, [...ks].sort((a, b) => a - b));
        for (const k of ks) assert.ok(inShard(s, k));
        seen.push(...ks);
      }
      assert.deepEqual(seen.sort((a, b) => a - b), shardItems(undefined, total));
    }),
  );
});

test('shard files round-trip and combine into the whole run; a stray or missing item is a file:line error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-shardfile-'));
  try {
    const files = [0, 1, 2].map((i) => {
      const f = join(dir, `${i}.shard`);
      const shard = { index: i, count: 3 };
      writeShardFile(f, { run: 'v', options: { b: 1, a: [2] }, shard, total: 8, info: { seconds: i } }, shardItems(shard, 8).map((k) => ({ k, x: k * k })));
      return f;
    });
    const { items, infos, header } = combineShards(files.reverse().map(readShardFile));
    assert.deepEqual(items.map((it) => it['x']), [0, 1, 4, 9, 16, 25, 36, 49]);
    assert.deepEqual(infos, [{ seconds: 0 }, { seconds: 1 }, { seconds: 2 }]);
    assert.equal(header.run, 'v');
    // Options recorded in another key order are the same run.
    const f = join(dir, 'other.shard');
    writeShardFile(f, { run: 'v', options: { a: [2], b: 1 }, shard: { index: 1, count: 3 }, total: 8 }, shardItems({ index: 1, count: 3 }, 8).map((k) => ({ k, x: k * k })));
    assert.equal(combineShards([files[2], f, files[0]].map((x) => readShardFile(x as string))).items.length, 8);
    // An item of another shard in the file.
    writeFileSync(f, `${JSON.stringify({ format: 'dialogym-shard/1', verb: 'v', options: {}, meta: {}, shard: '1/3', total: 8, items: 3, info: {} })}\n{"k":1}\n{"k":5}\n{"k":7}\n`);
    assert.throws(() => readShardFile(f), (e: unknown) => e instanceof FormatError && e.line === 3 && /expected item k = 4 of shard 1\/3/.test(e.message));
    writeFileSync(f, `{"format":"dialogym-shard/1","verb":"v"}\n`);
    assert.throws(() => readShardFile(f), (e: unknown) => e instanceof FormatError && e.line === 1 && /lacks verb, options/.test(e.message));
    writeFileSync(f, `{"format":"dialogym-shard/2","run":"v"}\n`);
    assert.throws(() => readShardFile(f), (e: unknown) => e instanceof FormatError && e.line === 1 && /lacks run, options/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
