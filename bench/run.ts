/**
 * Runs the benchmarks: `npm run bench` runs every `bench/*.bench.ts`; `npm run bench -- generate dstc6`
 * runs only those whose name contains one of the words. Each benchmark prints its own figures and
 * ratios against a baseline measured in the same run.
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const want = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => want.length === 0 || want.some((w) => f.includes(w)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`error: no benchmark matches ${want.join(' ')}\n`);
  process.exit(2);
}
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n=== ${f.replace(/\.bench\.js$/, '')} ===\n`);
  const r = spawnSync(process.execPath, [join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
