import assert from 'node:assert/strict';
import { test } from 'node:test';
import { count, normaliseChatText, numberWord } from './text.js';

test('normaliseChatText: emoji, code-like characters and punctuation dropped, digits as words, words kept', () => {
  assert.equal(normaliseChatText('Table for 4 in Rome, please!! 🍝 ;-)'), 'table for four in rome please');
  assert.equal(normaliseChatText('"italian"; price=cheap'), 'italian price cheap');
  assert.equal(normaliseChatText("I'd like ‘rome’ — don't care\tabout\u0007 the price"), "i'd like rome don't care about the price");
  assert.equal(normaliseChatText('party of 6, 5stars at resto_rome_cheap_italian_4stars & 21 guests'), 'party of six 5stars at resto_rome_cheap_italian_4stars and 21 guests');
  assert.equal(normaliseChatText('dog-friendly? -- yes'), 'dog-friendly yes');
  assert.equal(normaliseChatText('<SILENCE>'), '<silence>');
  assert.equal(normaliseChatText('ＦＵＬＬ width ４'), 'full width four');
  assert.equal(normaliseChatText(' ?! 🙂 ;; '), '');
});

test('numberWord: 0-20 in digits only', () => {
  assert.equal(numberWord('4'), 'four');
  assert.equal(numberWord('08'), 'eight');
  assert.equal(numberWord('20'), 'twenty');
  assert.equal(numberWord('21'), undefined);
  assert.equal(numberWord('4stars'), undefined);
  assert.equal(numberWord('four'), undefined);
});

test('count: the noun in the number it takes', () => {
  assert.deepEqual([0, 1, 2].map((n) => count(n, 'run')), ['0 runs', '1 run', '2 runs']);
});
