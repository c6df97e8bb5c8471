/**
 * The model registry resolves names through declared lists (issue 37): the generic rankers are in
 * `models` as soon as the registry is imported (nothing registers them), a testbed's list is
 * declared once, and a name taken twice is a ConfigError — no silent "not registered yet" guard.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RANKER_MODELS } from './builtin.js';
import { createModel, declareModels, models, registerModel, trainableModels, type ModelDefinition } from './registry.js';

test('the registry lists the generic rankers from the start, in its own module', () => {
  assert.deepEqual(models.names(), RANKER_MODELS.map((d) => d.name).sort());
  assert.equal(models.get('memn2n'), RANKER_MODELS.find((d) => d.name === 'memn2n')?.entry);
  assert.deepEqual(trainableModels(), ['embeddings', 'embeddings+bigrams', 'embeddings+match', 'memn2n', 'memn2n+match', 'nn', 'nn+prev', 'tfidf', 'tfidf+type', 'tfidf+type-word']);
  assert.equal(createModel('tfidf', { candidates: ['hello', 'bye'] }).name, 'tfidf');
  assert.throws(() => createModel('rules'), /^ConfigError: unknown model 'rules'/);
});

test('a model list is declared once; a taken name is a ConfigError', () => {
  const mine: readonly ModelDefinition[] = [{ name: 'hello', description: 'says hello', entry: { create: () => ({ name: 'hello', respond: () => 'hello' }) } }];
  declareModels(mine);
  declareModels(mine);
  assert.equal(models.names().filter((n) => n === 'hello').length, 1);
  assert.equal(createModel('hello').name, 'hello');
  const other: readonly ModelDefinition[] = [{ name: 'hello', description: 'another hello', entry: {} }];
  assert.throws(() => declareModels(other), /^ConfigError: model 'hello' registered twice$/);
  assert.throws(() => declareModels([{ name: 'tfidf', description: 'mine', entry: {} }]), /^ConfigError: model 'tfidf' registered twice$/);
  assert.throws(() => registerModel('nn', 'mine', {}), /^ConfigError: model 'nn' registered twice$/);
  assert.equal(models.get('tfidf'), RANKER_MODELS[0]?.entry);
});
