/** Where the original public datasets live (../shared/data beside the repo, or $DIALOGYM_DATA). */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqliteDriver, sqliteMissingMessage } from '../src/core/sqlite.js';

/** The repository root (this file is compiled to dist/test/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const sharedData = process.env.DIALOGYM_DATA ?? resolve(repoRoot, '..', 'shared', 'data');
export const babiDir = join(sharedData, 'dialog-bAbI-tasks');
export const dstc6Dir = join(sharedData, 'dstc6-track1');
export const airDir = join(sharedData, 'airdialogue');

/** A `skip` option for node:test: a reason string when `dir` is absent, false otherwise. */
export function skipUnless(dir: string): string | false {
  return existsSync(dir) ? false : `dataset folder ${dir} not found (set DIALOGYM_DATA)`;
}

/**
 * A `skip` option for node:test: a reason string when this Node has no SQLite driver (node:sqlite
 * comes with Node 22.13+; on Node 20 better-sqlite3 must be installed, see .ci/run), false otherwise.
 */
export function skipUnlessSqlite(): string | false {
  return sqliteDriver() === undefined ? `no SQLite driver: ${sqliteMissingMessage()}` : false;
}

/** The CLI entry point (compiled). */
export const cliPath = join(repoRoot, 'dist', 'src', 'cli', 'index.js');

export const TASK_NAMES: Record<number, string> = {
  1: 'task1-API-calls',
  2: 'task2-API-refine',
  3: 'task3-options',
  4: 'task4-phone-address',
  5: 'task5-full-dialogs',
};
export const SPLITS = ['trn', 'dev', 'tst', 'tst-OOV'] as const;
