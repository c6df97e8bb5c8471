import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatError } from '../../core/errors.js';
import { formatBabiKb, readBabiKb } from '../../formats/babi.js';
import { babiDir, dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import { BABI_KB, DSTC6_KB, formatKb, parseKb, readKb, restaurantsToKbFacts } from './kb-dialects.js';

const babiKb = join(babiDir, 'dialog-babi-kb-all.txt');
const task6Kb = join(babiDir, 'dialog-babi-task6-dstc2-kb.txt');
const dstc6Kbs = [1, 2].map((k) => join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', `extendedkb${k}.txt`));

test('the original bAbI KB is read (detected or expected) and written back byte for byte', { skip: skipUnless(babiDir) }, () => {
  const text = readFileSync(babiKb, 'utf8');
  const auto = readKb(babiKb);
  assert.equal(auto.dialect, BABI_KB);
  assert.equal(auto.restaurants.length, 1200);
  assert.deepEqual(readKb(babiKb, BABI_KB).restaurants, auto.restaurants);
  assert.ok(auto.restaurants.every((r) => r.atmosphere === undefined && r.restrictions === undefined));
  assert.ok(formatKb(auto.restaurants, BABI_KB) === text);
  assert.deepEqual(restaurantsToKbFacts(auto.restaurants, BABI_KB), readBabiKb(babiKb).facts);
});

test('both original DSTC6 extended KBs are read (detected or expected) and written back byte for byte', { skip: skipUnless(dstc6Dir) }, () => {
  for (const file of dstc6Kbs) {
    const text = readFileSync(file, 'utf8');
    const auto = readKb(file);
    assert.equal(auto.dialect, DSTC6_KB);
    assert.equal(auto.restaurants.length, 5400);
    assert.deepEqual(readKb(file, DSTC6_KB).restaurants, auto.restaurants);
    assert.ok(formatKb(auto.restaurants, DSTC6_KB) === text, `${file} does not round-trip`);
  }
});

test('the task 6 KB round-trips as facts but is no restaurant KB of either layout', { skip: skipUnless(babiDir) }, () => {
  const kb = readBabiKb(task6Kb);
  assert.ok(formatBabiKb(kb) === readFileSync(task6Kb, 'utf8'));
  assert.throws(() => readKb(task6Kb), { message: /dialog-babi-task6-dstc2-kb\.txt:1: unknown attribute R_post_code \(a task 6 \/ DSTC2 KB: not supported\)/ });
  assert.throws(() => readKb(task6Kb, BABI_KB), { message: /dialog-babi-task6-dstc2-kb\.txt:1: unknown attribute R_post_code \(expected one of R_cuisine R_location/ });
  // DSTC6 KB files are strictly `1 <name> R_<attr><TAB><value>`; task 6 separates with a space.
  assert.throws(() => readKb(task6Kb, DSTC6_KB), { message: /dialog-babi-task6-dstc2-kb\.txt:1: expected '1 <name> R_<attr><TAB><value>'/ });
});

test('a KB of the other layout than expected: one-line errors with the line', () => {
  const babi = '1 a R_cuisine\tx\n1 a R_location\ty\n1 a R_price\tcheap\n1 a R_rating\t3\n1 a R_phone\tp\n1 a R_address\tq\n1 a R_number\ttwo\n';
  const dstc6 = babi + '1 a R_atmosphere\tcasual\n1 a R_restrictions\tvegan\n';
  assert.equal(parseKb(babi).dialect, BABI_KB);
  assert.equal(parseKb(dstc6).dialect, DSTC6_KB);
  assert.deepEqual(parseKb(dstc6, 'k.txt', DSTC6_KB).restaurants[0], { name: 'a', cuisine: 'x', location: 'y', price: 'cheap', rating: 3, phone: 'p', address: 'q', number: 'two', atmosphere: 'casual', restrictions: 'vegan' });
  const err = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof FormatError);
      return e.message;
    }
    throw new Error('no error');
  };
  assert.equal(err(() => parseKb(babi, 'k.txt', DSTC6_KB)), 'k.txt:1: restaurant a lacks R_atmosphere, R_restrictions');
  assert.match(err(() => parseKb(dstc6, 'k.txt', BABI_KB)), /^k\.txt:8: unknown attribute R_atmosphere \(expected one of R_cuisine /);
  assert.equal(err(() => parseKb(babi.replace('R_number\ttwo\n', 'R_price\tcheap\n'), 'k.txt')), 'k.txt:7: a has R_price twice');
  assert.equal(err(() => parseKb(dstc6.replace('\tvegan', '\tvegan food'), 'k.txt')), 'k.txt:9: a R_restrictions: value holds a space (a KB value is one word)');
  assert.match(err(() => parseKb(dstc6.replace('\tvegan', ' vegan'), 'k.txt', DSTC6_KB)), /^k\.txt:9: expected '1 <name> R_<attr><TAB><value>', got '1 a R_restrictions vegan'$/);
  assert.equal(err(() => parseKb('', 'k.txt', DSTC6_KB)), 'k.txt:1: empty file: no KB fact');
  assert.equal(err(() => parseKb('', 'k.txt')), 'k.txt:1: empty file: no KB fact');
  // Ratings: 1–72 in DSTC6 KBs, 1–8 in bAbI ones.
  assert.equal(parseKb(dstc6.replace('R_rating\t3', 'R_rating\t72'), 'k.txt', DSTC6_KB).restaurants[0]?.rating, 72);
  assert.equal(err(() => parseKb(dstc6.replace('R_rating\t3', 'R_rating\t73'), 'k.txt', DSTC6_KB)), 'k.txt:1: restaurant a: R_rating must be an integer from 1 to 72 (dstc6 KB ratings), got 73');
  assert.equal(err(() => parseKb(babi.replace('R_rating\t3', 'R_rating\t72'), 'k.txt', BABI_KB)), 'k.txt:1: restaurant a: R_rating must be an integer from 1 to 8 (babi KB ratings), got 72');
});
