/**
 * The restaurant KB in SQLite (better-sqlite3), for serving: `importKbFile` turns a bAbI or DSTC6
 * KB file into a database; `SqliteKbStore` answers api_calls from it through the same `KbStore`
 * interface as the in-memory store. Every query is a prepared statement with bound parameters (no
 * user text ever reaches SQL), and a store opens its database read-only with `query_only` set.
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
import Database from 'better-sqlite3';
import { FormatError } from '../../core/errors.js';
import { makeFolders } from '../../core/files.js';
import type { ApiCall, KbStore, Restaurant } from './kb.js';
import { KB_DIALECTS, readKb, type KbDialect, type KbDialectName } from './kb-dialects.js';

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

const COLUMNS = 'name, cuisine, location, price, rating, phone, address, number, atmosphere, restrictions';

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

/** Rows whose values have another storage class than the schema's (SQLite does not enforce column types). */
const ROW_TYPE_CHECK =
  "typeof(rating) <> 'integer' OR " +
  ['name', 'cuisine', 'location', 'price', 'phone', 'address', 'number'].map((c) => `typeof(${c}) <> 'text'`).join(' OR ') +
  " OR typeof(atmosphere) NOT IN ('text', 'null') OR typeof(restrictions) NOT IN ('text', 'null')";

/** SHA-256 of the restaurants (in id order) and of kb_meta (but its checksum): stored at import, verified at open. */
function contentChecksum(db: Database.Database): string {
  const h = createHash('sha256');
  for (const row of db.prepare(`SELECT id, ${COLUMNS} FROM restaurants ORDER BY id`).raw().iterate()) h.update(JSON.stringify(row) + '\n');
  for (const row of db.prepare("SELECT key, value FROM kb_meta WHERE key <> 'checksum' ORDER BY key").raw().iterate()) h.update(JSON.stringify(row) + '\n');
  return h.digest('hex');
}

/** Why the tables differ from `TABLES`, or undefined. */
function checkTables(db: Database.Database): string | undefined {
  for (const [table, want] of Object.entries(TABLES)) {
    const cols = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number }[];
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

let tmpCounter = 0;

/**
 * Writes restaurants to a new SQLite KB at `out` (temp file + rename: never a half-written
 * database; an existing file is replaced only once the new one is complete). Parent folders
 * are created; SQLite and file-system errors pass through.
 *
 * @example
 * ```ts
 * import { writeSqliteKb, generateRestaurants, BABI_KB } from 'dialogym/restaurant';
 * import { createRng } from 'dialogym';
 * writeSqliteKb('out/generated-kb.sqlite', generateRestaurants(createRng(1)), BABI_KB, 'seed 1');
 * ```
 */
export function writeSqliteKb(out: string, restaurants: readonly Restaurant[], dialect: KbDialect, source = ''): void {
  const dir = dirname(out);
  makeFolders(dir);
  const tmp = join(dir, `.${basename(out)}.${process.pid}.${tmpCounter++}.tmp`);
  rmSync(tmp, { force: true });
  let db: Database.Database | undefined;
  try {
    db = new Database(tmp);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(SCHEMA);
    const meta = db.prepare('INSERT INTO kb_meta (key, value) VALUES (?, ?)');
    const ins = db.prepare(
      `INSERT INTO restaurants (${COLUMNS}) VALUES (@name, @cuisine, @location, @price, @rating, @phone, @address, @number, @atmosphere, @restrictions)`,
    );
    db.transaction(() => {
      meta.run('format', SQLITE_KB_FORMAT);
      meta.run('version', String(SQLITE_KB_VERSION));
      meta.run('dialect', dialect.name);
      meta.run('source', source);
      meta.run('restaurants', String(restaurants.length));
      for (const r of restaurants) ins.run({ ...r, atmosphere: r.atmosphere ?? null, restrictions: r.restrictions ?? null });
      meta.run('checksum', contentChecksum(db as Database.Database));
    })();
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
export function importKbFile(kbFile: string, out: string): ImportSummary {
  const { dialect, restaurants } = readKb(kbFile);
  writeSqliteKb(out, restaurants, dialect, basename(kbFile));
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
  private readonly db: Database.Database;
  private readonly byCall: Database.Statement;
  private readonly everything: Database.Statement;

  private constructor(file: string, db: Database.Database, dialect: KbDialect, size: number) {
    this.file = file;
    this.db = db;
    this.dialect = dialect;
    this.size = size;
    this.byCall = db.prepare(
      `SELECT ${COLUMNS} FROM restaurants WHERE cuisine = @cuisine AND location = @location AND number = @number AND price = @price` +
        ' AND (@atmosphere IS NULL OR atmosphere = @atmosphere) AND (@restrictions IS NULL OR restrictions = @restrictions) ORDER BY id',
    );
    this.everything = db.prepare(`SELECT ${COLUMNS} FROM restaurants ORDER BY id`);
  }

  /** Opens a SQLite KB read-only; a missing file, another kind of file or another schema is a one-line FormatError. */
  static open(file: string): SqliteKbStore {
    if (!existsSync(file)) throw new FormatError(file, undefined, 'no such file');
    if (statSync(file).isDirectory()) throw new FormatError(file, undefined, 'is a directory, not a file');
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
      db.pragma('query_only = ON');
      // Integrity first: a damaged page must fail here, naming the file, not in the middle of a chat.
      const check = db.prepare('PRAGMA integrity_check(5)').pluck().all() as unknown[];
      if (check.length !== 1 || check[0] !== 'ok') {
        const first = check.map(String).join('\n').split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('***')) ?? '?';
        throw new FormatError(file, undefined, `corrupt SQLite KB (integrity check: ${first.slice(0, 120)})`);
      }
      const hasMeta = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('kb_meta', 'restaurants')").get() as { n: number };
      if (hasMeta.n !== 2) throw new FormatError(file, undefined, 'not a dialogym KB (no kb_meta/restaurants tables; make one with `dialogym kb import`)');
      const schemaIssue = checkTables(db);
      if (schemaIssue) throw new FormatError(file, undefined, `not a dialogym KB (${schemaIssue}; make one with \`dialogym kb import\`)`);
      const meta = new Map((db.prepare('SELECT key, value FROM kb_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
      if (meta.get('format') !== SQLITE_KB_FORMAT) throw new FormatError(file, undefined, `not a dialogym KB (format '${meta.get('format') ?? ''}')`);
      const version = Number(meta.get('version'));
      if (version !== SQLITE_KB_VERSION) throw new FormatError(file, undefined, `KB schema version ${meta.get('version') ?? '?'} is not supported (this dialogym reads version ${SQLITE_KB_VERSION})`);
      const dn = meta.get('dialect') as KbDialectName | undefined;
      const dialect = dn !== undefined && Object.hasOwn(KB_DIALECTS, dn) ? KB_DIALECTS[dn] : undefined;
      if (!dialect) throw new FormatError(file, undefined, `unknown KB dialect '${dn ?? ''}'`);
      const size = (db.prepare('SELECT count(*) AS n FROM restaurants').get() as { n: number }).n;
      const badRow = db.prepare(`SELECT id FROM restaurants WHERE ${ROW_TYPE_CHECK} LIMIT 1`).pluck().get() as number | undefined;
      if (badRow !== undefined) throw new FormatError(file, undefined, `restaurants row ${badRow}: a value of the wrong type (text attributes, an integer rating)`);
      if (meta.get('restaurants') !== undefined && Number(meta.get('restaurants')) !== size) {
        throw new FormatError(file, undefined, `kb_meta says ${meta.get('restaurants')} restaurants, the table holds ${size} (truncated or edited file?)`);
      }
      // Bit flips inside text values pass the integrity check; the content checksum written at import catches them.
      const sum = meta.get('checksum');
      if (sum !== undefined && sum !== contentChecksum(db)) throw new FormatError(file, undefined, 'corrupt SQLite KB (content checksum mismatch: the file changed after `dialogym kb import`)');
      return new SqliteKbStore(file, db, dialect, size);
    } catch (e) {
      db?.close();
      if (e instanceof FormatError) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      throw new FormatError(file, undefined, /not a database|malformed/i.test(msg) ? 'not a SQLite database' : `cannot open SQLite KB (${msg})`, { cause: e });
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
