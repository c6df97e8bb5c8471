/**
 * CLI start-up and DSTC6 scoring against their peers, whole processes measured in the same run
 * (rounds interleaved, medians of CPU seconds — user + sys of the child — and wall; the load
 * average printed beside each table). Children run without NODE_EXTRA_CA_CERTS (Node reads the
 * whole certificate bundle it names at start-up: what it adds to a bare `node -e 0` is printed).
 *
 * 1. Start-up: `dialogym --help` and `dialogym evaluate --help` through the package's bin (the
 *    CommonJS entry src/cli/main.cts) and through the ES module entry (src/cli/index.ts), against
 *    a bare `node -e 0` (and python3 -c pass, for scale).
 * 2. DSTC6 scoring, 20 processes: the 20 test files scored one `dialogym dstc6 score` call per
 *    file, against the official score.py doing the same. The official script is Python 2; what
 *    runs is bench/dstc6-score-mirror.py, a Python 3 stdlib script written for this benchmark that
 *    does what score.py does (optparse, json.load, rank slots, P@1/2/5). Both must print the same
 *    P@1/2/5 for every file, which the benchmark checks. Each python found is measured (the one
 *    on PATH, its real executable, /usr/bin/python3): interpreters differ by 2× in start-up here.
 *    Also printed: each scorer's CPU a process above a bare `node -e 0` (the floor), which the
 *    machine's load moves less than the totals.
 * 3. DSTC6 scoring, 20 files in one process: one `dialogym dstc6 score --result <folder>` call
 *    against one python process scoring the 20 files with the mirror's functions.
 * The result files are the official TF-IDF baseline's rankings (tfidfBaseline), written to a
 * temporary folder in the submission layout (tstN/<test file>.answers.json).
 *
 * `node dist/bench/cli-startup.bench.js`; CLI_BENCH_RUNS (default 7) rounds for start-up,
 * CLI_BENCH_SUITE_RUNS (default 5) for scoring; CLI_BENCH_BEFORE=<an older build's
 * dist/src/cli/index.js> adds its rows (before/after in one run), run through its bin (the
 * main.cjs beside it) where it has one, as this build's rows are.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readDstc6Data, writeDstc6Results } from '../src/formats/dstc6.js';
import { tfidfBaseline } from '../src/testbeds/dstc6/tfidf-baseline.js';
import { cliPath, dstc6Dir, repoRoot } from '../test/shared-data.js';
import { dstc6TestFiles } from '../test/dstc6-files.js';

const RUNS = Number(process.env.CLI_BENCH_RUNS ?? 7);
const SUITE_RUNS = Number(process.env.CLI_BENCH_SUITE_RUNS ?? 5);
const BEFORE_ENTRY = process.env.CLI_BENCH_BEFORE;
/** The older build's entry for the before rows: its bin where it has one. */
const BEFORE = BEFORE_ENTRY === undefined ? undefined : existsSync(join(dirname(BEFORE_ENTRY), 'main.cjs')) ? join(dirname(BEFORE_ENTRY), 'main.cjs') : BEFORE_ENTRY;
const BEFORE_NAME = BEFORE === undefined ? '' : BEFORE.endsWith('main.cjs') ? ' (bin)' : ' (ES module entry)';
const node = process.execPath;
const bin = join(repoRoot, 'dist', 'src', 'cli', 'main.cjs');
/** The mirror script stays in bench/ (tsc does not copy it to dist/bench/). */
const mirror = join(repoRoot, 'bench', 'dstc6-score-mirror.py');
const CA = 'NODE_EXTRA_CA_CERTS';
const { [CA]: caCerts, ...env } = process.env;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

interface Run {
  readonly wall: number;
  readonly cpu: number;
  readonly stdout: string;
}

/** Runs a command without NODE_EXTRA_CA_CERTS (unless `withEnv`); wall seconds and the child's user + sys CPU seconds (bash `times`: ms resolution). */
function run(cmd: readonly string[], withEnv: NodeJS.ProcessEnv = env): Run {
  const script = '"$@" 2>&1; s=$?; times >&2; exit $s';
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script, 'bench', ...cmd], { encoding: 'utf8', maxBuffer: 1 << 26, env: withEnv });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`);
  // `times`: the shell's own user and sys times, then (last line) its children's: "0m0.045s 0m0.008s"
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(r.stderr.trim());
  if (!m) throw new Error(`no CPU times from bash: ${r.stderr}`);
  return { wall, cpu: Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]), stdout: r.stdout };
}

const ms = (s: number): string => `${(s * 1000).toFixed(1)} ms`;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const out = (line: string): void => void process.stdout.write(line + '\n');

/** Runs each named job once per round, rounds interleaved; medians of its CPU and wall. */
function paired(jobs: readonly [string, () => Run][], rounds: number): Map<string, { cpu: number; wall: number }> {
  const t = new Map<string, Run[]>(jobs.map(([n]) => [n, []]));
  for (let r = 0; r < rounds; r++) for (const [n, job] of jobs) t.get(n)?.push(job());
  return new Map([...t].map(([n, runs]) => [n, { cpu: median(runs.map((x) => x.cpu)), wall: median(runs.map((x) => x.wall)) }]));
}

function table(title: string, m: Map<string, { cpu: number; wall: number }>, peer: string): void {
  const p = m.get(peer) as { cpu: number; wall: number };
  out(`\n${title} (load ${load()}); ratio = ÷ ${peer}`);
  for (const [n, t] of m) out(`  ${n.padEnd(58)} CPU ${ms(t.cpu).padStart(9)} (${(t.cpu / p.cpu).toFixed(2)}×)  wall ${ms(t.wall).padStart(9)} (${(t.wall / p.wall).toFixed(2)}×)`);
}

out(`node ${process.version}; load average at start: ${load()}; children run without ${CA}`);

// ---------------------------------------------------------------------------------------------
// 0. What NODE_EXTRA_CA_CERTS adds to every Node start

const bundle = caCerts ?? '/etc/ssl/certs/ca-certificates.crt';
if (existsSync(bundle)) {
  const m = paired(
    [
      ['node -e 0', () => run([node, '-e', '0'])],
      [`node -e 0 with ${CA}=${bundle}`, () => run([node, '-e', '0'], { ...env, [CA]: bundle })],
    ],
    RUNS,
  );
  table(`${CA}, median of ${RUNS}`, m, 'node -e 0');
}

// ---------------------------------------------------------------------------------------------
// 1. Start-up

const py = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
const pythons = [...new Set([...(py.status === 0 ? [py.stdout.trim()] : []), ...(existsSync('/usr/bin/python3') ? ['/usr/bin/python3'] : [])])];
{
  const jobs: [string, () => Run][] = [
    ['node -e 0', () => run([node, '-e', '0'])],
    ['dialogym --help (bin)', () => run([node, bin, '--help'])],
    ['dialogym evaluate --help (bin)', () => run([node, bin, 'evaluate', '--help'])],
    ['dialogym --help (ES module entry)', () => run([node, cliPath, '--help'])],
    ['dialogym evaluate --help (ES module entry)', () => run([node, cliPath, 'evaluate', '--help'])],
    ...(BEFORE === undefined
      ? []
      : ([
          [`before: dialogym --help${BEFORE_NAME}`, () => run([node, BEFORE, '--help'])],
          [`before: dialogym evaluate --help${BEFORE_NAME}`, () => run([node, BEFORE, 'evaluate', '--help'])],
        ] as [string, () => Run][])),
    ...pythons.map((exe): [string, () => Run] => [`${exe} -c pass`, () => run([exe, '-c', 'pass'])]),
  ];
  table(`start-up, median of ${RUNS}`, paired(jobs, RUNS), 'node -e 0');
}

// ---------------------------------------------------------------------------------------------
// 2, 3. DSTC6 scoring

if (!existsSync(dstc6Dir)) {
  out(`\nDSTC6 scoring skipped: ${dstc6Dir} not found (set DIALOGYM_DATA)`);
  process.exit(0);
}
if (pythons.length === 0) {
  out('\nDSTC6 scoring skipped: no python3 for the score.py mirror');
  process.exit(0);
}
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-cli-bench-'));
const files = dstc6TestFiles();
const results = files.map((f) => join(tmp, 'results', f.set, basename(f.answers)));
files.forEach((f, i) => writeDstc6Results(results[i] as string, tfidfBaseline(readDstc6Data(f.data))));
const truthDir = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0');

/** score.py's three lines of one run's output (dialogym prints them first, then MRR and counts). */
const precisions = (s: string): string => s.split('\n').slice(0, 3).join('\n');

/** One scorer over the 20 files, one process per file: CPU and wall summed; the outputs. */
function perFile(cmdOf: (i: number) => string[]): Run & { outputs: string[] } {
  let wall = 0;
  let cpu = 0;
  const outputs = files.map((_, i) => {
    const r = run(cmdOf(i));
    wall += r.wall;
    cpu += r.cpu;
    return precisions(r.stdout);
  });
  return { wall, cpu, stdout: '', outputs };
}

const ours = (i: number): string[] => [node, bin, 'dstc6', 'score', '--result', results[i] as string, '--truth', (files[i] as { answers: string }).answers];
const theirs = (exe: string) => (i: number) => [exe, mirror, '--input-result-file-test', results[i] as string, '--input-result-file-truth', (files[i] as { answers: string }).answers];
{
  const reference = perFile(ours).outputs;
  for (const exe of pythons) {
    const got = perFile(theirs(exe)).outputs;
    got.forEach((o, i) => {
      if (o !== reference[i]) throw new Error(`scorers disagree on ${files[i]?.name}:\n${reference[i]}\nvs ${exe}:\n${o}`);
    });
  }
  out(`\nDSTC6: the 20 test files (20,000 dialogs; TF-IDF results): dialogym and the score.py mirror print the same P@1/2/5 for every file`);
  const jobs: [string, () => Run][] = [
    ['dialogym dstc6 score, 20 calls (bin)', () => perFile(ours)],
    ['node -e 0, 20 calls (the floor of a node process per file)', () => perFile(() => [node, '-e', '0'])],
    ...(BEFORE === undefined ? [] : ([[`before: dialogym dstc6 score, 20 calls${BEFORE_NAME}`, () => perFile((i) => [node, BEFORE, ...ours(i).slice(2)])]] as [string, () => Run][])),
    ...pythons.map((exe): [string, () => Run] => [`score.py mirror (${exe}), 20 calls`, () => perFile(theirs(exe))]),
  ];
  const m = paired(jobs, SUITE_RUNS);
  table(`DSTC6 scoring, one process per file (20 processes, summed), median of ${SUITE_RUNS}`, m, `score.py mirror (${pythons[pythons.length - 1]}), 20 calls`);
  // what each scorer adds to a process that does nothing (less sensitive to the machine's load than the totals)
  const floor = (m.get('node -e 0, 20 calls (the floor of a node process per file)') as { cpu: number }).cpu;
  out(`  CPU a process above node -e 0: ${[...m].filter(([n]) => !n.startsWith('node -e 0')).map(([n, t]) => `${n.replace(/, 20 calls.*$/, '')} ${ms((t.cpu - floor) / files.length)}`).join('; ')}`);
}
{
  const pairsFile = join(tmp, 'pairs.json');
  writeFileSync(pairsFile, JSON.stringify(files.map((f, i) => [results[i], f.answers])));
  const loop = `import sys, json; sys.path.insert(0, ${JSON.stringify(join(repoRoot, 'bench'))}); m = __import__('dstc6-score-mirror')
for r, t in json.load(open(${JSON.stringify(pairsFile)})):
    test = m.load(r, 10); truth = m.load(t, 1); print([m.precision(truth, test, k) for k in (1, 2, 5)])`;
  const jobs: [string, () => Run][] = [
    ['dialogym dstc6 score --result <folder> (bin)', () => run([node, bin, 'dstc6', 'score', '--result', join(tmp, 'results'), '--truth', truthDir])],
    ...(BEFORE === undefined ? [] : ([[`before: dialogym dstc6 score --result <folder>${BEFORE_NAME}`, () => run([node, BEFORE, 'dstc6', 'score', '--result', join(tmp, 'results'), '--truth', truthDir])]] as [string, () => Run][])),
    ...pythons.map((exe): [string, () => Run] => [`score.py mirror's functions, 20 files (${exe})`, () => run([exe, '-c', loop])]),
  ];
  const m = paired(jobs, SUITE_RUNS);
  table(`DSTC6 scoring, the 20 files in one process, median of ${SUITE_RUNS}`, m, `score.py mirror's functions, 20 files (${pythons[pythons.length - 1]})`);
}
out(`\nload average at end: ${load()}`);
rmSync(tmp, { recursive: true, force: true });
