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
 * write the same bytes (self-play's --json, the RL model file, the e2e-soft policy) that is checked.
 *
 *   BEFORE=/tmp/base TURN_ROUNDS=3 node dist/bench/turn-rows.bench.js
 *   BEFORE=/tmp/base TURN_SET=learned node dist/bench/turn-rows.bench.js
 *   BEFORE=/tmp/base TURN_SET=learned TURN_ONLY='e2e|RL' node dist/bench/turn-rows.bench.js   (rows whose name matches)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const before = process.env.BEFORE;
const after = new URL('../..', import.meta.url).pathname;
const rounds = Number(process.env.TURN_ROUNDS ?? 3);
const data = process.env.DIALOGYM_DATA ?? '/work/shared/data';
const cli = (root: string): string => join(root, 'dist/src/cli/main.cjs');
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
/** Each row: its name and its arguments (`out(root)`: a file or folder of that build's own); `same`: a file both builds must write alike. */
const learned: { name: string; args: (out: string) => string[]; same?: string }[] = [
  { name: 'AirDialogue self-play, learned agent and customer, 100 episodes', args: (out) => ['airdialogue', 'selfplay', '--agent', model, '--customer', model, '--episodes', '100', '--seed', '1', '--transcripts', join(out, 'selfplay.jsonl')], same: 'selfplay.jsonl' },
  { name: 'AirDialogue eval with BLEU, 60 dev dialogues', args: () => ['airdialogue', 'eval', '--model', model, '--data', join(air, 'dev_data.json'), '--kb', join(air, 'dev_kb.json'), '--max-dialogues', '60'] },
  { name: 'AirDialogue RL self-play fine-tuning, 48 episodes', args: (out) => ['airdialogue', 'rl', '--init', model, '--out', join(out, 'rl.dgm'), '--episodes', '48', '--data', join(air, 'train_data.json'), '--kb', join(air, 'train_kb.json')], same: 'rl.dgm' },
  { name: 'KB-InfoBot e2e-soft training, the recipe (medium, seed 1)', args: (out) => ['infobot', 'train', '--agent', 'e2e-soft', '--split', 'medium', '--residual', '--reask-lost', '--temperatures', '1,3', '--validation-temperature', '3', '--validation-episodes', '1000', '--seed', '1', '--out', join(out, 'e2e.dgm')], same: 'e2e.dgm' },
  { name: 'HCN train, bAbI task 6, 2 epochs', args: (out) => ['babi', 'train', '--model', 'hcn', '--train', 'babi:task6-trn', '--dev', 'babi:task6-dev', '--candidates', 'babi:task6-candidates', '--kb', 'babi:task6-kb', '--out', join(out, 'hcn.dgm'), '--epochs', '2', '--patience', '0'], same: 'hcn.dgm' },
];
/** Each row: its name and its arguments (`out(root)`: a file or folder of that build's own). */
const table: { name: string; args: (out: string) => string[]; same?: string }[] = [
  { name: 'MemN2N+match train, task 5, 2 epochs', args: (out) => ['babi', 'train', '--model', 'memn2n', '--match-type', '--train', 'babi:task5-trn', '--dev', 'babi:task5-dev', '--candidates', 'babi:candidates', '--kb', 'babi:kb', '--out', join(out, 't5.dgm'), '--epochs', '2', '--patience', '0'] },
  { name: 'MemN2N+match score, task 5 tst', args: (out) => ['babi', 'eval', '--model', join(out, 't5.dgm'), '--data', 'babi:task5-tst', '--candidates', 'babi:candidates', '--kb', 'babi:kb'] },
  { name: 'DSTC6 TF-IDF baseline, tst1 task 1', args: (out) => ['dstc6', 'baseline', 'tfidf', '--data', 'dstc6:tst1/task1', '--out', join(out, 'tfidf.json')] },
  { name: 'AirDialogue generate, 5,000 dialogues', args: (out) => ['airdialogue', 'generate', '--dialogs', '5000', '--seed', '1', '--out', join(out, 'air')] },
  { name: 'AirDialogue score, those 5,000', args: (out) => ['airdialogue', 'score', '--data', join(out, 'air', 'data.json'), '--kb', join(out, 'air', 'kb.json')] },
  { name: 'env steps: evaluate restaurant-task5-v1, rules, 2,000 episodes', args: () => ['evaluate', '--env', 'restaurant-task5-v1', '--agent', 'rules', '--episodes', '2000'] },
];
const only = process.env.TURN_ONLY ? new RegExp(process.env.TURN_ONLY, 'i') : null;
const rows = (process.env.TURN_SET === 'learned' ? learned : table).filter((r) => !only || only.test(r.name));

function run(root: string, out: string, args: string[]): number {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', 'node', cli(root), ...args], { encoding: 'utf8', env: { ...process.env, DIALOGYM_DATA: data } });
  if (r.status !== 0) throw new Error(`${root}: dialogym ${args.join(' ')} failed: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  const [u, s] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return u! + s!;
}

const outs = { before: join(dir, 'before'), after: join(dir, 'after') };
const cpu = { before: rows.map((): number[] => []), after: rows.map((): number[] => []) };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const o of Object.values(outs)) mkdirSync(o, { recursive: true });
if (process.env.TURN_SET === 'learned' && rows.some((r) => r.name.startsWith('AirDialogue'))) {
  process.stdout.write(`training ${model} with this build (one epoch on the sample)…\n`);
  run(after, dir, ['airdialogue', 'train', '--data', join(air, 'train_data.json'), '--kb', join(air, 'train_kb.json'), '--dev-data', join(air, 'dev_data.json'), '--dev-kb', join(air, 'dev_kb.json'), '--max-dev-dialogues', '50', '--min-count', '3', '--epochs', '1', '--out', model]);
}
process.stdout.write(`before: ${before}\nafter:  ${after}\n${rounds} interleaved rounds, CPU s (user + system) of each command\n`);
for (let i = 0; i < rounds; i++) {
  rows.forEach((row, k) => {
    for (const side of (i % 2 === 0 ? ['before', 'after'] : ['after', 'before']) as ('before' | 'after')[]) {
      const l = load();
      const s = run(side === 'before' ? before : after, outs[side], row.args(outs[side]));
      cpu[side][k]!.push(s);
      process.stdout.write(`  round ${i + 1} ${side.padEnd(6)} ${row.name}: ${s.toFixed(2)} s (load ${l})\n`);
    }
    if (row.same && !readFileSync(join(outs.before, row.same)).equals(readFileSync(join(outs.after, row.same)))) throw new Error(`${row.name}: the builds wrote different ${row.same}`);
  });
}
process.stdout.write('\n| row | before (s CPU) | after (s CPU) | after ÷ before |\n|---|---|---|---|\n');
rows.forEach((row, k) => {
  const b = median(cpu.before[k]!);
  const a = median(cpu.after[k]!);
  process.stdout.write(`| ${row.name} | ${b.toFixed(2)} | ${a.toFixed(2)} | ${(a / b).toFixed(2)} |\n`);
});
process.stdout.write(`(load average at the end: ${load()})\n`);
