import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Dialog, Turn } from '../../src/core/dialog.js';
import { ConfigError } from '../../src/core/errors.js';
import { readBabiDialogs, readBabiKb } from '../../src/formats/babi.js';
import { accuracy } from '../../src/metrics/ranking.js';
import { evaluateDialogs } from '../../src/rankers/evaluate-responses.js';
import { b, GREET, resto, u } from '../../src/testbeds/restaurant/testing/dstc2.js';
import { babiDir, cliPath, skipUnless } from '../../test/shared-data.js';
import { createDstc2PlusBot } from './dstc2-plus.js';
import { createDstc2RulesBot } from '../../src/testbeds/restaurant/rules/dstc2.js';

const ASK_A = 'What part of town do you have in mind?';
const ASK_B = 'What area would you like?';
const FOOD = 'What kind of food would you like?';

/** The start of a dialog up to the api_call's results: cheap → area question → north → food → italian. */
const start = (ask: string, name: string): Turn[] => [
  u('<SILENCE>'), b(GREET), u('i want a cheap restaurant'), b(ask), u('north'), b(FOOD), u('italian'),
  b('api_call italian north cheap'), ...resto(name, 'italian', 'north', 'cheap', 5), u('<SILENCE>'),
];

/**
 * Two system versions: A (three dialogs) asks `What part of town …` and offers `… is a nice place
 * …`; B (two dialogs) asks `What area …` and offers `… is a nice restaurant … serving … food`.
 */
const versionA = (i: number, name: string): Dialog => ({
  id: `a${i}`,
  turns: [...start(ASK_A, name), b(`${name} is a nice place in the north of town`), u('good bye'), b(' you are welcome')],
});
const versionB = (i: number, name: string): Dialog => ({
  id: `b${i}`,
  turns: [...start(ASK_B, name), b(`${name} is a nice restaurant in the north of town serving italian food`), u('good bye'), b(' you are welcome')],
});
const train = [versionA(0, 'da_vinci_pizzeria'), versionB(0, 'zizzi_cambridge'), versionA(1, 'pizza_express'), versionB(1, 'prezzo'), versionA(2, 'la_margherita')];

describe('dstc2-plus bot', () => {
  const plus = createDstc2PlusBot(train);
  const rules = createDstc2RulesBot(train);

  it('needs training dialogs', () => {
    assert.throws(() => createDstc2PlusBot(undefined), (e: unknown) => e instanceof ConfigError && /'dstc2-plus'.*--train/.test((e as Error).message));
  });

  it("words an offer as the dialog's earlier wording predicts; rules-dstc2 always says the most frequent pattern", () => {
    const hB = start(ASK_B, 'ask_restaurant');
    assert.equal(plus.respond(hB), 'ask_restaurant is a nice restaurant in the north of town serving italian food');
    assert.equal(rules.respond(hB), 'ask_restaurant is a nice place in the north of town');
    const hA = start(ASK_A, 'ask_restaurant');
    assert.equal(plus.respond(hA), 'ask_restaurant is a nice place in the north of town');
  });

  it("says rules-dstc2's response when there is no evidence, and keeps its decisions", () => {
    const h = [u('<SILENCE>'), b(GREET), u('i want a cheap restaurant')];
    assert.equal(plus.respond([u('<SILENCE>')]), GREET);
    assert.equal(plus.respond(h), ASK_A);
    assert.equal(plus.respond([...h, b(ASK_B), u('north')]), FOOD);
    assert.equal(plus.respond([...h, b(ASK_B), u('north'), b(FOOD), u('italian')]), 'api_call italian north cheap');
  });

  it('with learnedActs, takes the act the training bot took in the same context before the first api_call', () => {
    // In training, a price-only request is always answered with an api_call. The rules ask for the
    // area there, and so learn that api_call's text, price included, as the question's wording.
    const calls: Dialog[] = [0, 1, 2].map((i) => ({
      id: `c${i}`,
      turns: [u('<SILENCE>'), b(GREET), u('i want a cheap restaurant'), b('api_call R_cuisine R_location cheap'), ...resto('prezzo', 'italian', 'west', 'cheap', 4), u('<SILENCE>'), b('prezzo is a nice place in the west of town')],
    }));
    const h = [u('<SILENCE>'), b(GREET), u('i want an expensive restaurant')];
    assert.equal(createDstc2RulesBot(calls).respond(h), 'api_call R_cuisine R_location cheap');
    assert.equal(createDstc2PlusBot(calls).respond(h), 'api_call R_cuisine R_location cheap');
    assert.equal(createDstc2PlusBot(calls, { learnedActs: true, minContext: 3 }).respond(h), 'api_call R_cuisine R_location expensive');
    // A context seen fewer times than minContext keeps the rules' act.
    assert.equal(createDstc2PlusBot(calls, { learnedActs: true, minContext: 4 }).respond(h), 'api_call R_cuisine R_location cheap');
  });
});

const T6 = (split: string): string => join(babiDir, `dialog-babi-task6-dstc2-${split}.txt`);

describe('dstc2-plus on the original task-6 data', () => {
  it('trained on trn: dev per-response 60.86 % (rules-dstc2 56.22 %)', { skip: skipUnless(babiDir) }, () => {
    const trn = readBabiDialogs(T6('trn')).dialogs;
    const kb = readBabiKb(join(babiDir, 'dialog-babi-task6-dstc2-kb.txt')).facts;
    const dev = readBabiDialogs(T6('dev')).dialogs;
    const plus = evaluateDialogs(createDstc2PlusBot(trn, { kb }), dev);
    const rules = evaluateDialogs(createDstc2RulesBot(trn, { kb }), dev);
    assert.equal(plus.turns, 4159);
    assert.equal(Math.round(accuracy.perResponse(plus) * plus.turns), 2531);
    assert.equal(Math.round(accuracy.perResponse(rules) * rules.turns), 2338);
  });

  it('is no registered model (a rejected task-6 experiment): eval --model dstc2-plus is refused', () => {
    const r = spawnSync(process.execPath, [cliPath, 'eval', '--model', 'dstc2-plus', '--data', 'x.txt'], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^error: unknown model 'dstc2-plus'/);
  });
});
