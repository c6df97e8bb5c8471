/**
 * Forged SQLite KBs for the tests: a statement run on a KB written by `kb import`, then its content
 * checksum recomputed — what a forger does, so that the value checks behind the checksum are what
 * refuses the file.
 */
import { openSqlite, type SqliteDriverName, type SqlParams } from '../../../core/sqlite.js';
import { sqliteKbChecksum } from '../kb-sqlite.js';

export function forgeSqliteKb(file: string, sql: string, params?: SqlParams, driver?: SqliteDriverName): void {
  const db = openSqlite(file, driver === undefined ? {} : { driver });
  try {
    db.prepare(sql).run(params);
    db.prepare("UPDATE kb_meta SET value = ? WHERE key = 'checksum'").run([sqliteKbChecksum(db)]);
  } finally {
    db.close();
  }
}
