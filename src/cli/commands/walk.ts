import type { Command } from 'commander';

export function registerWalk(program: Command): void {
  program.command('walk').description('(not yet implemented)');
}
