/**
 * Cost of schema validation on the real files: per file, the median of 5 reads of (a) JSON.parse
 * alone (per line for JSON Lines), (b) the reader (depth scan, JSON.parse, finite-number check,
 * ajv validation against schemas/, cross checks). Also the one-off cost of loading ajv and
 * compiling a schema (paid once per process, only by commands that read JSON).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { parseAirData, parseAirKb } from '../src/formats/airdialogue.js';
import { parseDstc6Data, parseDstc6Results } from '../src/formats/dstc6.js';
import { checkSchema } from '../src/formats/schema.js';
import { airDir, dstc6Dir } from '../test/shared-data.js';

const t0 = performance.now();
checkSchema('dstc6-results', []);
const firstCompile = performance.now() - t0;

function median(fn: () => void, n = 5): number {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  return xs.sort((a, b) => a - b)[Math.floor(n / 2)] as number;
}

const files: Array<{ file: string; jsonl: boolean; read: (t: string, f: string) => unknown }> = [];
const tst = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0');
for (const d of ['tst1', 'tst3']) {
  for (const f of readdirSync(join(tst, d)).sort()) files.push({ file: join(tst, d, f), jsonl: false, read: f.endsWith('.answers.json') ? parseDstc6Results : parseDstc6Data });
}
for (const f of ['dev_data.json', 'train_data.json']) files.push({ file: join(airDir, f), jsonl: true, read: parseAirData });
for (const f of ['dev_kb.json', 'train_kb.json']) files.push({ file: join(airDir, f), jsonl: true, read: parseAirKb });

console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${cpus().length} cores; ajv load + first schema compile ${firstCompile.toFixed(1)} ms`);
let parseTotal = 0;
let readTotal = 0;
for (const { file, jsonl, read } of files) {
  const text = readFileSync(file, 'utf8');
  read(text, file); // warm-up (compiles the schema)
  const parse = median(() => (jsonl ? text.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown) : JSON.parse(text)));
  const full = median(() => read(text, file));
  parseTotal += parse;
  readTotal += full;
  console.log(`${file.slice(file.lastIndexOf('/') + 1).padEnd(64)} ${(text.length / 1e6).toFixed(2)} MB  JSON.parse ${parse.toFixed(1)} ms  reader ${full.toFixed(1)} ms  (${(full / parse).toFixed(2)}x)`);
}
console.log(`all ${files.length} files: JSON.parse ${parseTotal.toFixed(0)} ms, readers with schema validation ${readTotal.toFixed(0)} ms (${(readTotal / parseTotal).toFixed(2)}x)`);
