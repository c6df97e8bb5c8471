/**
 * The restaurant KB in SQLite, for serving: `importKbFile` turns a bAbI or DSTC6 KB file into a
 * database; `SqliteKbStore` answers api_calls from it through the same `KbStore` interface as the
 * in-memory store. SQLite comes through `core/sqlite.ts` (node:sqlite, or on Node 20
 * node-sqlite3-wasm, or better-sqlite3 when installed). Every query is a prepared statement with bound parameters (no user text ever reaches
 * SQL), and a store opens its database read-only with `query_only` set.
 *
 * A KB cannot lie: every restaurant is checked when it is written and again when a store opens
 * the file — a value holding a newline, a TAB, a control character or the shape of a KB fact or an
 * api_call, or a rating outside the layout's range, is refused in one line naming the row
 * (`kb.sqlite: row 17 (resto_x, phone): holds a newline`), even when the content checksum was
 * recomputed by whoever changed the file.
 *
 * Schema (version 1):
 *   kb_meta(key PRIMARY KEY, value)  format=dialogym-kb, version, dialect (babi|dstc6), source, restaurants,
 *                                    checksum (SHA-256 of the rows and the other meta; verified at open when present)
 *   restaurants(id INTEGER PRIMARY KEY  -- KB file order
 *               name UNIQUE, cuisine, location, price, rating INTEGER, phone, address, number,
 *               atmosphere, restrictions  -- NULL in bAbI KBs)
 *   index restaurants_query(cuisine, location, number, price, atmosphere, restrictions): the api_call slots
 */
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { DialogymError, FormatError } from '../../core/errors.js';
import { makeFolders } from '../../core/files.js';
import { openSqlite, type SqliteDb, type SqliteDriverName, type SqliteStatement, type SqlRow } from '../../core/sqlite.js';
import { quoteKbValue } from '../../formats/kb-values.js';
import type { ApiCall, KbStore, Restaurant } from './kb.js';
import { KB_DIALECTS, ratingIssue, readKb, restaurantIssue, type KbDialect, type KbDialectName } from './kb-dialects.js';

/**
 * The `format` value in the `kb_meta` table of a dialogym SQLite KB; `SqliteKbStore.open` refuses
 * other files.
 *
 * @example
 * ```ts
 * import { SQLITE_KB_FORMAT } from 'dialogym/restaurant';
 * SQLITE_KB_FORMAT; // 'dialogym-kb'
 * ```
 */
export const SQLITE_KB_FORMAT = 'dialogym-kb';
/**
 * The schema version written in `kb_meta` (1); `SqliteKbStore.open` refuses other versions.
 *
 * @example
 * ```ts
 * import { SQLITE_KB_VERSION } from 'dialogym/restaurant';
 * SQLITE_KB_VERSION; // 1
 * ```
 */
export const SQLITE_KB_VERSION = 1;

const SCHEMA = `
CREATE TABLE kb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE restaurants (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  cuisine TEXT NOT NULL,
  location TEXT NOT NULL,
  price TEXT NOT NULL,
  rating INTEGER NOT NULL,
  phone TEXT NOT NULL,
  address TEXT NOT NULL,
  number TEXT NOT NULL,
  atmosphere TEXT,
  restrictions TEXT
);
CREATE INDEX restaurants_query ON restaurants (cuisine, location, number, price, atmosphere, restrictions);
`;

const COLUMN_LIST = ['name', 'cuisine', 'location', 'price', 'rating', 'phone', 'address', 'number', 'atmosphere', 'restrictions'] as const;
const COLUMNS = COLUMN_LIST.join(', ');

/** Columns (name, declared type, NOT NULL) that `SCHEMA` creates, checked by `SqliteKbStore.open`. */
const TABLES: Record<string, ReadonlyArray<readonly [string, string, boolean]>> = {
  kb_meta: [
    ['key', 'TEXT', false],
    ['value', 'TEXT', true],
  ],
  restaurants: [
    ['id', 'INTEGER', false],
    ...['name', 'cuisine', 'location', 'price'].map((c) => [c, 'TEXT', true] as const),
    ['rating', 'INTEGER', true],
    ...['phone', 'address', 'number'].map((c) => [c, 'TEXT', true] as const),
    ['atmosphere', 'TEXT', false],
    ['restrictions', 'TEXT', false],
  ],
};

/** The storage classes each column may hold (SQLite does not enforce column types). */
const STORAGE: Readonly<Record<(typeof COLUMN_LIST)[number], readonly string[]>> = {
  name: ['text'], cuisine: ['text'], location: ['text'], price: ['text'], rating: ['integer'], phone: ['text'], address: ['text'], number: ['text'],
  atmosphere: ['text', 'null'], restrictions: ['text', 'null'],
};
const wrongType = (c: string): string => `typeof(${c}) NOT IN (${(STORAGE[c as keyof typeof STORAGE] as readonly string[]).map((t) => `'${t}'`).join(', ')})`;
/** The first row holding a value of another storage class than its column's: its id, name, that column and the class. */
const WRONG_TYPE_ROW =
  `SELECT id, CAST(name AS TEXT) AS name, CASE ${COLUMN_LIST.map((c) => `WHEN ${wrongType(c)} THEN '${c}'`).join(' ')} END AS col, ` +
  `CASE ${COLUMN_LIST.map((c) => `WHEN ${wrongType(c)} THEN typeof(${c})`).join(' ')} END AS type ` +
  `FROM restaurants WHERE ${COLUMN_LIST.map(wrongType).join(' OR ')} ORDER BY id LIMIT 1`;

/** SHA-256 of the restaurants (in id order) and of kb_meta (but its checksum): stored at import, verified at open. */
function contentChecksum(rows: readonly SqlRow[], meta: ReadonlyMap<string, string>): string {
  const h = createHash('sha256');
  for (const row of rows) h.update(JSON.stringify([row.id, ...COLUMN_LIST.map((c) => row[c])]) + '\n');
  for (const key of [...meta.keys()].filter((k) => k !== 'checksum').sort()) h.update(JSON.stringify([key, meta.get(key)]) + '\n');
  return h.digest('hex');
}

/**
 * The content checksum of an open SQLite KB as `kb import` stores it in `kb_meta.checksum`: the
 * SHA-256 of its restaurants (id order) and its other kb_meta entries. `SqliteKbStore.open`
 * compares it with the stored one (it catches bit flips; the value checks catch forgeries).
 *
 * @example
 * ```ts
 * import { openSqlite } from 'dialogym';
 * import { sqliteKbChecksum } from 'dialogym/restaurant';
 * const db = openSqlite('out/kb.sqlite', { readonly: true });
 * console.log(sqliteKbChecksum(db));
 * db.close();
 * ```
 */
export function sqliteKbChecksum(db: SqliteDb): string {
  return contentChecksum(allRows(db), allMeta(db));
}

/**
 * Every restaurant row, id order. The rating is read as text and made a number here, so that every
 * driver sees the same number even for an integer beyond ±2^53 (node:sqlite would throw on it,
 * better-sqlite3 round it: this rounds it as better-sqlite3 does, which older checksums used).
 */
function allRows(db: SqliteDb): SqlRow[] {
  const cols = COLUMN_LIST.map((c) => (c === 'rating' ? 'CAST(rating AS TEXT) AS rating' : c)).join(', ');
  return db.prepare(`SELECT id, ${cols} FROM restaurants ORDER BY id`).all().map((r) => ({ ...r, rating: Number(r.rating) }));
}

function allMeta(db: SqliteDb): Map<string, string> {
  return new Map(db.prepare('SELECT key, value FROM kb_meta').all().map((r) => [r.key as string, r.value as string]));
}

/** How an error names a restaurant row: `row 17 (resto_x, phone)`. */
function rowLabel(id: unknown, name: unknown, attr: string): string {
  return `row ${String(id)} (${typeof name === 'string' ? quoteKbValue(name, 40) : String(name)}, ${attr})`;
}

/** Why the tables differ from `TABLES`, or undefined. */
function checkTables(db: SqliteDb): string | undefined {
  for (const [table, want] of Object.entries(TABLES)) {
    const cols = db.prepare(`PRAGMA table_info(${table})`).all() as unknown as { name: string; type: string; notnull: number }[];
    const got = new Map(cols.map((c) => [c.name, c]));
    for (const [name, type, notNull] of want) {
      const c = got.get(name);
      if (!c) return `table ${table} lacks column ${name}`;
      if (c.type.toUpperCase() !== type || (notNull && c.notnull !== 1)) return `column ${table}.${name} is '${c.type}${c.notnull ? ' NOT NULL' : ''}', expected '${type}${notNull ? ' NOT NULL' : ''}'`;
    }
  }
  return undefined;
}

/** A row of the restaurants table: a Restaurant whose DSTC6-only attributes are NULL in bAbI KBs. */
type Row = Omit<Restaurant, 'atmosphere' | 'restrictions'> & { atmosphere: string | null; restrictions: string | null };

function rowToRestaurant(r: Row): Restaurant {
  const out: Restaurant = { name: r.name, cuisine: r.cuisine, location: r.location, price: r.price, rating: r.rating, phone: r.phone, address: r.address, number: r.number };
  if (r.atmosphere !== null) out.atmosphere = r.atmosphere;
  if (r.restrictions !== null) out.restrictions = r.restrictions;
  return out;
}

/**
 * What `importKbFile` imported: the KB layout and the numbers of restaurants and facts.
 *
 * @example
 * ```ts
 * import { importKbFile, type ImportSummary } from 'dialogym/restaurant';
 * const s: ImportSummary = importKbFile('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt', 'out/kb.sqlite');
 * console.log(`${s.restaurants} restaurants (${s.dialect}) from ${s.facts} facts`); // 1200 restaurants (babi) from 8400 facts
 * ```
 */
export interface ImportSummary {
  readonly dialect: KbDialectName;
  readonly restaurants: number;
  readonly facts: number;
}

/**
 * Options of the SQLite KB functions: which SQLite driver to use (default: node:sqlite when this
 * Node has it, else better-sqlite3 when installed, else node-sqlite3-wasm; see `openSqlite`).
 *
 * @example
 * ```ts
 * import { SqliteKbStore, type SqliteKbOptions } from 'dialogym/restaurant';
 * const opts: SqliteKbOptions = { driver: 'better-sqlite3' };
 * const store = SqliteKbStore.open('out/kb.sqlite', opts);
 * ```
 */
export interface SqliteKbOptions {
  readonly driver?: SqliteDriverName;
}

let tmpCounter = 0;

/**
 * Writes restaurants to a new SQLite KB at `out` (temp file + rename: never a half-written
 * database; an existing file is replaced only once the new one is complete). Parent folders
 * are created. A restaurant that cannot go into a KB (`restaurantIssue`) is a FormatError naming
 * it, before anything is written; without a SQLite driver, a DialogymError saying how to get one;
 * SQLite and file-system errors pass through.
 *
 * @example
 * ```ts
 * import { writeSqliteKb, generateRestaurants, BABI_KB } from 'dialogym/restaurant';
 * import { createRng } from 'dialogym';
 * writeSqliteKb('out/generated-kb.sqlite', generateRestaurants(createRng(1)), BABI_KB, 'seed 1');
 * ```
 */
export function writeSqliteKb(out: string, restaurants: readonly Restaurant[], dialect: KbDialect, source = '', opts: SqliteKbOptions = {}): void {
  restaurants.forEach((r, i) => {
    const bad = restaurantIssue(r, dialect);
    if (bad !== undefined) throw new FormatError(out, undefined, `restaurant ${i + 1} (${typeof r.name === 'string' ? quoteKbValue(r.name, 40) : '?'}, ${bad.attr}): ${bad.reason}`);
  });
  const dir = dirname(out);
  makeFolders(dir);
  const tmp = join(dir, `.${basename(out)}.${process.pid}.${tmpCounter++}.tmp`);
  rmSync(tmp, { force: true });
  let db: SqliteDb | undefined;
  try {
    db = openSqlite(tmp, opts);
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;');
    db.exec(SCHEMA);
    const meta = db.prepare('INSERT INTO kb_meta (key, value) VALUES (?, ?)');
    const ins = db.prepare(
      `INSERT INTO restaurants (${COLUMNS}) VALUES (@name, @cuisine, @location, @price, @rating, @phone, @address, @number, @atmosphere, @restrictions)`,
    );
    const d = db;
    d.transaction(() => {
      meta.run(['format', SQLITE_KB_FORMAT]);
      meta.run(['version', String(SQLITE_KB_VERSION)]);
      meta.run(['dialect', dialect.name]);
      meta.run(['source', source]);
      meta.run(['restaurants', String(restaurants.length)]);
      for (const r of restaurants) {
        ins.run({ name: r.name, cuisine: r.cuisine, location: r.location, price: r.price, rating: r.rating, phone: r.phone, address: r.address, number: r.number, atmosphere: r.atmosphere ?? null, restrictions: r.restrictions ?? null });
      }
      meta.run(['checksum', contentChecksum(allRows(d), allMeta(d))]);
    });
    db.close();
    db = undefined;
    renameSync(tmp, out);
  } catch (e) {
    db?.close();
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * `dialogym kb import`: a bAbI (tasks 1–5) or DSTC6 KB file → SQLite KB at `out` (layout detected
 * from the attributes). A missing or malformed KB file throws a FormatError.
 *
 * @example
 * ```ts
 * import { importKbFile, SqliteKbStore } from 'dialogym/restaurant';
 * importKbFile('data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/extendedkb1.txt', 'out/kb1.sqlite'); // { dialect: 'dstc6', restaurants: 5400, facts: 48600 }
 * const store = SqliteKbStore.open('out/kb1.sqlite');
 * ```
 */
export function importKbFile(kbFile: string, out: string, opts: SqliteKbOptions = {}): ImportSummary {
  const { dialect, restaurants } = readKb(kbFile);
  writeSqliteKb(out, restaurants, dialect, basename(kbFile), opts);
  // Every restaurant has each attribute of its layout exactly once (readKb checks it).
  return { dialect: dialect.name, restaurants: restaurants.length, facts: restaurants.length * dialect.fileAttrs.length };
}

/**
 * A read-only KB store over a SQLite KB written by `writeSqliteKb` / `importKbFile`: `query`
 * answers api_calls (atmosphere and restrictions only when given) in KB file order. Open it with
 * `SqliteKbStore.open` (a FormatError for a missing file or another schema); `close()` when done.
 *
 * @example
 * ```ts
 * import { SqliteKbStore, answerApiCall } from 'dialogym/restaurant';
 * const store = SqliteKbStore.open('out/kb.sqlite');
 * const a = answerApiCall(store, store.dialect, 'api_call italian rome six cheap');
 * store.close();
 * ```
 */
export class SqliteKbStore implements KbStore {
  readonly file: string;
  readonly dialect: KbDialect;
  readonly size: number;
  /** The SQLite driver serving this store (see `openSqlite`). */
  readonly driver: SqliteDriverName;
  private readonly db: SqliteDb;
  private readonly byCall: SqliteStatement;
  private readonly everything: SqliteStatement;

  private constructor(file: string, db: SqliteDb, dialect: KbDialect, size: number) {
    this.file = file;
    this.db = db;
    this.dialect = dialect;
    this.size = size;
    this.driver = db.driver;
    this.byCall = db.prepare(
      `SELECT ${COLUMNS} FROM restaurants WHERE cuisine = @cuisine AND location = @location AND number = @number AND price = @price` +
        ' AND (@atmosphere IS NULL OR atmosphere = @atmosphere) AND (@restrictions IS NULL OR restrictions = @restrictions) ORDER BY id',
    );
    this.everything = db.prepare(`SELECT ${COLUMNS} FROM restaurants ORDER BY id`);
  }

  /**
   * Opens a SQLite KB read-only; a missing file, another kind of file or another schema is a
   * one-line FormatError, and so is a row that cannot be a restaurant of its layout (a value
   * holding a newline, a TAB, a control character, the shape of a KB fact or an api_call; a rating
   * out of range), named by its row, whatever the stored checksum says. Without a SQLite driver, a
   * one-line DialogymError saying how to get one.
   */
  static open(file: string, opts: SqliteKbOptions = {}): SqliteKbStore {
    if (!existsSync(file)) throw new FormatError(file, undefined, 'no such file');
    if (statSync(file).isDirectory()) throw new FormatError(file, undefined, 'is a directory, not a file');
    let db: SqliteDb | undefined;
    try {
      db = openSqlite(file, { ...opts, readonly: true });
      // Integrity first: a damaged page must fail here, naming the file, not in the middle of a chat.
      const check = db.prepare('PRAGMA integrity_check(5)').all().map((r) => Object.values(r)[0]);
      if (check.length !== 1 || check[0] !== 'ok') {
        const first = check.map(String).join('\n').split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('***')) ?? '?';
        throw new FormatError(file, undefined, `corrupt SQLite KB (integrity check: ${first.slice(0, 120)})`);
      }
      const hasMeta = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('kb_meta', 'restaurants')").get() as { n: number };
      if (hasMeta.n !== 2) throw new FormatError(file, undefined, 'not a dialogym KB (no kb_meta/restaurants tables; make one with `dialogym kb import`)');
      const schemaIssue = checkTables(db);
      if (schemaIssue) throw new FormatError(file, undefined, `not a dialogym KB (${schemaIssue}; make one with \`dialogym kb import\`)`);
      const badMeta = db.prepare("SELECT key FROM kb_meta WHERE typeof(key) <> 'text' OR typeof(value) <> 'text' LIMIT 1").get();
      if (badMeta !== undefined) throw new FormatError(file, undefined, 'kb_meta: a key or value that is not text');
      const meta = allMeta(db);
      if (meta.get('format') !== SQLITE_KB_FORMAT) throw new FormatError(file, undefined, `not a dialogym KB (format '${quoteKbValue(meta.get('format') ?? '', 40)}')`);
      const version = Number(meta.get('version'));
      if (version !== SQLITE_KB_VERSION) throw new FormatError(file, undefined, `KB schema version ${quoteKbValue(meta.get('version') ?? '?', 20)} is not supported (this dialogym reads version ${SQLITE_KB_VERSION})`);
      const dn = meta.get('dialect') as KbDialectName | undefined;
      const dialect = dn !== undefined && Object.hasOwn(KB_DIALECTS, dn) ? KB_DIALECTS[dn] : undefined;
      if (!dialect) throw new FormatError(file, undefined, `unknown KB dialect '${quoteKbValue(dn ?? '', 40)}'`);
      const size = (db.prepare('SELECT count(*) AS n FROM restaurants').get() as { n: number }).n;
      const badRow = db.prepare(WRONG_TYPE_ROW).get();
      if (badRow !== undefined) {
        const want = STORAGE[badRow.col as keyof typeof STORAGE][0] === 'integer' ? 'an integer' : 'text';
        throw new FormatError(file, undefined, `${rowLabel(badRow.id, badRow.name, String(badRow.col))}: holds ${String(badRow.type)}, not ${want}`);
      }
      if (meta.get('restaurants') !== undefined && Number(meta.get('restaurants')) !== size) {
        throw new FormatError(file, undefined, `kb_meta says ${quoteKbValue(meta.get('restaurants') as string, 20)} restaurants, the table holds ${size} (truncated or edited file?)`);
      }
      // The values, row by row, whatever the checksum says (a forger recomputes it). Ratings first,
      // in SQL: an integer beyond ±2^53 must not be read into a number at all.
      const badRating = db.prepare('SELECT id, name, CAST(rating AS TEXT) AS rating FROM restaurants WHERE rating < 1 OR rating > ? ORDER BY id LIMIT 1').get([dialect.maxRating]);
      if (badRating !== undefined) throw new FormatError(file, undefined, `${rowLabel(badRating.id, badRating.name, 'rating')}: ${String(ratingIssue(Number.NaN, dialect, String(badRating.rating)))}`);
      const rows = allRows(db);
      for (const row of rows) {
        const bad = restaurantIssue(rowToRestaurant(row as unknown as Row), dialect);
        if (bad !== undefined) throw new FormatError(file, undefined, `${rowLabel(row.id, row.name, bad.attr)}: ${bad.reason}`);
      }
      // Bit flips inside text values pass the integrity check; the content checksum written at import catches them.
      const sum = meta.get('checksum');
      if (sum !== undefined && sum !== contentChecksum(rows, meta)) throw new FormatError(file, undefined, 'corrupt SQLite KB (content checksum mismatch: the file changed after `dialogym kb import`)');
      return new SqliteKbStore(file, db, dialect, size);
    } catch (e) {
      db?.close();
      if (e instanceof DialogymError) throw e; // our own one-line errors, and the missing driver
      const msg = e instanceof Error ? e.message : String(e);
      throw new FormatError(file, undefined, /not a database|malformed/i.test(msg) ? 'not a SQLite database' : `cannot open SQLite KB (${msg.split('\n')[0]})`, { cause: e });
    }
  }

  query(call: ApiCall): Restaurant[] {
    const rows = this.read(() => this.byCall.all({
      cuisine: call.cuisine,
      location: call.location,
      number: call.number,
      price: call.price,
      atmosphere: call.atmosphere ?? null,
      restrictions: call.restrictions ?? null,
    })) as Row[];
    return rows.map(rowToRestaurant);
  }

  all(): Restaurant[] {
    return (this.read(() => this.everything.all()) as Row[]).map(rowToRestaurant);
  }

  /** Runs a read; a SQLite error (a page damaged after `open`) becomes a FormatError naming the file. */
  private read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw new FormatError(this.file, undefined, `cannot read the SQLite KB (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`, { cause: e });
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
