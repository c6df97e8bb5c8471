/** The `dialogym infobot` verbs through the real CLI: files, JSON figures, chat over stdin, one-line errors. */
import { checkLatex } from '../src/report/testing/latex-check.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { oneLineError, runCli } from './cli.js';

const cli = (args: string[], input?: string) => runCli(args, input !== undefined ? { input } : {});

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-infobot-'));

test('infobot kb writes db.txt and incomplete_db_0.20.txt; eval reads them back', () => {
  const dir = join(tmp, 'kb');
  const r = cli(['infobot', 'kb', '--split', 'medium', '--seed', '1', '--out', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /movies 428, max slot vocabulary 68/);
  const db = readFileSync(join(dir, 'db.txt'), 'utf8').trimEnd().split('\n');
  const inc = readFileSync(join(dir, 'incomplete_db_0.20.txt'), 'utf8').trimEnd().split('\n');
  assert.equal(db.length, 429);
  assert.equal(inc.length, 429);
  assert.equal(db[0], 'movie\tactor\tcritic_rating\tgenre\tmpaa_rating\tdirector\trelease_year');
  const unk = inc.slice(1).join('\t').split('\t').filter((x) => x === 'UNK').length;
  assert.ok(Math.abs(unk / (428 * 6) - 0.2) < 0.03, String(unk));
  // the files equal the generated KB: eval on them matches eval on the generated split
  const a = cli(['infobot', 'eval', '--agent', 'rule-soft', '--episodes', '300', '--seed', '2', '--json']);
  const b = cli(['infobot', 'eval', '--agent', 'rule-soft', '--episodes', '300', '--seed', '2', '--json', '--kb', dir]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  const j = JSON.parse(a.stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(j), ['agent', 'split', 'episodes', 'turns', 'success', 'reward', 'rewardStdErr']);
  assert.equal(j.agent, 'rule-soft');
  assert.equal(j.split, 'medium');
  assert.equal(j.episodes, 300);
  for (const k of ['turns', 'success', 'reward', 'rewardStdErr']) assert.equal(typeof j[k], 'number');
});

test('infobot eval: plain output, max always succeeds, bad agents and flags fail in one line', () => {
  const r = cli(['infobot', 'eval', '--agent', 'max', '--split', 'small', '--episodes', '200']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^max on small \(200 episodes\): T \d+\.\d\d {2}S 1\.000 {2}R 1\.\d{3} ± 0\.\d{3}$/m);
  const noPolicies = join(tmp, 'no-policies');
  for (const a of ['rl-nokb', 'rl-hard', 'rl-soft', 'e2e-soft']) oneLineError(cli(['infobot', 'eval', '--agent', a, '--policies', noPolicies]), new RegExp(`^error: agent '${a}' needs a trained policy: run dialogym infobot train`));
  oneLineError(cli(['infobot', 'eval', '--agent', 'rule-x']), /^error: unknown infobot agent 'rule-x'/);
  oneLineError(cli(['infobot', 'eval', '--agent', 'rule-soft', '--split', 'huge']), /^error: unknown KB split 'huge'/);
  oneLineError(cli(['infobot', 'eval', '--agent', 'rule-soft', '--episodes', '0']), /^error: --episodes: must be >= 1, got 0$/);
});

test('infobot eval --kb: malformed KB files give file:line errors', () => {
  const dir = join(tmp, 'bad');
  cli(['infobot', 'kb', '--split', 'small', '--out', dir]);
  const f = join(dir, 'incomplete_db_0.20.txt');
  const lines = readFileSync(f, 'utf8').split('\n');
  lines[5] = (lines[5] as string).split('\t').slice(0, 4).join('\t');
  writeFileSync(f, lines.join('\n'));
  oneLineError(cli(['infobot', 'eval', '--agent', 'rule-soft', '--kb', dir]), /^error: .*incomplete_db_0\.20\.txt:6: 4 TAB-separated fields, expected 7/);
  oneLineError(cli(['infobot', 'eval', '--agent', 'rule-soft', '--kb', join(tmp, 'nowhere')]), /^error: .*db\.txt: no such file$/);
});

test('infobot chat: a person plays the user over stdin', () => {
  const r = cli(['infobot', 'chat', '--agent', 'rule-soft', '--seed', '3'], 'i want a drama movie\ni do not know\nno idea\nnot sure\nno\nno\nno\nno\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Your target movie: /);
  assert.match(r.stdout, /^bot: (Which|What|Who) /m);
  assert.match(r.stdout, /bot: Here is what I found: 1\. /);
  assert.match(r.stdout, /^turns \d+, reward -?\d+\.\d\d$/m);
  const early = cli(['infobot', 'chat', '--no-target'], '');
  assert.equal(early.code, 0, early.stderr);
  assert.match(early.stdout, /input ended/);
  oneLineError(cli(['infobot', 'chat', '--agent', 'max']), /^error: agent 'max' is an upper bound/);
});

test('infobot table writes the Markdown report, the LaTeX table and the chart beside it', () => {
  const out = join(tmp, 'res', 'infobot.md');
  const r = cli(['infobot', 'table', '--episodes', '50', '--splits', 'small,medium', '--temperatures', '0,2', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(out));
  const md = readFileSync(out, 'utf8');
  assert.match(md, /^\| rule-soft \| [\d.]+ \| [\d.]+ \| -?[\d.]+ ± [\d.]+ \| [\d.]+ \| [\d.]+ \| -?[\d.]+ ± [\d.]+ \|$/m);
  assert.match(md, /^\| max \| [\d.]+ \| 1\.00 \|/m);
  assert.match(md, /^\| 2 \| /m);
  // the paper's cell beside ours and the difference: rule-soft Small R 0.32, T 2.12; Medium R 0.83, T 3.94
  const row = md.split('\n').find((l) => l.startsWith('| rule-soft | ') && l.includes(' / ')) as string;
  assert.match(row, /^\| rule-soft \| -?\d\.\d\d \/ 0\.32 \([+−]\d\.\d\d\) [✓✗] \| \d\.\d\d \/ 2\.12 \([+−]\d\.\d\d\) [✓✗] \| -?\d\.\d\d \/ 0\.83 \([+−]\d\.\d\d\) [✓✗] \| \d\.\d\d \/ 3\.94 /);
  // T's mark is ± 1.0 from the paper's
  const [t, pt] = (row.match(/(\d\.\d\d) \/ 2\.12 \([+−]\d\.\d\d\) ([✓✗])/) as RegExpMatchArray).slice(1);
  assert.equal(pt, Math.abs(Number(t) - 2.12) <= 1 ? '✓' : '✗');
  const [ours, paper, diff] = (row.match(/(-?\d\.\d\d) \/ (0\.32) \(([+−]\d\.\d\d)\)/) as RegExpMatchArray).slice(1).map((x) => Number(x.replace('−', '-')));
  assert.ok(Math.abs((ours as number) - (paper as number) - (diff as number)) < 0.011);
  assert.match(md, /^Medium S, ours \/ paper: rule-nokb \d\.\d\d \/ 0\.77 [✓✗], /m);
  assert.match(md, /^Small S, ours \/ paper: rule-nokb \d\.\d\d \/ 0\.64 [✓✗], .*max 1\.00 \/ 1\.00 ✓[,.]/m);
  const tex = readFileSync(join(tmp, 'res', 'infobot.tex'), 'utf8');
  const check = checkLatex(tex);
  assert.deepEqual(check.problems, []);
  // One row per agent (a panel of the chart) under two header rows; 1 + 3 columns per split.
  const svg = readFileSync(join(tmp, 'res', 'infobot.svg'), 'utf8');
  const agents = (svg.match(/<g class="panel"/g) ?? []).length;
  assert.ok(agents >= 5, `${agents} agents`);
  assert.deepEqual(check.tabulars, [{ columns: 7, rows: 2 + agents }]);
  assert.match(tex, /\\multicolumn\{3\}\{c\}\{Medium \(\$N=\d+\$\)\}/);
  assert.match(tex, /^rule-soft & [\d.]+ & [\d.]+ & -?[\d.]+\\,\$\\pm\$\\,[\d.]+ \(0\.32\)/m);
  assert.equal((svg.match(/<circle class="ours"/g) ?? []).length, 2 * agents);
  assert.match(svg, /<circle class="reference" data-agent="rule-soft" data-split="small" cx="[\d.]+"/);
});

test('infobot train writes a policy and its learning curve; eval and chat use it by file or as the default policy', () => {
  const dir = join(tmp, 'policies');
  const r = cli(['infobot', 'train', '--agent', 'rl-hard', '--split', 'small', '--imitation', '128', '--episodes', '128', '--batch', '64', '--policies', dir]);
  assert.equal(r.code, 0, r.stderr);
  const file = join(dir, 'rl-hard-small.dgm');
  assert.match(r.stdout, /^wrote .*rl-hard-small\.dgm and .*rl-hard-small\.svg$/m);
  assert.match(r.stdout, /^trained rl-hard on small in \d+\.\d s \(cpu \d+\.\d s\): 256 dialogs, best greedy validation reward -?\d\.\d{3} after \d+ dialogs$/m);
  assert.match(readFileSync(join(dir, 'rl-hard-small.svg'), 'utf8'), /^<svg /);
  const byName = cli(['infobot', 'eval', '--agent', 'rl-hard', '--split', 'small', '--episodes', '100', '--json', '--policies', dir]);
  const byFile = cli(['infobot', 'eval', '--agent', file, '--split', 'small', '--episodes', '100', '--json']);
  assert.equal(byName.code, 0, byName.stderr);
  assert.equal(byName.stdout, byFile.stdout);
  assert.equal((JSON.parse(byName.stdout) as { agent: string }).agent, 'rl-hard');
  // The official match-count bins by default; --hard-count log: the earlier input (its own feature version).
  assert.match(readFileSync(file).toString('latin1'), /"features":"summary-v1-hard-bins","inputSize":25,/);
  const logFile = join(dir, 'log.dgm');
  const log = cli(['infobot', 'train', '--agent', 'rl-hard', '--split', 'small', '--imitation', '64', '--episodes', '0', '--batch', '64', '--hard-count', 'log', '--out', logFile]);
  assert.equal(log.code, 0, log.stderr);
  assert.match(readFileSync(logFile).toString('latin1'), /"features":"summary-v1","inputSize":20,/);
  const chat = cli(['infobot', 'chat', '--agent', file, '--split', 'small'], 'a drama movie\nno idea\nno idea\nno idea\nno idea\nno idea\nno idea\nno idea\nno idea\nno idea\n');
  assert.equal(chat.code, 0, chat.stderr);
  assert.match(chat.stdout, /^bot: /m);
  const out = join(tmp, 'own', 'p.dgm');
  const own = cli(['infobot', 'train', '--agent', 'rl-soft', '--split', 'small', '--imitation', '0', '--episodes', '64', '--batch', '64', '--out', out, '--curve', join(tmp, 'own', 'c.svg')]);
  assert.equal(own.code, 0, own.stderr);
  assert.ok(existsSync(out) && existsSync(join(tmp, 'own', 'c.svg')));
  oneLineError(cli(['infobot', 'train', '--agent', 'rule-soft']), /^error: --agent: cannot train 'rule-soft' \(trainable: rl-nokb, rl-hard, rl-soft, e2e-soft\)/);
  oneLineError(cli(['infobot', 'train', '--agent', 'rl-soft', '--episodes', '0', '--imitation', '0']), /^error: --episodes and --imitation are both 0/);
  const bad = join(tmp, 'bad.dgm');
  writeFileSync(bad, 'not a model');
  oneLineError(cli(['infobot', 'eval', '--agent', bad]), /^error: .*bad\.dgm: /);
  oneLineError(cli(['infobot', 'eval', '--agent', join(tmp, 'missing.dgm')]), /^error: .*missing\.dgm: no such file$/);
});

test('infobot train --agent e2e-soft writes the agent; eval uses it; --init continues it', () => {
  const dir = join(tmp, 'e2e');
  const common = ['--split', 'small', '--batch', '32', '--tracker-hidden', '4', '--embed', '4', '--hidden', '4', '--policies', dir];
  const r = cli(['infobot', 'train', '--agent', 'e2e-soft', '--imitation', '64', '--episodes', '32', ...common]);
  assert.equal(r.code, 0, r.stderr);
  const file = join(dir, 'e2e-soft-small.dgm');
  assert.match(r.stdout, /^wrote .*e2e-soft-small\.dgm and .*e2e-soft-small\.svg$/m);
  assert.match(r.stdout, /^trained e2e-soft on small in \d+\.\d s \(cpu \d+\.\d s\): 96 dialogs, best greedy validation reward -?\d\.\d{3} after \d+ dialogs$/m);
  const byName = cli(['infobot', 'eval', '--agent', 'e2e-soft', '--split', 'small', '--episodes', '50', '--json', '--policies', dir]);
  const byFile = cli(['infobot', 'eval', '--agent', file, '--split', 'small', '--episodes', '50', '--json']);
  assert.equal(byName.code, 0, byName.stderr);
  assert.equal(byName.stdout, byFile.stdout);
  assert.equal((JSON.parse(byName.stdout) as { agent: string }).agent, 'e2e-soft');
  const more = cli(['infobot', 'train', '--agent', 'e2e-soft', '--imitation', '0', '--episodes', '32', '--init', file, '--out', join(dir, 'more.dgm'), ...common]);
  assert.equal(more.code, 0, more.stderr);
  assert.match(more.stdout, /after (9[6-9]|1[0-2]\d) dialogs$/m);
  oneLineError(cli(['infobot', 'train', '--agent', 'e2e-soft', '--split', 'medium', '--init', file, '--episodes', '32', '--imitation', '0', '--out', join(dir, 'x.dgm')]), /^error: --init: .*trained on small \(KB seed 1\), not medium/);
  oneLineError(cli(['infobot', 'train', '--agent', 'rl-soft', '--init', file]), /^error: --init: only for --agent e2e-soft/);
  oneLineError(cli(['infobot', 'train', '--agent', 'rl-nokb', '--reask-lost']), /^error: --reask-lost: only for --agent e2e-soft/);
  oneLineError(cli(['infobot', 'train', '--agent', 'rl-hard', '--validation-temperature', '3']), /^error: --validation-temperature: only for --agent e2e-soft/);
  oneLineError(cli(['infobot', 'train', '--agent', 'rl-soft', '--hard-count', 'log']), /^error: --hard-count: only for --agent rl-hard/);
  oneLineError(cli(['infobot', 'train', '--agent', 'rl-hard', '--hard-count', 'cubic']), /^error: --hard-count: 'cubic' is not bins or log/);
});

test('infobot table --seeds: each cell is mean ± sd over the evaluation seeds, the per-seed figures are infobot eval --seed k', () => {
  const base = ['infobot', 'table', '--episodes', '50', '--splits', 'small', '--agents', 'rule-soft,max', '--temperatures', 'none'];
  const r = cli([...base, '--seeds', '1,7', '--json']);
  assert.equal(r.code, 0, r.stderr);
  type Figures = { agent: string; split: string; episodes: number; turns: number; success: number; reward: number; rewardStdErr: number };
  const rows = (JSON.parse(r.stdout) as { rows: (Figures & { sd: { turns: number; success: number; reward: number }; seeds: (Figures & { seed: number })[] })[] }).rows;
  assert.deepEqual(rows.map((x) => x.agent), ['rule-soft', 'max']);
  for (const row of rows) {
    assert.deepEqual(row.seeds.map((s) => s.seed), [1, 7]);
    for (const { seed, ...figures } of row.seeds) {
      const e = cli(['infobot', 'eval', '--agent', row.agent, '--split', 'small', '--episodes', '50', '--seed', String(seed), '--json']);
      assert.equal(e.code, 0, e.stderr);
      assert.deepEqual(figures, JSON.parse(e.stdout));
    }
    const a = row.seeds[0] as Figures;
    const b = row.seeds[1] as Figures;
    for (const k of ['turns', 'success', 'reward'] as const) {
      assert.ok(Math.abs(row[k] - (a[k] + b[k]) / 2) < 1e-12, `${row.agent} ${k}`);
      assert.ok(Math.abs(row.sd[k] - Math.abs(a[k] - b[k]) / Math.SQRT2) < 1e-12, `${row.agent} sd ${k}`);
    }
  }
  const soft = rows[0] as (typeof rows)[number];
  assert.notEqual(soft.seeds[0]?.reward, soft.seeds[1]?.reward);
  // The Markdown shows mean ± sd of T, S and R, and judges the mean against the paper.
  const outMd = join(tmp, 'seeds', 'infobot.md');
  const md = cli([...base, '--seeds', '1,7', '--out', outMd]).stdout;
  assert.match(readFileSync(join(tmp, 'seeds', 'infobot.tex'), 'utf8'), /R\\,\$\\pm\$\\,sd over the 2 evaluation seeds/);
  assert.match(readFileSync(join(tmp, 'seeds', 'infobot.svg'), 'utf8'), /mean ± sd over 2 evaluation seeds of 50 simulated dialogs/);
  assert.match(md, /per cell and evaluation seed \(seeds 1, 7\)/);
  const f2 = (x: number): string => x.toFixed(2);
  assert.ok(md.includes(`| rule-soft | ${f2(soft.turns)} ± ${f2(soft.sd.turns)} | ${f2(soft.success)} ± ${f2(soft.sd.success)} | ${f2(soft.reward)} ± ${f2(soft.sd.reward)} |`), md);
  assert.match(md, new RegExp(`^\\| rule-soft \\| ${f2(soft.reward)} / 0\\.32 `, 'm'));
  // One seed is today's table, byte for byte.
  const one = cli([...base, '--seeds', '7']);
  assert.equal(one.code, 0, one.stderr);
  assert.equal(one.stdout, cli([...base, '--seed', '7']).stdout);
  assert.equal(cli([...base, '--seeds', '1', '--json']).stdout, cli([...base, '--json']).stdout);
  // On worker threads (one pool task per agent × split × seed, and the sweep's): the same bytes as on one thread.
  const sweep = ['infobot', 'table', '--episodes', '40', '--splits', 'small', '--agents', 'rule-soft,max', '--seeds', '1,7', '--temperatures', '0,2', '--sweep-agents', 'rule-soft'];
  const oneThread = cli([...sweep, '--workers', '1']);
  assert.equal(oneThread.code, 0, oneThread.stderr);
  assert.match(oneThread.stdout, /Holding, of 2 cells: R mean \d, R every seed \d, S \d, T \d\./);
  assert.equal(cli([...sweep, '--workers', '2']).stdout, oneThread.stdout);
  oneLineError(cli([...sweep, '--workers', '0']), /^error: --workers: /);
  oneLineError(cli([...base, '--seeds', '1,x']), /^error: --seeds: expected an integer, got 'x'$/);
});
