import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InternalError } from '../../../core/errors.js';
import { checkSchema } from '../../../formats/schema.js';
import { MemoryKbStore, type Restaurant } from '../kb.js';
import { BABI_KB, readKb } from '../kb-dialects.js';
import { createRulesBot } from '../rules/rules.js';
import { chatModelOf } from './chat-model.js';
import { kbHint } from './kb-hint.js';
import { restaurantChatBackend } from './backend.js';

const resto = (name: string, location: string, cuisine: string, price: string, number: string): Restaurant => ({ name, location, cuisine, price, number, rating: 1, phone: `${name}_phone`, address: `${name}_address` });

test('kbHint: distinct values (prices and party sizes in their natural order), an example asking for the first restaurant', () => {
  const store = new MemoryKbStore([
    resto('a', 'rome', 'italian', 'expensive', 'eight'),
    resto('b', 'paris', 'french', 'cheap', 'two'),
    resto('c', 'rome', 'french', 'pricey', 'four'),
    resto('d', 'atlantis', 'italian', 'moderate', 'twelve'),
  ]);
  const h = kbHint(store);
  assert.deepEqual(h, {
    restaurants: 4,
    cities: ['atlantis', 'paris', 'rome'],
    cuisines: ['french', 'italian'],
    prices: ['cheap', 'moderate', 'expensive', 'pricey'],
    partySizes: ['two', 'four', 'eight', 'twelve'],
    example: 'can you book a table in rome for eight people with italian food in a expensive price range',
  });
  assert.equal(checkSchema('serve-kb-hint', h), undefined);
});

test('kbHint of an empty KB: no values, no example; still valid', () => {
  const h = kbHint(new MemoryKbStore([]));
  assert.deepEqual(h, { restaurants: 0, cities: [], cuisines: [], prices: [], partySizes: [], example: null });
  assert.equal(checkSchema('serve-kb-hint', h), undefined);
});

const dstc6Kb = join(process.env.DIALOGYM_DATA ?? join(process.cwd(), '..', 'shared', 'data'), 'dstc6-track1', 'dataset-E2E-goal-oriented-test-v1.0', 'extendedkb1.txt');
test('kbHint of the DSTC6 extended KB validates against its schema', { skip: existsSync(dstc6Kb) ? false : `${dstc6Kb} not found` }, () => {
  const { restaurants } = readKb(dstc6Kb);
  const h = kbHint(new MemoryKbStore(restaurants));
  assert.equal(h.restaurants, restaurants.length);
  assert.equal(checkSchema('serve-kb-hint', h), undefined);
  assert.deepEqual(h.prices, ['cheap', 'moderate', 'expensive']);
  assert.ok(h.cities.length >= 5 && h.cuisines.length >= 5, `${h.cities.length} cities, ${h.cuisines.length} cuisines`);
});

test('GET /api/kb (the chat\'s `kb` request): the hint made once and checked against its schema; an InternalError when invalid', () => {
  const kb = { store: new MemoryKbStore([resto('a', 'rome', 'italian', 'cheap', 'two')]), dialect: BABI_KB };
  const model = chatModelOf(createRulesBot());
  let calls = 0;
  const ok = restaurantChatBackend({ model, kb }, { hint: () => (calls++, kbHint(kb.store)) });
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(ok.ask?.('kb'), { restaurants: 1, cities: ['rome'], cuisines: ['italian'], prices: ['cheap'], partySizes: ['two'], example: 'can you book a table in rome for two people with italian food in a cheap price range' });
  }
  assert.equal(calls, 1);
  // by default, the KB's own hint
  assert.deepEqual(restaurantChatBackend({ model, kb }).ask?.('kb'), ok.ask?.('kb'));
  const bad = restaurantChatBackend({ model, kb }, { hint: () => ({ ...kbHint(kb.store), cities: ['rome', 'rome'] }) });
  assert.throws(() => bad.ask?.('kb'), (e: unknown) => e instanceof InternalError && /^KB hint: "cities" must NOT have duplicate items/.test(e.message));
});
