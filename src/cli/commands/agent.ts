/** `dialogym agent --agent <name|file> --stdio`: one of dialogym's agents behind the agent protocol (JSON Lines on stdin/stdout). */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { action, alias, inputFlag, intFlag } from '../run.js';
import { loadFlaggedAgent, openLlmTransport } from '../agent-flags.js';
import { llmConnectionOptions, type LlmFlags } from '../llm-flags.js';
import { SUMMARY } from './summaries.js';

interface AgentFlags extends LlmFlags {
  agent?: string;
  agentLlm?: string;
  seed: number;
  stdio?: boolean;
  kb?: string;
  candidates?: string;
}

export function registerAgent(program: Command): void {
  const cmd = program
    .command('agent')
    .description(SUMMARY.agent)
    .option('--agent <name|file>', 'rules, a response model name or model file (*.dgm), an AirDialogue agent policy, or a KB-InfoBot agent (rule-soft, rl-soft, e2e-soft, …) (required: --agent or --agent-llm)')
    .option('--agent-llm <model>', 'a language model behind an OpenAI-compatible endpoint (--llm-url) as the agent; its replies carry the turn\'s token use (docs/llm.md) (required: --agent or --agent-llm)')
    .option('--seed <n>', 'seed of the LLM retries\' jitter', intFlag('--seed', 0), 1)
    .addOption(alias('--model <model>', 'agent'))
    .option('--stdio', 'speak JSON Lines on stdin/stdout (the only transport so far)')
    .option('--kb <file>', 'KB text file whose entities a learned model recognises (default: the KB the model file stores)', inputFlag('--kb'))
    .option('--candidates <file>', 'candidates file, for ranking models (default for a model file: the candidates it stores)', inputFlag('--candidates'));
  llmConnectionOptions(cmd, { prices: false });
  cmd.action(
    action(async (o: AgentFlags) => {
      if (!o.stdio) throw new ConfigError('agent: give --stdio (the agent reads requests on stdin and writes replies on stdout)');
      if ((o.agent === undefined) === (o.agentLlm === undefined)) throw new ConfigError('give exactly one of --agent, --agent-llm');
      const agent = o.agentLlm !== undefined ? (await openLlmTransport(o.agentLlm, o, o.seed)).connect(0) : (await loadFlaggedAgent(o.agent as string, o))();
      const { runStdioAgent } = await import('../../agents/stdio-agent.js');
      await runStdioAgent(agent, process.stdin, process.stdout);
    }),
  );
}
