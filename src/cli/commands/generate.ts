/** `dialogym generate <testbed>`: one subcommand per simulator. */
import type { Command } from 'commander';
import { registerGenerateRestaurant } from './generate-restaurant.js';
import { registerGenerateDstc6 } from './generate-dstc6.js';

export function registerGenerate(program: Command): void {
  const gen = program.command('generate').description('generate a dataset with a simulator');
  registerGenerateRestaurant(gen);
  registerGenerateDstc6(gen);
}
