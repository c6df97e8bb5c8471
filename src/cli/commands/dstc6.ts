/** `dialogym dstc6 …` — STUB, being written (DSTC6 tools). */
import type { Command } from 'commander';

export function registerDstc6(program: Command): void {
  program.command('dstc6').description('DSTC6 Track 1 tools (not yet implemented)');
}
