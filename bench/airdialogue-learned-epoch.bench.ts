/**
 * One training epoch of the learned AirDialogue models on the released 802-dialogue sample (the
 * issue-39 row): dim 24, hidden 48, batch 8, Adam 0.01, clip 5, match + constraint features,
 * `--min-count 3`, seed 1, no dev pass — CPU seconds of the training loop alone (process.cpuUsage;
 * the machine's load average is printed beside), median of AIR_EPOCH_ROUNDS rounds (default 1).
 *
 * Paired with PyTorch, rounds interleaved (bench/airdialogue-learned-torch.py: the same
 * architecture and step on the examples as dialogym prepares them, 1 thread) when $PYTHON,
 * python3 or /usr/bin/python3 imports torch; skipped with a note otherwise. Prints dialogym's
 * CPU, PyTorch's CPU (its training loop, process time) and the ratio dialogym ÷ PyTorch.
 *
 * Threads: each round trains once per entry of AIR_EPOCH_THREADS (default "1,2": `threads` of
 * trainAirModels, the same weights for any count), printing wall and CPU (all threads of the
 * process) of each, and with both cores the ratio of dialogym's wall to PyTorch's (1 thread).
 * The machine is shared: the load average is printed beside every figure.
 *
 * The sample: $AIR_DATA (a folder with train_data.json / train_kb.json), default
 * /work/shared/data/airdialogue (the released sample, docs/airdialogue.md). With
 * AIR_EPOCH_DIALOGUES=n the epoch runs over n dialogues (the sample's lines repeated; PyTorch not
 * run) and the full release's epoch (321,459 dialogues) is extrapolated from it.
 *
 * Run: `npx tsc -p . && node dist/bench/airdialogue-learned-epoch.bench.js`
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAirDialogue } from '../src/formats/airdialogue.js';
import { trainAirModels } from '../src/testbeds/airdialogue/learned/train.js';
import { exportPrepared } from './airdialogue-learned-export.js';

const DIR = process.env.AIR_DATA ?? '/work/shared/data/airdialogue';
const ROUNDS = Number(process.env.AIR_EPOCH_ROUNDS ?? 1);
const THREADS = (process.env.AIR_EPOCH_THREADS ?? '1,2').split(',').map(Number);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!existsSync(join(DIR, 'train_data.json'))) {
  process.stdout.write(`skipped: no ${join(DIR, 'train_data.json')} (set AIR_DATA to the AirDialogue folder)\n`);
  process.exit(0);
}
const sample = readAirDialogue(join(DIR, 'train_data.json'), join(DIR, 'train_kb.json'));
const N = Number(process.env.AIR_EPOCH_DIALOGUES ?? sample.length);
const train = N === sample.length ? sample : Array.from({ length: N }, (_, i) => sample[i % sample.length]!);
const opts = { epochs: 1, dim: 24, hidden: 48, batch: 8, lr: 0.01, clip: 5, minCount: 3, seed: 1 };

// The first of $PYTHON, python3, /usr/bin/python3 (Debian's, where python3-torch installs) that imports torch.
const pythons = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => !!p);
const found = N !== sample.length ? undefined : pythons.map((py) => ({ py, probe: spawnSync(py, ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8' }) })).find((c) => c.probe.status === 0);
if (!found && N !== sample.length) process.stdout.write(`PyTorch peer not run for ${N} dialogues (AIR_EPOCH_DIALOGUES)\n`);
else if (!found) process.stdout.write(`PyTorch peer skipped: none of ${pythons.join(', ')} can import torch (Debian: apt-get install python3-torch)\n`);
const exportFile = join(mkdtempSync(join(tmpdir(), 'air-torch-')), 'prepared.json');
if (found) writeFileSync(exportFile, JSON.stringify(exportPrepared(train, opts)));
const script = new URL('../../bench/airdialogue-learned-torch.py', import.meta.url).pathname;

/**
 * CPU seconds of each thread of this process (/proc/self/task/<tid>/stat, utime + stime at 100
 * ticks a second), by thread id; empty where /proc is missing.
 */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(f[11]) + Number(f[12])) / 100);
    }
  } catch {
    // no /proc: no per-thread figures
  }
  return out;
}

// interleaved rounds: dialogym (each thread count), then PyTorch
const ours = new Map<number, { cpu: number[]; wall: number[] }>(THREADS.map((t) => [t, { cpu: [], wall: [] }]));
const theirs: number[] = [];
const theirWall: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const losses = new Set<number>();
  for (const threads of THREADS) {
    const l0 = load();
    const t0 = threadCpu();
    const c0 = process.cpuUsage();
    const w0 = Date.now();
    const res = trainAirModels(train, [], { ...opts, threads });
    const c = process.cpuUsage(c0);
    // the workers are still there (their pool closes on the next turn of the event loop)
    const busy = [...threadCpu()].map(([tid, s]) => s - (t0.get(tid) ?? 0)).filter((s) => s >= 0.5).sort((a, b) => b - a);
    const s = (c.user + c.system) / 1e6;
    const w = (Date.now() - w0) / 1000;
    ours.get(threads)!.cpu.push(s);
    ours.get(threads)!.wall.push(w);
    losses.add(res.curve[0]!.trainLm);
    process.stdout.write(`dialogym, ${threads} thread${threads === 1 ? '' : 's'}: one epoch over ${train.length} dialogues: ${s.toFixed(1)} s CPU, ${w.toFixed(1)} s wall, train loss ${res.curve[0]!.trainLm.toFixed(4)} (load ${l0} → ${load()})${busy.length > 0 ? `; threads busy ≥ 0.5 s: ${busy.map((x) => x.toFixed(1)).join(', ')} s CPU` : ''}\n`);
  }
  if (losses.size !== 1) throw new Error(`the thread counts ${THREADS.join(', ')} gave different losses: ${[...losses].join(', ')}`);
  if (!found) continue;
  const l0 = load();
  const run = spawnSync(found.py, [script, exportFile], { encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
  if (run.status !== 0) throw new Error(`airdialogue-learned-torch.py failed: ${run.stderr.trim().split('\n').pop()}`);
  theirs.push(Number(/cpu ([\d.]+) s/.exec(run.stdout)?.[1]));
  theirWall.push(Number(/wall ([\d.]+) s/.exec(run.stdout)?.[1]));
  process.stdout.write(`pytorch ${found.probe.stdout.trim()} (1 thread): ${run.stdout.trim()} (load ${l0} → ${load()})\n`);
}
for (const [threads, m] of ours) {
  process.stdout.write(`dialogym, ${threads} thread${threads === 1 ? '' : 's'}, median: ${median(m.cpu).toFixed(1)} s CPU, ${median(m.wall).toFixed(1)} s wall (${ROUNDS} round${ROUNDS === 1 ? '' : 's'}); the full release's 321,459 dialogues extrapolated: ${((median(m.cpu) / N) * 321459 / 3600).toFixed(2)} h CPU, ${((median(m.wall) / N) * 321459 / 3600).toFixed(2)} h wall an epoch\n`);
  if (found) process.stdout.write(`  ratio dialogym ÷ PyTorch (1 thread): CPU ${(median(m.cpu) / median(theirs)).toFixed(2)}, wall ${(median(m.wall) / median(theirWall)).toFixed(2)}\n`);
}
if (found) process.stdout.write(`PyTorch median: ${median(theirs).toFixed(1)} s CPU, ${median(theirWall).toFixed(1)} s wall\n`);
