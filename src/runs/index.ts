/**
 * The runs dialogym offers as library functions, by id: what a shard file's `run` names and
 * `dialogym merge` looks up to call the run's own `finish`. The generic run (`evaluate`) is here;
 * each testbed declares its own (`runs` of its descriptor, `src/testbeds/<t>/testbed.ts`), and the
 * list of testbeds puts them here (`declareRuns`, as it fills `envs`; `import 'dialogym'` and the
 * CLI do it). Each entry loads its module only when asked for.
 */
import { ConfigError } from '../core/errors.js';
import type { RunDefinition } from './run.js';

/**
 * A run of any options and result.
 *
 * @example
 * ```ts
 * import { loadRun, type AnyRun } from 'dialogym';
 * const run: AnyRun = await loadRun('evaluate');
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRun = RunDefinition<any, unknown, any>;

/**
 * Runs by id, each a lazy entry point (the run's module is imported when it is loaded).
 *
 * @example
 * ```ts
 * import { evalRun, type RunEntries } from 'dialogym';
 * const runs: RunEntries = { 'my eval': async () => evalRun }; // a testbed's: `async () => (await import('./runs/eval.js')).myEvalRun`
 * ```
 */
export type RunEntries = Readonly<Record<string, () => Promise<AnyRun>>>;

/** The generic runs, then the testbeds' in the order they are declared. */
const RUNS = new Map<string, () => Promise<AnyRun>>([['evaluate', async () => (await import('./evaluate.js')).evaluateRun]]);

/**
 * Declares runs by id (a testbed's: the list of testbeds declares each one's `runs`); an id declared
 * twice is a ConfigError.
 *
 * @example
 * ```ts
 * import { declareRuns, loadRun, evalRun } from 'dialogym';
 * declareRuns({ 'my eval': async () => evalRun });
 * await loadRun('my eval'); // evalRun
 * ```
 */
export function declareRuns(runs: RunEntries): void {
  for (const [id, load] of Object.entries(runs)) {
    if (RUNS.has(id)) throw new ConfigError(`run '${id}' is declared twice`);
    RUNS.set(id, load);
  }
}

/**
 * The ids of the library runs (`evaluate`, `eval`, `benchmark`, …): the generic ones, then the
 * testbeds' (declared by the list of testbeds: `import 'dialogym'` does it).
 *
 * @example
 * ```ts
 * import { runIds } from 'dialogym';
 * runIds(); // ['evaluate', 'eval', 'benchmark', 'generate restaurant', 'generate dstc6', 'infobot eval', 'airdialogue generate', 'airdialogue selfplay']
 * ```
 */
export function runIds(): string[] {
  return [...RUNS.keys()];
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
  const load = RUNS.get(id);
  if (load === undefined) throw new ConfigError(`no run '${id}' (the runs: ${runIds().join(', ')})`);
  return load();
}
