/** Registers every built-in model; import this module before looking a model up. */
import { createRulesBot } from '../domains/restaurant/rules.js';
import { models } from './ranker.js';

export { models };

models.register(
  'rules',
  'rule-based restaurant bot (bAbI dialog tasks 1-5, DSTC6 Track 1): dialog state tracking + fixed policy',
  () => createRulesBot(),
);
