/** `dialogym airdialogue …` — STUB, being written (AirDialogue). */
import type { Command } from 'commander';

export function registerAirdialogue(program: Command): void {
  program.command('airdialogue').description('AirDialogue tools (not yet implemented)');
}
