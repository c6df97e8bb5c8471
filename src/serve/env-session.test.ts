/**
 * A person's text as EnvSession keeps it (`personText`): normalised, never refused for what it
 * holds — accents, emoji sequences, right-to-left and joined scripts survive whole; what is
 * invisible (controls, bidi overrides, zero-width spaces, soft hyphens, tag characters) is dropped
 * without splitting a word.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { personText } from './env-session.js';

test('personText keeps what a person writes: accents, emoji sequences, RTL and joined scripts', () => {
  assert.equal(personText('cafe\u0301 nai\u0308ve', 500), 'café naïve', 'NFC');
  assert.equal(personText('a table for us 👨\u200D👩\u200D👧 please', 500), 'a table for us 👨\u200D👩\u200D👧 please', 'an emoji ZWJ sequence is one emoji, not three');
  assert.equal(personText('👩\u200D❤\uFE0F\u200D👨 and 👍🏽\u200D and 🇫🇷', 500), '👩\u200D❤\uFE0F\u200D👨 and 👍🏽 and 🇫🇷');
  assert.equal(personText('می\u200Cخواهم', 500), 'می\u200Cخواهم', 'the Persian ZWNJ inside a word stays (not a space: one word)');
  assert.equal(personText('क्\u200Dष', 500), 'क्\u200Dष', 'a Devanagari joiner stays');
  assert.equal(personText('שלום עולם', 500), 'שלום עולם');
});

test('personText drops invisible characters without splitting words, collapses white space, cuts at max', () => {
  assert.equal(personText('it\u200Dal\u200Bian re\u00ADser\u200Cvation', 500), 'italian reservation', 'joiners between Latin letters, zero-width space, soft hyphen: dropped, not spaces');
  assert.equal(personText('\uFEFFhi \u202Eevil\u202C \u2066x\u2069 end', 500), 'hi evil x end', 'BOM and bidi controls dropped');
  assert.equal(personText('tag\u{E0041}\u{E0042}s', 500), 'tags', 'tag characters (hidden text) dropped');
  assert.equal(personText('a\u0000b\u0007c \uD800 d\uE000', 500), 'abc d', 'controls, a lone surrogate, private use');
  assert.equal(personText(' line1\nline2\r\n\tline3\u2028line4\u00A0 ', 500), 'line1 line2 line3 line4', 'pasted lines are one line');
  assert.equal(personText('\u200B \u200D\u200C ', 500), '', 'nothing visible: empty (the session refuses it as empty)');
  assert.equal(personText(`${'a'.repeat(9)}😀b`, 10), 'a'.repeat(9), 'never cut inside a surrogate pair');
});
