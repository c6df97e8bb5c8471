import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Dialog, Turn } from '../../../core/dialog.js';
import { buildLexicon, DONTCARE, parseApiCall, parseKbLine, understand } from './dstc2-lexicon.js';
import { goalChanged, rankedResults, readBotTurn, restaurantIn, trackDstc2 } from './dstc2-state.js';

const u = (text: string): Turn => ({ speaker: 'user', text });
const b = (text: string): Turn => ({ speaker: 'bot', text });
const k = (text: string): Turn => ({ speaker: 'kb', text });

const GREET = 'Hello , welcome to the Cambridge restaurant system . You can ask for restaurants by area , price range or food type . How may I help you ?';
const resto = (name: string, cuisine: string, location: string, price: string, rating: number): Turn[] => [
  k(`${name} R_post_code ${name}_post_code`),
  k(`${name} R_cuisine ${cuisine}`),
  k(`${name} R_location ${location}`),
  k(`${name} R_phone ${name}_phone`),
  k(`${name} R_address ${name}_address`),
  k(`${name} R_price ${price}`),
  k(`${name} R_rating ${rating}`),
];

/** A tiny training file: the lexicon learns `italian`, `korean`, `asian_oriental` and two restaurants. */
const train: Dialog[] = [
  {
    id: '0',
    turns: [
      u('<SILENCE>'), b(GREET),
      u('cheap italian food'), b('api_call italian R_location cheap'),
      ...resto('da_vinci_pizzeria', 'italian', 'north', 'cheap', 3),
      ...resto('zizzi_cambridge', 'italian', 'centre', 'cheap', 9),
      u('<SILENCE>'), b('zizzi_cambridge is a nice place in the centre of town and the prices are cheap'),
      u('thank you good bye'), b(' you are welcome'),
    ],
  },
  { id: '1', turns: [u('<SILENCE>'), b(GREET), u('korean food'), b('api_call korean R_location R_price'), k('api_call no result')] },
];
const kbFacts = [
  { entity: 'the_good_luck_chinese_food_takeaway', attr: 'R_cuisine', value: 'chinese' },
  { entity: 'kymmoy', attr: 'R_cuisine', value: 'asian_oriental' },
];
const lex = buildLexicon(train, kbFacts);

describe('rules-dstc2 lexicon', () => {
  it('learns cuisines from api_calls and KB facts, restaurants from KB lines', () => {
    assert.deepEqual([...lex.cuisines].sort(), ['asian_oriental', 'chinese', 'italian', 'korean']);
    assert.equal(lex.restaurants.get('zizzi_cambridge')?.['location'], 'centre');
    assert.equal(lex.restaurants.get('kymmoy')?.['cuisine'], 'asian_oriental');
  });

  it('parses api_calls (placeholders = dont care) and KB lines', () => {
    assert.deepEqual(parseApiCall('api_call R_cuisine west moderate'), { cuisine: DONTCARE, location: 'west', price: 'moderate' });
    assert.equal(parseApiCall('api_call no result'), undefined);
    assert.deepEqual(parseKbLine('prezzo R_post_code prezzo_post_code'), { entity: 'prezzo', attr: 'post_code', value: 'prezzo_post_code' });
  });

  it('reads values, synonyms and slot-tied dont cares by word match', () => {
    assert.deepEqual(understand('i want a moderately priced restaurant in the center', lex).slots, { location: 'centre', price: 'moderate' });
    assert.deepEqual(understand('asian oriental food any part of town', lex).slots, { cuisine: 'asian_oriental', location: DONTCARE });
    const f = understand('i dont care', lex);
    assert.deepEqual(f.slots, {});
    assert.equal(f.bareDontcare, true);
    assert.equal(understand('is there anything else', lex).bareDontcare, false);
    assert.equal(understand('is there anything else', lex).reqalts, true);
    assert.deepEqual(understand('what is the address and phone number', lex).requests, ['address', 'phone']);
    // `west part of town` informs the area, it does not ask for it.
    assert.deepEqual(understand('west part of town', lex).requests, []);
    assert.equal(understand('thank you good bye', lex).bye, true);
  });
});

describe('rules-dstc2 state tracker', () => {
  it('reads bot moves: questions, calls, offers (spaced names too)', () => {
    assert.deepEqual(readBotTurn('What part of town do you have in mind?', lex), { kind: 'ask', slot: 'location' });
    assert.deepEqual(readBotTurn('What kind of food would you like?', lex), { kind: 'ask', slot: 'cuisine' });
    assert.deepEqual(readBotTurn('Would you like something in the cheap , moderate , or expensive price range?', lex), { kind: 'ask', slot: 'price' });
    assert.deepEqual(readBotTurn('api_call R_cuisine R_location cheap', lex), { kind: 'call' });
    assert.equal(restaurantIn('the good luck chinese food takeaway is a nice restaurant', lex), 'the_good_luck_chinese_food_takeaway');
    assert.deepEqual(readBotTurn('Sure , zizzi_cambridge is on zizzi_cambridge_address', lex), { kind: 'offer', restaurant: 'zizzi_cambridge' });
  });

  it('fills the slot just asked with a bare dont care, keeps later values', () => {
    const h = [u('<SILENCE>'), b(GREET), u('cheap restaurant'), b('What part of town do you have in mind?'), u('i dont care'), b('What kind of food would you like?'), u('italian food')];
    const st = trackDstc2(h, lex);
    assert.deepEqual(st.goal, { price: 'cheap', location: DONTCARE, cuisine: 'italian' });
    assert.deepEqual(st.asked, ['location', 'cuisine']);
    assert.equal(st.calls, 0);
  });

  it('tracks the api_call, its results, proposals and changes of goal', () => {
    const h = train[0]?.turns.slice(0, 18) as Turn[]; // up to the user <SILENCE> after the results
    let st = trackDstc2(h, lex);
    assert.equal(st.calls, 1);
    assert.equal(st.resultsPending, true);
    assert.deepEqual(rankedResults(st).map((r) => r.name), ['zizzi_cambridge', 'da_vinci_pizzeria']);
    st = trackDstc2([...h, b('zizzi_cambridge is a nice place in the centre of town and the prices are cheap'), u('anything else')], lex);
    assert.equal(st.resultsPending, false);
    assert.equal(st.current, 'zizzi_cambridge');
    assert.deepEqual(rankedResults(st).map((r) => r.name), ['da_vinci_pizzeria']);
    assert.equal(goalChanged(st), false);
    st = trackDstc2([...h, b('zizzi_cambridge is a nice place'), u('how about korean food')], lex);
    assert.equal(goalChanged(st), true);
    assert.equal(st.goal.cuisine, 'korean');
  });

  it('marks an empty api_call answer', () => {
    const st = trackDstc2([...(train[1]?.turns as Turn[]), u('<SILENCE>')], lex);
    assert.equal(st.noResult, true);
    assert.equal(st.resultsPending, true);
    assert.deepEqual(st.call, { cuisine: 'korean', location: DONTCARE, price: DONTCARE });
  });
});
