/**
 * The flags that give a model its context (`--candidates`, `--kb`, `--train`) and which models read
 * them: a flag given to a model that ignores it is refused in one line, as `train` refuses
 * another model's hyper-parameters (`--hops` on tfidf). Used by `eval`, `dstc6 rank`, `chat` and
 * `serve`; docs/cli.md has the table.
 */
import { ConfigError } from '../core/errors.js';
import { readModelFile, type ModelFileContent } from '../formats/model-file.js';
import { creatableModels, describeModels, trainableModels } from '../rankers/registry.js';

/** A context flag of a model (its option attribute). */
export type ContextFlag = 'candidates' | 'kb' | 'train';

/**
 * The context flags each ready-to-use registered model reads when it is built. A model file reads
 * `--candidates` (a ranker: unless the file stores its candidates) and `--kb` (its entity types).
 * Models registered elsewhere (by a library user) are not checked.
 */
const READS: Readonly<Record<string, readonly ContextFlag[]>> = {
  rules: [],
  'rules-dstc2': ['train', 'kb'],
  tfidf: ['candidates'],
  'tfidf+type': ['candidates', 'kb'],
};
const MODEL_FILE_READS: readonly ContextFlag[] = ['candidates', 'kb'];

/** What `--model` names: a registered model, or a model file with its decoded content. */
export type ModelArg = { readonly name: string; readonly content?: undefined } | { readonly name: string; readonly content: ModelFileContent };

/** Reads the model file `--model` names (once), or returns the name of a registered model. */
export function modelArg(nameOrFile: string, isFile: boolean): ModelArg {
  return isFile ? { name: nameOrFile, content: readModelFile(nameOrFile) } : { name: nameOrFile };
}

/**
 * `--allow-checkpoint` is about model files (a `train` run's checkpoint): given with a registered
 * model's name it would be ignored, so it is a one-line ConfigError instead
 * (`--allow-checkpoint applies to model files; rules is a registered model`).
 */
export function checkAllowCheckpoint(model: string, isFile: boolean, allowCheckpoint: boolean | undefined): void {
  if (allowCheckpoint === true && !isFile) throw new ConfigError(`--allow-checkpoint applies to model files; ${model} is a registered model`);
}

/**
 * Throws a one-line ConfigError for the first flag of `given` (in `checked` order) that the model
 * does not read, e.g. `--train does not apply to tfidf (its options: --candidates)`. `reads`
 * overrides what the model reads (a verb where a flag means something else, such as chat's `--kb`).
 */
export function checkContextFlags(m: ModelArg, given: Partial<Record<ContextFlag, unknown>>, checked: readonly ContextFlag[], reads?: readonly ContextFlag[]): void {
  const applies = reads ?? (m.content ? MODEL_FILE_READS : Object.hasOwn(READS, m.name) ? READS[m.name] : undefined);
  if (applies === undefined) return;
  const stray = checked.find((f) => given[f] !== undefined && !applies.includes(f));
  if (stray === undefined) return;
  const what = m.content ? `the ${m.content.model} model file ${m.name}` : m.name;
  const its = applies.filter((f) => checked.includes(f));
  throw new ConfigError(`--${stray} does not apply to ${what} (its options: ${its.length > 0 ? its.map((f) => `--${f}`).join(' ') : 'none'})`);
}

/**
 * What the chat verbs (`chat`, `serve`) let a model read: `--candidates` only for a ranking
 * model (tfidf, tfidf+type, a model file other than hcn, which writes its answers).
 */
export function chatReads(m: ModelArg): readonly ContextFlag[] | undefined {
  if (m.content) return m.content.model === 'hcn' ? [] : ['candidates'];
  if (!Object.hasOwn(READS, m.name)) return undefined;
  return (READS[m.name] as readonly ContextFlag[]).filter((f) => f === 'candidates');
}

/** Width of the model list in `--help`: commander re-wraps a description's longer lines at 80 columns. */
const HELP_WIDTH = 79;

/**
 * The models a verb's `--help` lists under its summary (its description, so the help is the
 * program's `helpInformation()`): those ready to use, then those to train
 * first, one line each on what it is and when to use it (the registry's descriptions). `exclude`:
 * names the verb cannot run (chat's task-6 model); `trainedOnly`: `train`'s list.
 */
export function modelHelp(exclude: readonly string[] = [], trainedOnly = false): string {
  const ready = trainedOnly ? [] : creatableModels().filter((m) => !exclude.includes(m));
  const trained = trainableModels().filter((m) => (trainedOnly || !ready.includes(m)) && !exclude.includes(m));
  const parts = ['', 'Models (--model):'];
  if (ready.length > 0) parts.push(' ready to use:', describeModels(ready, HELP_WIDTH), ' trained first (`dialogym train --model <name>`), then given as the model file:');
  parts.push(describeModels(trained, HELP_WIDTH));
  return parts.join('\n');
}
