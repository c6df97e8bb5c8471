/**
 * CLI startup and DSTC6 scoring, whole processes, against references measured in the same run:
 * 1. CPU time (user + sys of the child, median of 7, runs interleaved) of `dialogym --help`,
 *    `dialogym dstc6 score --help` and a real `dialogym dstc6 score` vs a bare `node -e 0`, and of
 *    the fully loaded program (every verb's module imported, as the CLI did before the verb
 *    manifest) printing its help.
 * 2. Where one call's CPU goes: a bare python, the whole score mirror, then node -e 0, + an ES
 *    module entry reading the two files, + JSON.parse, + the quick score module scoring (its
 *    imports, the shape check, the ranks), + the CLI's plain path (manifest, flags, output), and
 *    the same call through commander (a trailing `--`: what the plain path saves): when bare node +
 *    reading is above the whole python process, the per-file line cannot hold on this Node.
 * 3. Scoring the 20 DSTC6 test files one CLI call per file vs the official score.py doing the same
 *    (wall and CPU of the 20 processes, median of 5), when python3 is present. The official script
 *    is Python 2; what runs is bench/dstc6-score-mirror.py, a Python 3 stdlib script written for
 *    this benchmark that does what score.py does (optparse, json.load, rank slots, P@1/2/5). Also:
 *    the 20 files in one `dstc6 score` call (a folder), 20 bare `node -e 0` (the floor of one node
 *    process per file, and what dialogym adds per call above it), and parsing + scoring in process.
 * The result files are the official TF-IDF baseline's rankings (tfidfBaseline), written to a
 * temporary folder in the submission layout (tstN/<test file>.answers.json); both scorers must
 * print the same P@1/2/5 for every file, which the benchmark checks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { readDstc6Data, writeDstc6Results } from '../src/formats/dstc6.js';
import { tfidfBaseline } from '../src/testbeds/dstc6/tfidf-baseline.js';
import { cliPath, dstc6Dir, repoRoot } from '../test/shared-data.js';
import { dstc6TestFiles } from '../test/dstc6-files.js';

const RUNS = Number(process.env.CLI_BENCH_RUNS ?? 7);
const SUITE_RUNS = Number(process.env.CLI_BENCH_SUITE_RUNS ?? 5);
const node = process.execPath;
const here = dirname(fileURLToPath(import.meta.url));
/** The mirror script stays in bench/ (tsc does not copy it to dist/bench/). */
const mirror = join(repoRoot, 'bench', 'dstc6-score-mirror.py');

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

/** Runs a command; wall seconds and the child's user + sys CPU seconds (bash `times`: ms resolution). */
function run(cmd: readonly string[]): { wall: number; cpu: number; stdout: string } {
  const script = '"$@" 2>&1; s=$?; times >&2; exit $s';
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script, 'bench', ...cmd], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`);
  // `times`: the shell's own times, then its children's: "0m0.045s 0m0.008s"
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(r.stderr.trim());
  if (!m) throw new Error(`no CPU times from bash: ${r.stderr}`);
  const cpu = Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]);
  return { wall, cpu, stdout: r.stdout };
}

const fmt = (s: number): string => `${(s * 1000).toFixed(0)} ms`;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const out = (line: string): void => void process.stdout.write(line + '\n');

out(`load average at start: ${load()}; ${RUNS} runs each, interleaved`);

// ---------------------------------------------------------------------------------------------
// 1. Startup CPU

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-cli-bench-'));
const haveData = existsSync(dstc6Dir);
const files = haveData ? dstc6TestFiles() : [];
const results = files.map((f) => join(tmp, 'results', f.set, basename(f.answers)));
if (haveData) files.forEach((f, i) => writeDstc6Results(results[i] as string, tfidfBaseline(readDstc6Data(f.data))));

const program = pathToFileURL(join(here, '..', 'src', 'cli', 'program.js')).href;
const startup: [string, string[]][] = [
  ['node -e 0', [node, '-e', '0']],
  ['dialogym --help', [node, cliPath, '--help']],
  ['dialogym dstc6 score --help', [node, cliPath, 'dstc6', 'score', '--help']],
  ...(haveData ? [['dialogym dstc6 score (1 file)', [node, cliPath, 'dstc6', 'score', '--result', results[0] as string, '--truth', (files[0] as { answers: string }).answers]] as [string, string[]]] : []),
  ['every verb loaded, --help', [node, '--input-type=module', '-e', `const { buildProgram } = await import(${JSON.stringify(program)}); (await buildProgram()).helpInformation();`]],
];
const cpu = new Map<string, number[]>(startup.map(([name]) => [name, []]));
for (let r = 0; r < RUNS; r++) for (const [name, cmd] of startup) cpu.get(name)?.push(run(cmd).cpu);
const bare = median(cpu.get('node -e 0') as number[]);
for (const [name] of startup) {
  const m = median(cpu.get(name) as number[]);
  out(`${name.padEnd(32)} CPU ${fmt(m).padStart(7)}  ${(m / bare).toFixed(2)}× node -e 0`);
}
const lazy = median(cpu.get('dialogym --help') as number[]);
out(`dialogym --help vs every verb loaded: ${(median(cpu.get('every verb loaded, --help') as number[]) / lazy).toFixed(2)}× less CPU`);

// ---------------------------------------------------------------------------------------------
// 2. The 20 DSTC6 test files

if (!haveData) {
  out(`DSTC6 scoring skipped: ${dstc6Dir} not found (set DIALOGYM_DATA)`);
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}

const firstLines = (s: string): string => s.split('\n').slice(0, 3).join('\n');
const py = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
const pythons: [string, string][] = [];
if (py.status === 0) {
  const exe = py.stdout.trim();
  const onPath = spawnSync('bash', ['-c', 'command -v python3'], { encoding: 'utf8' }).stdout.trim();
  pythons.push([`python3 (${exe})`, exe]);
  if (onPath !== '' && onPath !== exe) pythons.push([`python3 as on PATH (${onPath})`, onPath]);
}

/** One scorer over the 20 files, one process per file: total wall and CPU; checks the figures against dialogym's. */
function suite(cmdOf: (i: number) => string[], check?: string[]): { wall: number; cpu: number; outputs: string[] } {
  let wall = 0;
  let cpuSum = 0;
  const outputs = files.map((_, i) => {
    const r = run(cmdOf(i));
    wall += r.wall;
    cpuSum += r.cpu;
    if (check && firstLines(r.stdout) !== check[i]) throw new Error(`scorers disagree on ${files[i]?.name}:\n${firstLines(r.stdout)}\nvs\n${check[i]}`);
    return firstLines(r.stdout);
  });
  return { wall, cpu: cpuSum, outputs };
}

/** 20 bare node processes: the floor of one node process per file. */
const FLOOR = 'node -e 0, 20 calls (the floor of one node process per file)';
const scorers: [string, (i: number) => string[]][] = [
  ['dialogym dstc6 score, 20 calls', (i) => [node, cliPath, 'dstc6', 'score', '--result', results[i] as string, '--truth', (files[i] as { answers: string }).answers]],
  ...pythons.map(([name, exe]): [string, (i: number) => string[]] => [
    `${name} score mirror, 20 calls`,
    (i) => [exe, mirror, '--input-result-file-test', results[i] as string, '--input-result-file-truth', (files[i] as { answers: string }).answers],
  ]),
  ['dialogym dstc6 score, 1 call (folder)', () => [node, cliPath, 'dstc6', 'score', '--result', join(tmp, 'results'), '--truth', join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0')]],
  [FLOOR, () => [node, '-e', '0']],
];
// Where one call's CPU goes (file 1 of the 20, median of RUNS, interleaved): each line adds one
// step to the one before, from a bare interpreter to the whole CLI call.
{
  const [r0, t0] = [results[0] as string, (files[0] as { answers: string }).answers];
  const quick = pathToFileURL(join(here, '..', 'src', 'testbeds', 'dstc6', 'score-quick.js')).href;
  const readBoth = "import { readFileSync } from 'node:fs'; const a = readFileSync(process.argv[1], 'utf8'), b = readFileSync(process.argv[2], 'utf8');";
  const esm = (code: string): string[] => [node, '--input-type=module', '-e', code, r0, t0];
  const steps: [string, string[]][] = [
    ...pythons.slice(0, 1).flatMap(([, exe]): [string, string[]][] => [
      ['python: bare interpreter (-c pass)', [exe, '-c', 'pass']],
      ['python: score mirror, whole process', [exe, mirror, '--input-result-file-test', r0, '--input-result-file-truth', t0]],
    ]),
    ['node: bare (node -e 0)', [node, '-e', '0']],
    ['node: + an ES module entry reading both files', esm(readBoth)],
    ['node: + JSON.parse both', esm(`${readBoth} JSON.parse(a); JSON.parse(b);`)],
    ['node: + the quick score module, score (no JSON.parse of ours)', esm(`const { scoreDstc6FilesQuickly } = await import(${JSON.stringify(quick)}); scoreDstc6FilesQuickly(process.argv[1], process.argv[2]);`)],
    ['node: the CLI call (manifest, plain flags, output)', [node, cliPath, 'dstc6', 'score', '--result', r0, '--truth', t0]],
    ['node: the same call through commander (a trailing --)', [node, cliPath, 'dstc6', 'score', '--result', r0, '--truth', t0, '--']],
  ];
  const t = new Map<string, number[]>(steps.map(([n]) => [n, []]));
  for (let r = 0; r < RUNS; r++) for (const [n, cmd] of steps) t.get(n)?.push(run(cmd).cpu);
  const med = (n: string): number => median(t.get(n) as number[]);
  out(`\none DSTC6 file (${basename(r0)}), where a call's CPU goes (median of ${RUNS}):`);
  let prev: number | undefined;
  for (const [n] of steps) {
    const m = med(n);
    const step = n.startsWith('node: +') || n.startsWith('node: the') ? `  (${m >= (prev as number) ? '+' : ''}${fmt(m - (prev as number))})` : '';
    out(`${n.padEnd(56)} CPU ${fmt(m).padStart(7)}${step}`);
    prev = m;
  }
  if (pythons.length > 0) {
    const floor = med('node: + an ES module entry reading both files');
    const py = med('python: score mirror, whole process');
    out(
      floor > py
        ? `floor: bare node + reading the two files ${fmt(floor)} > the whole python process ${fmt(py)}: one node process per file cannot match score.py on this Node (${process.version})`
        : `floor: bare node + reading the two files ${fmt(floor)} ≤ the whole python process ${fmt(py)}: the per-file line is reachable`,
    );
  }
}

const reference = suite(scorers[0]?.[1] as (i: number) => string[]).outputs;
const times = new Map<string, { wall: number[]; cpu: number[] }>(scorers.map(([n]) => [n, { wall: [], cpu: [] }]));
for (let r = 0; r < SUITE_RUNS; r++) {
  for (const [name, cmdOf] of scorers) {
    const one = name.endsWith('(folder)');
    const t = one ? run(cmdOf(0)) : suite(cmdOf, name === FLOOR ? undefined : reference);
    times.get(name)?.wall.push(t.wall);
    times.get(name)?.cpu.push(t.cpu);
  }
}
out(`\nscoring the 20 DSTC6 test files (20,000 dialogs; TF-IDF results), whole processes, median of ${SUITE_RUNS}; same P@1/2/5 for every file:`);
const ours = times.get(scorers[0]?.[0] as string) as { wall: number[]; cpu: number[] };
for (const [name] of scorers) {
  const t = times.get(name) as { wall: number[]; cpu: number[] };
  out(`${name.padEnd(78)} wall ${fmt(median(t.wall)).padStart(8)}  CPU ${fmt(median(t.cpu)).padStart(8)}`);
}
for (const [name] of pythons) {
  const t = times.get(`${name} score mirror, 20 calls`) as { wall: number[]; cpu: number[] };
  out(`${name}: dialogym 20 calls are ${(median(t.wall) / median(ours.wall)).toFixed(2)}× as fast in wall time, ${(median(t.cpu) / median(ours.cpu)).toFixed(2)}× in CPU (> 1: dialogym faster)`);
}
if (pythons.length === 0) out('python3 not found: no comparison with score.py');
const floor = times.get(FLOOR) as { wall: number[]; cpu: number[] };
out(`dialogym 20 calls above ${FLOOR.split(' (')[0]}: ${fmt((median(ours.wall) - median(floor.wall)) / files.length)} wall, ${fmt((median(ours.cpu) - median(floor.cpu)) / files.length)} CPU per call`);

// In process: read, parse and score the 20 files once (a fresh process each, as the CLI does).
const inProcess: number[] = [];
for (let r = 0; r < SUITE_RUNS; r++) {
  const code = `const { scoreDstc6Files } = await import(${JSON.stringify(pathToFileURL(join(here, '..', 'src', 'testbeds', 'dstc6', 'score.js')).href)});
const pairs = ${JSON.stringify(files.map((f, i) => [results[i], f.answers]))};
const t0 = performance.now(); for (const [r, t] of pairs) scoreDstc6Files(r, t); process.stdout.write(String((performance.now() - t0) / 1000));`;
  inProcess.push(Number(spawnSync(node, ['--input-type=module', '-e', code], { encoding: 'utf8' }).stdout));
}
out(`\nin process, 20 files read, parsed and scored once: dialogym ${fmt(median(inProcess))}`);
for (const [name, exe] of pythons.slice(0, 1)) {
  const code = `import sys, time; sys.path.insert(0, ${JSON.stringify(dirname(mirror))}); m = __import__('dstc6-score-mirror')
pairs = ${JSON.stringify(files.map((f, i) => [results[i], f.answers]))}
t0 = time.perf_counter()
for r, t in pairs:
    test = m.load(r, 10); truth = m.load(t, 1); [m.precision(truth, test, k) for k in (1, 2, 5)]
print(time.perf_counter() - t0)`;
  const t: number[] = [];
  for (let r = 0; r < SUITE_RUNS; r++) t.push(Number(spawnSync(exe, ['-c', code], { encoding: 'utf8' }).stdout));
  out(`in process, ${name} score mirror: ${fmt(median(t))}; dialogym ${(median(t) / median(inProcess)).toFixed(2)}× as fast`);
}
out(`load average at end: ${load()}`);
rmSync(tmp, { recursive: true, force: true });
