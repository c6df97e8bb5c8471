/**
 * DSTC6 Track 1 with the library: generate a KB and a small tst1 set of task 1 with the
 * simulator, rank its candidates with the official TF-IDF baseline and with the rule-based bot of
 * the model registry, and score both with the official metrics (`node dist/examples/dstc6.js`).
 */
import { createModel, createRng, isResponder, precisionAtK, responderAsRanker } from 'dialogym';
import { distinctCandidates, generateExtendedKbs, generateSet, rankDstc6, scoreDstc6, tfidfBaseline } from 'dialogym/dstc6';

const kbs = generateExtendedKbs(createRng(1).fork('kb'));
const { entries, answers } = generateSet({ task: 1, set: 'tst1', restaurants: kbs[1], rng: createRng(1).fork('tst1'), examples: 100 });

const rules = createModel('rules', { candidates: distinctCandidates(entries) });
const ranker = isResponder(rules) ? responderAsRanker(rules) : rules;
const results = {
  'tf-idf baseline': tfidfBaseline(entries),
  rules: rankDstc6(entries, (history, candidates) => ranker.rank(history, candidates)),
};
for (const [name, result] of Object.entries(results)) {
  const s = scoreDstc6(result, answers);
  const p = (k: number): string => precisionAtK.value(s.precision, k).toFixed(3);
  console.log(`${name}: P@1 ${p(1)} P@2 ${p(2)} P@5 ${p(5)} (${s.dialogs} dialogs)`);
}
