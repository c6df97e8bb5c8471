/**
 * KB-InfoBot's Table 2 over training seeds: the shipped rl-* and e2e-soft policies are one trained
 * policy per cell, some with a recipe of their own (docs/infobot.md). This trains every learned
 * agent on every split with ONE recipe per agent and k seeds (`dialogym infobot train`: rl-* with
 * the defaults, e2e-soft with the noise-robust recipe of the docs), scores each seed's policies with
 * `dialogym infobot table --policies` (5,000 dialogs per cell by default) and prints, per cell, the
 * mean ± sample standard deviation over the seeds of the average reward beside the paper's (✓: at
 * most 0.15 below, or better, as `infobot table` counts a learned agent), as Markdown; the time
 * of the whole run beside the load.
 *
 *   node dist/bench/infobot-seeds.bench.js [seeds] [episodes] [out.md]     (defaults: 3, 5000, none)
 *
 * Environment: INFOBOT_SEEDS_DIR=<dir> keeps the trained policies there (default: a temporary folder).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { matchesPaper, PAPER_TABLE2 } from '../src/testbeds/infobot/table.js';
import { SPLITS } from '../src/testbeds/infobot/index.js';
import { meanSd } from '../src/metrics/stats.js';

const seeds = Number(process.argv[2] ?? 3);
const episodes = Number(process.argv[3] ?? 5000);
const outFile = process.argv[4];
const cliJs = fileURLToPath(new URL('../src/cli/index.js', import.meta.url));
const root = process.env.INFOBOT_SEEDS_DIR ?? mkdtempSync(join(tmpdir(), 'infobot-seeds-'));
/** One recipe per agent: the defaults of `infobot train`, and for e2e-soft the noise-robust recipe of docs/infobot.md. */
const RECIPES: Readonly<Record<string, readonly string[]>> = {
  'rl-nokb': [],
  'rl-hard': [],
  'rl-soft': [],
  'e2e-soft': ['--residual', '--reask-lost', '--temperatures', '1,3', '--validation-temperature', '3', '--validation-episodes', '1000'],
};
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const run = (args: readonly string[]): string => {
  const r = spawnSync(process.execPath, [cliJs, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`dialogym ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
};

const load0 = load();
/** Seconds spent training and scoring in this run (policies found in INFOBOT_SEEDS_DIR cost none). */
let busy = 0;
process.stdout.write(`KB-InfoBot over ${seeds} training seeds, ${episodes} dialogs per cell; policies in ${root}; load ${load0}\n`);
/** reward[agent][split] over the seeds. */
const rewards = new Map<string, number[]>();
for (let seed = 1; seed <= seeds; seed++) {
  const dir = join(root, `seed${seed}`);
  mkdirSync(dir, { recursive: true });
  for (const [agent, recipe] of Object.entries(RECIPES))
    for (const split of SPLITS) {
      const file = join(dir, `${agent}-${split}.dgm`);
      // A policy already in INFOBOT_SEEDS_DIR (an earlier, interrupted run) is scored again, not retrained.
      if (existsSync(file)) continue;
      const t = performance.now();
      run(['infobot', 'train', '--agent', agent, '--split', split, '--seed', String(seed), ...recipe, '--out', file]);
      const s = (performance.now() - t) / 1000;
      busy += s;
      process.stdout.write(`  seed ${seed} ${agent} ${split}: trained in ${s.toFixed(1)} s; load ${load()}\n`);
    }
  const t = performance.now();
  const table = JSON.parse(run(['infobot', 'table', '--policies', dir, '--episodes', String(episodes), '--temperatures', 'none', '--agents', Object.keys(RECIPES).join(','), '--json'])) as { rows: { agent: string; split: string; reward: number }[] };
  busy += (performance.now() - t) / 1000;
  for (const r of table.rows) rewards.set(`${r.agent} ${r.split}`, [...(rewards.get(`${r.agent} ${r.split}`) ?? []), r.reward]);
  process.stdout.write(`seed ${seed}: ${table.rows.map((r) => `${r.agent} ${r.split} ${r.reward.toFixed(2)}`).join(', ')}\n`);
}
const lines = [
  `| agent | ${SPLITS.join(' | ')} |`,
  `|---|${SPLITS.map(() => '---:').join('|')}|`,
];
let ok = 0;
let cells = 0;
for (const agent of Object.keys(RECIPES)) {
  const row = SPLITS.map((split) => {
    const { mean, sd } = meanSd(rewards.get(`${agent} ${split}`) ?? []);
    const paper = PAPER_TABLE2[agent]?.[split]?.reward;
    if (paper === undefined) return `${mean.toFixed(2)} ± ${sd.toFixed(2)}`;
    const good = matchesPaper(agent, mean, paper);
    cells++;
    if (good) ok++;
    return `${mean.toFixed(2)} ± ${sd.toFixed(2)} [${paper.toFixed(2)}] ${good ? '✓' : '✗'}`;
  });
  lines.push(`| ${agent} | ${row.join(' | ')} |`);
}
const md = [
  `KB-InfoBot, average reward R: mean ± sd over training seeds 1–${seeds} (one recipe per agent), ${episodes} dialogs per cell (seed 1); the paper's in brackets. ${ok} of ${cells} cells reproduced (at most 0.15 below the paper, or better).`,
  '',
  ...lines,
  '',
  `Training and scoring took ${(busy / 60).toFixed(1)} min wall in this run; load average ${load0} at the start, ${load()} at the end.`,
  '',
].join('\n');
process.stdout.write(`\n${md}`);
if (outFile !== undefined) writeFileSync(outFile, md);
