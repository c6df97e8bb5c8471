/** `dialogym generate <testbed>`: one subcommand per simulator (the library's generate runs, src/testbeds/<t>/runs/generate.ts). */
import type { Command } from 'commander';
import { registerGenerateRestaurant } from './generate-restaurant.js';
import { registerGenerateDstc6 } from './generate-dstc6.js';
import { SUMMARY } from './summaries.js';

export function registerGenerate(program: Command): void {
  const gen = program.command('generate').description(SUMMARY.generate);
  registerGenerateRestaurant(gen);
  registerGenerateDstc6(gen);
}
