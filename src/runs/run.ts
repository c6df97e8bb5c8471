/**
 * A run dialogym offers (the `eval` of a model on a bAbI file, the Table 2 `benchmark`, …) as a
 * library function: typed options checked against its published schema (`schemas/run-<id>.schema.json`),
 * `part(options, shard)` computing the items of one shard of the run (or all of them), and
 * `finish(parts)` putting the items of all shards together into the run's result (writing the files
 * its options name). `run(options)` is the whole run: its part, then its finish. The CLI's verbs
 * parse flags into these options, call the run and print its result; a shard file stores the run's
 * id and options, and `dialogym merge` calls the run's own finish (core/shard.ts for the split and
 * the file).
 */
import { ConfigError } from '../core/errors.js';
import type { Shard, ShardItem } from '../core/shard.js';
import { checkSchema, type SchemaName } from '../formats/schema.js';

/**
 * What a run computed of its items: all of them (`shard` undefined), or one shard's.
 *
 * @example
 * ```ts
 * import type { RunPart } from 'dialogym';
 * const part: RunPart<{ seed: number }> = { run: 'x', options: { seed: 1 }, total: 2, items: [{ k: 0 }, { k: 1 }], meta: {}, info: {} };
 * ```
 */
export interface RunPart<O> {
  /** The run's id (`eval`, `benchmark`). */
  readonly run: string;
  readonly options: O;
  readonly shard?: Shard;
  /** Items of the whole run. */
  readonly total: number;
  /** The items of this part, in increasing `k`. */
  readonly items: readonly ShardItem[];
  /** What the part derived from the options and the data (equal in every part of a run). */
  readonly meta: Record<string, unknown>;
  /** Per-part facts (timings), not compared. */
  readonly info: Record<string, unknown>;
}

/**
 * The parts of a run put together: every item in order (`items[k].k === k`), for `finish`.
 *
 * @example
 * ```ts
 * import type { RunParts } from 'dialogym';
 * const parts: RunParts<{ seed: number }> = { options: { seed: 1 }, meta: {}, items: [{ k: 0 }], infos: [{}] };
 * ```
 */
export interface RunParts<O> {
  readonly options: O;
  readonly meta: Record<string, unknown>;
  readonly items: readonly ShardItem[];
  /** Each part's `info`, in shard order. */
  readonly infos: readonly Record<string, unknown>[];
}

/**
 * A run: its id, its options' check, its part and its finish; `run` does the whole of it.
 *
 * @example
 * ```ts
 * import { evalRun } from 'dialogym';
 * const result = await evalRun.run({ model: 'rules', data: 'data/dialog-babi-task1-API-calls-tst.txt' });
 * console.log(result.perResponse);
 * ```
 */
export interface RunDefinition<O, R, H = Record<string, never>> {
  readonly id: string;
  /** The options as the run reads them, or a one-line ConfigError (`eval: options.model: must be a string, got 3`). */
  checkOptions(value: unknown): O;
  /** Of the options, those a shard file records: the ones that decide the result. */
  recorded(options: O): Record<string, unknown>;
  /** Computes the items of `shard` (undefined: of the whole run). */
  part(options: O, shard: Shard | undefined, hooks?: H): Promise<RunPart<O>>;
  /** The result from every item of the run (writes the files the options name). */
  finish(parts: RunParts<O>): Promise<R>;
  /** The whole run: `part(options, undefined, hooks)`, then `finish`. */
  run(options: O, hooks?: H): Promise<R>;
}

/**
 * Checks `value` against the run's schema `schemas/<schema>.schema.json`; a violation is a one-line
 * ConfigError `<run>: options.<field>: <reason>`.
 *
 * @example
 * ```ts
 * import { checkRunOptions } from 'dialogym';
 * checkRunOptions('eval', 'run-eval', { model: 'rules', data: 'tst.txt' }); // the options, typed
 * ```
 */
export function checkRunOptions<O>(run: string, schema: SchemaName, value: unknown): O {
  const issue = checkSchema(schema, value, '', 'options');
  if (issue) throw new ConfigError(`${run}: ${issue.reason}`);
  return value as O;
}

/**
 * What `defineRun` builds a run from: its id, its options' schema (`schemas/<schema>.schema.json`),
 * the options a shard does not record (they leave the result unchanged, e.g. `workers`), a check of
 * its own before the schema's (for values a front end passes unparsed, said in that option's words),
 * its part and its finish.
 *
 * @example
 * ```ts
 * import type { RunSpec } from 'dialogym';
 * const spec: RunSpec<{ n: number }, number> = {
 *   id: 'count', schema: 'run-eval',
 *   part: async (o) => ({ run: 'count', options: o, total: o.n, items: [], meta: {}, info: {} }),
 *   finish: async (p) => p.items.length,
 * };
 * ```
 */
export interface RunSpec<O, R, H = Record<string, never>> {
  readonly id: string;
  readonly schema: SchemaName;
  readonly unrecorded?: readonly string[];
  readonly precheck?: (value: unknown) => void;
  part(options: O, shard: Shard | undefined, hooks?: H): Promise<RunPart<O>>;
  finish(parts: RunParts<O>): Promise<R>;
}

/**
 * A run from its spec: `checkOptions` is the precheck then the schema, `recorded` every option given
 * but the unrecorded ones, `run` the part of the whole run then its finish.
 *
 * @example
 * ```ts
 * import { defineRun, evalRun } from 'dialogym';
 * const scores = defineRun<{ model: string; data: string }, number>({
 *   id: 'per-response',
 *   schema: 'run-eval',
 *   part: (o, shard) => evalRun.part(o, shard),
 *   finish: async (p) => (await evalRun.finish(p)).perResponse,
 * });
 * await scores.run({ model: 'rules', data: 'tst.txt' });
 * ```
 */
export function defineRun<O, R, H = Record<string, never>>(spec: RunSpec<O, R, H>): RunDefinition<O, R, H> {
  const skip = new Set(spec.unrecorded ?? []);
  return {
    id: spec.id,
    checkOptions(value: unknown): O {
      spec.precheck?.(value);
      return checkRunOptions<O>(spec.id, spec.schema, value);
    },
    recorded: (o: O) => Object.fromEntries(Object.entries(o as object).filter(([k, v]) => v !== undefined && !skip.has(k))),
    part: (o, shard, hooks) => spec.part(o, shard, hooks),
    finish: (p) => spec.finish(p),
    async run(options: O, hooks?: H): Promise<R> {
      return spec.finish(wholeParts(await spec.part(options, undefined, hooks)));
    },
  };
}

/**
 * The parts of a run computed whole (one part, no shard), for `finish`.
 *
 * @example
 * ```ts
 * import { evalRun, wholeParts } from 'dialogym';
 * const options = { model: 'rules', data: 'tst.txt' };
 * const part = await evalRun.part(options, undefined);
 * const result = await evalRun.finish(wholeParts(part)); // what evalRun.run(options) returns
 * ```
 */
export function wholeParts<O>(p: RunPart<O>): RunParts<O> {
  return { options: p.options, meta: p.meta, items: p.items, infos: [p.info] };
}
