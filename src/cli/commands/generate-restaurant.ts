/** `dialogym generate restaurant`: regenerate the bAbI dialog tasks 1-5 with the simulator (the library's `generateRestaurantRun`). */
import type { Command } from 'commander';
import { generateRestaurantRun, type GenerateRestaurantOptions, type GenerateResult } from '../../testbeds/restaurant/runs/generate.js';
import { action, inputFlag, intFlag, outFolderFlag } from '../run.js';
import { runVerb, shardOptions, type ShardFlags, type VerbRun } from '../shard.js';
import { generateProgress, printGenerated, requiredTaskAndOut } from './generate-common.js';

interface Flags {
  task?: string;
  seed: number;
  out?: string;
  dialogs: number;
  kb?: string;
}

export function registerGenerateRestaurant(gen: Command): void {
  const cmd = gen
    .command('restaurant')
    .description('bAbI dialog tasks 1-5 (restaurant booking): dialog files, KB and candidates with the original names')
    .option('--task <task>', 'task to generate: 1, 2, 3, 4, 5 or all (required)')
    .option('--seed <n>', 'random seed (same seed, same files)', intFlag('--seed', 0), 1)
    .option('--out <dir>', 'output folder (required)', outFolderFlag('--out'))
    .option('--dialogs <n>', 'dialogs per split', intFlag('--dialogs', 1, 1_000_000), 1000)
    .option('--kb <file>', 'use this bAbI KB file (e.g. the original dialog-babi-kb-all.txt) instead of generating one (default: a KB generated from --seed)', inputFlag('--kb'));
  shardOptions(cmd).action(action((flags: Flags & ShardFlags) => runVerb(flags, generateRestaurantVerb)));
}

/** The flags as the run's options (a shard file of dialogym-shard/1 recorded these flags). */
function fromFlags(r: Record<string, unknown>): { options: GenerateRestaurantOptions } {
  const f = r as unknown as Flags;
  const { tasks, out } = requiredTaskAndOut(f);
  return { options: { tasks, seed: f.seed, out, dialogs: f.dialogs, ...(f.kb !== undefined ? { kb: f.kb } : {}) } };
}

/** The verb (also `merge`'s printer). */
export const generateRestaurantVerb: VerbRun<GenerateRestaurantOptions, GenerateResult> = {
  run: generateRestaurantRun,
  fromFlags,
  print: (r) => printGenerated(r, 'dialogs'),
  live: () => generateProgress('dialogs'),
};
