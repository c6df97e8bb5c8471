/**
 * Simulator throughput: dialogs per second for every task and split of `generate restaurant`
 * (1000 dialogs each, the KB built once), and the total. Baseline in the same run: parsing the
 * generated text back with parseBabiDialogs (the ratio says how generation compares with reading).
 */
import { performance } from 'node:perf_hooks';
import { createRng } from '../src/core/rng.js';
import { formatBabiDialogs, parseBabiDialogs } from '../src/formats/babi.js';
import { MemoryKbStore, generateRestaurants } from '../src/testbeds/restaurant/kb.js';
import { SPLITS, TASKS, generateSplit } from '../src/testbeds/restaurant/simulator.js';

const N = Number(process.env.BENCH_DIALOGS ?? 1000);
const seed = 1;
const root = createRng(seed);
let t0 = performance.now();
const kb = new MemoryKbStore(generateRestaurants(root.fork('kb')));
const kbMs = performance.now() - t0;
console.log(`KB: 1200 restaurants in ${kbMs.toFixed(1)} ms`);
console.log('task split     dialogs/s (generate)  dialogs/s (parse, baseline)  generate/parse speed');
let genMs = 0;
let parseMs = 0;
let total = 0;
for (const task of TASKS) {
  const taskRng = root.fork(`task${task}`);
  for (const split of SPLITS) {
    t0 = performance.now();
    const dialogs = generateSplit(task, split, kb, taskRng, { dialogs: N });
    const text = formatBabiDialogs(dialogs);
    const g = performance.now() - t0;
    t0 = performance.now();
    const back = parseBabiDialogs(text);
    const p = performance.now() - t0;
    if (back.dialogs.length !== N) throw new Error(`task ${task} ${split}: ${back.dialogs.length} dialogs parsed`);
    genMs += g;
    parseMs += p;
    total += N;
    console.log(`${task}    ${split.padEnd(8)} ${((N / g) * 1000).toFixed(0).padStart(12)}          ${((N / p) * 1000).toFixed(0).padStart(12)}              ${(p / g).toFixed(2)}`);
  }
}
console.log(`total: ${total} dialogs, ${((total / genMs) * 1000).toFixed(0)} dialogs/s generated (${(genMs / 1000).toFixed(2)} s), ${((total / parseMs) * 1000).toFixed(0)} dialogs/s parsed; ratio ${(parseMs / genMs).toFixed(2)}`);
