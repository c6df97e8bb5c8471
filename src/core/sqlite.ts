/**
 * The one door to SQLite: a small synchronous database handle over whichever driver this Node has,
 * so that installing dialogym never compiles C.
 *
 * - `node:sqlite`, built into Node.js: unflagged from 22.13 (and 23.4); on 22.5–22.12 only when node
 *   runs with `--experimental-sqlite`. Node 22 prints an ExperimentalWarning when the module loads;
 *   that one warning is kept off the user's terminal (every other warning passes). Node 24 loads it
 *   silently; Node 26 renames `DatabaseSync` to `Database` (the old name stays as an alias).
 * - `better-sqlite3@12`, an optional peer dependency (a native addon: npm never installs it for
 *   dialogym), used when `node:sqlite` is missing — Node 20, or 22.5–22.12 without the flag — and
 *   the user installed it (13 needs Node 22). The command that installs it where dialogym finds it
 *   depends on where dialogym is (`sqliteInstallAdvice`): in a project that depends on dialogym,
 *   `npm install better-sqlite3@12` there; in a checkout of dialogym itself, where that command
 *   rewrites the optional peer dependency of package.json and installs nothing (npm 11; npm 10
 *   installs it but rewrites the range too), `npm install --no-save --save-dev better-sqlite3@12`,
 *   which installs it into the checkout's node_modules with either and leaves package.json and the
 *   lock file as they are.
 *
 * Neither driver is loaded until a database is opened: commands that never touch SQLite never pay
 * for it. Without a driver, `openSqlite` throws a one-line DialogymError saying how to get one.
 * Both drivers read and write the same files, and rows come back alike (objects keyed by column,
 * integers as numbers: keep integers outside ±2^53 out of a SELECT's columns, the drivers differ
 * there — node:sqlite throws, better-sqlite3 rounds).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DialogymError } from './errors.js';
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
 * The SQLite drivers dialogym can use: Node's built-in `node:sqlite`, or the optional
 * `better-sqlite3` package.
 *
 * @example
 * ```ts
 * import { openSqlite, type SqliteDriverName } from 'dialogym';
 * const driver: SqliteDriverName = 'node:sqlite';
 * openSqlite(':memory:', { driver }).close();
 * ```
 */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

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
  /** Use this driver only (tests); default: node:sqlite when present, else better-sqlite3. */
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
 * The npm commands that install (and rebuild) better-sqlite3 where dialogym resolves it from: in a
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
export function sqliteInstallAdvice(place: SqliteInstallPlace = { packageRoot: ownPackageRoot(), cwd: process.cwd() }): { readonly install: string; readonly rebuild: string } {
  const root = resolve(place.packageRoot);
  const modules = dirname(root);
  const at = (dir: string): string => (resolve(place.cwd) === dir ? '' : ` --prefix ${shellWord(dir)}`);
  if (basename(modules) === 'node_modules') {
    const project = dirname(modules);
    if (!existsSync(join(project, 'package.json'))) return { install: 'npm install --global better-sqlite3@12', rebuild: 'npm rebuild --global better-sqlite3' };
    return { install: `npm install${at(project)} better-sqlite3@12`, rebuild: `npm rebuild${at(project)} better-sqlite3` };
  }
  return { install: `npm install${at(root)} --no-save --save-dev better-sqlite3@12`, rebuild: `npm rebuild${at(root)} better-sqlite3` };
}

/**
 * The one line that says how to get SQLite on this Node (what `openSqlite` throws without a
 * driver): upgrade Node, or install the optional better-sqlite3 with the command that puts it where
 * this dialogym finds it (`sqliteInstallAdvice`; `place` says where dialogym is, default this one).
 *
 * @example
 * ```ts
 * import { sqliteMissingMessage } from 'dialogym';
 * console.error(sqliteMissingMessage()); // SQLite KBs need Node.js 22.13 or later …
 * ```
 */
export function sqliteMissingMessage(place?: SqliteInstallPlace): string {
  return `SQLite needs ${nodeSqliteHint()} or the optional better-sqlite3 package: this is Node ${process.versions.node}; upgrade Node (the current LTS) or run \`${sqliteInstallAdvice(place).install}\``;
}

/**
 * The driver `openSqlite` would use here (node:sqlite first), or undefined when there is none.
 * Loads it (once) to find out.
 *
 * @example
 * ```ts
 * import { sqliteDriver } from 'dialogym';
 * sqliteDriver(); // 'node:sqlite' on Node ≥ 22.13, 'better-sqlite3' on Node 20 when installed
 * ```
 */
export function sqliteDriver(): SqliteDriverName | undefined {
  if (loadNodeSqlite()) return 'node:sqlite';
  if (loadBetterSqlite()) return 'better-sqlite3';
  return undefined;
}

/**
 * The drivers that load on this Node (for tests that run against each); a better-sqlite3 built
 * for another Node is left out.
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
  return out;
}

/** Binds `params` the way both drivers take them: an object of named values, or positional values. */
function args(params: SqlParams | undefined): unknown[] {
  if (params === undefined) return [];
  return Array.isArray(params) ? [...(params as SqlValue[])] : [params];
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
    this.db.exec('BEGIN IMMEDIATE');
    try {
      fn();
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
    this.db.exec('COMMIT');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

/**
 * Opens (or creates) a SQLite database file with node:sqlite when this Node has it, else with
 * better-sqlite3 when installed; `:memory:` for a database in memory. Without a driver, throws a
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
  if (node) {
    const Database = node.Database ?? node.DatabaseSync;
    const db = new Database(file, opts.readonly ? { readOnly: true } : {});
    // node:sqlite before 22.12 ignores readOnly: query_only refuses writes on every version.
    if (opts.readonly) db.exec('PRAGMA query_only = ON');
    return new Handle('node:sqlite', db);
  }
  const Better = want === undefined || want === 'better-sqlite3' ? loadBetterSqlite() : undefined;
  if (Better) {
    const db = new Better(file, opts.readonly ? { readonly: true, fileMustExist: true } : {});
    if (opts.readonly) db.exec('PRAGMA query_only = ON');
    return new Handle('better-sqlite3', db);
  }
  throw new DialogymError(want === undefined ? sqliteMissingMessage() : `the SQLite driver ${want} is not available on Node ${process.versions.node}`);
}
