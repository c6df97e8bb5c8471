import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DialogymError } from './errors.js';
import { openSqlite, sqliteDriver, sqliteDrivers, sqliteMissingMessage, type SqliteDriverName } from './sqlite.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-sqlite-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const drivers = sqliteDrivers();
const self = pathToFileURL(join(import.meta.dirname, 'sqlite.js')).href;
/** Does this node have node:sqlite (built in and not behind its flag)? */
const builtIn = spawnSync(process.execPath, ['-e', "require('node:sqlite')"], { encoding: 'utf8' }).status === 0;

if (drivers.length === 0) test('SQLite drivers', { skip: `no SQLite driver: ${sqliteMissingMessage()}` }, () => {});

for (const driver of drivers) {
  test(`[${driver}] write, read, transactions, read-only: the same rows whichever driver`, () => {
    const file = join(tmp, `${driver.replace(':', '-')}.sqlite`);
    const db = openSqlite(file, { driver });
    assert.equal(db.driver, driver);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, word TEXT NOT NULL, n INTEGER)');
    const ins = db.prepare('INSERT INTO t (word, n) VALUES (@word, @n)');
    db.transaction(() => {
      ins.run({ word: 'a', n: 1 });
      ins.run({ word: 'b', n: null });
    });
    assert.throws(() => db.transaction(() => {
      ins.run({ word: 'c', n: 3 });
      throw new Error('abort');
    }), /abort/);
    db.prepare('INSERT INTO t (word, n) VALUES (?, ?)').run(['d', 4]);
    assert.deepEqual(db.prepare('SELECT id, word, n FROM t ORDER BY id').all().map((r) => ({ ...r })), [
      { id: 1, word: 'a', n: 1 },
      { id: 2, word: 'b', n: null },
      { id: 3, word: 'd', n: 4 },
    ]);
    assert.deepEqual({ ...db.prepare('SELECT word FROM t WHERE n = ?').get([4]) }, { word: 'd' });
    assert.equal(db.prepare('SELECT word FROM t WHERE n = ?').get([99]), undefined);
    db.close();
    assert.equal(db.open, false);
    db.close(); // twice is harmless
    const ro = openSqlite(file, { driver, readonly: true });
    assert.throws(() => ro.exec('DELETE FROM t'), /readonly|read-only|query_only/i);
    assert.equal((ro.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 3);
    ro.close();
    // Every other driver reads the same file alike.
    for (const other of drivers) {
      const o = openSqlite(file, { driver: other, readonly: true });
      assert.deepEqual(o.prepare('SELECT id, word, n FROM t ORDER BY id').all().map((r) => ({ ...r })).length, 3);
      o.close();
    }
  });
}

test('the default driver is node:sqlite where Node has it', { skip: drivers.length === 0 && 'no SQLite driver' }, () => {
  assert.equal(sqliteDriver(), drivers[0]);
  assert.equal(sqliteDriver() === 'node:sqlite', builtIn);
});

test('a driver asked for by name and absent is a one-line DialogymError', () => {
  const absent = (['node:sqlite', 'better-sqlite3'] as SqliteDriverName[]).find((d) => !drivers.includes(d));
  if (absent === undefined) return; // both present: nothing absent to ask for
  assert.throws(() => openSqlite(':memory:', { driver: absent }), (e: unknown) => e instanceof DialogymError && e.message === `the SQLite driver ${absent} is not available on Node ${process.versions.node}`);
});

test('without any driver: one line saying how to get one (upgrade Node, or npm install better-sqlite3@12)', () => {
  const msg = sqliteMissingMessage();
  assert.match(msg, new RegExp(`^SQLite needs Node\\.js 22\\.13 or later \\(node:sqlite is built in.*\\) or the optional better-sqlite3 package: this is Node ${process.versions.node.replace(/\./g, '\\.')}; upgrade Node \\(the current LTS\\) or run \`npm install better-sqlite3@12\`$`));
  // A node without node:sqlite (switched off where it is built in) and without better-sqlite3 on NODE_PATH.
  const env = { ...process.env };
  delete env.NODE_PATH;
  const flags = builtIn ? ['--no-experimental-sqlite'] : [];
  const script = `import(${JSON.stringify(self)}).then((m) => { try { m.openSqlite(':memory:'); console.log('opened'); } catch (e) { console.log(e.name + ': ' + e.message); } })`;
  const r = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', env, cwd: tmp });
  const local = spawnSync(process.execPath, ['-e', "require.resolve('better-sqlite3')"], { encoding: 'utf8', env, cwd: join(import.meta.dirname, '..', '..', '..') }).status === 0;
  if (local) return; // better-sqlite3 in the project's own node_modules (a developer's install): it would serve
  assert.equal(r.stdout, `DialogymError: ${msg}\n`);
});

test('opening node:sqlite prints no ExperimentalWarning (Node 22 announces it on stderr)', { skip: !builtIn && 'no node:sqlite on this Node' }, () => {
  const script = `import(${JSON.stringify(self)}).then((m) => { const db = m.openSqlite(':memory:'); db.close(); process.emitWarning('kept', 'ExperimentalWarning'); })`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // The SQLite warning is gone; any other warning still passes through.
  assert.doesNotMatch(r.stderr, /SQLite is an experimental feature/);
  assert.match(r.stderr, /ExperimentalWarning: kept/);
});
