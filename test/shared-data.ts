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
 * The `skip` option of the SQLite tests: false, for every Node has a driver (node:sqlite on Node
 * 22.13+, else better-sqlite3 when installed, else the node-sqlite3-wasm dependency). Without one
 * (a broken install) it throws, failing the test file instead of skipping it.
 */
export function skipUnlessSqlite(): false {
  if (sqliteDriver() === undefined) throw new Error(`no SQLite driver: ${sqliteMissingMessage()}`);
  return false;
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
