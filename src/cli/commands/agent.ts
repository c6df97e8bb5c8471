/** `dialogym agent --agent <name|file> --stdio`: one of dialogym's agents behind the agent protocol (JSON Lines on stdin/stdout). */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import { action, alias, inputFlag } from '../run.js';
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
    .option('--kb <file>', 'KB text file whose entities a learned model recognises (default: the KB the model file stores)', inputFlag('--kb'))
    .option('--candidates <file>', 'candidates file, for ranking models (default for a model file: the candidates it stores)', inputFlag('--candidates'))
    .action(
      action(async (o: AgentFlags) => {
        if (!o.stdio) throw new ConfigError('agent: give --stdio (the agent reads requests on stdin and writes replies on stdout)');
        const { createLocalAgent } = await import('../../serve/env-server-agents.js');
        await checkAgentName(o.agent);
        const { runStdioAgent } = await import('../../serve/env-server-stdio.js');
        const agent = createLocalAgent(o.agent, { ...(o.kb ? { kb: o.kb } : {}), ...(o.candidates ? { candidates: o.candidates } : {}) });
        await runStdioAgent(agent, process.stdin, process.stdout);
      }),
    );
}

/** `--agent` names an existing file or an agent of one of the registries: else a ConfigError at start, not an `{"error"}` reply per request. */
async function checkAgentName(name: string): Promise<void> {
  if (existsSync(name)) return;
  const { creatableModels } = await import('../../rankers/registry.js');
  const { agentPolicies } = await import('../../testbeds/airdialogue/policies.js');
  const { infobotAgents } = await import('../../testbeds/infobot/agents/agent.js');
  const known = [...creatableModels(), ...agentPolicies.names(), ...infobotAgents.names()];
  if (known.includes(name)) return;
  const what = /[/\\.]/.test(name) ? 'no such file' : 'unknown agent';
  throw new ConfigError(`--agent: ${name}: ${what} (agents: ${[...new Set(known)].sort().join(', ')}, or a model file)`);
}
