/**
 * The restaurant testbed's models in the model registry: the rule-based bots (`rules`,
 * `rules-dstc2`, `dstc2-plus`, `dstc2-heard`, `dstc2-adapt`) and the Hybrid Code Network (`hcn`). Importing this module also registers the
 * generic rankers, so every model of the bAbI and DSTC6 tasks can be looked up by name.
 */
import '../../rankers/builtin.js';
import { ConfigError } from '../../core/errors.js';
import { models, pickTrainOptions, registerModel, type TrainOptions } from '../../rankers/registry.js';
import { Hcn } from './hcn/hcn.js';
import { trainHcn } from './hcn/train.js';
import { createDstc2AdaptBot } from './rules/dstc2-adapt.js';
import { createDstc2HeardBot } from './rules/dstc2-heard.js';
import { createDstc2PlusBot } from './rules/dstc2-plus.js';
import { createDstc2RulesBot } from './rules/dstc2.js';
import { createRulesBot } from './rules/rules.js';

/**
 * The task-6 (DSTC2) models that learn their wording from the training file (`--train`): their
 * api_calls and post-code KB fit only the task-6 data, so chat, serve and `dstc6 rank` do not offer them.
 */
export const DSTC2_MODELS: readonly string[] = ['rules-dstc2', 'dstc2-plus', 'dstc2-heard', 'dstc2-adapt'];

if (!models.has('rules')) {
  registerModel('rules', 'rule-based restaurant bot (bAbI dialog tasks 1-5, DSTC6 Track 1): dialog state tracking + fixed policy', {
    create: (ctx) => createRulesBot(ctx.kb ? { kb: ctx.kb } : {}),
  });

  registerModel('rules-dstc2', "the paper's task-6 rule-based baseline: cuisine/location/price state, word-match rules, response patterns learned from --train (+ optional --kb)", {
    create: (ctx) => createDstc2RulesBot(ctx.train, ctx.kb ? { kb: ctx.kb } : {}),
  });

  registerModel('dstc2-plus', "task 6: rules-dstc2's rules and patterns, each response worded as the dialog's earlier wording makes most probable (learned from --train; + optional --kb)", {
    create: (ctx) => createDstc2PlusBot(ctx.train, ctx.kb ? { kb: ctx.kb } : {}),
  });

  registerModel('dstc2-heard', "task 6: rules-dstc2 reading the user's turns without the words the DSTC2 system did not understand before its training api_calls (learned from --train; + optional --kb)", {
    create: (ctx) => createDstc2HeardBot(ctx.train, ctx.kb ? { kb: ctx.kb } : {}),
  });

  registerModel('dstc2-adapt', "task 6: dstc2-heard saying each act in the dialog's own earlier wording of it; with --candidates, a dialog of an unseen system version takes unseen wordings from the candidates (learned from --train; + optional --kb)", {
    create: (ctx) => createDstc2AdaptBot(ctx.train, { ...(ctx.kb ? { kb: ctx.kb } : {}), ...(ctx.candidates ? { candidates: ctx.candidates } : {}) }),
  });

  registerModel('hcn', 'Hybrid Code Network (Williams et al. 2017): GRU over utterance features, entity tracking, action templates (needs --kb)', {
    train: (data, o: TrainOptions, hooks) => {
      if (!data.kb?.facts) throw new ConfigError('hcn needs a KB file (--kb) to recognise entities');
      const opts = pickTrainOptions(o, ['hidden', 'lr', 'epochs', 'patience', 'seed', 'batchSize', 'rulesAdvice', 'adviceGate']);
      if (opts.adviceGate !== undefined && !opts.rulesAdvice) throw new ConfigError('--advice-gate needs --rules-advice');
      const r = trainHcn({ train: data.train, dev: data.dev, facts: data.kb.facts, candidates: data.candidates }, opts, hooks);
      return { model: r.model, dev: r.fit.bestDev, selected: `epoch=${r.fit.bestEpoch}`, missing: 0 };
    },
    load: (c, f, kb) => Hcn.fromModelFile(c, f, kb),
  });
}
