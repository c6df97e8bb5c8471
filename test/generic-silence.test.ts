/**
 * bAbI's and DSTC6's "the user says nothing" turn (`<SILENCE>`, `<silence>`) is a dataset detail:
 * the restaurant testbed declares it (its environments' `wordless`, src/env/env.ts), the bAbI file
 * format names it (src/formats/babi.ts: `SILENCE`), and the generic code asks the environment
 * (`isWordlessTurn`). No generic folder of src/ mentions the token or the constant outside its tests.
 * formats/ is left out: it is the datasets' file formats, where the token is part of the format.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './shared-data.js';

const GENERIC = ['core', 'nn', 'metrics', 'rankers', 'train', 'report', 'datasets', 'llm', 'agents', 'evaluation', 'env', 'serve', 'runs', 'study'];

/** `file:line: text` of every line of the non-test sources under `dir` (ts, js, html, css) that mentions the token or the constant. */
function mentions(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !/\.(ts|js|html|css)$/.test(e.name) || /\.test\.ts$/.test(e.name)) continue;
    const file = join(e.parentPath, e.name);
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        // `\bSILENCE\b` case-insensitively would also be the English word ("silence past the timeout"): only the constant's capitals count.
        if (/<silence>/i.test(line) || /\bSILENCE\b/.test(line)) out.push(`${file.slice(repoRoot.length + 1)}:${i + 1}: ${line.trim()}`);
      });
  }
  return out;
}

test('no generic folder of src/ mentions the datasets\' <SILENCE> turn; the restaurant testbed does', () => {
  assert.deepEqual(GENERIC.flatMap((f) => mentions(`src/${f}`)), []);
  // The scan finds it where it belongs (so it can fail): the restaurant's environments and the bAbI format.
  const restaurant = mentions('src/testbeds/restaurant');
  assert.ok(restaurant.some((m) => m.startsWith('src/testbeds/restaurant/online/env.ts:')), restaurant.join('\n'));
  assert.ok(mentions('src/formats').some((m) => m.startsWith('src/formats/babi.ts:')));
});
