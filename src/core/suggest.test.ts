import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closestName, didYouMean, editDistance } from './suggest.js';

const MODELS = ['embeddings', 'embeddings+bigrams', 'embeddings+match', 'hcn', 'memn2n', 'memn2n+match', 'nn', 'nn+prev', 'rules', 'rules-dstc2', 'tfidf', 'tfidf+type', 'tfidf+type-word'];

test('closest name: same but for case and separators, else a near typo, else none', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(closestName('memn2n-match', MODELS), 'memn2n+match');
  assert.equal(closestName('MemN2N_Match', MODELS), 'memn2n+match');
  assert.equal(closestName('embeddings match', MODELS), 'embeddings+match');
  assert.equal(closestName('tfidf-type', MODELS), 'tfidf+type');
  assert.equal(closestName('memnn', MODELS), 'memn2n');
  assert.equal(closestName('embedings', MODELS), 'embeddings');
  assert.equal(closestName('gpt', MODELS), undefined);
  assert.equal(closestName('transformer', MODELS), undefined);
  assert.equal(didYouMean('memn2n_match', MODELS), ' — did you mean memn2n+match?');
  assert.equal(didYouMean('nn', MODELS), '');
});
