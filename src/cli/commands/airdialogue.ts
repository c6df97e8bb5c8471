/**
 * `dialogym airdialogue …` — AirDialogue tools: logic (recompute expected actions), score (the
 * official scorer, human mode or predictions), generate (templated dialog simulator), selfplay
 * (agent policy vs customer policy in the `airdialogue-v1` environment).
 */
import type { Command } from 'commander';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/files.js';
import { checkAligned, formatAirLines, readAirDialogue, readAirPredictions } from '../../formats/airdialogue.js';
import { agentPolicies, checkLogic, customerPolicies, scoreHuman, scorePredictions, selfPlay, simulateDialogs, type ScoreReport } from '../../testbeds/airdialogue/index.js';
import { progress } from '../progress.js';
import { action, intFlag, out } from '../run.js';

function printScores(r: ScoreReport, json: boolean): void {
  if (json) {
    out(JSON.stringify(r));
    return;
  }
  const f = (x: number) => x.toFixed(5);
  out(`dialogs ${r.dialogs}`);
  out(`scaled  total ${f(r.total)}  name ${f(r.name)}  flight ${f(r.flight)}  action ${f(r.action)}`);
  out(`exact   total ${f(r.exact.total)}  name ${f(r.exact.name)}  flight ${f(r.exact.flight)}  action ${f(r.exact.action)}`);
}

export function registerAirdialogue(program: Command): void {
  const cmd = program.command('airdialogue').description('AirDialogue tools: logic, score, generate, selfplay');

  cmd
    .command('logic')
    .description('recompute every expected action from the two contexts and report agreement')
    .requiredOption('--data <file>', 'data file (JSON Lines)')
    .requiredOption('--kb <file>', 'KB file aligned with the data file')
    .option('--json', 'print {"lines","agree","agreement"} as JSON')
    .action(
      action((o: { data: string; kb: string; json?: boolean }) => {
        const r = checkLogic(readAirDialogue(o.data, o.kb));
        if (o.json) {
          out(JSON.stringify({ lines: r.lines, agree: r.agree, agreement: r.agreement }));
          return;
        }
        out(`lines ${r.lines}, agree ${r.agree}, agreement ${(100 * r.agreement).toFixed(2)}%`);
        if (r.disagreeing.length > 0) out(`disagreeing lines: ${r.disagreeing.join(', ')}${r.lines - r.agree > r.disagreeing.length ? ', …' : ''}`);
      }),
    );

  cmd
    .command('score')
    .description("score actions against expected actions (without --pred: the humans' actions, official human mode)")
    .requiredOption('--data <file>', 'data file (JSON Lines)')
    .requiredOption('--kb <file>', 'KB file aligned with the data file')
    .option('--pred <file>', 'predicted actions, one per data line (an action object, or an object with "action")')
    .option('--json', 'print the scores as JSON')
    .action(
      action((o: { data: string; kb: string; pred?: string; json?: boolean }) => {
        const examples = readAirDialogue(o.data, o.kb);
        let r: ScoreReport;
        if (o.pred) {
          const preds = readAirPredictions(o.pred);
          checkAligned(o.data, examples.length, o.pred, preds.length);
          r = scorePredictions(examples, preds);
        } else r = scoreHuman(examples);
        printScores(r, o.json === true);
      }),
    );

  cmd
    .command('generate')
    .description('templated dialog simulator: write data.json + kb.json (original format) of rule customer vs rule agent dialogs')
    .requiredOption('--n <k>', 'number of dialogs', intFlag('--n', 1, 10_000_000))
    .option('--seed <s>', 'random seed', intFlag('--seed', 0), 0)
    .requiredOption('--out <dir>', 'output folder')
    .option('--ood', 'out-of-domain contexts (uniform goals, reservation 70%, larger name/airport sets)')
    .action(
      action((o: { n: number; seed: number; out: string; ood?: boolean }) => {
        const bar = progress('generate', o.n, { quiet: o.n < 2000 });
        const r = simulateDialogs({ n: o.n, seed: o.seed, ood: o.ood === true, onEpisode: (d) => bar.update(d) });
        bar.stop();
        const dataFile = join(o.out, 'data.json');
        const kbFile = join(o.out, 'kb.json');
        const kbText = formatAirLines(r.kb);
        const dataText = formatAirLines(r.data);
        writeFileAtomic(kbFile, kbText);
        writeFileAtomic(dataFile, dataText);
        const statuses = new Map<string, number>();
        for (const d of r.data) statuses.set(d.expected_action.status, (statuses.get(d.expected_action.status) ?? 0) + 1);
        out(`wrote ${r.data.length} dialogs to ${dataFile} and ${kbFile}`);
        out(`expected status: ${[...statuses].sort().map(([k, v]) => `${k} ${v}`).join(', ')}; rule agent score ${r.report.total.toFixed(5)}`);
      }),
    );

  cmd
    .command('selfplay')
    .description('self-play in airdialogue-v1: an agent policy against a customer policy, scored by the official scorer')
    .option('--agent <name>', `agent policy (${agentPolicies.names().join(', ')})`, 'rules')
    .option('--customer <name>', `customer policy (${customerPolicies.names().join(', ')})`, 'rules')
    .requiredOption('--n <k>', 'number of episodes', intFlag('--n', 1, 10_000_000))
    .option('--seed <s>', 'random seed', intFlag('--seed', 0), 0)
    .option('--ood', 'out-of-domain contexts')
    .option('--max-turns <k>', 'utterances before an episode is truncated', intFlag('--max-turns', 2, 10_000), 40)
    .option('--json', 'print the scores as JSON')
    .action(
      action((o: { agent: string; customer: string; n: number; seed: number; ood?: boolean; maxTurns: number; json?: boolean }) => {
        agentPolicies.get(o.agent);
        customerPolicies.get(o.customer);
        const bar = progress('selfplay', o.n, { quiet: o.n < 2000 });
        const r = selfPlay({ agent: o.agent, customer: o.customer, n: o.n, seed: o.seed, ood: o.ood === true, maxTurns: o.maxTurns, onEpisode: (d) => bar.update(d) });
        bar.stop();
        printScores(r, o.json === true);
      }),
    );
}
