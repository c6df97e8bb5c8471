import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../core/rng.js';
import { MovieKb } from './movie-kb.js';
import { M, slotIndex } from './slots.js';
import { HandCraftedTracker, ValueIndex, slotNameMatches } from './tracker.js';
import { contentTokens } from './text.js';
import { corruptValue } from './user.js';

const vocab = [
  ['tom hanks', 'tom cruise', 'meg ryan'],
  ['6.5', '7.2'],
  ['drama', 'comedy'],
  ['r', 'pg-13'],
  ['steven spielberg', 'nora ephron'],
  ['1994', '1998'],
];
const kb = new MovieKb(['a', 'b', 'c', 'd'], vocab, Int32Array.from([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 0, 1, 1, 1, 0, 0, 1, 0, 0, 0, 1]));

test('tokens keep numbers, ratings and names whole, without stop words', () => {
  assert.deepEqual(contentTokens('I think it is rated PG-13, from 1994 with a 7.2!'), ['think', 'rated', 'pg-13', '1994', '7.2']);
  const s = slotNameMatches(contentTokens('with a critic rating of 7.2, directed by nora'));
  assert.equal(s[slotIndex('critic_rating')], 1);
  assert.equal(s[slotIndex('director')], 1);
  assert.equal(s[slotIndex('mpaa_rating')], 0.5);
  assert.equal(s[slotIndex('actor')], 0);
});

test('hand-crafted tracker: full and partial value matches, slot names, requests, "don\'t know"', () => {
  const t = new HandCraftedTracker(kb, new ValueIndex(kb.vocab), { update: 10 });
  const p0 = [...(t.beliefs.p[0] as Float64Array)];
  assert.deepEqual(p0, [0.5, 0.25, 0.25]);
  t.update('a movie starring tom hanks please', null);
  // hanks: tom hanks 2/2 tokens; tom cruise 1/2; slot 'starring' matched (1): counts 0.5+10·(1+1), 0.25+10·(0.5+1), 0.25
  const c = [0.5 + 20, 0.25 + 15, 0.25];
  const z = c.reduce((a, b) => a + b, 0);
  const p = t.beliefs.p[0] as Float64Array;
  for (let k = 0; k < 3; k++) assert.ok(Math.abs((p[k] as number) - (c[k] as number) / z) < 1e-12);
  assert.ok(t.heard.has(0));
  assert.equal(t.beliefs.q[0], 1);
  // requested genre, user does not know → q = 0
  t.update("i don't know", slotIndex('genre'));
  assert.equal(t.beliefs.q[slotIndex('genre')], 0);
  assert.ok(t.unknown.has(slotIndex('genre')));
  // requested year, answered → the request adds 1 to the match
  t.update('1998', slotIndex('release_year'));
  const py = t.beliefs.p[slotIndex('release_year')] as Float64Array;
  assert.ok(Math.abs((py[1] as number) - (0.5 + 20) / (1 + 20)) < 1e-12);
  t.reset();
  assert.deepEqual([...(t.beliefs.p[0] as Float64Array)], p0);
  assert.equal(t.heard.size, 0);
  for (let j = 0; j < M; j++) assert.equal(t.beliefs.q[j], 1);
});

test('value corruption: drops one word of a name, jitters numbers', () => {
  const rng = createRng(3);
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const n = corruptValue('tom hanks', rng);
    assert.ok(n === 'tom' || n === 'hanks', n);
    seen.add(n);
    const y = Number(corruptValue('1994', rng));
    assert.ok(Number.isInteger(y) && Math.abs(y - 1994) <= 3, String(y));
    const r = corruptValue('7.2', rng);
    assert.match(r, /^\d+\.\d$/);
    assert.equal(corruptValue('pg-13', rng), 'pg-13');
  }
  assert.equal(seen.size, 2);
});
