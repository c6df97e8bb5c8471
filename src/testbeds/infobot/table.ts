/**
 * The Table 2 reproduction: T, S, R ± standard error for agents × KB splits, plus the reward of the
 * rule agents against the NLG temperature (Figure 5), as a Markdown report.
 */
import type { EvalReport } from './evaluate.js';
import { evaluateAgent } from './evaluate.js';
import { InfoBotEnv } from './env.js';
import { splitSpec, type SplitName } from './slots.js';

/**
 * Options of `infobotTable`.
 *
 * @example
 * ```ts
 * import type { TableOptions } from 'dialogym/infobot';
 * const opts: TableOptions = { agents: ['rule-nokb', 'rule-hard', 'rule-soft', 'max'], splits: ['small', 'medium'], episodes: 500, seed: 1, kbSeed: 1, temperatures: [], sweepSplit: 'medium', sweepAgents: [] };
 * ```
 */
export interface TableOptions {
  agents: readonly string[];
  splits: readonly SplitName[];
  episodes: number;
  seed: number;
  kbSeed: number;
  /** NLG temperatures for the temperature sweep (empty: no sweep). */
  temperatures: readonly number[];
  /** Split of the temperature sweep. */
  sweepSplit: SplitName;
  /** Agents of the temperature sweep. */
  sweepAgents: readonly string[];
  /** Folder of the default trained policies (rl-* agents). */
  policyDir?: string;
  /** Called after each episode of each run, with the episodes done over the whole table. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * What `infobotTable` returns: one report per (split, agent), the temperature sweep, and the
 * Markdown report.
 *
 * @example
 * ```ts
 * import { infobotTable, type TableOptions, type TableResult } from 'dialogym/infobot';
 * declare const opts: TableOptions;
 * const t: TableResult = infobotTable(opts);
 * console.log(t.markdown);
 * ```
 */
export interface TableResult {
  readonly rows: readonly EvalReport[];
  readonly sweep: readonly (EvalReport & { temperature: number })[];
  readonly markdown: string;
}

const f2 = (x: number): string => x.toFixed(2);

/**
 * Reproduces the paper's Table 2 (T, S, R ± standard error for agents × KB splits) and, for the
 * given temperatures, the Figure 5 sweep, as report objects and Markdown. Errors of
 * `evaluateAgent` (unknown agent, missing policy) pass through.
 *
 * @example
 * ```ts
 * import { infobotTable } from 'dialogym/infobot';
 * const { markdown } = infobotTable({ agents: ['rule-soft', 'max'], splits: ['small'], episodes: 100, seed: 1, kbSeed: 1, temperatures: [0.5, 2], sweepSplit: 'small', sweepAgents: ['rule-soft'] });
 * ```
 */
export function infobotTable(o: TableOptions): TableResult {
  const total = o.episodes * (o.agents.length * o.splits.length + o.temperatures.length * o.sweepAgents.length);
  let done = 0;
  const tick = (): void => o.onProgress?.(++done, total);
  const rows: EvalReport[] = [];
  for (const split of o.splits) {
    const env = new InfoBotEnv({ split, kbSeed: o.kbSeed });
    for (const agent of o.agents) rows.push(evaluateAgent({ agent, split, episodes: o.episodes, seed: o.seed, env, onEpisode: tick, ...(o.policyDir !== undefined ? { policyDir: o.policyDir } : {}) }));
  }
  const sweep: (EvalReport & { temperature: number })[] = [];
  for (const temperature of o.temperatures) {
    const env = new InfoBotEnv({ split: o.sweepSplit, kbSeed: o.kbSeed, temperature });
    for (const agent of o.sweepAgents) sweep.push({ ...evaluateAgent({ agent, episodes: o.episodes, seed: o.seed, env, onEpisode: tick, ...(o.policyDir !== undefined ? { policyDir: o.policyDir } : {}) }), temperature });
  }
  const lines: string[] = [];
  lines.push('# KB-InfoBot: Table 2', '');
  lines.push(`Generated KBs (seed ${o.kbSeed}), ${o.episodes} simulated dialogs per cell (episode seed ${o.seed}); T = average turns, S = success rate, R = average reward ± standard error.`, '');
  lines.push('| agent | ' + o.splits.map((s) => `${s} (N=${splitSpec(s).movies}) T | S | R`).join(' | ') + ' |');
  lines.push('|---|' + o.splits.map(() => '---:|---:|---:').join('|') + '|');
  for (const agent of o.agents) {
    const cells = o.splits.map((s) => {
      const r = rows.find((x) => x.agent === agent && x.split === s) as EvalReport;
      return `${f2(r.turns)} | ${f2(r.success)} | ${f2(r.reward)} ± ${f2(r.rewardStdErr)}`;
    });
    lines.push(`| ${agent} | ${cells.join(' | ')} |`);
  }
  lines.push(
    '',
    'Paper (Dhingra et al. 2017, Table 2), Medium KB: Rule-Soft S = 0.76, RL-Soft S = 0.80; Max S = 1.00 (the paper\'s other cells are not reproduced here: they could not be checked against the paper text). ' +
      'rl-* agents: default policies of `dialogym infobot train` (imitation of the rule agent, then REINFORCE), greedy actions. ' +
      'e2e-soft: neural belief tracker (GRU per slot over the bag of bigrams) and neural policy, imitation (tracker supervised from the user acts, policy from the rule agent) then REINFORCE through the Soft-KB lookup; greedy actions, top-R results.',
  );
  if (sweep.length > 0) {
    lines.push('', `## Reward against NLG temperature (${o.sweepSplit} KB)`, '');
    lines.push('| temperature | ' + o.sweepAgents.map((a) => `${a} S | R`).join(' | ') + ' |');
    lines.push('|---:|' + o.sweepAgents.map(() => '---:|---:').join('|') + '|');
    for (const t of o.temperatures) {
      const cells = o.sweepAgents.map((a) => {
        const r = sweep.find((x) => x.agent === a && x.temperature === t) as EvalReport;
        return `${f2(r.success)} | ${f2(r.reward)} ± ${f2(r.rewardStdErr)}`;
      });
      lines.push(`| ${t} | ${cells.join(' | ')} |`);
    }
    const lo = Math.min(...o.temperatures);
    const hi = Math.max(...o.temperatures);
    if (hi > lo) {
      const drops = o.sweepAgents.map((a) => {
        const r0 = sweep.find((x) => x.agent === a && x.temperature === lo) as EvalReport;
        const r1 = sweep.find((x) => x.agent === a && x.temperature === hi) as EvalReport;
        return `${a} ${f2(r0.reward - r1.reward)}`;
      });
      lines.push('', `Reward drop from temperature ${lo} to ${hi}: ${drops.join(', ')}.`);
    }
  }
  return { rows, sweep, markdown: lines.join('\n') + '\n' };
}
