/**
 * Issue 41, case 4: `generate` killed (`kill -9`) at points of its writes, into a new folder, over
 * its own complete folder and over a folder that also holds the user's files: every folder is the
 * old complete dataset, the new one, or refused by `stats` in one line; the next run leaves no temp
 * file, staging folder or marker, and the user's file is kept. The kill points are exact (the
 * preload test/fs-killer.ts kills before the n-th writing file-system call): every rename and
 * removal of the commit, and the first, middle and last file written. bench/generate-kill.bench.ts
 * does the same with `kill -9` at random times on the 10,000-dialog run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliPath, repoRoot } from './shared-data.js';
import { classify, leftovers, leftoversOf, readDataset, type Found } from './kill-writes.js';

const killer = pathToFileURL(join(repoRoot, 'dist', 'test', 'fs-killer.js')).href;
const generate = (out: string, seed: number): string[] => ['generate', 'restaurant', '--task', '1', '--dialogs', '4', '--seed', String(seed), '--out', out];

function run(args: readonly string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', killer, cliPath, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

test('generate killed at the renames of its commit (and while writing): old, new or refused by stats in one line; the next run leaves nothing behind', { timeout: 300_000 }, (t) => {
  const root = mkdtempSync(join(tmpdir(), 'dialogym-kill-'));
  try {
    assert.equal(run(generate(join(root, 'old'), 1)).status, 0);
    assert.equal(run(generate(join(root, 'new'), 2)).status, 0);
    const old = readDataset(join(root, 'old'));
    const fresh = readDataset(join(root, 'new'));
    const scenarios = {
      fresh: (_dir: string) => undefined,
      own: (dir: string) => void cpSync(join(root, 'old'), dir, { recursive: true }),
      shared: (dir: string) => {
        cpSync(join(root, 'old'), dir, { recursive: true });
        writeFileSync(join(dir, 'notes.md'), 'mine\n');
      },
    };
    const tally: Record<Found, number> = { old: 0, new: 0, refused: 0, mixed: 0 };
    const refusals = new Set<string>();
    for (const [name, setup] of Object.entries(scenarios)) {
      const extra = name === 'shared' ? ['notes.md'] : [];
      // A whole run with the calls logged: where the kills go.
      const dry = join(root, `${name}-dry`);
      setup(dry);
      const log = join(root, `${name}.ops`);
      assert.equal(run(generate(dry, 2), { DIALOGYM_TEST_OPS_LOG: log }).status, 0);
      const ops = readFileSync(log, 'utf8').trimEnd().split('\n');
      const at = (pattern: RegExp): number[] => ops.flatMap((op, i) => (pattern.test(op) ? [i + 1] : []));
      const renames = at(/^renameSync/);
      const points = [
        ...new Set([
          at(/^writeFileSync .*staging/)[0] as number, // while the files are written
          ...(renames.length > 4 ? [renames[0], renames[1], renames[renames.length >> 1], renames[renames.length - 1]] : renames) as number[],
          ...at(/^rmSync .*(staging|old|incomplete)/), // the commit's clean-up
        ]),
      ];
      assert.ok(points.length >= 3, `${name}: ${ops.length} calls, kill points ${points.join(', ')}`);
      for (const k of points) {
        const dir = join(root, `${name}-${k}`);
        setup(dir);
        const killed = run(generate(dir, 2), { DIALOGYM_TEST_KILL_AT: String(k) });
        assert.equal(killed.signal, 'SIGKILL', `${name}: killed before call ${k} (${ops[k - 1]})`);
        const { found, line } = classify(dir, name === 'fresh' ? undefined : old, fresh, extra);
        assert.notEqual(found, 'mixed', `${name}, killed before ${ops[k - 1]}: the folder mixes runs (${line ?? ''})`);
        tally[found]++;
        if (line !== undefined) refusals.add(line);
        // The next run into the same folder: the new dataset, no leftover, the user's file kept.
        const next = run(generate(dir, 2));
        assert.equal(next.status, 0, next.stderr);
        const after = readDataset(dir);
        assert.deepEqual([...after.keys()], [...fresh.keys(), ...extra].sort());
        for (const [n, bytes] of fresh) assert.ok(after.get(n)?.equals(bytes), `${name}, killed before call ${k}: ${n} after the next run`);
        if (name === 'shared') assert.equal(readFileSync(join(dir, 'notes.md'), 'utf8'), 'mine\n');
        assert.deepEqual(leftoversOf(dir), [], `${name}, killed before call ${k}: leftovers after the next run`);
      }
    }
    t.diagnostic(`kills: ${JSON.stringify(tally)}`);
    // All three outcomes happen, none mixed; the refusals are the two one-liners.
    assert.equal(tally.mixed, 0);
    assert.ok(tally.old > 0 && tally.new > 0 && tally.refused > 0, JSON.stringify(tally));
    for (const line of refusals) assert.match(line, /^error: .*dialog-babi-task1-API-calls-(trn|dev|tst|tst-OOV)\.txt: (no such file|incomplete: `dialogym generate restaurant` was stopped while it replaced the files of this folder \(part old, part new\); run it again)$/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('leftovers of a run killed before this change (`.<name>.<pid>.<n>.tmp` in the folder) are removed by the next run', () => {
  const root = mkdtempSync(join(tmpdir(), 'dialogym-kill-'));
  try {
    const dir = join(root, 'g');
    mkdirSync(dir);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(dir, `.dialog-babi-kb-all.txt.${dead}.3.tmp`), 'x'.repeat(1000));
    assert.equal(run(generate(dir, 1)).status, 0);
    assert.deepEqual(leftovers(root), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
