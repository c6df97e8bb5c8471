/**
 * `dialogym merge <shard files or folders…> [--out dir]`: combines the shard files of a run made
 * with `--shard i/n --shard-out FILE` into exactly what the unsharded run writes (its files, byte
 * for byte, and its report on stdout). Shards of different runs, a shard given twice or a missing
 * shard are refused in one line. Every run is a library run (`evaluate` in src/runs/, the others in
 * their testbeds' folders, `src/testbeds/<t>/runs/`): looked up by the id its shards name (`loadRun`)
 * and finished by its own `finish`; the verb only prints the result.
 */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { combineShards, readShardFile } from '../../core/shard.js';
import { loadRun } from '../../runs/index.js';
import { declareTestbeds } from '../../testbeds/index.js';
import { action, fileList, outFolderFlag } from '../run.js';
import type { VerbRun } from '../shard.js';
import { SUMMARY } from './summaries.js';

/** Each library run's verb (how it reads flags and prints), loaded only for the run being merged. */
const PRINTERS: Readonly<Record<string, () => Promise<VerbRun>>> = {
  eval: async () => (await import('./eval.js')).evalVerb as VerbRun,
  'generate restaurant': async () => (await import('./generate-restaurant.js')).generateRestaurantVerb as VerbRun,
  'generate dstc6': async () => (await import('./generate-dstc6.js')).generateDstc6Verb as VerbRun,
  benchmark: async () => (await import('./benchmark.js')).benchmarkVerb as VerbRun,
  'infobot eval': async () => (await import('./infobot.js')).infobotEvalVerb as VerbRun,
  'airdialogue generate': async () => (await import('./airdialogue.js')).airGenerateVerb as VerbRun,
  'airdialogue selfplay': async () => (await import('./airdialogue.js')).airSelfplayVerb as VerbRun,
  evaluate: async () => (await import('./evaluate.js')).evaluateVerb as VerbRun,
};

/** Runs whose output is a folder (`out`), which `merge --out` replaces. */
const FOLDER_VERBS = new Set(['generate restaurant', 'generate dstc6', 'benchmark', 'airdialogue generate']);

/** Every run merge can finish, in the order the verbs are listed. */
const MERGEABLE = ['eval', 'generate restaurant', 'generate dstc6', 'benchmark', 'infobot eval', 'airdialogue generate', 'airdialogue selfplay', 'evaluate'];

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description(SUMMARY.merge)
    .argument('<shards...>', 'shard files, or folders of *.shard files')
    .option('--out <dir>', 'output folder of the merged run (default: the --out the shards were run with; generate, benchmark, airdialogue generate)', outFolderFlag('--out'))
    .action(
      action(async (paths: string[], o: { out?: string }) => {
        const { header, version, items, infos } = combineShards(fileList('merge', paths, '.shard').map(readShardFile));
        const id = header.run;
        const printer = Object.hasOwn(PRINTERS, id) ? PRINTERS[id] : undefined;
        if (printer === undefined) throw new ConfigError(`${paths[0]}: shards of \`${id}\`, which this dialogym cannot merge (it merges ${MERGEABLE.join(', ')})`);
        if (o.out !== undefined && !FOLDER_VERBS.has(id)) throw new ConfigError(`--out: \`${id}\` writes no output folder (its files go where its flags said)`);
        // A run's shards hold its options (a dialogym-shard/1 file, or a shard of a verb from before it was a library run, recorded the verb's flags: read as the verb reads them).
        const p = await printer();
        const recorded = version === 1 || p.recordsFlags?.(header.options) === true ? p.fromFlags(header.options) : { options: header.options, print: header.print };
        const given = recorded.options as Record<string, unknown>;
        const options = o.out !== undefined ? { ...given, out: o.out } : given;
        if (FOLDER_VERBS.has(id) && typeof options['out'] !== 'string') throw new ConfigError(`\`${id}\` shards were run without --out: give merge --out <dir>`);
        // The run's own finish; the verb prints.
        declareTestbeds(); // the testbeds' runs
        const run = await loadRun(id);
        p.print(await run.finish({ options: run.checkOptions(options), meta: header.meta, items, infos }), recorded.print ?? {});
      }),
    );
}
