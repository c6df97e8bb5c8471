/** `dialogym agent --agent <name|file> --stdio`: one of dialogym's agents behind the agent protocol (JSON Lines on stdin/stdout). */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { action, alias } from '../run.js';
import { loadFlaggedAgent } from '../agent-flags.js';
import { SUMMARY } from './summaries.js';

interface AgentFlags {
  agent: string;
  stdio?: boolean;
  kb?: string;
  candidates?: string;
}

export function registerAgent(program: Command): void {
  program
    .command('agent')
    .description(SUMMARY.agent)
    .requiredOption('--agent <name|file>', 'rules, a response model name or model file (*.dgm), an AirDialogue agent policy, or a KB-InfoBot agent (rule-soft, rl-soft, e2e-soft, …)')
    .addOption(alias('--model <model>', 'agent'))
    .option('--stdio', 'speak JSON Lines on stdin/stdout (the only transport so far)')
    .option('--kb <file>', 'KB text file whose entities a learned model recognises (default: the KB the model file stores)')
    .option('--candidates <file>', 'candidates file, for ranking models (default for a model file: the candidates it stores)')
    .action(
      action(async (o: AgentFlags) => {
        if (!o.stdio) throw new ConfigError('agent: give --stdio (the agent reads requests on stdin and writes replies on stdout)');
        const agent = (await loadFlaggedAgent(o.agent, o))();
        const { runStdioAgent } = await import('../../agents/stdio-agent.js');
        await runStdioAgent(agent, process.stdin, process.stdout);
      }),
    );
}
