/**
 * KB-InfoBot's learned rows of Table 2 over training seeds × evaluation seeds (issue 40): trains
 * every learned agent on every split with ONE recipe per agent and training seeds 1…k
 * (`dialogym infobot train`: rl-* with the defaults, which are the recipe; e2e-soft with the
 * noise-robust recipe of docs/infobot.md), scores each training seed's policies with
 * `dialogym infobot table --policies <dir> --seeds <eval seeds> --workers 2` (5,000 dialogs per cell
 * and evaluation seed by default) and prints, per cell, the mean ± sample sd over the k × (eval
 * seeds) runs of R, S and T beside the paper's, judged as `infobot table` judges a cell
 * (`judgeCell`: R mean within ± 0.10, a learned agent 0.10 below or better; every run's R within
 * ± 0.15; S ± 0.10; T ± 1.0), as Markdown; with the CPU seconds of every training, and the wall and
 * CPU time of the whole run beside the load.
 *
 *   node dist/bench/infobot-seeds.bench.js [seeds] [episodes] [out.md] [eval seeds]     (defaults: 3, 5000, none, 1,7,13)
 *
 * Environment: INFOBOT_SEEDS_DIR=<dir> keeps the trained policies there (default: a temporary
 * folder); a policy already there is scored, not trained again (an interrupted run resumes).
 * INFOBOT_SEEDS_AGENTS=<list> limits the agents (default: all four learned ones).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judgeCell, PAPER_TABLE2, TABLE2_TOLERANCES } from '../src/testbeds/infobot/table.js';
import { SPLITS } from '../src/testbeds/infobot/index.js';
import { meanSd } from '../src/metrics/stats.js';
import { RECIPES } from './infobot-recipes.js';

const seeds = Number(process.argv[2] ?? 3);
const episodes = Number(process.argv[3] ?? 5000);
const outFile = process.argv[4];
const evalSeeds = process.argv[5] ?? '1,7,13';
const cliJs = fileURLToPath(new URL('../src/cli/index.js', import.meta.url));
const root = process.env.INFOBOT_SEEDS_DIR ?? mkdtempSync(join(tmpdir(), 'infobot-seeds-'));
const agents = (process.env.INFOBOT_SEEDS_AGENTS?.split(',') ?? Object.keys(RECIPES)).filter((a) => RECIPES[a] !== undefined);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
/** CPU seconds of the waited-for children so far (Linux: cutime + cstime of /proc/self/stat; elsewhere NaN). */
const childCpu = (): number => {
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return Number.NaN;
  }
};
const run = (args: readonly string[]): string => {
  const r = spawnSync(process.execPath, [cliJs, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`dialogym ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
};

const load0 = load();
const wall0 = performance.now();
const cpu0 = childCpu();
process.stdout.write(`KB-InfoBot over training seeds 1–${seeds} × eval seeds ${evalSeeds}, ${episodes} dialogs per run; policies in ${root}; load ${load0}\n`);
/** The runs (one per training seed × eval seed) of every cell, and the training CPU seconds. */
const runs = new Map<string, { turns: number; success: number; reward: number }[]>();
const trainCpu = new Map<string, number[]>();
for (let seed = 1; seed <= seeds; seed++) {
  const dir = join(root, `seed${seed}`);
  mkdirSync(dir, { recursive: true });
  for (const agent of agents)
    for (const split of SPLITS) {
      const file = join(dir, `${agent}-${split}.dgm`);
      if (existsSync(file)) continue;
      const c = childCpu();
      const t = performance.now();
      // Written under a temporary name and renamed: an interrupted training leaves no policy behind.
      const tmp = join(dir, `${agent}-${split}.tmp.dgm`);
      run(['infobot', 'train', '--agent', agent, '--split', split, '--seed', String(seed), ...(RECIPES[agent] as readonly string[]), '--out', tmp, '--curve', join(dir, `${agent}-${split}.svg`)]);
      renameSync(tmp, file);
      const cpu = childCpu() - c;
      trainCpu.set(`${agent} ${split}`, [...(trainCpu.get(`${agent} ${split}`) ?? []), cpu]);
      process.stdout.write(`  seed ${seed} ${agent} ${split}: trained in ${((performance.now() - t) / 1000).toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU; load ${load()}\n`);
    }
  const table = JSON.parse(run(['infobot', 'table', '--policies', dir, '--episodes', String(episodes), '--seeds', evalSeeds, '--temperatures', 'none', '--agents', agents.join(','), '--workers', '2', '--json'])) as {
    rows: { agent: string; split: string; seeds: { seed: number; turns: number; success: number; reward: number }[] }[];
  };
  for (const r of table.rows) runs.set(`${r.agent} ${r.split}`, [...(runs.get(`${r.agent} ${r.split}`) ?? []), ...r.seeds]);
  process.stdout.write(`seed ${seed}: ${table.rows.map((r) => `${r.agent} ${r.split} R ${r.seeds.map((s) => s.reward.toFixed(2)).join('/')}`).join(', ')}\n`);
}
const lines = [`| agent | ${SPLITS.join(' | ')} |`, `|---|${SPLITS.map(() => '---:').join('|')}|`];
const tally = { reward: 0, seeds: 0, success: 0, turns: 0, cells: 0 };
const f2 = (x: number): string => x.toFixed(2);
for (const agent of agents) {
  const row = SPLITS.map((split) => {
    const rs = runs.get(`${agent} ${split}`) ?? [];
    const [t, s, r] = (['turns', 'success', 'reward'] as const).map((k) => meanSd(rs.map((x) => x[k])));
    const paper = PAPER_TABLE2[agent]?.[split];
    if (paper === undefined || t === undefined || s === undefined || r === undefined) return '';
    const j = judgeCell(agent, { turns: t.mean, success: s.mean, reward: r.mean, seeds: rs }, paper);
    tally.cells++;
    for (const k of ['reward', 'seeds', 'success', 'turns'] as const) if (j[k]) tally[k]++;
    const m = (ok: boolean): string => (ok ? '✓' : '✗');
    return `R ${f2(r.mean)} ± ${f2(r.sd)} [${f2(paper.reward)}] ${m(j.reward && j.seeds)}; S ${f2(s.mean)} [${f2(paper.success)}] ${m(j.success)}; T ${f2(t.mean)} [${f2(paper.turns)}] ${m(j.turns)}`;
  });
  lines.push(`| ${agent} | ${row.join(' | ')} |`);
}
const cpuLine = [...trainCpu].map(([k, v]) => `${k} ${v.map((x) => x.toFixed(0)).join('/')}`).join(', ');
const md = [
  `KB-InfoBot, learned agents: mean ± sd over training seeds 1–${seeds} × evaluation seeds ${evalSeeds} (${episodes} dialogs per run) of R, S and T; the paper's in brackets. ` +
    `✓ (TABLE2_TOLERANCES): R mean within ± ${TABLE2_TOLERANCES.reward} (a learned agent: ${TABLE2_TOLERANCES.reward} below or better) and every run within ± ${TABLE2_TOLERANCES.seedReward}; S ± ${TABLE2_TOLERANCES.success}; T ± ${TABLE2_TOLERANCES.turns}.`,
  '',
  ...lines,
  '',
  `Holding, of ${tally.cells} cells: R mean ${tally.reward}, R every run ${tally.seeds}, S ${tally.success}, T ${tally.turns}.`,
  '',
  `This run: ${((performance.now() - wall0) / 60000).toFixed(1)} min wall, ${((childCpu() - cpu0) / 60).toFixed(1)} min CPU (training and scoring); load average ${load0} at the start, ${load()} at the end.` +
    (cpuLine ? ` Training CPU seconds per policy (seed 1/2/…): ${cpuLine}.` : ''),
  '',
].join('\n');
process.stdout.write(`\n${md}`);
if (outFile !== undefined) writeFileSync(outFile, md);
