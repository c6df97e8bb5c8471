/**
 * What a response model reads of its context (candidates, KB, training dialogs) and the checks on a
 * model named by a run's `model` option: a context option given to a model that ignores it is
 * refused in one line (`train does not apply to tfidf (its options: candidates)`), and
 * `allowCheckpoint` given with a registered model's name. The errors name options; the CLI
 * says them as its flags (`--train`, `--allow-checkpoint`). Used by the eval run, `dstc6 rank`,
 * `chat` and `serve`.
 */
import { ConfigError, errorText, optionName, type ErrorText } from '../../core/errors.js';
import { readModelFile, type ModelFileContent } from '../../formats/model-file.js';

/**
 * A context option of a model.
 *
 * @example
 * ```ts
 * import type { ContextOption } from 'dialogym/restaurant';
 * const o: ContextOption = 'candidates';
 * ```
 */
export type ContextOption = 'candidates' | 'kb' | 'train';

/**
 * The context options each ready-to-use registered model reads when it is built. A model file reads
 * `candidates` (a ranker: unless the file stores its candidates) and `kb` (its entity types).
 * Models registered elsewhere (by a library user) are not checked.
 */
const READS: Readonly<Record<string, readonly ContextOption[]>> = {
  rules: [],
  'rules-dstc2': ['train', 'kb'],
  tfidf: ['candidates'],
  'tfidf+type': ['candidates', 'kb'],
};
const MODEL_FILE_READS: readonly ContextOption[] = ['candidates', 'kb'];

/**
 * A `model` option read once: a registered model's name, or a model file with its decoded content.
 *
 * @example
 * ```ts
 * import type { ModelArg } from 'dialogym/restaurant';
 * const m: ModelArg = { name: 'rules' };
 * ```
 */
export type ModelArg = { readonly name: string; readonly content?: undefined } | { readonly name: string; readonly content: ModelFileContent };

/**
 * Reads the model file a `model` option names (once), or returns the name of a registered model.
 *
 * @example
 * ```ts
 * import { modelArg } from 'dialogym/restaurant';
 * modelArg('rules', false); // { name: 'rules' }
 * ```
 */
export function modelArg(nameOrFile: string, isFile: boolean): ModelArg {
  return isFile ? { name: nameOrFile, content: readModelFile(nameOrFile) } : { name: nameOrFile };
}

/**
 * `allowCheckpoint` is about model files (a `train` run's checkpoint): given with a registered
 * model's name it would be ignored, so it is a one-line ConfigError instead
 * (`allowCheckpoint applies to model files; rules is a registered model`).
 *
 * @example
 * ```ts
 * import { checkAllowCheckpoint } from 'dialogym/restaurant';
 * checkAllowCheckpoint('out/m.dgm', true, true); // fine
 * ```
 */
export function checkAllowCheckpoint(model: string, isFile: boolean, allowCheckpoint: boolean | undefined): void {
  if (allowCheckpoint === true && !isFile) throw new ConfigError(errorText`${optionName('allowCheckpoint')} applies to model files; ${model} is a registered model`);
}

/**
 * Throws a one-line ConfigError for the first option of `given` (in `checked` order) that the model
 * does not read, e.g. `train does not apply to tfidf (its options: candidates)`. `reads`
 * overrides what the model reads (a run where an option means something else, such as chat's `kb`).
 *
 * @example
 * ```ts
 * import { checkContextOptions } from 'dialogym/restaurant';
 * checkContextOptions({ name: 'tfidf' }, { candidates: 'c.txt' }, ['candidates', 'kb', 'train']); // fine
 * ```
 */
export function checkContextOptions(m: ModelArg, given: Partial<Record<ContextOption, unknown>>, checked: readonly ContextOption[], reads?: readonly ContextOption[]): void {
  const applies = reads ?? (m.content ? MODEL_FILE_READS : Object.hasOwn(READS, m.name) ? READS[m.name] : undefined);
  if (applies === undefined) return;
  const stray = checked.find((f) => given[f] !== undefined && !applies.includes(f));
  if (stray === undefined) return;
  const what = m.content ? `the ${m.content.model} model file ${m.name}` : m.name;
  const its = applies.filter((f) => checked.includes(f));
  const list: ErrorText = its.length > 0 ? its.flatMap((f, i) => (i === 0 ? [optionName(f)] : [' ', optionName(f)])) : ['none'];
  throw new ConfigError([optionName(stray), ` does not apply to ${what} (its options: `, ...list, ')']);
}

/**
 * What the chat runs (`chat`, `serve`) let a model read: `candidates` only for a ranking
 * model (tfidf, tfidf+type, a model file other than hcn, which writes its answers).
 *
 * @example
 * ```ts
 * import { chatReads } from 'dialogym/restaurant';
 * chatReads({ name: 'tfidf' }); // ['candidates']
 * ```
 */
export function chatReads(m: ModelArg): readonly ContextOption[] | undefined {
  if (m.content) return m.content.model === 'hcn' ? [] : ['candidates'];
  if (!Object.hasOwn(READS, m.name)) return undefined;
  return (READS[m.name] as readonly ContextOption[]).filter((f) => f === 'candidates');
}
