/** `dialogym generate dstc6`: DSTC6 Track 1 dataset files (training or test sets) from the simulator (the library's `generateDstc6Run`). */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { generateDstc6Run, type GenerateDstc6Options } from '../../testbeds/dstc6/runs/generate.js';
import type { GenerateResult } from '../../testbeds/restaurant/runs/generate.js';
import { DSTC6_SETS, SET_SPECS, type Dstc6Set } from '../../testbeds/dstc6/sim-dataset.js';
import { action, alias, inputFlag, intFlag, outFolderFlag } from '../run.js';
import { runVerb, shardOptions, type ShardFlags, type VerbRun } from '../shard.js';
import { generateProgress, printGenerated, requiredTaskAndOut } from './generate-common.js';

interface Flags {
  task?: string;
  set?: string;
  seed: number;
  out?: string;
  dialogs?: number;
  kb?: string;
}

function parseSet(v: string): Dstc6Set {
  if ((DSTC6_SETS as readonly string[]).includes(v)) return v as Dstc6Set;
  throw new ConfigError(`--set: expected one of ${DSTC6_SETS.join(', ')}, got '${v}'`);
}

export function registerGenerateDstc6(gen: Command): void {
  const cmd = gen
    .command('dstc6')
    .description('DSTC6 Track 1 (extended restaurant KB, ranking entries): dataset files named like the originals, answers for test sets')
    .option('--task <task>', 'task: 1 (API), 2 (REFINE), 3 (OPTIONS), 4 (INFOS), 5 (FULL) or all (required)')
    .option('--set <set>', 'trn (KB 1, atmosphere), tst1 (KB 1), tst2 (KB 2, OOV), tst3 (KB 1 + restrictions), tst4 (KB 2 + restrictions) (required)')
    .option('--seed <n>', 'random seed (same seed, same files)', intFlag('--seed', 0), 1)
    .option('--out <dir>', 'output folder (required)', outFolderFlag('--out'))
    .option('--dialogs <n>', `dialogs (entries) per file (default: ${SET_SPECS.trn.examples} for trn, ${SET_SPECS.tst1.examples} for tst sets)`, intFlag('--dialogs', 1, 10_000_000))
    .addOption(alias('--examples <n>', 'dialogs', intFlag('--examples', 1, 10_000_000)))
    .option('--kb <file>', 'use this extended KB (e.g. the real extendedkb1.txt / extendedkb2.txt) instead of generating one (default: a KB generated from --seed)', inputFlag('--kb'));
  shardOptions(cmd).action(action((flags: Flags & ShardFlags) => runVerb(flags, generateDstc6Verb)));
}

/** The flags as the run's options (a shard file of dialogym-shard/1 recorded these flags). */
function fromFlags(r: Record<string, unknown>): { options: GenerateDstc6Options } {
  const f = r as unknown as Flags;
  let set: Dstc6Set | undefined;
  const { tasks, out } = requiredTaskAndOut(f, () => {
    if (f.set === undefined) throw new ConfigError(`--set is required (${DSTC6_SETS.join(', ')})`);
    set = parseSet(f.set);
  });
  return { options: { tasks, set: set as Dstc6Set, seed: f.seed, out, ...(f.dialogs !== undefined ? { dialogs: f.dialogs } : {}), ...(f.kb !== undefined ? { kb: f.kb } : {}) } };
}

/** The verb (also `merge`'s printer). */
export const generateDstc6Verb: VerbRun<GenerateDstc6Options, GenerateResult> = {
  run: generateDstc6Run,
  fromFlags,
  print: (r) => printGenerated(r, 'entries'),
  live: () => generateProgress('entries'),
};
