import assert from 'node:assert/strict';
import { test } from 'node:test';
import { count, numberWord } from './text.js';

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
