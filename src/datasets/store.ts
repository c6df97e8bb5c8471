/**
 * Where the original datasets live on this machine (the data folder): `$DIALOGYM_DATA`, else the
 * user data folder of the platform — `$XDG_DATA_HOME/dialogym` or `~/.local/share/dialogym` (Linux
 * and other Unix), `~/Library/Application Support/dialogym` (macOS), `%LOCALAPPDATA%\dialogym`
 * (Windows). Its layout is the releases' own: `dialog-bAbI-tasks/`, `dstc6-track1/…`,
 * `airdialogue/` (a folder laid out so by hand works as well).
 */
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Catalogue, CatalogueDataset } from './catalogue.js';

/** The data folder and why it is that one. */
export interface DataRoot {
  readonly dir: string;
  /** `$DIALOGYM_DATA`, `$XDG_DATA_HOME`, or `the user data folder`. */
  readonly source: string;
}

/** The data folder (not created here). */
export function dataRoot(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): DataRoot {
  if (env.DIALOGYM_DATA) return { dir: env.DIALOGYM_DATA, source: '$DIALOGYM_DATA' };
  if (platform === 'darwin') return { dir: join(home, 'Library', 'Application Support', 'dialogym'), source: 'the user data folder' };
  if (platform === 'win32') return { dir: join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'dialogym'), source: 'the user data folder' };
  if (env.XDG_DATA_HOME) return { dir: join(env.XDG_DATA_HOME, 'dialogym'), source: '$XDG_DATA_HOME' };
  return { dir: join(home, '.local', 'share', 'dialogym'), source: 'the user data folder' };
}

/** What is installed of a dataset in a data folder. */
export interface DatasetStatus {
  readonly dataset: CatalogueDataset;
  /** The dataset's folder. */
  readonly dir: string;
  /** Every required file is there. */
  readonly present: boolean;
  /** Required files that are missing (relative to the dataset's folder). */
  readonly missing: readonly string[];
  /** Files of the catalogue found, and their bytes (the whole folder's when the catalogue lists none). */
  readonly files: number;
  readonly bytes: number;
  /** Files of the catalogue whose size differs from the catalogue's (a quick check; `verify` hashes). */
  readonly wrongSize: readonly string[];
}

function sizeOf(path: string): number | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

/** The sizes of every file under `dir` (none when it is not there). */
function sizesUnder(dir: string): number[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? sizesUnder(join(dir, e.name)) : e.isFile() ? [sizeOf(join(dir, e.name)) ?? 0] : []));
}

/** The status of each dataset of `catalogue` in the data folder `root`. */
export function datasetStatus(catalogue: Catalogue, root: string): DatasetStatus[] {
  return catalogue.map((dataset) => {
    const dir = join(root, dataset.folder);
    const missing = dataset.required.filter((p) => sizeOf(join(dir, p)) === undefined);
    let files = 0;
    let bytes = 0;
    const wrongSize: string[] = [];
    if (dataset.files === undefined && missing.length === 0) {
      const sizes = sizesUnder(dir);
      return { dataset, dir, present: true, missing, files: sizes.length, bytes: sizes.reduce((a, b) => a + b, 0), wrongSize };
    }
    const listed = new Set([...Object.keys(dataset.files ?? {}), ...dataset.required, ...(dataset.unchecked ?? [])]);
    for (const p of listed) {
      const size = sizeOf(join(dir, p));
      if (size === undefined) continue;
      files++;
      bytes += size;
      const expected = dataset.files?.[p]?.bytes;
      if (expected !== undefined && expected !== size) wrongSize.push(p);
    }
    return { dataset, dir, present: missing.length === 0, missing, files, bytes, wrongSize };
  });
}
