/**
 * The study store's write rate and the KB import, with each SQLite driver this Node has
 * (node:sqlite on 22.13+, better-sqlite3 when on NODE_PATH, node-sqlite3-wasm always): each change
 * of a study is its own fsynced transaction, so the rate of `addTurn` (one turn, one commit) is
 * what a server with people typing can sustain; `finishSession` and `answer` cost the same.
 *
 * 1. Study store: a study of 8 participants on restaurant-task5-v2, then sessions of 20 turns each
 *    (`startSession`, 20 × `addTurn`, `finishSession`) until SQLITE_BENCH_TURNS turns (default
 *    400); commits per second, and the time to open the store.
 * 2. KB import: the bAbI KB file (dialog-babi-kb-all.txt; skipped when the data folder is absent)
 *    → SQLite, then 200 api_call queries.
 *
 * `node dist/bench/sqlite-store.bench.js` (Node 20: node-sqlite3-wasm, plus better-sqlite3 with
 * NODE_PATH=<its node_modules>); the same file with Node 22.13+ for node:sqlite.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sqliteDrivers } from '../src/core/sqlite.js';
import { createStudy, StudyStore } from '../src/study/store.js';
import { studyConfig } from '../src/study/config.js';
import { importKbFile, SqliteKbStore } from '../src/testbeds/restaurant/kb-sqlite.js';
import { babiDir } from '../test/shared-data.js';

const turns = Number(process.env.SQLITE_BENCH_TURNS ?? 400);
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-sqlite-bench-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const kbFile = join(babiDir, 'dialog-babi-kb-all.txt');

console.log(`Node ${process.versions.node}; drivers: ${sqliteDrivers().join(', ')}; ${turns} turns`);
console.log('| driver | store open ms | commits/s (addTurn) | ms per commit | kb import ms | 200 queries ms |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const driver of sqliteDrivers()) {
  const dir = join(tmp, `study-${driver.replace(':', '-')}`);
  createStudy(dir, studyConfig({ env: 'restaurant-task5-v2', agents: ['rules'], participants: 8, sessionsPerParticipant: 1000 }), { driver });
  let t = performance.now();
  const store = StudyStore.open(dir, { driver });
  const openMs = performance.now() - t;
  const pid = store.participantByLabel('p1')!.id;
  let commits = 0;
  t = performance.now();
  while (commits < turns) {
    const s = store.startSession(pid);
    commits++;
    for (let i = 0; i < 20 && commits < turns; i++, commits++) store.addTurn(s.id, i % 2 ? 'bot' : 'user', { text: `turn ${i} of session ${s.id}` });
    store.finishSession(s.id, { success: true, reward: 1, turns: 20, failure: null }, {});
    commits++;
  }
  const writeMs = performance.now() - t;
  store.close();
  let importMs = NaN;
  let queryMs = NaN;
  if (existsSync(kbFile)) {
    const out = join(tmp, `kb-${driver.replace(':', '-')}.sqlite`);
    t = performance.now();
    importKbFile(kbFile, out, { driver });
    importMs = performance.now() - t;
    const kb = SqliteKbStore.open(out, { driver });
    t = performance.now();
    let found = 0;
    for (let i = 0; i < 200; i++) found += kb.query(i % 2 ? { cuisine: 'italian', location: 'rome', number: 'six', price: 'cheap' } : { cuisine: 'french', location: 'paris', number: 'two', price: 'moderate' }).length;
    queryMs = performance.now() - t;
    if (found === 0) throw new Error('no restaurant found: the queries measured nothing');
    kb.close();
  }
  console.log(`| ${driver} | ${openMs.toFixed(1)} | ${((commits / writeMs) * 1000).toFixed(0)} | ${(writeMs / commits).toFixed(2)} | ${importMs.toFixed(0)} | ${queryMs.toFixed(0)} |`);
}
