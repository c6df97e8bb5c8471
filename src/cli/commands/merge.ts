/**
 * `dialogym merge <shard files or folders…> [--out dir]`: combines the shard files of a run made
 * with `--shard i/n --shard-out FILE` into exactly what the unsharded run writes (its files, byte
 * for byte, and its report on stdout). Shards of different runs, a shard given twice or a missing
 * shard are refused in one line.
 */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { combineShards, readShardFile } from '../../core/shard.js';
import { action, fileList, outFolderFlag } from '../run.js';
import type { Finisher } from '../shard.js';
import { SUMMARY } from './summaries.js';

/** The shardable verbs: each one's finisher, loaded only for the verb being merged. */
const FINISHERS: Readonly<Record<string, () => Promise<Finisher>>> = {
  eval: async () => (await import('./eval.js')).finishEval,
  'generate restaurant': async () => (await import('./generate-restaurant.js')).finishGenerateRestaurant,
  'generate dstc6': async () => (await import('./generate-dstc6.js')).finishGenerateDstc6,
  benchmark: async () => (await import('./benchmark.js')).finishBenchmark,
  'infobot eval': async () => (await import('./infobot.js')).finishInfobotEval,
  'airdialogue generate': async () => (await import('./airdialogue.js')).finishAirGenerate,
  'airdialogue selfplay': async () => (await import('./airdialogue.js')).finishAirSelfplay,
  evaluate: async () => (await import('./evaluate.js')).finishEvaluate,
};

/** Verbs whose output is a folder (`--out`), which `merge --out` replaces. */
const FOLDER_VERBS = new Set(['generate restaurant', 'generate dstc6', 'benchmark', 'airdialogue generate']);

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description(SUMMARY.merge)
    .argument('<shards...>', 'shard files, or folders of *.shard files')
    .option('--out <dir>', 'output folder of the merged run (default: the --out the shards were run with; generate, benchmark, airdialogue generate)', outFolderFlag('--out'))
    .action(
      action(async (paths: string[], o: { out?: string }) => {
        const { header, items, infos } = combineShards(fileList('merge', paths, '.shard').map(readShardFile));
        const load = FINISHERS[header.verb];
        if (load === undefined) throw new ConfigError(`${paths[0]}: shards of \`${header.verb}\`, which this dialogym cannot merge (it merges ${Object.keys(FINISHERS).join(', ')})`);
        let options = header.options;
        if (o.out !== undefined) {
          if (!FOLDER_VERBS.has(header.verb)) throw new ConfigError(`--out: \`${header.verb}\` writes no output folder (its files go where its flags said)`);
          options = { ...options, out: o.out };
        }
        if (FOLDER_VERBS.has(header.verb) && typeof options['out'] !== 'string') throw new ConfigError(`\`${header.verb}\` shards were run without --out: give merge --out <dir>`);
        await (await load())({ options, meta: header.meta, items, infos });
      }),
    );
}
