/**
 * The restaurant testbed's models in the model registry: the rule-based bots (`rules`, and for
 * task 6 the paper's baseline `rules-dstc2`) and the Hybrid Code Network (`hcn`; task 6: our best
 * with `--rules-advice --advice-gate 0.98`). Its descriptor declares them (`models`: names,
 * descriptions, what each does) beside the generic rankers the registry lists
 * (`rankers/builtin.ts`), so every model of the bAbI and DSTC6 tasks can be looked up by name; this
 * module is their code, loaded by `loadModels`. The task-6
 * experiments that did not beat these on tst (`dstc2-plus`, `dstc2-adapt`) live in
 * `bench/task6/` with their figures (docs/notes/hcn-dstc6-task6.md); `dstc2-heard`, the rules
 * that advise `hcn`, is no model of its own.
 */
import { ConfigError, errorText, optionName } from '../../core/errors.js';
import { pickTrainOptions, type ModelEntry, type TrainOptions } from '../../rankers/model-entry.js';
import { Hcn } from './hcn/hcn.js';
import { trainHcn } from './hcn/train.js';
import { createDstc2RulesBot } from './rules/dstc2.js';
import { createRulesBot } from './rules/rules.js';

/**
 * The task-6 (DSTC2) models that learn their wording from the training file (`--train`): their
 * api_calls and post-code KB fit only the task-6 data, so chat, serve and `dstc6 rank` do not offer them.
 */
export const DSTC2_MODELS: readonly string[] = ['rules-dstc2'];

/**
 * The code of the restaurant testbed's models, by name: what `loadModels` loads for the models its
 * descriptor (testbed.ts) declares (names, descriptions, what each does).
 */
export const RESTAURANT_MODELS: Readonly<Record<string, ModelEntry>> = {
  rules: { create: (ctx) => createRulesBot(ctx.kb ? { kb: ctx.kb } : {}) },
  'rules-dstc2': { create: (ctx) => createDstc2RulesBot(ctx.train, ctx.kb ? { kb: ctx.kb } : {}) },
  hcn: {
    train: (data, o: TrainOptions, hooks) => {
      if (!data.kb?.facts) throw new ConfigError(errorText`hcn needs a KB file (${optionName('kb')}) to recognise entities`);
      const opts = pickTrainOptions(o, ['hidden', 'lr', 'epochs', 'patience', 'seed', 'batchSize', 'rulesAdvice', 'adviceGate']);
      if (opts.adviceGate !== undefined && !opts.rulesAdvice) throw new ConfigError(errorText`${optionName('adviceGate')} needs ${optionName('rulesAdvice')}`);
      const r = trainHcn({ train: data.train, dev: data.dev, facts: data.kb.facts, candidates: data.candidates }, opts, hooks);
      return { model: r.model, dev: r.fit.bestDev, selected: `epoch=${r.fit.bestEpoch}`, missing: 0 };
    },
    load: (c, f, kb) => Hcn.fromModelFile(c, f, kb),
  },
};
