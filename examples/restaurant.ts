/**
 * The library on the restaurant testbed: generate bAbI task 1 with the simulator, read the files
 * back with the bAbI reader, train a ranker by name from the model registry and score it and the
 * rule-based bot (`npm run build && node dist/examples/restaurant.js`).
 */
import { accuracy, createModel, evaluateDialogs, parseBabiCandidates, parseBabiDialogs, trainModel } from 'dialogym';
import { generateRestaurantDataset } from 'dialogym/restaurant';

const files = generateRestaurantDataset({ seed: 1, tasks: [1], dialogs: 60 });
const text = (suffix: string): string => {
  const f = files.find((x) => x.name.endsWith(suffix));
  if (!f) throw new Error(`no generated file ending in ${suffix}`);
  return f.text;
};
const train = parseBabiDialogs(text('task1-API-calls-trn.txt'), 'trn').dialogs;
const dev = parseBabiDialogs(text('task1-API-calls-dev.txt'), 'dev').dialogs;
const tst = parseBabiDialogs(text('task1-API-calls-tst.txt'), 'tst').dialogs;
const candidates = parseBabiCandidates(text('candidates.txt'), 'candidates').candidates;

const rules = createModel('rules');
console.log(`rules: per-response ${(100 * accuracy.perResponse(evaluateDialogs(rules, tst))).toFixed(1)}%`);

const { model, dev: devAcc } = trainModel('embeddings', { train, dev, candidates }, { epochs: 3, dim: 16, seed: 1 });
const tstAcc = accuracy.perResponse(evaluateDialogs(model, tst, { candidates }));
console.log(`embeddings: dev ${(100 * devAcc).toFixed(1)}%, tst ${(100 * tstAcc).toFixed(1)}%`);
