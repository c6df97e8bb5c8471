import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DialogymError } from './errors.js';
import { openSqlite, sqliteDriver, sqliteDrivers, sqliteInstallAdvice, sqliteMissingMessage, type SqliteDriverName } from './sqlite.js';

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

test('without any driver: one line saying how to get one (upgrade Node, or the npm command that installs better-sqlite3 where this dialogym finds it)', () => {
  const checkout = join(import.meta.dirname, '..', '..', '..');
  const msg = sqliteMissingMessage({ packageRoot: checkout, cwd: tmp });
  assert.match(msg, new RegExp(`^SQLite needs Node\\.js 22\\.13 or later \\(node:sqlite is built in.*\\) or the optional better-sqlite3 package: this is Node ${process.versions.node.replace(/\./g, '\\.')}; upgrade Node \\(the current LTS\\) or run \`npm install --prefix \\S+ --no-save --save-dev better-sqlite3@12\`$`));
  // A node without node:sqlite (switched off where it is built in) and without better-sqlite3 on NODE_PATH.
  const env = { ...process.env };
  delete env.NODE_PATH;
  const flags = builtIn ? ['--no-experimental-sqlite'] : [];
  const script = `import(${JSON.stringify(self)}).then((m) => { try { m.openSqlite(':memory:'); console.log('opened'); } catch (e) { console.log(e.name + ': ' + e.message); } })`;
  const r = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', env, cwd: tmp });
  const local = spawnSync(process.execPath, ['-e', "require.resolve('better-sqlite3')"], { encoding: 'utf8', env, cwd: checkout }).status === 0;
  if (local) return; // better-sqlite3 in the project's own node_modules (a developer's install): it would serve
  assert.equal(r.stdout, `DialogymError: ${msg}\n`);
});

test('the install advice names the command for where dialogym is: a project that installed it, a global install, a checkout (whose peer dependency swallows a plain install)', () => {
  const at = (packageRoot: string, cwd: string): string => sqliteInstallAdvice({ packageRoot, cwd }).install;
  const project = join(tmp, 'advice', 'app');
  mkdirSync(join(project, 'node_modules', 'dialogym'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name":"app"}');
  const installed = join(project, 'node_modules', 'dialogym');
  assert.equal(at(installed, project), 'npm install better-sqlite3@12');
  assert.equal(at(installed, tmp), `npm install --prefix ${project} better-sqlite3@12`);
  assert.equal(sqliteInstallAdvice({ packageRoot: installed, cwd: tmp }).rebuild, `npm rebuild --prefix ${project} better-sqlite3`);
  const global = join(tmp, 'advice', 'lib', 'node_modules', 'dialogym');
  mkdirSync(global, { recursive: true });
  assert.equal(at(global, tmp), 'npm install --global better-sqlite3@12');
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
    for (const f of ['sqlite.js', 'errors.js', 'text.js', 'shell.js']) copyFileSync(join(core, f), join(pkg, 'dist', 'src', 'core', f));
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
