import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DialogymError } from './errors.js';
import { openSqlite, sqliteDriver, sqliteDrivers, sqliteInstallAdvice, sqliteMissingMessage, type SqliteDriverName } from './sqlite.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-sqlite-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const drivers = sqliteDrivers();
const order: SqliteDriverName[] = ['node:sqlite', 'better-sqlite3', 'node-sqlite3-wasm'];
const self = pathToFileURL(join(import.meta.dirname, 'sqlite.js')).href;
/** Does this node have node:sqlite (built in and not behind its flag)? */
const builtIn = spawnSync(process.execPath, ['-e', "require('node:sqlite')"], { encoding: 'utf8' }).status === 0;

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

for (const driver of drivers) {
  test(`[${driver}] parameters and values alike: named (@, :, $) from bare keys, positional, bigint in, numbers out, get of no row undefined, bad SQL throws at prepare`, () => {
    const db = openSqlite(':memory:', { driver });
    db.exec('CREATE TABLE v (k TEXT, n INTEGER, r REAL, b BLOB)');
    db.prepare('INSERT INTO v VALUES (@k, :n, $r, @b)').run({ k: 'x', n: 7, r: 0.5, b: new Uint8Array([1, 2]) });
    db.prepare('INSERT INTO v VALUES (?, ?, ?, ?)').run(['y', 2n ** 40n, -1.25, null]);
    db.prepare('INSERT INTO v (k, n) VALUES (?, ?)').run(['z', Number.MAX_SAFE_INTEGER]);
    const rows = db.prepare('SELECT k, n, r, b FROM v ORDER BY k').all().map((r) => ({ ...r, b: r['b'] === null ? null : [...(r['b'] as Uint8Array)] }));
    assert.deepEqual(rows, [
      { k: 'x', n: 7, r: 0.5, b: [1, 2] },
      { k: 'y', n: 2 ** 40, r: -1.25, b: null },
      { k: 'z', n: Number.MAX_SAFE_INTEGER, r: null, b: null },
    ]);
    assert.equal(typeof db.prepare('SELECT count(*) AS n FROM v').get()?.['n'], 'number');
    assert.equal(db.prepare('SELECT k FROM v WHERE k = @k').get({ k: 'none' }), undefined);
    assert.deepEqual(db.prepare('SELECT k FROM v WHERE n = @n AND k = @k').all({ k: 'x', n: 7 }).map((r) => r['k']), ['x']);
    assert.throws(() => db.prepare('SELEC nonsense'), /syntax error/);
    db.close();
  });
}

test('the default driver is node:sqlite where Node has it, else better-sqlite3, else node-sqlite3-wasm (always there: a dependency)', () => {
  assert.equal(sqliteDriver(), drivers[0]);
  assert.equal(sqliteDriver() === 'node:sqlite', builtIn);
  assert.ok(drivers.includes('node-sqlite3-wasm'));
  assert.deepEqual([...drivers].sort((a, b) => order.indexOf(a) - order.indexOf(b)), drivers);
});

test('[node-sqlite3-wasm] a statement whose prepared form fell out of the cache (256 SQL texts) is prepared again; close finalizes them all', () => {
  const db = openSqlite(':memory:', { driver: 'node-sqlite3-wasm' });
  db.exec('CREATE TABLE t (a INTEGER)');
  const first = db.prepare('INSERT INTO t (a) VALUES (?)');
  first.run([1]);
  for (let i = 0; i < 600; i++) assert.equal(db.prepare(`SELECT ${i} AS x`).get()?.['x'], i);
  first.run([2]);
  assert.deepEqual(db.prepare('SELECT a FROM t ORDER BY a').all().map((r) => r['a']), [1, 2]);
  db.close();
  assert.equal(db.open, false);
  assert.throws(() => first.run([3]));
});

test('[node-sqlite3-wasm] kill -9 inside a transaction: the lock folder it leaves is cleared at the next open, the transaction rolled back, the committed rows kept', () => {
  const dir = join(tmp, 'killed');
  mkdirSync(dir);
  const file = join(dir, 'k.sqlite');
  const script = `import(${JSON.stringify(self)}).then((m) => {
    const db = m.openSqlite(${JSON.stringify(file)}, { driver: 'node-sqlite3-wasm' });
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (a INTEGER)');
    db.transaction(() => db.prepare('INSERT INTO t (a) VALUES (?)').run([1]));
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO t (a) VALUES (?)').run([2]);
    process.kill(process.pid, 'SIGKILL');
  })`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.signal, 'SIGKILL', r.stderr);
  const left = readdirSync(dir).sort();
  assert.deepEqual(left.filter((f) => !f.startsWith('k.sqlite.wasm-')), ['k.sqlite', 'k.sqlite-journal', 'k.sqlite.lock']);
  assert.equal(left.filter((f) => f.startsWith('k.sqlite.wasm-')).length, 1); // the dead process's mark
  const db = openSqlite(file, { driver: 'node-sqlite3-wasm' });
  assert.deepEqual(db.prepare('SELECT a FROM t').all().map((row) => row['a']), [1]);
  db.transaction(() => db.prepare('INSERT INTO t (a) VALUES (?)').run([3]));
  assert.deepEqual(readdirSync(dir).sort(), ['k.sqlite', `k.sqlite.wasm-${process.pid}-0`]);
  db.close();
  assert.deepEqual(readdirSync(dir), ['k.sqlite']);
  // A dead process's mark with no lock left (killed between transactions) goes at the next open too.
  const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(join(dir, `k.sqlite.wasm-${dead}-0`), '');
  openSqlite(file, { driver: 'node-sqlite3-wasm', readonly: true }).close();
  assert.deepEqual(readdirSync(dir), ['k.sqlite']);
});

test('[node-sqlite3-wasm] a WAL-journal database (a study written by node:sqlite or better-sqlite3) opens read-write, back on the rollback journal, its rows kept; read-only is a one-line error', () => {
  const makers: Array<[string, (file: string) => void]> = [
    // Any driver can write WAL under an exclusive lock (node-sqlite3-wasm only so, having no shared memory).
    ['node-sqlite3-wasm', (file) => {
      const db = openSqlite(file, { driver: 'node-sqlite3-wasm' });
      db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)');
      db.close();
    }],
    ...drivers.filter((d) => d !== 'node-sqlite3-wasm').map((d): [string, (file: string) => void] => [d, (file) => {
      const db = openSqlite(file, { driver: d });
      db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)');
      db.close();
    }]),
  ];
  for (const [maker, make] of makers) {
    const file = join(tmp, `wal-${maker.replace(':', '-')}.sqlite`);
    make(file);
    assert.deepEqual([...readFileSync(file).subarray(18, 20)], [2, 2], maker);
    assert.throws(() => openSqlite(file, { driver: 'node-sqlite3-wasm', readonly: true }), (e: unknown) => e instanceof DialogymError && e.message.startsWith(`${file}: a WAL-journal database (written by node:sqlite or better-sqlite3), which node-sqlite3-wasm opens only read-write;`));
    const db = openSqlite(file, { driver: 'node-sqlite3-wasm' });
    db.exec('PRAGMA journal_mode = WAL'); // what the study store asks: stays on the rollback journal
    assert.equal(db.prepare('PRAGMA journal_mode').get()?.['journal_mode'], 'delete');
    assert.equal(existsSync(`${file}.lock`), false); // a get() that stopped on its row holds no lock
    db.transaction(() => db.prepare('INSERT INTO t VALUES (?)').run([2]));
    assert.deepEqual(db.prepare('SELECT a FROM t ORDER BY a').all().map((r) => r['a']), [1, 2], maker);
    db.close();
    for (const other of drivers) {
      const o = openSqlite(file, { driver: other, readonly: true });
      assert.equal(o.prepare('SELECT count(*) AS n FROM t').get()?.['n'], 2, `${maker} → ${other}`);
      o.close();
    }
  }
});

test('[node-sqlite3-wasm] a lock held by a live process is left alone: the other waits, then sees its commit', () => {
  const dir = join(tmp, 'live');
  mkdirSync(dir);
  const file = join(dir, 'l.sqlite');
  const setup = openSqlite(file, { driver: 'node-sqlite3-wasm' });
  setup.exec('CREATE TABLE t (a INTEGER)');
  setup.close();
  // The other process takes the write lock, says so, holds it 300 ms, commits.
  const script = `import(${JSON.stringify(self)}).then((m) => {
    const db = m.openSqlite(${JSON.stringify(file)}, { driver: 'node-sqlite3-wasm' });
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO t (a) VALUES (?)').run([1]);
    console.log('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, 300);
  })`;
  const out = execFileSync(process.execPath, ['-e', `
    const { spawn } = require('node:child_process');
    const c = spawn(process.execPath, ['-e', ${JSON.stringify(script)}], { stdio: ['ignore', 'pipe', 'inherit'] });
    c.stdout.once('data', () => import(${JSON.stringify(self)}).then((m) => {
      const lockSeen = require('node:fs').existsSync(${JSON.stringify(file + '.lock')});
      const db = m.openSqlite(${JSON.stringify(file)}, { driver: 'node-sqlite3-wasm' });
      const n = db.prepare('SELECT count(*) AS n FROM t').get().n;
      db.close();
      console.log(JSON.stringify({ lockSeen, n }));
    }));
  `], { encoding: 'utf8', timeout: 60_000 });
  assert.deepEqual(JSON.parse(out), { lockSeen: true, n: 1 });
  assert.deepEqual(readdirSync(dir), ['l.sqlite']);
});

test('a driver asked for by name and absent is a one-line DialogymError', () => {
  const absent = order.find((d) => !drivers.includes(d));
  if (absent === undefined) return; // both present: nothing absent to ask for
  assert.throws(() => openSqlite(':memory:', { driver: absent }), (e: unknown) => e instanceof DialogymError && e.message === `the SQLite driver ${absent} is not available on Node ${process.versions.node}`);
});

test('without any driver (node-sqlite3-wasm gone, no node:sqlite): one line whose command puts it back', () => {
  const checkout = join(import.meta.dirname, '..', '..', '..');
  const msg = sqliteMissingMessage({ packageRoot: checkout, cwd: tmp });
  assert.match(msg, new RegExp(`^SQLite: dialogym's dependency node-sqlite3-wasm is missing and this Node ${process.versions.node.replace(/\./g, '\\.')} has no node:sqlite; reinstall the dependencies \\(\`npm install --prefix \\S+\`\\) or use Node\\.js 22\\.13 or later \\(node:sqlite is built in.*\\)$`));
  // A copy of dialogym without node_modules, on a node without node:sqlite (switched off where it is built in) and NODE_PATH unset.
  const pkg = join(tmp, 'bare');
  mkdirSync(join(pkg, 'dist', 'src', 'core'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{"name":"dialogym","type":"module"}');
  for (const f of ['sqlite.js', 'errors.js', 'exit.js', 'pids.js', 'text.js', 'shell.js']) copyFileSync(join(import.meta.dirname, f), join(pkg, 'dist', 'src', 'core', f));
  const env = { ...process.env };
  delete env.NODE_PATH;
  const flags = builtIn ? ['--no-experimental-sqlite'] : [];
  const module = pathToFileURL(join(pkg, 'dist', 'src', 'core', 'sqlite.js')).href;
  const script = `import(${JSON.stringify(module)}).then((m) => { try { console.log('opened', m.openSqlite(':memory:').driver); } catch (e) { console.log(e.name + ': ' + e.message); } })`;
  const before = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', env, cwd: pkg });
  assert.equal(before.stdout, `DialogymError: ${sqliteMissingMessage({ packageRoot: pkg, cwd: pkg })}\n`, before.stderr);
  assert.match(before.stdout, /\(`npm install`\)/);
  // What `npm install` there restores (copied here: no network): the WASM driver serves.
  cpSync(join(checkout, 'node_modules', 'node-sqlite3-wasm'), join(pkg, 'node_modules', 'node-sqlite3-wasm'), { recursive: true });
  const after = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', env, cwd: pkg });
  assert.equal(after.stdout, 'opened node-sqlite3-wasm\n', after.stderr);
});

test('the install advice names the command for where dialogym is: a project that installed it, a global install, a checkout (whose peer dependency swallows a plain install)', () => {
  const at = (packageRoot: string, cwd: string): string => sqliteInstallAdvice({ packageRoot, cwd }).install;
  const project = join(tmp, 'advice', 'app');
  mkdirSync(join(project, 'node_modules', 'dialogym'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name":"app"}');
  const installed = join(project, 'node_modules', 'dialogym');
  assert.equal(at(installed, project), 'npm install better-sqlite3@12');
  assert.equal(sqliteInstallAdvice({ packageRoot: installed, cwd: project }).reinstall, 'npm install');
  assert.equal(sqliteInstallAdvice({ packageRoot: installed, cwd: tmp }).reinstall, `npm install --prefix ${project}`);
  assert.equal(at(installed, tmp), `npm install --prefix ${project} better-sqlite3@12`);
  assert.equal(sqliteInstallAdvice({ packageRoot: installed, cwd: tmp }).rebuild, `npm rebuild --prefix ${project} better-sqlite3`);
  const global = join(tmp, 'advice', 'lib', 'node_modules', 'dialogym');
  mkdirSync(global, { recursive: true });
  assert.equal(at(global, tmp), 'npm install --global better-sqlite3@12');
  assert.equal(sqliteInstallAdvice({ packageRoot: global, cwd: tmp }).reinstall, 'npm install --global dialogym');
  const checkout = join(tmp, 'advice', 'my checkout');
  assert.equal(at(checkout, checkout), 'npm install --no-save --save-dev better-sqlite3@12');
  assert.equal(at(checkout, tmp), `npm install --prefix '${checkout}' --no-save --save-dev better-sqlite3@12`);
});

test('better-sqlite3 installed where the advice puts it is the driver found (a project that installed dialogym, a checkout), NODE_PATH unset', () => {
  const core = join(import.meta.dirname);
  const fake = 'module.exports = class { constructor(file) { this.open = true; this.file = file; } exec() {} prepare() { return { run() {}, all() { return [{ fake: 1 }]; }, get() { return { fake: 1 }; } }; } close() { this.open = false; } };\n';
  const env = { ...process.env };
  delete env.NODE_PATH;
  for (const layout of ['project', 'checkout'] as const) {
    const base = join(tmp, 'resolve', layout);
    const project = base;
    const pkg = layout === 'project' ? join(base, 'node_modules', 'dialogym') : base;
    mkdirSync(join(pkg, 'dist', 'src', 'core'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"dialogym","type":"module"}');
    if (layout === 'project') writeFileSync(join(project, 'package.json'), '{"name":"app"}');
    for (const f of ['sqlite.js', 'errors.js', 'exit.js', 'pids.js', 'text.js', 'shell.js']) copyFileSync(join(core, f), join(pkg, 'dist', 'src', 'core', f));
    const module = pathToFileURL(join(pkg, 'dist', 'src', 'core', 'sqlite.js')).href;
    const script = `import(${JSON.stringify(module)}).then((m) => { try { const db = m.openSqlite(':memory:', { driver: 'better-sqlite3' }); console.log(db.driver, JSON.stringify(db.prepare('SELECT 1').get())); } catch (e) { console.log(e.message); } console.log(m.sqliteInstallAdvice().install); })`;
    // Before: not found, and the advice is the command for this layout, typed in the project's folder.
    const before = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env, cwd: project });
    const command = layout === 'project' ? 'npm install better-sqlite3@12' : 'npm install --no-save --save-dev better-sqlite3@12';
    assert.equal(before.stdout, `the SQLite driver better-sqlite3 is not available on Node ${process.versions.node}\n${command}\n`, before.stderr);
    // What that command installs: <project>/node_modules/better-sqlite3 (a stand-in here: no network, no compiler).
    mkdirSync(join(project, 'node_modules', 'better-sqlite3'), { recursive: true });
    writeFileSync(join(project, 'node_modules', 'better-sqlite3', 'index.js'), fake);
    writeFileSync(join(project, 'node_modules', 'better-sqlite3', 'package.json'), '{"name":"better-sqlite3","main":"index.js"}');
    const after = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env, cwd: project });
    assert.equal(after.stdout, `better-sqlite3 {"fake":1}\n${command}\n`, after.stderr);
  }
});

test('opening node:sqlite prints no ExperimentalWarning (Node 22 announces it on stderr)', { skip: !builtIn && 'no node:sqlite on this Node' }, () => {
  const script = `import(${JSON.stringify(self)}).then((m) => { const db = m.openSqlite(':memory:'); db.close(); process.emitWarning('kept', 'ExperimentalWarning'); })`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // The SQLite warning is gone; any other warning still passes through.
  assert.doesNotMatch(r.stderr, /SQLite is an experimental feature/);
  assert.match(r.stderr, /ExperimentalWarning: kept/);
});
