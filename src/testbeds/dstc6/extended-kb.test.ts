import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRng } from '../../core/rng.js';
import { FormatError } from '../../core/errors.js';
import { dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import { MemoryKbStore, type Restaurant } from '../restaurant/kb.js';
import { DSTC6_KB, formatKb, parseKb, readKb } from '../restaurant/kb-dialects.js';
import { generateExtendedKbs, kbIdOf } from './extended-kb.js';

const kbDir = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0');

function count<T>(xs: readonly T[], key: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}

/** The structural facts measured on the two real KBs; `exactShape` also checks the generator's construction. */
function assertKbShape(rs: readonly Restaurant[], kb: 1 | 2): void {
  assert.equal(rs.length, 5400);
  assert.equal(kbIdOf(rs), kb);
  assert.equal(new Set(rs.map((r) => r.name)).size, 5400);
  for (const r of rs) {
    assert.match(r.name, /^(?:the_)?[a-z]+_[a-z]+_[a-z]+_[a-z]+$/);
    assert.equal(r.phone, `${r.name}_phone`);
    assert.equal(r.address, `${r.name}_address`);
  }
  // 8 restaurants per (location, price, cuisine, atmosphere, restrictions), 75 per rating 1..72.
  assert.deepEqual([...new Set(count(rs, (r) => [r.location, r.price, r.cuisine, r.atmosphere, r.restrictions].join('|')).values())], [8]);
  const ratings = count(rs, (r) => String(r.rating));
  assert.equal(ratings.size, 72);
  assert.deepEqual([...new Set(ratings.values())], [75]);
  // Party sizes come in triples across the three restrictions: every api_call without the restrictions slot has a multiple of 3 results.
  for (const c of count(rs, (r) => [r.location, r.price, r.cuisine, r.atmosphere, r.number].join('|')).values()) assert.equal(c % 3, 0);
}

test('generated KBs have the shape of the real ones, with disjoint names', () => {
  const kbs = generateExtendedKbs(createRng(5).fork('kb'));
  assertKbShape(kbs[1], 1);
  assertKbShape(kbs[2], 2);
  const names1 = new Set(kbs[1].map((r) => r.name));
  assert.equal(kbs[2].filter((r) => names1.has(r.name)).length, 0);
  // `the_` on about half of the names, as in the real KBs (2728 / 2649 of 5400).
  const the = kbs[1].filter((r) => r.name.startsWith('the_')).length;
  assert.ok(the > 2500 && the < 2900, `${the} names with the_`);
  // Format → parse is the identity, and the same seed gives the same text.
  const text = formatKb(kbs[1], DSTC6_KB);
  assert.deepEqual(parseKb(text, 'gen.txt', DSTC6_KB).restaurants, kbs[1]);
  assert.equal(formatKb(generateExtendedKbs(createRng(5).fork('kb'))[1], DSTC6_KB), text);
  assert.notEqual(formatKb(generateExtendedKbs(createRng(6).fork('kb'))[1], DSTC6_KB), text);
});

test('the store answers calls with and without the restrictions slot', () => {
  const kb = generateExtendedKbs(createRng(1).fork('kb'))[1];
  const r = kb[0] as Restaurant;
  const store = new MemoryKbStore(kb);
  const q5 = store.query({ cuisine: r.cuisine, location: r.location, number: r.number, price: r.price, atmosphere: r.atmosphere as string });
  const q6 = store.query(r);
  assert.ok(q5.includes(r) && q6.includes(r));
  assert.equal(q5.length % 3, 0);
  assert.ok(q6.length <= q5.length / 3 + 5);
  assert.ok(q6.every((x) => x.restrictions === r.restrictions));
});

test('the real extended KBs load and are rewritten byte for byte', { skip: skipUnless(dstc6Dir) }, () => {
  for (const kb of [1, 2] as const) {
    const file = join(kbDir, `extendedkb${kb}.txt`);
    const rs = readKb(file, DSTC6_KB).restaurants;
    assertKbShape(rs, kb);
    assert.equal(formatKb(rs, DSTC6_KB), readFileSync(file, 'utf8'));
  }
});

test('malformed KB lines are reported as file:line: reason', () => {
  const good = '1 a_b_c_d R_location\tparis\n';
  assert.throws(() => parseKb(good + '1 a_b_c_d R_price cheap\n', 'k.txt', DSTC6_KB), (e: unknown) => e instanceof FormatError && /^k\.txt:2: expected '1 <name> R_<attr><TAB><value>'/.test((e as Error).message));
  assert.throws(() => parseKb(good + '1 a_b_c_d R_colour\tred\n', 'k.txt', DSTC6_KB), { message: /^k\.txt:2: unknown attribute R_colour/ });
  assert.throws(() => parseKb(good + '1 a_b_c_d R_location\trome\n', 'k.txt', DSTC6_KB), { message: /^k\.txt:2: a_b_c_d has R_location twice/ });
  assert.throws(() => parseKb(good, 'k.txt', DSTC6_KB), { message: /^k\.txt:1: restaurant a_b_c_d lacks R_price, R_rating/ });
  assert.throws(() => parseKb('', 'k.txt', DSTC6_KB), { message: /^k\.txt:1: empty file/ });
});
