import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Dialog } from '../../../core/dialog.js';
import { ConfigError } from '../../../core/errors.js';
import { readBabiDialogs, readBabiKb } from '../../../formats/babi.js';
import { accuracy } from '../../../metrics/ranking.js';
import { evaluateDialogs } from '../../../rankers/evaluate-responses.js';
import { createModel } from '../../../rankers/registry.js';
import '../../../index.js'; // every testbed, loaded
import { b, GREET, resto, u } from '../testing/dstc2.js';
import { babiDir, cliPath, skipUnless } from '../../../../test/shared-data.js';
import { apiCall, constraintKey, createDstc2RulesBot } from './dstc2.js';
import { delexicalise, fill } from './dstc2-patterns.js';

/** Two training dialogs in the task-6 style: the bot learns its wording from them. */
const train: Dialog[] = [
  {
    id: '0',
    turns: [
      u('<SILENCE>'), b(GREET),
      u('i want a cheap restaurant'), b('What part of town do you have in mind?'),
      u('north'), b('What kind of food would you like?'),
      u('italian'), b('api_call italian north cheap'),
      ...resto('da_vinci_pizzeria', 'italian', 'north', 'cheap', 3),
      u('<SILENCE>'), b('da_vinci_pizzeria is a nice restaurant in the north of town serving italian food'),
      u('whats the phone number'), b('The phone number of da_vinci_pizzeria is da_vinci_pizzeria_phone'),
      u('thank you good bye'), b(' you are welcome'),
    ],
  },
  {
    id: '1',
    turns: [
      u('<SILENCE>'), b(GREET),
      u('italian food in the centre'), b('api_call italian centre R_price'),
      ...resto('pizza_express', 'italian', 'centre', 'moderate', 2),
      ...resto('zizzi_cambridge', 'italian', 'centre', 'cheap', 9),
      u('<SILENCE>'), b('zizzi_cambridge is a nice restaurant in the centre of town serving italian food'),
      u('polynesian food'), b("I'm sorry but there is no restaurant serving polynesian food"),
      u('address'), b('Sure , zizzi_cambridge is on zizzi_cambridge_address'),
      u('good bye'), b(' you are welcome'),
    ],
  },
];

describe('rules-dstc2 patterns', () => {
  it('delexicalises names (also spaced) before the values they contain, and fills back', () => {
    const v = { name: 'the_good_luck_chinese_food_takeaway', cuisine: 'chinese', location: 'south' };
    const d = delexicalise('the good luck chinese food takeaway is a nice restaurant in the south of town serving chinese food', v);
    assert.equal(d.pattern, '{name} is a nice restaurant in the {location} of town serving {cuisine} food');
    assert.equal(d.nameForm, 'the good luck chinese food takeaway');
    assert.equal(fill(d.pattern, { ...v, name: 'x' }), 'x is a nice restaurant in the south of town serving chinese food');
    assert.equal(fill('{name} is in the {price} price range', v), undefined);
  });
});

describe('rules-dstc2 bot', () => {
  const bot = createDstc2RulesBot(train);

  it('needs training dialogs', () => {
    assert.throws(() => createDstc2RulesBot(undefined), (e: unknown) => e instanceof ConfigError && e.text.some((p) => typeof p === 'object' && 'option' in p && p.option === 'train'));
    assert.throws(() => createModel('rules-dstc2', {}), ConfigError);
  });

  it('writes api_calls with R_ placeholders for unknown or dont-care slots', () => {
    assert.equal(apiCall({ cuisine: 'dontcare', location: 'west' }), 'api_call R_cuisine west R_price');
    assert.equal(constraintKey({ cuisine: 'thai', location: 'dontcare', price: 'cheap' }), 'VDV');
  });

  it('greets, asks for the area then the food, then calls', () => {
    assert.equal(bot.respond([u('<SILENCE>')]), GREET);
    const h = [u('<SILENCE>'), b(GREET), u('a cheap restaurant please')];
    assert.equal(bot.respond(h), 'What part of town do you have in mind?');
    const h2 = [...h, b('What part of town do you have in mind?'), u('i dont care')];
    assert.equal(bot.respond(h2), 'What kind of food would you like?');
    assert.equal(bot.respond([...h2, b('What kind of food would you like?'), u('italian')]), 'api_call italian R_location cheap');
  });

  it('offers the best-rated result in the learned wording, answers about it, says goodbye', () => {
    const h = [
      u('<SILENCE>'), b(GREET), u('italian food'), b('api_call italian R_location R_price'),
      ...resto('pizza_hut_city_centre', 'italian', 'centre', 'cheap', 10),
      ...resto('prezzo', 'italian', 'west', 'moderate', 4),
      u('<SILENCE>'),
    ];
    const offer = bot.respond(h);
    assert.equal(offer, 'pizza_hut_city_centre is a nice restaurant in the centre of town serving italian food');
    const h2 = [...h, b(offer), u('what is the phone number')];
    assert.equal(bot.respond(h2), 'The phone number of pizza_hut_city_centre is pizza_hut_city_centre_phone');
    assert.equal(bot.respond([...h2, b('x'), u('thank you good bye')]), ' you are welcome');
    // A cuisine no restaurant serves (not in any KB fact) → the learned apology.
    assert.equal(bot.respond([...h, b(offer), u('polynesian food')]), "I'm sorry but there is no restaurant serving polynesian food");
  });

  it('makes a new api_call when the user changes a constraint after an offer', () => {
    const h = [
      u('<SILENCE>'), b(GREET), u('cheap italian food'), b('api_call italian R_location cheap'), ...resto('zizzi_cambridge', 'italian', 'centre', 'cheap', 9),
      u('<SILENCE>'), b('zizzi_cambridge is a nice restaurant in the centre of town serving italian food'), u('i want something in the north'),
    ];
    assert.equal(bot.respond(h), 'api_call italian north cheap');
  });
});

const T6 = (split: string): string => join(babiDir, `dialog-babi-task6-dstc2-${split}.txt`);

describe('rules-dstc2 on the original task-6 data', () => {
  it('tst per-response accuracy is at least the paper band (33.3 ± 5; measured 52.6), per-dialog near 0', { skip: skipUnless(babiDir) }, () => {
    const bot = createDstc2RulesBot(readBabiDialogs(T6('trn')).dialogs, { kb: readBabiKb(join(babiDir, 'dialog-babi-task6-dstc2-kb.txt')).facts });
    const s = evaluateDialogs(bot, readBabiDialogs(T6('tst')).dialogs);
    const r = accuracy.perResponse(s);
    assert.equal(s.turns, 11237);
    assert.ok(r >= 0.283, `per-response ${r}`);
    // Not a copy of the answers: the test set's own wordings (`Could you please repeat that?`,
    // `There are restaurants ...`) are absent from the training file.
    assert.ok(r < 0.6, `per-response ${r}`);
    assert.ok(accuracy.perDialog(s) < 0.05);
  });

  it('CLI: eval --model rules-dstc2 needs --train; with it prints the accuracy', { skip: skipUnless(babiDir) }, () => {
    const noTrain = spawnSync(process.execPath, [cliPath, 'eval', '--model', 'rules-dstc2', '--data', T6('dev')], { encoding: 'utf8' });
    assert.notEqual(noTrain.status, 0);
    assert.match(noTrain.stderr.trim(), /^error: model 'rules-dstc2' learns its response patterns from the task-6 training file: give --train/m);
    assert.doesNotMatch(noTrain.stderr, /\n\s+at /);
    const ok = spawnSync(process.execPath, [cliPath, 'eval', '--model', 'rules-dstc2', '--data', T6('dev'), '--train', T6('trn'), '--json'], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    const j = JSON.parse(ok.stdout) as { perResponse: number; turns: number };
    assert.equal(j.turns, 4159);
    assert.ok(j.perResponse > 0.4 && j.perResponse < 0.7, String(j.perResponse));
    // Several training files joined by commas: the same model as one built in process on trn + dev.
    const both = spawnSync(process.execPath, [cliPath, 'eval', '--model', 'rules-dstc2', '--data', T6('dev'), '--train', `${T6('trn')},${T6('dev')}`, '--json'], { encoding: 'utf8' });
    assert.equal(both.status, 0, both.stderr);
    const jb = JSON.parse(both.stdout) as { perResponse: number; turns: number };
    const trnDev = [...readBabiDialogs(T6('trn')).dialogs, ...readBabiDialogs(T6('dev')).dialogs];
    const dev = readBabiDialogs(T6('dev')).dialogs;
    assert.equal(jb.perResponse, accuracy.perResponse(evaluateDialogs(createModel('rules-dstc2', { train: trnDev }), dev)));
    assert.notEqual(jb.perResponse, j.perResponse, 'dev is among the training dialogs now');
    const missing = spawnSync(process.execPath, [cliPath, 'eval', '--model', 'rules-dstc2', '--data', T6('dev'), '--train', `${T6('trn')},nope.txt`], { encoding: 'utf8' });
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr.trim(), /^error: .*nope\.txt/);
    assert.doesNotMatch(missing.stderr, /\n\s+at /);
  });
});
