import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import { TfidfVectorizer, compareCodePoints, countVectorizerVocabulary, sklearnTokens, sparseDots } from './sklearn-text.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';

test('tokens: lower-cased runs of >= 2 Unicode word characters', () => {
  assert.deepEqual(sklearnTokens("I'm a B2 C3PO_x, éclair! 東京 x-y api_call"), ['b2', 'c3po_x', 'éclair', '東京', 'api_call']);
  assert.deepEqual(sklearnTokens('<silence> r_phone resto_rome_cheap_1_phone 12'), ['silence', 'r_phone', 'resto_rome_cheap_1_phone', '12']);
  assert.deepEqual(sklearnTokens('a 𝒳'), []); // one astral code point is one character, not two
  assert.ok(compareCodePoints('\u{1F600}', '\uFFFF') > 0);
  assert.ok(compareCodePoints('ab', 'b') < 0);
});

test('tf-idf: smooth idf, raw counts, l2 rows (hand-computed)', () => {
  const { vectorizer, rows } = TfidfVectorizer.fitTransform(['the cat sat', 'The dog, the dog']);
  assert.deepEqual([...vectorizer.vocabulary], [['cat', 0], ['dog', 1], ['sat', 2], ['the', 3]]);
  const idf1 = Math.log(3 / 2) + 1;
  assert.deepEqual([...vectorizer.idf], [idf1, idf1, idf1, 1]);
  // Row 0 stored in reverse first-appearance order: the, cat, sat → sat, cat, the.
  assert.deepEqual([...(rows[0]?.idx ?? [])], [2, 0, 3]);
  const n0 = Math.sqrt(idf1 * idf1 + idf1 * idf1 + 1);
  assert.deepEqual([...(rows[0]?.val ?? [])], [idf1 / n0, idf1 / n0, 1 / n0]);
  // Row 1: dog x2, the x2 → first appearance the(3), dog(1) → reversed: dog, the.
  assert.deepEqual([...(rows[1]?.idx ?? [])], [1, 3]);
  const n1 = Math.sqrt(4 * idf1 * idf1 + 4);
  assert.deepEqual([...(rows[1]?.val ?? [])], [(2 * idf1) / n1, 2 / n1]);
  // transform: unknown words ignored, rows sorted by column then reversed.
  const t = vectorizer.transform('Cat and THE bird');
  assert.deepEqual([...t.idx], [3, 0]);
  const nt = Math.sqrt(idf1 * idf1 + 1);
  assert.deepEqual([...t.val], [1 / nt, idf1 / nt]);
  assert.equal(vectorizer.transform('nothing known').idx.length, 0);
  const scratch = new Float64Array(vectorizer.size);
  const dots = sparseDots(rows[0]!, [t, vectorizer.transform('zzz'), rows[0]!], scratch);
  assert.equal(dots[0], (idf1 / n0) * (idf1 / nt) + (1 / n0) * (1 / nt)); // summed in row 0's order
  assert.equal(dots[1], 0);
  assert.ok(Math.abs((dots[2] as number) - 1) < 1e-15);
  assert.ok(scratch.every((x) => x === 0), 'scratch left clean');
});

test('stop words and vocabulary order agree with the official training statistics', { skip: skipUnless(dstc6Dir) }, () => {
  const dir = join(dstc6Dir, 'derived', 'train-statistics-jasonwu0731');
  const files = readdirSync(dir).filter((f) => f.endsWith('-statistics.plain'));
  assert.equal(files.length, 5);
  for (const f of files) {
    const lines = readFileSync(join(dir, f), 'utf8').split('\n');
    const list = (key: string): string[] => [...(lines[lines.indexOf(`${key}:`) + 1] ?? '').matchAll(/u'([^']*)'/g)].map((m) => m[1] as string);
    const total = list('voc_total');
    const nonStop = list('voc_non_stop');
    assert.equal(total.length, Number(lines[lines.indexOf('voc_total_len:') + 1]), f);
    assert.deepEqual([...total].sort(compareCodePoints), total, `${f}: sklearn's vocabulary order`);
    assert.deepEqual(
      total.filter((w) => !ENGLISH_STOP_WORDS.has(w)),
      nonStop,
      `${f}: voc_non_stop = voc_total minus the stop words`,
    );
    // The vocabulary is reproduced from its own words (each word is one token).
    assert.deepEqual(countVectorizerVocabulary([total.join(' ')]), total);
  }
});
