import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../core/errors.js';
import { lineColumn, locateJsonError, parseJsonText, pyJson } from './json-text.js';

test('pyJson writes like Python json.dumps', () => {
  assert.equal(pyJson([{ a: 1, b: 'x' }, [], {}]), '[{"a": 1, "b": "x"}, [], {}]');
  assert.equal(pyJson('café "q" \\ \n\t\u0001\u007f😀'), '"caf\\u00e9 \\"q\\" \\\\ \\n\\t\\u0001\\u007f\\ud83d\\ude00"');
  assert.equal(pyJson({ a: undefined, b: null, c: true }), '{"b": null, "c": true}');
  assert.equal(pyJson(0.5), '0.5');
  assert.equal(pyJson(1e-7), '1e-07');
  // Python's json.loads reads back what we write: check with JSON.parse.
  const v = [{ s: 'é\u2028x', n: [1, 2.5, -3] }];
  assert.deepEqual(JSON.parse(pyJson(v)), v);
});

test('invalid JSON: file:line error with the column of the first error', () => {
  const cases: [string, number, number, RegExp][] = [
    ['[1, 2,]', 1, 7, /unexpected '\]'/],
    ['[\n  {"a": 1},\n  {"a" 2}\n]', 3, 8, /expected ':'/],
    ['[{"a": "x}]', 1, 12, /unterminated string/],
    ['[1] x', 1, 5, /after the JSON value/],
    ['', 1, 1, /unexpected end of input/],
    ['{"a": tru}', 1, 10, /expected 'true'/],
    ['[01]', 1, 3, /expected ',' or '\]'/],
  ];
  for (const [text, line, column, re] of cases) {
    const { offset, reason } = locateJsonError(text);
    assert.deepEqual(lineColumn(text, offset), { line, column }, text);
    assert.match(reason, re, text);
    assert.throws(
      () => parseJsonText(text, 'f.json'),
      (e: unknown) => e instanceof FormatError && e.message === `f.json:${line}: invalid JSON: ${reason} (column ${column})` && !e.message.includes('\n'),
    );
  }
  assert.deepEqual(parseJsonText('[{"a": [1, "b"]}]', 'f.json'), [{ a: [1, 'b'] }]);
});
