import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseChatText } from './chat-text.js';

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
