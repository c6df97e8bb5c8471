import type { Command } from 'commander';

export function registerDemo(program: Command): void {
  program.command('demo').description('(not yet implemented)');
}
