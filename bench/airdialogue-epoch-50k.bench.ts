/**
 * One epoch of `dialogym airdialogue train` over N generated dialogues (default 50,000), and the
 * full release's epoch (321,459 training dialogues) extrapolated from it. Only the 802-dialogue
 * sample of the release is on this machine, so the training set is made by dialogym's templated
 * simulator (`airdialogue splits --train-dialogs N`, seed 1, in-domain), then trained for ONE epoch
 * with the architecture of bench/airdialogue-learned-epoch.bench.ts (dim 24, hidden 48, batch 8,
 * Adam 0.01, clip 5, match + constraint features, --min-count 3, seed 1) and `--workers 2`, in its
 * own process under `nice -n 5` and `/usr/bin/time -v` (user + sys CPU of the process and its
 * threads, wall, peak RSS). The dev part is AIR_EPOCH_DEV (default 20) generated dialogues, so
 * that the figure is the epoch's (the dev pass after it is ~0.01 % of it at 50,000).
 *
 * Generated dialogues are shorter than the release's (fewer turns, plainer words): the token
 * counts of both (the learned models' token stream, tokens.ts `dialogueTokens`) are printed with
 * their ratio. The work of an epoch per dialogue is a fixed part (the 30 flights of the KB
 * encoded, the state model) plus a part that grows with the tokens (the GRUs and the output
 * layer over each token), so the plain extrapolation (CPU ÷ N × 321,459) is a lower bound for
 * the release and scaling all of it by the token ratio an upper bound. With AIR_EPOCH_CALIBRATE=1
 * (and the sample in $AIR_DATA, default /work/shared/data/airdialogue) the same command also
 * trains one epoch on the sample and on as many generated dialogues, and the measured ratio of
 * their CPU per dialogue gives the estimate in between.
 *
 * Run: `npx tsc -p . && node dist/bench/airdialogue-epoch-50k.bench.js [dialogues]` (measured
 * on 28 Nov 2026, 2 cores shared at load 11–17: 50,000 dialogues in 367 s of CPU, 7.3 ms a
 * dialogue, 32 min wall; with AIR_EPOCH_CALIBRATE=1 two more epochs of 802 dialogues, ~17 s CPU).
 * Environment: AIR_EPOCH_DIR (scratch folder, default a temp folder, removed at the end unless
 * AIR_EPOCH_KEEP=1; an existing folder with the splits of the same N is reused), AIR_EPOCH_WORKERS
 * (default 2). Not a test: it runs for an hour or more.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dialogueTokens } from '../src/testbeds/airdialogue/learned/tokens.js';
import { repoRoot, sharedData } from '../test/shared-data.js';

const FULL = 321_459;
const N = Number(process.argv[2] ?? 50_000);
if (!Number.isSafeInteger(N) || N < 1) throw new Error(`dialogues: expected a positive integer, got '${process.argv[2]}'`);
const DEV = Number(process.env.AIR_EPOCH_DEV ?? 20);
const WORKERS = process.env.AIR_EPOCH_WORKERS ?? '2';
const SAMPLE = process.env.AIR_DATA ?? join(sharedData, 'airdialogue');
const bin = join(repoRoot, 'dist', 'src', 'cli', 'main.cjs');
const TIME = '/usr/bin/time';
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const out = (line: string): void => void process.stdout.write(`${line}\n`);

if (!existsSync(TIME)) {
  out(`skipped: no ${TIME} (Debian: apt-get install time)`);
  process.exit(0);
}
const keep = process.env.AIR_EPOCH_KEEP === '1' || process.env.AIR_EPOCH_DIR !== undefined;
const dir = process.env.AIR_EPOCH_DIR ?? mkdtempSync(join(tmpdir(), 'air-epoch-'));
mkdirSync(dir, { recursive: true });

/** What `/usr/bin/time -v` says of one process. */
interface Timed {
  readonly cpu: number;
  readonly user: number;
  readonly sys: number;
  readonly wall: number;
  readonly rssMb: number;
  readonly stdout: string;
}

/** Runs `node <bin> args…` under `nice -n 5` and `/usr/bin/time -v`; its figures and stdout. */
function timed(args: readonly string[]): Timed {
  const report = join(dir, 'time.txt');
  const l0 = load();
  const r = spawnSync('nice', ['-n', '5', TIME, '-v', '-o', report, process.execPath, bin, ...args], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`dialogym ${args.join(' ')} failed (${r.status}): ${r.stdout}`);
  const t = readFileSync(report, 'utf8');
  const field = (name: string): string => {
    const m = new RegExp(`${name}: (.+)`).exec(t);
    if (!m) throw new Error(`no "${name}" in ${TIME} -v's report:\n${t}`);
    return (m[1] as string).trim();
  };
  const user = Number(field('User time \\(seconds\\)'));
  const sys = Number(field('System time \\(seconds\\)'));
  const wall = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')
    .split(':')
    .reduce((a, x) => a * 60 + Number(x), 0);
  const rssMb = Number(field('Maximum resident set size \\(kbytes\\)')) / 1024;
  out(`  ${user.toFixed(1)} s user + ${sys.toFixed(1)} s sys = ${(user + sys).toFixed(1)} s CPU, ${wall.toFixed(1)} s wall, peak RSS ${rssMb.toFixed(0)} MB (load ${l0} → ${load()})`);
  return { cpu: user + sys, user, sys, wall, rssMb, stdout: r.stdout };
}

/** Mean tokens and turns a dialogue of a data file (the first `max` lines). */
function tokenStats(file: string, max = Infinity): { dialogues: number; tokens: number; turns: number } {
  let dialogues = 0;
  let tokens = 0;
  let turns = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '' || dialogues >= max) continue;
    const d = (JSON.parse(line) as { dialogue: string[] }).dialogue;
    dialogues++;
    turns += d.length;
    tokens += dialogueTokens(d).tokens.length;
  }
  return { dialogues, tokens: tokens / dialogues, turns: turns / dialogues };
}

const TRAIN_FLAGS = ['--epochs', '1', '--dim', '24', '--hidden', '48', '--batch', '8', '--lr', '0.01', '--min-count', '3', '--seed', '1', '--workers', WORKERS];

/** One epoch of `airdialogue train` on `data`/`kb` (first `max` lines), dev `devData`/`devKb`; the process's figures and the epoch's train loss. */
function epoch(data: string, kb: string, devData: string, devKb: string, max?: number): Timed & { loss: string } {
  const model = join(dir, 'model.dgm');
  const t = timed(['airdialogue', 'train', '--data', data, '--kb', kb, '--dev-data', devData, '--dev-kb', devKb, ...(max === undefined ? [] : ['--max-dialogues', String(max)]), '--out', model, ...TRAIN_FLAGS]);
  const line = t.stdout.split('\n').find((l) => l.startsWith('epoch 1:')) ?? '(no epoch line)';
  out(`  ${t.stdout.split('\n').find((l) => l.startsWith('read ')) ?? ''}`);
  out(`  ${line}`);
  return { ...t, loss: /train LM ([\d.]+)/.exec(line)?.[1] ?? '?' };
}

out(`node ${process.version}; ${N} generated dialogues, workers ${WORKERS}; load average at start: ${load()}`);

// 1. the training set
const splits = join(dir, `splits-${N}`);
const data = join(splits, 'train_data.json');
const kb = join(splits, 'train_kb.json');
const devData = join(splits, 'dev_data.json');
const devKb = join(splits, 'dev_kb.json');
if (!existsSync(devKb)) {
  out(`\ngenerating: dialogym airdialogue splits --train-dialogs ${N} --dev-dialogs ${DEV} --test-dialogs 0 --seed 1`);
  timed(['airdialogue', 'splits', '--out', splits, '--train-dialogs', String(N), '--dev-dialogs', String(DEV), '--test-dialogs', '0', '--seed', '1']);
} else out(`\nreusing ${splits}`);

// 2. token counts: generated vs the release's sample
const gen = tokenStats(data);
out(`\ngenerated: ${gen.tokens.toFixed(1)} tokens and ${gen.turns.toFixed(2)} turns a dialogue (${gen.dialogues} dialogues)`);
const sampleData = join(SAMPLE, 'train_data.json');
const sample = existsSync(sampleData) ? tokenStats(sampleData) : undefined;
if (sample) out(`the release's sample: ${sample.tokens.toFixed(1)} tokens and ${sample.turns.toFixed(2)} turns a dialogue (${sample.dialogues} dialogues); generated ÷ sample: ${(gen.tokens / sample.tokens).toFixed(3)} in tokens`);
else out(`no ${sampleData}: token ratio not measured (set AIR_DATA)`);

// 3. the epoch
out(`\none epoch of airdialogue train over ${N} generated dialogues (${TRAIN_FLAGS.join(' ')}; dev ${DEV}):`);
const main = epoch(data, kb, devData, devKb);
const perDialogue = main.cpu / N;
out(`  ${((perDialogue * 10_000) / 1).toFixed(0)} s CPU per 10,000 dialogues (${(perDialogue * 1000).toFixed(1)} ms a dialogue), ${((main.wall / N) * 10_000).toFixed(0)} s wall per 10,000`);

// 4. optional calibration: the sample against as many generated dialogues
let measuredRatio: number | undefined;
if (process.env.AIR_EPOCH_CALIBRATE === '1' && sample) {
  const n = Math.min(sample.dialogues, N);
  out(`\ncalibration: one epoch on the release's ${sample.dialogues}-dialogue sample and on ${n} generated dialogues (same flags; dev ${DEV} generated):`);
  const real = epoch(sampleData, join(SAMPLE, 'train_kb.json'), devData, devKb);
  const same = epoch(data, kb, devData, devKb, n);
  measuredRatio = real.cpu / sample.dialogues / (same.cpu / n);
  out(`  CPU a dialogue, sample ÷ generated: ${measuredRatio.toFixed(3)}`);
}

// 5. the full release
const h = (s: number): string => `${(s / 3600).toFixed(2)} h`;
const scale = FULL / N;
out(`\nthe full release's epoch (${FULL.toLocaleString('en')} dialogues), extrapolated from ${N.toLocaleString('en')} (load ${load()}):`);
out(`  as generated dialogues (linear in dialogues): ${h(main.cpu * scale)} CPU, ${h(main.wall * scale)} wall with ${WORKERS} workers`);
if (sample) {
  const r = sample.tokens / gen.tokens;
  out(`  all of it scaled by the token ratio ${r.toFixed(3)} (upper bound: the per-dialogue KB work does not grow with tokens): ${h(main.cpu * scale * r)} CPU, ${h(main.wall * scale * r)} wall`);
}
if (measuredRatio !== undefined) out(`  scaled by the measured CPU ratio ${measuredRatio.toFixed(3)}: ${h(main.cpu * scale * measuredRatio)} CPU, ${h(main.wall * scale * measuredRatio)} wall`);
out(`  peak RSS of the ${N}-dialogue run: ${main.rssMb.toFixed(0)} MB`);
if (!keep) rmSync(dir, { recursive: true, force: true });
