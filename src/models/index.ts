/** Registers every built-in model; import this module before looking a model up. */
import { createRulesBot } from '../domains/restaurant/rules.js';
import { createDstc2RulesBot } from '../domains/restaurant/rules-dstc2.js';
import { models } from './ranker.js';
import { Tfidf } from './tfidf.js';
import { KbTypes } from './match-type.js';
import { ConfigError } from '../core/errors.js';

export { models };

models.register(
  'rules',
  'rule-based restaurant bot (bAbI dialog tasks 1-5, DSTC6 Track 1): dialog state tracking + fixed policy',
  () => createRulesBot(),
);

models.register(
  'rules-dstc2',
  "the paper's task-6 rule-based baseline: cuisine/location/price state, word-match rules, response patterns learned from --train (+ optional --kb)",
  (ctx) => createDstc2RulesBot(ctx.train, ctx.kb ? { kb: ctx.kb } : {}),
);

models.register('tfidf', 'TF-IDF match of the last user utterance against each candidate (idf over the candidates; no training)', (ctx) => {
  if (!ctx.candidates) throw new ConfigError("model 'tfidf' ranks candidates: give a candidates file");
  return Tfidf.fit(ctx.candidates, { input: 'last', matchType: false });
});

models.register('tfidf+type', 'TF-IDF match with match-type features from the KB (§4.5; needs --kb; no training)', (ctx) => {
  if (!ctx.candidates) throw new ConfigError("model 'tfidf+type' ranks candidates: give a candidates file");
  if (!ctx.kb) throw new ConfigError("model 'tfidf+type' needs a KB file (--kb)");
  return Tfidf.fit(ctx.candidates, { input: 'last', matchType: true }, KbTypes.fromFacts(ctx.kb));
});
