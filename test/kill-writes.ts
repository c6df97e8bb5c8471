/**
 * What the interrupted-writes test and bench (`bench/generate-kill.bench.ts`) check after a
 * `kill -9` of a writer: the folder is the old complete dataset, the new complete one, or refused
 * by `dialogym stats` in one line; and after the next run no leftover of the killed one survives.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { cliPath } from './shared-data.js';

/** The files of a complete dataset folder: name → bytes. */
export type Dataset = ReadonlyMap<string, Buffer>;

/** The files of `dir` (hidden names left out), read whole. */
export function readDataset(dir: string): Dataset {
  return new Map(
    readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .sort()
      .map((n) => [n, readFileSync(join(dir, n))] as const),
  );
}

/** How a folder was found after a kill. */
export type Found = 'old' | 'new' | 'refused' | 'mixed';

/** Whether `dir` holds exactly the files of `d` (besides `extra` names, e.g. the user's own). */
function holds(dir: string, d: Dataset, extra: readonly string[]): boolean {
  if (!existsSync(dir)) return false;
  const names = readdirSync(dir).filter((n) => !n.startsWith('.') && !extra.includes(n));
  return names.length === d.size && names.every((n) => d.get(n)?.equals(readFileSync(join(dir, n))) === true);
}

/**
 * Classifies the folder `dir` after a killed write of `fresh` over `old` (undefined: there was no
 * folder): `refused` when `dialogym stats` of its dialog files fails with exactly one line on
 * stderr and no stack trace; else `old`/`new` when it holds exactly those files; else `mixed` (the
 * failure the check exists for). `extra` names the user's own files, which must be there unchanged.
 */
export function classify(dir: string, old: Dataset | undefined, fresh: Dataset, extra: readonly string[] = []): { found: Found; line?: string } {
  const dialogs = [...fresh.keys()].filter((n) => n.startsWith('dialog-babi-task') || /^dialog-task\d/.test(n)).map((n) => join(dir, n));
  const r = spawnSync(process.execPath, [cliPath, 'stats', ...dialogs], { encoding: 'utf8' });
  if (r.status !== 0) {
    const lines = r.stderr.trimEnd().split('\n');
    return lines.length === 1 && !/\n\s+at /.test(r.stderr) ? { found: 'refused', line: lines[0] as string } : { found: 'mixed', line: r.stderr };
  }
  if (old && holds(dir, old, extra)) return { found: 'old' };
  if (holds(dir, fresh, extra)) return { found: 'new' };
  return { found: 'mixed' };
}

/** Names under `root` (at any depth) that a killed writer leaves: temp files, staging and old folders, the incomplete marker. */
export function leftovers(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      if (/\.tmp$|\.staging$|\.old$|^\.dialogym-/.test(n)) found.push(p);
      if (statSync(p).isDirectory()) walk(p);
    }
  };
  walk(root);
  return found;
}

/** The leftovers (`leftovers`) that belong to the folder `dir`: inside it, or beside it under its name (`.<name>.<pid>.<n>.staging`). */
export function leftoversOf(dir: string): string[] {
  const parent = dirname(dir);
  return leftovers(parent).filter((p) => p.startsWith(dir + sep) || (dirname(p) === parent && basename(p).startsWith(`.${basename(dir)}.`)));
}
