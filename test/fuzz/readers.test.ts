/**
 * Fuzzing in the test suite (a few hundred mutated real inputs per reader; `npm run fuzz` runs
 * ≥ 10,000): every input gives a typed one-line error naming the file, or a result that
 * round-trips; no untyped error, no stack overflow, no hang.
 */
import { test } from 'node:test';
import { rmSync } from 'node:fs';
import assert from 'node:assert/strict';
import { airDir, babiDir, dstc6Dir, skipUnless } from '../shared-data.js';
import { sqliteDriver, sqliteMissingMessage } from '../../src/core/sqlite.js';
import { runTarget, type FuzzStats } from './runner.js';
import { fuzzDir, modelTarget, sqliteTarget, textTargets } from './targets.js';

const skip = skipUnless(babiDir) || skipUnless(dstc6Dir) || skipUnless(airDir);
const RUNS = Number(process.env.DIALOGYM_FUZZ_RUNS ?? 300);

function assertClean(s: FuzzStats): void {
  assert.equal(s.cases, s.accepted + s.rejected + s.untyped + s.hangs + s.otherFailures);
  assert.deepEqual(s.failures.slice(0, 3), [], `${s.name}: ${s.failures.length} of ${s.cases} inputs broke the property`);
  // The mutations must exercise both outcomes, or the property tests nothing.
  assert.ok(s.rejected > 0, `${s.name}: no input rejected`);
}

test('fuzz: the text readers (bAbI dialogs/candidates/KB, restaurant KB, DSTC6 data/results, AirDialogue data/KB/predictions — streamed and whole alike —, InfoBot TSV)', { skip }, () => {
  const dir = fuzzDir();
  try {
    for (const t of textTargets(dir)) {
      const s = runTarget(t, RUNS, 1);
      assertClean(s);
      assert.ok(s.accepted > 0 || ['dstc6-data', 'airdialogue-kb'].includes(s.name), `${s.name}: no mutated input accepted`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fuzz: model files (forged headers and tensors with a valid checksum: non-finite weights, aliased, overlapping, out-of-range regions; damaged bytes)', { skip }, () => {
  const dir = fuzzDir();
  const s = runTarget(modelTarget(dir), RUNS, 2);
  assertClean(s);
});

test('fuzz: SQLite KBs with damaged bytes, or a cell forged under a recomputed checksum', { skip: skip || (sqliteDriver() === undefined && `no SQLite driver: ${sqliteMissingMessage()}`) }, () => {
  const dir = fuzzDir();
  const t = sqliteTarget(dir);
  try {
    const s = runTarget(t, Math.min(RUNS, 200), 3);
    assertClean(s);
    assert.ok(s.accepted > 0, 'no damaged KB accepted (flips in free space must be harmless)');
  } finally {
    t.cleanup();
  }
});
