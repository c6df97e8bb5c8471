/** `dialogym generate restaurant` — STUB, being written (SIM). */
import type { Command } from 'commander';

export function registerGenerateRestaurant(gen: Command): void {
  gen.command('restaurant').description('bAbI dialog tasks 1-5 (not yet implemented)');
}
