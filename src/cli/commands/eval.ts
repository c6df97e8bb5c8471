import type { Command } from 'commander';

export function registerEval(program: Command): void {
  program.command('eval').description('(not yet implemented)');
}
