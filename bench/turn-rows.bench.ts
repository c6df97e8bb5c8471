/**
 * "No row gets slower" (issue 39): the rows of the issue's table — MemN2N + match train and score
 * (bAbI task 5), the DSTC6 TF-IDF baseline, AirDialogue generation and scoring, environment steps
 * (`evaluate` with the rule agent) — run through the CLI of two builds, this one and $BEFORE (the
 * root of another checkout, built: `$BEFORE/dist/src/cli/main.cjs`), in interleaved rounds
 * (before, after; then after, before). Each figure is the process's CPU seconds (user + system,
 * /usr/bin/time), median over the rounds, with the ratio after ÷ before and the load average
 * beside. Needs the original datasets ($DIALOGYM_DATA, default /work/shared/data).
 *
 * TURN_SET=learned: the learned models' rows instead — AirDialogue self-play of the learned agent
 * and customer, `airdialogue eval` with BLEU (greedy decoding of every turn), RL self-play
 * fine-tuning, one supervised epoch (`--workers 1`: the CPU of one thread), KB-InfoBot's e2e-soft
 * training by the recipe of docs/infobot.md (medium, seed 1), HCN on bAbI task 6 —
 * on a model file trained first by this build (one epoch on the sample); where both builds must
 * write the same bytes (self-play's --json, the e2e-soft policy) that is checked. The RL rows (48
 * episodes, and 480: the per-episode throughput without the fixed costs of start-up, model load
 * and data read) write the same bytes as every build since c23919c; an older build (98790c2, whose
 * gradients are summed in another order) writes weights that differ in the last bits, so there the
 * check, after the last round, is the one of `RL_TOLERANCE`: both builds' RL models played by this
 * build (`airdialogue selfplay`, 100 episodes, seed 1), scaled and exact scores within it, and the
 * largest weight difference printed beside the largest change the RL run made. This build plays
 * RL on 2 threads from 200 episodes (`--workers`); the row "480 episodes, one thread" gives it
 * `--workers 1`. The wall seconds are printed beside (medians; on a loaded machine they say little).
 * A build without dist/src/cli/main.cjs (before the CommonJS entry, e.g. 98790c2) runs as
 * dist/src/cli/index.js.
 *
 *   BEFORE=/tmp/base TURN_ROUNDS=3 node dist/bench/turn-rows.bench.js
 *   BEFORE=/tmp/base TURN_SET=learned node dist/bench/turn-rows.bench.js
 *   BEFORE=/tmp/base TURN_SET=learned TURN_ONLY='e2e|RL' node dist/bench/turn-rows.bench.js   (rows whose name matches)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readModelFile } from '../src/formats/model-file.js';

const before = process.env.BEFORE;
const after = new URL('../..', import.meta.url).pathname;
const rounds = Number(process.env.TURN_ROUNDS ?? 3);
const data = process.env.DIALOGYM_DATA ?? '/work/shared/data';
const cli = (root: string): string => (existsSync(join(root, 'dist/src/cli/main.cjs')) ? join(root, 'dist/src/cli/main.cjs') : join(root, 'dist/src/cli/index.js'));
if (!before || !existsSync(cli(before))) {
  process.stdout.write(`skipped: set BEFORE to the root of a built checkout (${before ? `no ${cli(before)}` : 'BEFORE unset'})\n`);
  process.exit(0);
}
if (!existsSync('/usr/bin/time')) {
  process.stdout.write('skipped: /usr/bin/time is missing (Debian: apt-get install time)\n');
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'turn-rows-'));
const load = (): string => loadavg()[0]!.toFixed(2);

const air = join(data, 'airdialogue');
const model = join(dir, 'air.dgm');
/** Largest difference of the self-play scores (scaled and exact, 0–1) of the two builds' RL models when their bytes differ. */
const RL_TOLERANCE = 0.01;
/** An RL row; `oneThread`: this build with `--workers 1` (its default from 200 episodes is 2 threads; the before build has one). */
const rl = (episodes: number, oneThread = false) => ({
  name: `AirDialogue RL self-play fine-tuning, ${episodes} episodes${oneThread ? ', one thread (after: --workers 1)' : ''}`,
  args: (out: string) => ['airdialogue', 'rl', '--init', model, '--out', join(out, `rl${episodes}${oneThread ? '-1' : ''}.dgm`), '--episodes', String(episodes), '--data', join(air, 'train_data.json'), '--kb', join(air, 'train_kb.json')],
  ...(oneThread ? { afterArgs: ['--workers', '1'] } : {}),
  close: `rl${episodes}${oneThread ? '-1' : ''}.dgm`,
});
/**
 * Each row: its name and its arguments (`out(root)`: a file or folder of that build's own);
 * `same`: a file both builds must write alike; `close`: an RL model file, the same bytes or the same
 * self-play scores within RL_TOLERANCE.
 */
const learned: { name: string; args: (out: string) => string[]; same?: string; close?: string; afterArgs?: string[] }[] = [
  { name: 'AirDialogue self-play, learned agent and customer, 100 episodes', args: (out) => ['airdialogue', 'selfplay', '--agent', model, '--customer', model, '--episodes', '100', '--seed', '1', '--transcripts', join(out, 'selfplay.jsonl')], same: 'selfplay.jsonl' },
  { name: 'AirDialogue eval with BLEU, 60 dev dialogues', args: () => ['airdialogue', 'eval', '--model', model, '--data', join(air, 'dev_data.json'), '--kb', join(air, 'dev_kb.json'), '--max-dialogues', '60'] },
  rl(48),
  rl(480),
  rl(480, true),
  { name: 'KB-InfoBot e2e-soft training, the recipe (medium, seed 1)', args: (out) => ['infobot', 'train', '--agent', 'e2e-soft', '--split', 'medium', '--residual', '--reask-lost', '--temperatures', '1,3', '--validation-temperature', '3', '--validation-episodes', '1000', '--seed', '1', '--out', join(out, 'e2e.dgm')], same: 'e2e.dgm' },
  { name: 'HCN train, bAbI task 6, 2 epochs', args: (out) => ['babi', 'train', '--model', 'hcn', '--train', 'babi:task6-trn', '--dev', 'babi:task6-dev', '--candidates', 'babi:task6-candidates', '--kb', 'babi:task6-kb', '--out', join(out, 'hcn.dgm'), '--epochs', '2', '--patience', '0'], same: 'hcn.dgm' },
];
/** Each row: its name and its arguments (`out(root)`: a file or folder of that build's own). */
const table: { name: string; args: (out: string) => string[]; same?: string; close?: string; afterArgs?: string[] }[] = [
  { name: 'MemN2N+match train, task 5, 2 epochs', args: (out) => ['babi', 'train', '--model', 'memn2n', '--match-type', '--train', 'babi:task5-trn', '--dev', 'babi:task5-dev', '--candidates', 'babi:candidates', '--kb', 'babi:kb', '--out', join(out, 't5.dgm'), '--epochs', '2', '--patience', '0'] },
  { name: 'MemN2N+match score, task 5 tst', args: (out) => ['babi', 'eval', '--model', join(out, 't5.dgm'), '--data', 'babi:task5-tst', '--candidates', 'babi:candidates', '--kb', 'babi:kb'] },
  { name: 'DSTC6 TF-IDF baseline, tst1 task 1', args: (out) => ['dstc6', 'baseline', 'tfidf', '--data', 'dstc6:tst1/task1', '--out', join(out, 'tfidf.json')] },
  { name: 'AirDialogue generate, 5,000 dialogues', args: (out) => ['airdialogue', 'generate', '--dialogs', '5000', '--seed', '1', '--out', join(out, 'air')] },
  { name: 'AirDialogue score, those 5,000', args: (out) => ['airdialogue', 'score', '--data', join(out, 'air', 'data.json'), '--kb', join(out, 'air', 'kb.json')] },
  { name: 'env steps: evaluate restaurant-task5-v1, rules, 2,000 episodes', args: () => ['evaluate', '--env', 'restaurant-task5-v1', '--agent', 'rules', '--episodes', '2000'] },
];
const only = process.env.TURN_ONLY ? new RegExp(process.env.TURN_ONLY, 'i') : null;
const rows = (process.env.TURN_SET === 'learned' ? learned : table).filter((r) => !only || only.test(r.name));

function command(root: string, args: string[]): { cpu: number; wall: number; stdout: string } {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e', 'node', cli(root), ...args], { encoding: 'utf8', env: { ...process.env, DIALOGYM_DATA: data } });
  if (r.status !== 0) throw new Error(`${root}: dialogym ${args.join(' ')} failed: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  const [u, s, e] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { cpu: u! + s!, wall: e!, stdout: r.stdout };
}

/** Largest |a − b| over the weights of two model files with the same tensors. */
function maxWeightDiff(a: string, b: string): number {
  const [x, y] = [readModelFile(a), readModelFile(b)];
  let d = 0;
  x.tensors.forEach((t, k) => {
    const u = y.tensors[k]!.data;
    for (let i = 0; i < t.data.length; i++) d = Math.max(d, Math.abs(t.data[i]! - u[i]!));
  });
  return d;
}

/** The RL row's check (`close`): the same bytes, or both RL models' self-play scores within RL_TOLERANCE; returns what it found. */
function closeModels(name: string, file: string): string {
  const [b, a] = [join(outs.before, file), join(outs.after, file)];
  if (readFileSync(b).equals(readFileSync(a))) return 'the same bytes';
  const score = (f: string): { total: number; exact: { total: number } } => JSON.parse(command(after, ['airdialogue', 'selfplay', '--agent', f, '--customer', model, '--episodes', '100', '--seed', '1', '--json']).stdout) as { total: number; exact: { total: number } };
  const [sb, sa] = [score(b), score(a)];
  const gap = Math.max(Math.abs(sb.total - sa.total), Math.abs(sb.exact.total - sa.exact.total));
  const found = `different bytes; weights differ by ≤ ${maxWeightDiff(b, a).toExponential(2)} (the RL run moved them by up to ${maxWeightDiff(model, a).toExponential(2)}); self-play (100 episodes, seed 1) scaled ${sb.total.toFixed(4)} → ${sa.total.toFixed(4)}, exact ${sb.exact.total.toFixed(4)} → ${sa.exact.total.toFixed(4)}`;
  if (gap > RL_TOLERANCE) throw new Error(`${name}: ${found}: more than ${RL_TOLERANCE} apart`);
  return `${found} (within ${RL_TOLERANCE})`;
}

const outs = { before: join(dir, 'before'), after: join(dir, 'after') };
const cpu = { before: rows.map((): number[] => []), after: rows.map((): number[] => []) };
const wall = { before: rows.map((): number[] => []), after: rows.map((): number[] => []) };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const o of Object.values(outs)) mkdirSync(o, { recursive: true });
if (process.env.TURN_SET === 'learned' && rows.some((r) => r.name.startsWith('AirDialogue'))) {
  process.stdout.write(`training ${model} with this build (one epoch on the sample)…\n`);
  command(after, ['airdialogue', 'train', '--data', join(air, 'train_data.json'), '--kb', join(air, 'train_kb.json'), '--dev-data', join(air, 'dev_data.json'), '--dev-kb', join(air, 'dev_kb.json'), '--max-dev-dialogues', '50', '--min-count', '3', '--epochs', '1', '--out', model]);
}
process.stdout.write(`before: ${before}\nafter:  ${after}\n${rounds} interleaved rounds, CPU s (user + system) of each command\n`);
for (let i = 0; i < rounds; i++) {
  rows.forEach((row, k) => {
    for (const side of (i % 2 === 0 ? ['before', 'after'] : ['after', 'before']) as ('before' | 'after')[]) {
      const l = load();
      const r = command(side === 'before' ? before : after, [...row.args(outs[side]), ...(side === 'after' ? (row.afterArgs ?? []) : [])]);
      cpu[side][k]!.push(r.cpu);
      wall[side][k]!.push(r.wall);
      process.stdout.write(`  round ${i + 1} ${side.padEnd(6)} ${row.name}: ${r.cpu.toFixed(2)} s CPU, ${r.wall.toFixed(2)} s wall (load ${l})\n`);
    }
    if (row.same && !readFileSync(join(outs.before, row.same)).equals(readFileSync(join(outs.after, row.same)))) throw new Error(`${row.name}: the builds wrote different ${row.same}`);
  });
}
const found = rows.map((row) => (row.close ? `${row.name}: ${closeModels(row.name, row.close)}` : '')).filter((x) => x);
process.stdout.write('\n| row | before (s CPU) | after (s CPU) | after ÷ before | wall before / after (s, medians) |\n|---|---|---|---|---|\n');
rows.forEach((row, k) => {
  const b = median(cpu.before[k]!);
  const a = median(cpu.after[k]!);
  process.stdout.write(`| ${row.name} | ${b.toFixed(2)} | ${a.toFixed(2)} | ${(a / b).toFixed(2)} | ${median(wall.before[k]!).toFixed(2)} / ${median(wall.after[k]!).toFixed(2)} |\n`);
});
process.stdout.write(`(load average at the end: ${load()})\n`);
for (const f of found) process.stdout.write(`${f}\n`);
