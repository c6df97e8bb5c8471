/**
 * The runs dialogym offers as library functions, by id: what a shard file's `run` names and
 * `dialogym merge` looks up to call the run's own `finish`. Each entry loads its module only when
 * asked for.
 */
import { ConfigError } from '../core/errors.js';
import type { RunDefinition } from './run.js';

/** A run of any options and result. */
type AnyRun = RunDefinition<any, unknown, any>;

const RUNS: Readonly<Record<string, () => Promise<AnyRun>>> = {
  eval: async () => (await import('./eval.js')).evalRun,
  'generate restaurant': async () => (await import('./generate.js')).generateRestaurantRun,
  'generate dstc6': async () => (await import('./generate.js')).generateDstc6Run,
  benchmark: async () => (await import('./benchmark.js')).benchmarkRun,
  'infobot eval': async () => (await import('./infobot-eval.js')).infobotEvalRun,
  'airdialogue generate': async () => (await import('./airdialogue.js')).airGenerateRun,
  'airdialogue selfplay': async () => (await import('./airdialogue.js')).airSelfplayRun,
};

/**
 * The ids of the library runs (`eval`, `benchmark`, …).
 *
 * @example
 * ```ts
 * import { runIds } from 'dialogym';
 * runIds(); // ['eval', 'generate restaurant', 'generate dstc6', 'benchmark', 'infobot eval', 'airdialogue generate', 'airdialogue selfplay']
 * ```
 */
export function runIds(): string[] {
  return Object.keys(RUNS);
}

/**
 * The run of an id; an unknown id is a ConfigError listing the ids.
 *
 * @example
 * ```ts
 * import { loadRun } from 'dialogym';
 * const run = await loadRun('eval');
 * const options = run.checkOptions({ model: 'rules', data: 'tst.txt' });
 * ```
 */
export async function loadRun(id: string): Promise<AnyRun> {
  const load = Object.hasOwn(RUNS, id) ? RUNS[id] : undefined;
  if (load === undefined) throw new ConfigError(`no run '${id}' (the runs: ${runIds().join(', ')})`);
  return load();
}
