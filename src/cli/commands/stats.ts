import type { Command } from 'commander';

export function registerStats(program: Command): void {
  program.command('stats').description('(not yet implemented)');
}
