/**
 * The one door to SQLite: a small synchronous database handle over whichever driver this Node has,
 * so that installing dialogym never compiles C.
 *
 * - `node:sqlite`, built into Node.js: unflagged from 22.13 (and 23.4); on 22.5–22.12 only when node
 *   runs with `--experimental-sqlite`. Node 22 prints an ExperimentalWarning when the module loads;
 *   that one warning is kept off the user's terminal (every other warning passes). Node 24 loads it
 *   silently; Node 26 renames `DatabaseSync` to `Database` (the old name stays as an alias).
 * - `better-sqlite3@12`, an optional peer dependency (a native addon: npm never installs it for
 *   dialogym), used when `node:sqlite` is missing and the user installed it (13 needs Node 22). The
 *   command that installs it where dialogym finds it depends on where dialogym is
 *   (`sqliteInstallAdvice`).
 * - `node-sqlite3-wasm`, a dependency (SQLite compiled to WebAssembly, 1.3 MB, no install script):
 *   what Node 20 uses out of the box. Its file system layer writes the real file with `fs` and
 *   fsyncs on commit; it has no shared memory, so `PRAGMA journal_mode = WAL` leaves the rollback
 *   journal (`<file>-journal`), which is as durable with `synchronous = FULL`. It locks a file with a
 *   folder `<file>.lock` made for the length of each transaction (readers too): processes using one
 *   database take turns, waiting up to the busy timeout. A process killed while it held that lock
 *   leaves the folder behind; opening the file read-write clears it when no live process has the
 *   file open with this driver (each such process keeps a `<file>.wasm-<pid>` mark beside it), and
 *   SQLite then rolls the interrupted transaction back from its journal.
 *
 * Neither driver is loaded until a database is opened: commands that never touch SQLite never pay
 * for it. Without a driver, `openSqlite` throws a one-line DialogymError saying how to get one.
 * The drivers read and write the same files, and rows come back alike (objects keyed by column,
 * integers as numbers, `get` of no row undefined, named parameters bound from keys without their
 * `@`, a busy timeout of 5 s: keep integers outside ±2^53 out of a SELECT's columns, the drivers
 * differ there — node:sqlite throws, better-sqlite3 rounds, node-sqlite3-wasm gives a bigint). Two
 * processes should use one driver on one file at a time: node-sqlite3-wasm's lock folder and the
 * others' POSIX locks do not see each other.
 */
import { closeSync, existsSync, openSync, readFileSync, readdirSync, readSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { DialogymError } from './errors.js';
import { beforeProcessExit } from './exit.js';
import { pidAlive } from './pids.js';
import { shellWord } from './shell.js';

/** A value bound to a statement parameter or read from a column. */
export type SqlValue = number | string | null | bigint | Uint8Array;
/** Parameters of a statement: named (`@name` in the SQL, keys without the `@`) or positional (`?`). */
export type SqlParams = Readonly<Record<string, SqlValue>> | readonly SqlValue[];
/** One row: column name → value. */
export type SqlRow = Record<string, unknown>;

/**
 * A prepared statement of an `SqliteDb`.
 *
 * @example
 * ```ts
 * import { openSqlite } from 'dialogym';
 * const db = openSqlite(':memory:');
 * db.exec('CREATE TABLE t (a INTEGER)');
 * const ins = db.prepare('INSERT INTO t (a) VALUES (@a)');
 * for (const a of [1, 2]) ins.run({ a });
 * db.prepare('SELECT a FROM t ORDER BY a').all(); // [{ a: 1 }, { a: 2 }]
 * ```
 */
export interface SqliteStatement {
  /** Runs the statement (an INSERT, UPDATE, …). */
  run(params?: SqlParams): void;
  /** Every row of the result. */
  all(params?: SqlParams): SqlRow[];
  /** The first row, or undefined. */
  get(params?: SqlParams): SqlRow | undefined;
}

/**
 * An open SQLite database (see `openSqlite`), whichever driver serves it.
 *
 * @example
 * ```ts
 * import { openSqlite } from 'dialogym';
 * const db = openSqlite('kb.sqlite', { readonly: true });
 * console.log(db.driver, db.prepare('SELECT count(*) AS n FROM restaurants').get()?.n);
 * db.close();
 * ```
 */
export interface SqliteDb {
  /** The driver behind this handle. */
  readonly driver: SqliteDriverName;
  /** False once closed. */
  readonly open: boolean;
  /** Runs SQL text (several statements allowed), no parameters, no result. */
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  /** Runs `fn` inside BEGIN IMMEDIATE … COMMIT (the write lock taken at the start, so two processes writing one database wait for each other, up to its busy_timeout, instead of failing with SQLITE_BUSY when a reader upgrades); rolls back and rethrows when it throws. */
  transaction(fn: () => void): void;
  close(): void;
}

/**
 * The SQLite drivers dialogym can use: Node's built-in `node:sqlite`, the optional
 * `better-sqlite3` package, or the `node-sqlite3-wasm` dependency (SQLite in WebAssembly).
 *
 * @example
 * ```ts
 * import { openSqlite, type SqliteDriverName } from 'dialogym';
 * const driver: SqliteDriverName = 'node:sqlite';
 * openSqlite(':memory:', { driver }).close();
 * ```
 */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3' | 'node-sqlite3-wasm';

/**
 * Options of `openSqlite`.
 *
 * @example
 * ```ts
 * import type { SqliteOpenOptions } from 'dialogym';
 * const opts: SqliteOpenOptions = { readonly: true };
 * ```
 */
export interface SqliteOpenOptions {
  /** Open read-only (the file must exist); default false: read-write, created when missing. */
  readonly readonly?: boolean;
  /** Use this driver only (tests); default: node:sqlite when present, else better-sqlite3 when installed, else node-sqlite3-wasm. */
  readonly driver?: SqliteDriverName;
}

// Structural types of the two drivers, as far as they are used here (neither ships types we can rely on: @types/node 20 predates node:sqlite).
interface NodeStatement {
  run(...p: unknown[]): unknown;
  all(...p: unknown[]): SqlRow[];
  get(...p: unknown[]): SqlRow | undefined;
}
interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  close(): void;
}
interface NodeSqlite {
  Database?: new (file: string, opts?: { readOnly?: boolean }) => NodeDatabase;
  DatabaseSync: new (file: string, opts?: { readOnly?: boolean }) => NodeDatabase;
}
interface BetterDatabase extends NodeDatabase {
  readonly open: boolean;
}
type BetterSqlite3 = new (file: string, opts?: { readonly?: boolean; fileMustExist?: boolean }) => BetterDatabase;
interface WasmStatement extends NodeStatement {
  readonly isFinalized: boolean;
  finalize(): void;
}
interface WasmDatabase {
  readonly isOpen: boolean;
  readonly inTransaction: boolean;
  exec(sql: string): void;
  prepare(sql: string): WasmStatement;
  close(): void;
}
interface WasmSqlite {
  Database: new (file: string, opts?: { readOnly?: boolean; fileMustExist?: boolean }) => WasmDatabase;
}

const require = createRequire(import.meta.url);

/** Loads `id` with require(); undefined when it is not there (a missing package, or node:sqlite behind its flag or absent). */
function tryRequire(id: string, quietWarning?: RegExp): unknown {
  const emit = process.emitWarning;
  if (quietWarning) {
    // Node 22 announces node:sqlite with an ExperimentalWarning on stderr at its first load: keep
    // that one line off the user's terminal, let every other warning through.
    process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]): void {
      const text = typeof warning === 'string' ? warning : warning.message;
      const opt = rest[0];
      const type = typeof opt === 'string' ? opt : typeof opt === 'object' && opt !== null ? (opt as { type?: string }).type : typeof warning === 'string' ? undefined : warning.name;
      if (type === 'ExperimentalWarning' && quietWarning.test(text)) return;
      (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
    } as typeof process.emitWarning;
  }
  try {
    return require(id) as unknown;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_UNKNOWN_BUILTIN_MODULE') return undefined;
    throw e; // present but broken (a better-sqlite3 built for another Node): say so, do not pretend it is absent
  } finally {
    process.emitWarning = emit;
  }
}

let nodeSqlite: NodeSqlite | null | undefined;
let betterSqlite: BetterSqlite3 | null | undefined;
let wasmSqlite: WasmSqlite | null | undefined;

function loadNodeSqlite(): NodeSqlite | undefined {
  if (nodeSqlite === undefined) nodeSqlite = (tryRequire('node:sqlite', /SQLite/) as NodeSqlite | undefined) ?? null;
  return nodeSqlite ?? undefined;
}

function loadBetterSqlite(): BetterSqlite3 | undefined {
  if (betterSqlite === undefined) {
    try {
      const Better = tryRequire('better-sqlite3') as BetterSqlite3 | undefined;
      // Its native addon loads with the first database: one in memory tells whether it was built for this Node.
      if (Better) new Better(':memory:').close();
      betterSqlite = Better ?? null;
    } catch (e) {
      throw new DialogymError(`better-sqlite3 is installed but does not load on Node ${process.versions.node} (${oneLine(e)}); rebuild it (\`${sqliteInstallAdvice().rebuild}\`) or use ${nodeSqliteHint()}`, { cause: e });
    }
  }
  return betterSqlite ?? undefined;
}

function loadWasmSqlite(): WasmSqlite | undefined {
  if (wasmSqlite === undefined) {
    try {
      const Wasm = tryRequire('node-sqlite3-wasm') as WasmSqlite | undefined;
      if (Wasm) {
        beforeProcessExit(settleV8);
        new Wasm.Database(':memory:').close();
      }
      wasmSqlite = Wasm ?? null;
    } catch (e) {
      throw new DialogymError(`node-sqlite3-wasm is installed but does not load on Node ${process.versions.node} (${oneLine(e)}); reinstall it (\`${sqliteInstallAdvice().reinstall}\`) or use ${nodeSqliteHint()}`, { cause: e });
    }
  }
  return wasmSqlite ?? undefined;
}

/**
 * Run at `processDone` (./exit.ts) once node-sqlite3-wasm is loaded: keeps Node from hanging at exit. Node's exit waits for the
 * optimizing compiler's background jobs (NodePlatform::DrainTasks, or joining the platform's
 * threads on `process.exit`); a job that needs a garbage collection to allocate asks the main
 * thread for one and waits, and the main thread, already waiting, never runs it — a deadlock
 * (nodejs/node#54918, fixed in Node by nodejs/node#61963; seen with this driver on Node 20 in about
 * one `dialogym kb query` in seven, never with the native drivers, whose processes stay below V8's
 * first heap limit). Here no new optimizing job starts (`--max-opt=1`, read at each tier-up) and a
 * full collection on the main thread serves any job waiting for one and leaves the heap room for
 * the jobs still running (a collection of the heap of a short command: a few milliseconds).
 */
function settleV8(): void {
  const v8 = require('node:v8') as typeof import('node:v8');
  v8.setFlagsFromString('--max-opt=1');
  v8.setFlagsFromString('--expose-gc');
  const gc = (require('node:vm') as typeof import('node:vm')).runInNewContext('gc') as () => void;
  gc();
}

/** An error's message on one short line. */
function oneLine(e: unknown): string {
  const m = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim();
  return m.length > 160 ? `${m.slice(0, 157)}...` : m;
}

/** Where node:sqlite is: Node 22.13 or later, or (on 22.5–22.12) node run with its flag. */
function nodeSqliteHint(): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const flag = major === 22 && minor >= 5 && minor < 13 ? ', or run node with --experimental-sqlite' : '';
  return `Node.js 22.13 or later (node:sqlite is built in${flag})`;
}

/**
 * Where dialogym is, for `sqliteInstallAdvice`: its package folder and the folder commands run in.
 *
 * @example
 * ```ts
 * import { sqliteInstallAdvice, type SqliteInstallPlace } from 'dialogym';
 * const place: SqliteInstallPlace = { packageRoot: '/app/node_modules/dialogym', cwd: '/app/src' };
 * sqliteInstallAdvice(place).install; // 'npm install --prefix /app better-sqlite3@12' where /app/package.json exists
 * ```
 */
export interface SqliteInstallPlace {
  /** The folder of dialogym's package.json (a checkout, or `<project>/node_modules/dialogym`). */
  readonly packageRoot: string;
  /** The current folder, where the user types the command. */
  readonly cwd: string;
}

/** The folder of this module's package (dialogym's package.json), found upward from this file. */
function ownPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'dialogym') return dir;
      } catch {
        // not a package.json to read: keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) return dirname(fileURLToPath(import.meta.url));
    dir = up;
  }
}

/**
 * The npm commands that install (and rebuild) better-sqlite3 where dialogym resolves it from, and
 * the one that reinstalls dialogym's own dependencies (node-sqlite3-wasm among them): in a
 * project that installed dialogym (`<project>/node_modules/dialogym`), a dependency of that project;
 * in a global install, a global package; in a checkout of dialogym, a package of the checkout's
 * node_modules that changes neither package.json nor the lock file (plain `npm install
 * better-sqlite3@12` there only rewrites the optional peer dependency). `--prefix` names the folder
 * when the command is typed elsewhere.
 *
 * @example
 * ```ts
 * import { sqliteInstallAdvice } from 'dialogym';
 * sqliteInstallAdvice({ packageRoot: '/app/node_modules/dialogym', cwd: '/app' }).install; // 'npm install better-sqlite3@12' where /app/package.json exists
 * ```
 */
export function sqliteInstallAdvice(place: SqliteInstallPlace = { packageRoot: ownPackageRoot(), cwd: process.cwd() }): { readonly install: string; readonly rebuild: string; readonly reinstall: string } {
  const root = resolve(place.packageRoot);
  const modules = dirname(root);
  const at = (dir: string): string => (resolve(place.cwd) === dir ? '' : ` --prefix ${shellWord(dir)}`);
  if (basename(modules) === 'node_modules') {
    const project = dirname(modules);
    if (!existsSync(join(project, 'package.json'))) return { install: 'npm install --global better-sqlite3@12', rebuild: 'npm rebuild --global better-sqlite3', reinstall: 'npm install --global dialogym' };
    return { install: `npm install${at(project)} better-sqlite3@12`, rebuild: `npm rebuild${at(project)} better-sqlite3`, reinstall: `npm install${at(project)}` };
  }
  return { install: `npm install${at(root)} --no-save --save-dev better-sqlite3@12`, rebuild: `npm rebuild${at(root)} better-sqlite3`, reinstall: `npm install${at(root)}` };
}

/**
 * The one line that says how to get SQLite back when no driver loads — only when dialogym's
 * dependency node-sqlite3-wasm is missing on a Node without node:sqlite: reinstall dialogym's
 * dependencies with the command for where this dialogym is (`sqliteInstallAdvice`; `place` says
 * where, default this one), or upgrade Node.
 *
 * @example
 * ```ts
 * import { sqliteMissingMessage } from 'dialogym';
 * console.error(sqliteMissingMessage()); // SQLite: dialogym's dependency node-sqlite3-wasm is missing …
 * ```
 */
export function sqliteMissingMessage(place?: SqliteInstallPlace): string {
  return `SQLite: dialogym's dependency node-sqlite3-wasm is missing and this Node ${process.versions.node} has no node:sqlite; reinstall the dependencies (\`${sqliteInstallAdvice(place).reinstall}\`) or use ${nodeSqliteHint()}`;
}

/**
 * The driver `openSqlite` would use here (node:sqlite first), or undefined when there is none.
 * Loads it (once) to find out.
 *
 * @example
 * ```ts
 * import { sqliteDriver } from 'dialogym';
 * sqliteDriver(); // 'node:sqlite' on Node ≥ 22.13; on Node 20 'better-sqlite3' when installed, else 'node-sqlite3-wasm'
 * ```
 */
export function sqliteDriver(): SqliteDriverName | undefined {
  if (loadNodeSqlite()) return 'node:sqlite';
  if (loadBetterSqlite()) return 'better-sqlite3';
  if (loadWasmSqlite()) return 'node-sqlite3-wasm';
  return undefined;
}

/**
 * The drivers that load on this Node, in the order `openSqlite` prefers them (for tests that run
 * against each); a better-sqlite3 built for another Node is left out.
 *
 * @example
 * ```ts
 * import { sqliteDrivers } from 'dialogym';
 * for (const driver of sqliteDrivers()) console.log(driver);
 * ```
 */
export function sqliteDrivers(): SqliteDriverName[] {
  const out: SqliteDriverName[] = [];
  if (loadNodeSqlite()) out.push('node:sqlite');
  try {
    if (loadBetterSqlite()) out.push('better-sqlite3');
  } catch {
    // installed but built for another Node: not a driver here
  }
  try {
    if (loadWasmSqlite()) out.push('node-sqlite3-wasm');
  } catch {
    // installed but broken: not a driver here
  }
  return out;
}

/** Binds `params` the way node:sqlite and better-sqlite3 take them: an object of named values, or positional values. */
function args(params: SqlParams | undefined): unknown[] {
  if (params === undefined) return [];
  return Array.isArray(params) ? [...(params as SqlValue[])] : [params];
}

/** Runs `fn` inside BEGIN IMMEDIATE … COMMIT on `db`; ROLLBACK and rethrow when it throws. */
function inTransaction(db: { exec(sql: string): void }, fn: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    fn();
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
  db.exec('COMMIT');
}

class Handle implements SqliteDb {
  private closed = false;
  constructor(
    readonly driver: SqliteDriverName,
    private readonly db: NodeDatabase,
  ) {}

  get open(): boolean {
    return !this.closed;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): SqliteStatement {
    const s = this.db.prepare(sql);
    return {
      run: (p) => void s.run(...args(p)),
      all: (p) => s.all(...args(p)),
      get: (p) => s.get(...args(p)) ?? undefined,
    };
  }

  transaction(fn: () => void): void {
    inTransaction(this.db, fn);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

/** Prepared statements a node-sqlite3-wasm handle keeps (the least recently used is finalized past this). */
const WASM_STATEMENTS = 256;

/**
 * A node-sqlite3-wasm database. Its statements live in WebAssembly memory until finalized, so
 * `prepare` hands out a statement that looks its SQL up in a cache of the last `WASM_STATEMENTS`
 * texts (prepared again when it fell out): callers that prepare the same SQL per call, as the
 * study store does, use one statement, and `close` finalizes them all. Named parameters are bound
 * by the prefix the SQL gives them (`@name`, `:name` or `$name`); the caller's keys go without it.
 */
class WasmHandle implements SqliteDb {
  readonly driver = 'node-sqlite3-wasm';
  private readonly statements = new Map<string, { stmt: WasmStatement; names: Map<string, string> }>();
  constructor(
    private readonly db: WasmDatabase,
    private readonly onClose: () => void,
  ) {}

  get open(): boolean {
    return this.db.isOpen;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  private statement(sql: string): { stmt: WasmStatement; names: Map<string, string> } {
    let s = this.statements.get(sql);
    if (s) {
      this.statements.delete(sql); // most recently used last
    } else {
      const names = new Map<string, string>();
      for (const m of sql.matchAll(/[@:$]([A-Za-z_][A-Za-z0-9_]*)/g)) if (!names.has(m[1]!)) names.set(m[1]!, m[0]);
      s = { stmt: this.db.prepare(sql), names };
      if (this.statements.size >= WASM_STATEMENTS) {
        const [oldest, entry] = this.statements.entries().next().value!;
        this.statements.delete(oldest);
        entry.stmt.finalize();
      }
    }
    this.statements.set(sql, s);
    return s;
  }

  prepare(sql: string): SqliteStatement {
    this.statement(sql); // SQL errors show here, as with the other drivers
    const bound = (p: SqlParams | undefined): { stmt: WasmStatement; values: unknown[] } => {
      const { stmt, names } = this.statement(sql);
      if (p === undefined) return { stmt, values: [] };
      if (Array.isArray(p)) return { stmt, values: [p] };
      return { stmt, values: [Object.fromEntries(Object.entries(p).map(([k, v]) => [names.get(k) ?? `@${k}`, v]))] };
    };
    return {
      run: (p) => {
        const { stmt, values } = bound(p);
        stmt.run(...values);
      },
      all: (p) => {
        const { stmt, values } = bound(p);
        return stmt.all(...values);
      },
      get: (p) => {
        const { stmt, values } = bound(p);
        const row = stmt.get(...values);
        if (row === null) return undefined; // stepped to its end: done, holds nothing
        // Stopped on its first row, the statement stays active (a read lock, "SQL statements in
        // progress" at COMMIT) until reset, which node-sqlite3-wasm does only at its next binding:
        // finalize it now (prepared again at its next use).
        this.forget(sql);
        return row;
      },
    };
  }

  /** Finalizes the prepared form of `sql`, if cached. */
  private forget(sql: string): void {
    const s = this.statements.get(sql);
    if (!s) return;
    this.statements.delete(sql);
    s.stmt.finalize();
  }

  transaction(fn: () => void): void {
    inTransaction(this.db, fn);
  }

  close(): void {
    if (!this.db.isOpen) return;
    for (const { stmt } of this.statements.values()) stmt.finalize();
    this.statements.clear();
    this.db.close();
    this.onClose();
  }
}

/** Is `file` a database in WAL journal mode (its header's read and write versions are 2)? */
function walFile(file: string): boolean {
  const head = Buffer.alloc(20);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    return readSync(fd, head, 0, 20, 0) === 20 && head.toString('latin1', 0, 16) === 'SQLite format 3\0' && head[18] === 2 && head[19] === 2;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Files this thread has open with node-sqlite3-wasm (absolute path → handles), for their marks. */
const wasmOpen = new Map<string, number>();

/** The mark of this thread beside `file`: `<file>.wasm-<pid>-<thread>`, present while it has `file` open. */
function wasmMark(file: string): string {
  return `${file}.wasm-${process.pid}-${threadId}`;
}

/** Runs a file-system step whose failure (a read-only folder, a race) changes nothing for the caller. */
function ignoreFsError(step: () => void): void {
  try {
    step();
  } catch {
    // see the caller
  }
}

/**
 * Before this thread opens `file` with node-sqlite3-wasm: the marks of dead processes are removed,
 * and a lock folder `<file>.lock` left by a process that died holding it (no live process has a
 * mark beside the file) too, so the
 * database opens and SQLite rolls back the unfinished transaction from its journal; then this
 * thread marks the file as open (where it can write beside it: a read-only folder holds no mark and
 * no writer). Returns what to do when the handle closes.
 */
function wasmOpening(file: string): () => void {
  const full = resolve(file);
  const count = wasmOpen.get(full) ?? 0;
  if (count === 0) {
    const dir = dirname(full);
    const prefix = `${basename(full)}.wasm-`;
    let live = false;
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // no such folder: SQLite says it cannot open the file
    }
    for (const name of names) {
      if (!name.startsWith(prefix)) continue;
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) live = true;
      else ignoreFsError(() => rmSync(join(dir, name), { force: true })); // a killed process's mark
    }
    // gone already, or not ours to remove: then SQLite says "database is locked" after its busy timeout
    if (!live && existsSync(`${full}.lock`)) ignoreFsError(() => rmdirSync(`${full}.lock`));
    ignoreFsError(() => writeFileSync(wasmMark(full), '')); // a folder we cannot write: read-only use, nothing to mark
  }
  wasmOpen.set(full, count + 1);
  return () => {
    const left = (wasmOpen.get(full) ?? 1) - 1;
    if (left > 0) wasmOpen.set(full, left);
    else {
      wasmOpen.delete(full);
      ignoreFsError(() => rmSync(wasmMark(full), { force: true }));
    }
  };
}

// A thread that ends with databases open (process.exit, an uncaught error) takes its marks away.
process.on('exit', () => {
  for (const full of wasmOpen.keys()) ignoreFsError(() => rmSync(wasmMark(full), { force: true }));
});

/**
 * Opens (or creates) a SQLite database file with node:sqlite when this Node has it, else with
 * better-sqlite3 when installed, else with node-sqlite3-wasm; `:memory:` for a database in memory. Without a driver, throws a
 * one-line DialogymError (`sqliteMissingMessage`). SQLite's own errors (not a database, cannot
 * open) pass through as the driver throws them.
 *
 * @example
 * ```ts
 * import { openSqlite } from 'dialogym';
 * const db = openSqlite('out/notes.sqlite');
 * db.exec('CREATE TABLE IF NOT EXISTS notes (text TEXT NOT NULL)');
 * db.transaction(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run(['hello']));
 * db.close();
 * ```
 */
export function openSqlite(file: string, opts: SqliteOpenOptions = {}): SqliteDb {
  const want = opts.driver;
  const node = want === undefined || want === 'node:sqlite' ? loadNodeSqlite() : undefined;
  let db: SqliteDb | undefined;
  if (node) {
    const Database = node.Database ?? node.DatabaseSync;
    db = new Handle('node:sqlite', new Database(file, opts.readonly ? { readOnly: true } : {}));
  }
  const Better = !db && (want === undefined || want === 'better-sqlite3') ? loadBetterSqlite() : undefined;
  if (Better) db = new Handle('better-sqlite3', new Better(file, opts.readonly ? { readonly: true, fileMustExist: true } : {}));
  const Wasm = !db && (want === undefined || want === 'node-sqlite3-wasm') ? loadWasmSqlite() : undefined;
  if (Wasm) {
    const memory = file === ':memory:' || file === '';
    if (opts.readonly && !memory && !existsSync(file)) throw new DialogymError(`${file}: unable to open database file (no such file)`);
    const closed = memory ? () => {} : wasmOpening(file);
    try {
      db = new WasmHandle(new Wasm.Database(file, opts.readonly ? { readOnly: true } : {}), closed);
      if (!memory && walFile(file)) {
        if (opts.readonly) throw new DialogymError(`${file}: a WAL-journal database (written by node:sqlite or better-sqlite3), which node-sqlite3-wasm opens only read-write; open it without readonly once, or use ${nodeSqliteHint()}`);
        // No shared memory here: WAL only under an exclusive lock, just long enough to go back to the rollback journal.
        db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = DELETE; PRAGMA locking_mode = NORMAL; SELECT count(*) FROM sqlite_master');
      }
    } catch (e) {
      if (db) db.close();
      else closed();
      throw e;
    }
  }
  if (!db) throw new DialogymError(want === undefined ? sqliteMissingMessage() : `the SQLite driver ${want} is not available on Node ${process.versions.node}`);
  try {
    // node:sqlite before 22.12 ignores readOnly: query_only refuses writes on every version.
    if (opts.readonly) db.exec('PRAGMA query_only = ON');
    // Wait for another process's lock up to 5 s, as better-sqlite3 does by default (node:sqlite and node-sqlite3-wasm wait 0).
    db.exec('PRAGMA busy_timeout = 5000');
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}
