import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { babiDir, dstc6Dir, skipUnless } from '../../test/shared-data.js';
import { parseBabiKb } from './babi.js';
import { kbFactIssue, kbValueIssue, quoteKbValue } from './kb-values.js';

test('kbValueIssue: what would forge dialog lines is named, plain words pass', () => {
  const cases: [string, string | undefined][] = [
    ['resto_rome_cheap_italian_1stars_phone', undefined],
    ['the_fancy_last_bird_game', undefined],
    ['', 'is empty'],
    ['x\nresto_y R_phone forged', 'holds a newline'],
    ['x\r', 'holds a newline'],
    ['x\u2028y', 'holds a newline'],
    ['thai\tx', 'holds a TAB'],
    ['a\u001b[2J', 'holds a control character (U+001B)'],
    ['a\u0000', 'holds a control character (U+0000)'],
    ['resto_y R_phone 555', 'is shaped like a KB fact (`<name> R_<attr> <value>`)'],
    ['resto_y r_rating 5', 'is shaped like a KB fact (`<name> R_<attr> <value>`)'],
    ['api_call italian rome six cheap', 'is shaped like an api_call'],
    ['api_call', 'is shaped like an api_call'],
    ['R_phone', 'is shaped like a KB attribute (`R_<attr>`)'],
    [' cheap', 'starts or ends with a space'],
    ['api_callx', undefined],
  ];
  for (const [v, want] of cases) assert.equal(kbValueIssue(v), want, JSON.stringify(v));
  assert.equal(kbValueIssue('new york'), undefined, 'spaces pass unless one word is asked for');
  assert.equal(kbValueIssue('new york', { oneWord: true }), 'holds a space (a KB value is one word)');
  assert.equal(kbFactIssue('api_call', 'x'), 'name is shaped like an api_call');
  assert.equal(kbFactIssue('a b', 'x'), 'name holds a space (a KB value is one word)');
  assert.equal(kbFactIssue('a', 'x\ty'), 'value holds a TAB');
  assert.equal(kbFactIssue('a', 'new york'), undefined);
});

test('quoteKbValue keeps error messages on one short line', () => {
  assert.equal(quoteKbValue('resto_x'), 'resto_x');
  assert.equal(quoteKbValue('a\nb'), '"a\\nb"');
  assert.equal(quoteKbValue('x'.repeat(100)), `"${'x'.repeat(60)}…"`);
  assert.ok(!quoteKbValue('\n'.repeat(1000)).includes('\n'));
});

test('every value and name of the original KB files is fit', { skip: skipUnless(babiDir) || skipUnless(dstc6Dir) }, () => {
  const files = [join(babiDir, 'dialog-babi-kb-all.txt'), join(babiDir, 'dialog-babi-task6-dstc2-kb.txt'), join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', 'extendedkb1.txt'), join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', 'extendedkb2.txt')];
  for (const f of files) {
    const { facts } = parseBabiKb(readFileSync(f, 'utf8'), f);
    assert.deepEqual(facts.map((x) => kbFactIssue(x.entity, x.value, { oneWord: true })).filter((x) => x !== undefined), [], f);
  }
});
