import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRng } from '../../core/rng.js';
import { FormatError } from '../../core/errors.js';
import { babiDir, skipUnless } from '../../../test/shared-data.js';
import {
  CUISINES,
  LOCATIONS,
  MemoryKbStore,
  TYPICAL_TOLERANCE,
  allApiCalls,
  expectedValidCalls,
  generateRestaurants,
  validCallStats,
  vocabOf,
} from './kb.js';
import { BABI_KB, formatKb, parseKb, readKb, restaurantsFromKbFacts, resultLines } from './kb-dialects.js';
import { parseBabiKb } from '../../formats/babi.js';

test('generated KB: 1200 restaurants, 600 per half, original names and 8400 facts', () => {
  const rs = generateRestaurants(createRng(1));
  assert.equal(rs.length, 1200);
  assert.equal(new Set(rs.map((r) => r.name)).size, 1200);
  assert.equal(rs.filter((r) => vocabOf(r) === 'iv').length, 600);
  assert.equal(rs.filter((r) => vocabOf(r) === 'oov').length, 600);
  const r = rs[0]!;
  assert.equal(r.name, 'resto_seoul_cheap_korean_1stars');
  assert.equal(r.phone, 'resto_seoul_cheap_korean_1stars_phone');
  assert.equal(r.address, 'resto_seoul_cheap_korean_1stars_address');
  for (const x of rs) {
    assert.equal(x.name, `resto_${x.location}_${x.price}_${x.cuisine}_${x.rating}stars`);
    assert.ok(['two', 'four', 'six', 'eight'].includes(x.number));
  }
  const text = formatKb(rs, BABI_KB);
  assert.equal(text.split('\n').length - 1, 8400);
  assert.match(text, /^1 resto_seoul_cheap_korean_1stars R_cuisine\tkorean\n1 resto_seoul_cheap_korean_1stars R_location\tseoul\n/);
  // Party sizes are drawn, roughly uniform.
  const counts = new Map<string, number>();
  for (const x of rs) counts.set(x.number, (counts.get(x.number) ?? 0) + 1);
  for (const c of counts.values()) assert.ok(c > 240 && c < 360, `party size count ${c}`);
});

test('generated KB is deterministic per seed and typical', () => {
  const a = formatKb(generateRestaurants(createRng(7)), BABI_KB);
  const b = formatKb(generateRestaurants(createRng(7)), BABI_KB);
  const c = formatKb(generateRestaurants(createRng(8)), BABI_KB);
  assert.equal(a, b);
  assert.notEqual(a, c);
  const want = expectedValidCalls(3);
  assert.ok(Math.abs(want.calls - 96.4) < 0.1 && Math.abs(want.meanResults - 3.454) < 0.002, JSON.stringify(want));
  for (let seed = 1; seed <= 5; seed++) {
    const rs = generateRestaurants(createRng(seed));
    for (const v of ['iv', 'oov'] as const) {
      const s = validCallStats(rs.filter((r) => vocabOf(r) === v));
      assert.ok(Math.abs(s.calls - want.calls) <= TYPICAL_TOLERANCE.calls * want.calls, `seed ${seed} ${v}: ${s.calls} calls`);
      assert.ok(Math.abs(s.meanResults - want.meanResults) <= TYPICAL_TOLERANCE.meanResults * want.meanResults, `seed ${seed} ${v}: mean ${s.meanResults}`);
    }
  }
});

test('memory store answers api_calls exactly; halves are disjoint in vocabulary', () => {
  const rs = generateRestaurants(createRng(3));
  const kb = new MemoryKbStore(rs);
  let total = 0;
  for (const v of ['iv', 'oov'] as const)
    for (const call of allApiCalls(v)) {
      const got = kb.query(call);
      const want = rs.filter((r) => r.cuisine === call.cuisine && r.location === call.location && r.number === call.number && r.price === call.price);
      assert.deepEqual(got, want);
      total += got.length;
    }
  assert.equal(total, 1200);
  assert.deepEqual(kb.query({ cuisine: 'korean', location: 'paris', number: 'two', price: 'cheap' }), []);
  assert.equal(kb.half('iv').all().length, 600);
  assert.ok(kb.half('oov').all().every((r) => CUISINES.oov.includes(r.cuisine) && LOCATIONS.oov.includes(r.location)));
  // query returns a copy: callers cannot corrupt the index.
  const call = allApiCalls('iv')[0]!;
  kb.query(call).length = 0;
  assert.deepEqual(kb.query(call), rs.filter((r) => r.cuisine === call.cuisine && r.location === call.location && r.number === call.number && r.price === call.price));
});

test('KB text round-trips through the bAbI KB format', () => {
  const rs = generateRestaurants(createRng(5));
  const text = formatKb(rs, BABI_KB);
  const back = parseKb(text, '<kb>', BABI_KB).restaurants;
  assert.deepEqual(back, rs);
  assert.equal(formatKb(back, BABI_KB), text);
});

test('result lines use the dialogs attribute order', () => {
  const r = generateRestaurants(createRng(1))[0]!;
  assert.deepEqual(resultLines(r, BABI_KB), [
    `${r.name} R_phone ${r.name}_phone`,
    `${r.name} R_cuisine korean`,
    `${r.name} R_address ${r.name}_address`,
    `${r.name} R_location seoul`,
    `${r.name} R_number ${r.number}`,
    `${r.name} R_price cheap`,
    `${r.name} R_rating 1`,
  ]);
});

test('bad KB facts give one-line errors with the line', () => {
  const good = '1 a R_cuisine\tx\n1 a R_location\ty\n1 a R_price\tcheap\n1 a R_rating\t3\n1 a R_phone\tp\n1 a R_address\tq\n1 a R_number\ttwo\n';
  assert.equal(restaurantsFromKbFacts(parseBabiKb(good).facts, '<kb>', BABI_KB).restaurants.length, 1);
  assert.throws(() => restaurantsFromKbFacts(parseBabiKb(good.replace('1 a R_number\ttwo\n', '')).facts, 'kb.txt', BABI_KB).restaurants, (e: unknown) => e instanceof FormatError && e.message === 'kb.txt:1: restaurant a lacks R_number');
  assert.throws(() => restaurantsFromKbFacts(parseBabiKb(good + '1 a R_price\tcheap\n').facts, 'kb.txt', BABI_KB).restaurants, /kb\.txt:8: a has R_price twice/);
  assert.throws(() => restaurantsFromKbFacts(parseBabiKb(good.replace('R_rating\t3', 'R_rating\tthree')).facts, 'kb.txt', BABI_KB).restaurants, /kb\.txt:1: restaurant a: R_rating must be an integer from 1 to 8 \(babi KB ratings\), got three$/);
  // Ratings out of the layout's range, or written otherwise than as a plain decimal.
  for (const r of ['0', '9', '-1', '3.0', '0x3', '1e1', '9223372036854775807']) {
    assert.throws(() => restaurantsFromKbFacts(parseBabiKb(good.replace('R_rating\t3', `R_rating\t${r}`)).facts, 'kb.txt', BABI_KB), { message: `kb.txt:1: restaurant a: R_rating must be an integer from 1 to 8 (babi KB ratings), got ${r}` });
  }
  assert.equal(restaurantsFromKbFacts(parseBabiKb(good.replace('R_rating\t3', 'R_rating\t8')).facts, 'kb.txt', BABI_KB).restaurants[0]?.rating, 8);
  // Values (and names) that would forge dialog lines: a KB attribute, an api_call, a control character (parseBabiKb refuses them already).
  assert.throws(() => restaurantsFromKbFacts(parseBabiKb(good.replace('R_phone\tp', 'R_phone\tR_address'), 'kb.txt').facts, 'kb.txt', BABI_KB), { message: 'kb.txt:5: a R_phone: value is shaped like a KB attribute (`R_<attr>`)' });
  assert.throws(() => restaurantsFromKbFacts(parseBabiKb(good.replace(/^1 a /gm, '1 api_call '), 'kb.txt').facts, 'kb.txt', BABI_KB), { message: 'kb.txt:1: api_call R_cuisine: name is shaped like an api_call' });
  assert.throws(() => restaurantsFromKbFacts(parseBabiKb(good.replace('R_price\tcheap', 'R_price\tche\u0007ap'), 'kb.txt').facts, 'kb.txt', BABI_KB), { message: 'kb.txt:3: a R_price: value holds a control character (U+0007)' });
  assert.throws(() => restaurantsFromKbFacts(parseBabiKb(good + '1 a R_stars\t3\n').facts, 'kb.txt', BABI_KB).restaurants, /kb\.txt:8: unknown attribute R_stars/);
});

test('the original KB file loads into the store (1200 restaurants, 95 IV calls with ≥ 3 results)', { skip: skipUnless(babiDir) }, () => {
  const rs = readKb(join(babiDir, 'dialog-babi-kb-all.txt'), BABI_KB).restaurants;
  assert.equal(rs.length, 1200);
  const kb = new MemoryKbStore(rs);
  assert.deepEqual(
    kb.query({ cuisine: 'indian', location: 'rome', number: 'eight', price: 'cheap' }).map((r) => r.rating),
    [5, 6, 7],
  );
  const s = validCallStats(kb.half('iv').all());
  assert.equal(s.calls, 95);
  assert.equal(s.meanResults.toFixed(3), '3.389');
  // The original file's order and attribute order are those we write.
  assert.equal(formatKb(rs, BABI_KB), readFileSync(join(babiDir, 'dialog-babi-kb-all.txt'), 'utf8'));
});
