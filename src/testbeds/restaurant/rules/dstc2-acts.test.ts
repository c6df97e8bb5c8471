import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readBabiDialogs, readBabiKb } from '../../../formats/babi.js';
import { GREET } from '../testing/dstc2.js';
import { babiDir, skipUnless } from '../../../../test/shared-data.js';
import { readBotAct } from './dstc2-acts.js';
import { buildLexicon } from './dstc2-lexicon.js';
import { dstc2Version } from './dstc2-versions.js';

const kb = ['pizza_hut_city_centre', 'the_good_luck_chinese_food_takeaway', 'ask'].flatMap((n, i) => [
  { entity: n, attr: 'R_cuisine', value: ['italian', 'chinese', 'italian'][i] as string },
  { entity: n, attr: 'R_phone', value: `${n}_phone` },
]);
const lex = buildLexicon([], kb);
const sig = (text: string): string => readBotAct(text, lex).signature;

describe('readBotAct', () => {
  it("gives system version A's and B's wordings of the same content one signature", () => {
    const pairs: [string, string, string][] = [
      ['pizza_hut_city_centre is a nice place in the centre of town and the prices are cheap', 'pizza_hut_city_centre is a nice restaurant in the centre of town in the cheap price range', 'inform|location,name,price'],
      ['pizza_hut_city_centre is a nice place in the centre of town serving tasty italian food', 'pizza_hut_city_centre is a nice restaurant in the centre of town serving italian food', 'inform|cuisine,location,name'],
      ["I'm sorry but there is no restaurant serving italian food", 'I am sorry but there is no italian restaurant that matches your request', 'nomatch|cuisine'],
      ['Sorry but there is no other restaurant in the cheap price range and the north of town', 'Sorry but there is no other restaurant in the north of town and the cheap price range', 'nomore|location,price'],
      ['Did you say you are looking for a restaurant in the west of town?', 'You are looking for a restaurant in the west of town is that right?', 'confirm|location'],
    ];
    for (const [a, b, s] of pairs) {
      assert.equal(sig(a), s, a);
      assert.equal(sig(b), s, b);
    }
  });

  it('takes the entities out by type: names (spaced too), contact tokens, cuisines, areas, prices', () => {
    const r = readBotAct('The phone number of the good luck chinese food takeaway is the_good_luck_chinese_food_takeaway_phone', lex);
    assert.deepEqual(r, {
      act: 'inform',
      template: 'The phone number of {name} is {phone}',
      values: { name: 'the_good_luck_chinese_food_takeaway', phone: 'the_good_luck_chinese_food_takeaway_phone' },
      signature: 'inform|name,phone',
    });
    // A cuisine the lexicon lacks, in a cuisine's place; `no` and `other` there are not cuisines.
    assert.equal(readBotAct('I am sorry but there is no polish restaurant that matches your request', lex).values['cuisine'], 'polish');
    assert.equal(sig('I am sorry but there is no other italian restaurant that matches your request'), 'nomore|cuisine');
    // The ask-price question lists the ranges: no values.
    assert.equal(sig('Would you like something in the cheap , moderate , or expensive price range?'), 'ask:price|');
  });

  it('reads a question off its last sentence, the greeting without entities (`ask` is a restaurant)', () => {
    assert.equal(sig('There are restaurants in the cheap price range and the north of town . What type of food would you like?'), 'ask:cuisine|location,price');
    assert.equal(sig("There are restaurants if you don't care about the area or the type of food . What price range would you like?"), 'ask:price|');
    assert.equal(sig('What part of town do you have in mind?'), 'ask:location|');
    assert.deepEqual(readBotAct(GREET, lex), { act: 'greet', template: GREET, values: {}, signature: 'greet|' });
    assert.equal(sig('api_call italian R_location cheap'), 'call|');
    assert.equal(sig('you are welcome'), 'bye|');
    assert.equal(sig('Can I help you with anything else?'), 'anything-else|');
    assert.equal(sig('ask is a great restaurant'), 'inform|name');
    assert.equal(sig('Hmm.'), 'other|');
  });
});

describe('readBotAct on the original task-6 data', () => {
  it('reads every trn/dev bot turn of versions A and B as an act (none is `other`)', { skip: skipUnless(babiDir) }, () => {
    const T6 = (s: string): string => join(babiDir, `dialog-babi-task6-dstc2-${s}.txt`);
    const dialogs = [...readBabiDialogs(T6('trn')).dialogs, ...readBabiDialogs(T6('dev')).dialogs];
    const real = buildLexicon(dialogs, readBabiKb(T6('kb')).facts);
    const count = { A: 0, B: 0 } as Record<string, number>;
    const other: string[] = [];
    for (const d of dialogs) {
      const v = dstc2Version(d);
      if (v !== 'A' && v !== 'B') continue;
      for (const t of d.turns) {
        if (t.speaker !== 'bot') continue;
        count[v] = (count[v] as number) + 1;
        if (readBotAct(t.text, real).act === 'other') other.push(t.text);
      }
    }
    assert.deepEqual(count, { A: 8470, B: 7224 });
    assert.deepEqual(other, []);
  });
});
