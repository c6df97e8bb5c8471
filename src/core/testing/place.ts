/** Where a line of a built module is, as a start failure names it (pool.ts `startFailure`): for the pool tests. */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `<file relative to the working folder>:<line>` of the first line of `file` that holds `text`. */
export function placeOf(file: URL, text: string): string {
  const k = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text));
  if (k < 0) throw new Error(`${file.href}: no line holds ${text}`);
  return `${relative(process.cwd(), fileURLToPath(file))}:${k + 1}`;
}
