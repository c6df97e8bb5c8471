/**
 * The flags that give a model its context (`--candidates`, `--kb`, `--train`) and which models read
 * them: a flag given to a model that ignores it is refused in one line, as `train` refuses
 * another model's hyper-parameters (`--hops` on tfidf). Used by `eval`, `dstc6 rank`, `chat` and
 * `serve`; docs/cli.md has the table.
 */
import { creatableModels, describeModels, trainableModels } from '../rankers/registry.js';
import { declareTestbeds } from '../testbeds/index.js';

// Every testbed's models, declared (names and descriptions: the help lists them, the checks know them);
// their code is loaded by `loadModels` where a verb runs one.
declareTestbeds();

/**
 * The checks themselves are the library's (testbeds/restaurant/model-context.ts: errors name
 * options, which the CLI's printer says as flags); the verbs import them from here.
 */
export { chatReads, checkAllowCheckpoint, checkContextOptions as checkContextFlags, modelArg, type ContextOption as ContextFlag, type ModelArg } from '../testbeds/restaurant/model-context.js';

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
