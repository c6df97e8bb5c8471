/**
 * The model registry resolves names through declared lists (issue 37): the generic rankers are in
 * `models` as soon as the registry is imported (nothing registers them), a testbed's list is
 * declared once, and a name taken twice is a ConfigError — no silent "not registered yet" guard.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RANKER_MODELS } from './builtin.js';
import { createModel, creatableModels, declareModels, loadModels, modelLists, models, registerModel, trainableModels, type ModelDefinition, type ModelList } from './registry.js';

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

/** A module of model code in a temp folder (its URL): `source` is its text. */
function codeModule(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-models-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'models.mjs');
  writeFileSync(file, source);
  return pathToFileURL(file).href;
}

test('a list declared light is listed at once; its models run after loadModels, before it a one-line ConfigError', async () => {
  const list: ModelList = {
    owner: 'the greeting testbed',
    module: codeModule(`export const GREETERS = { greet: { create: () => ({ name: 'greet', respond: () => 'good day' }) }, learn: { train: () => { throw new Error('unused'); } } };\n`),
    export: 'GREETERS',
    models: [
      { name: 'greet', description: 'says good day', can: ['create'] },
      { name: 'learn', description: 'learns', can: ['train'] },
    ],
  };
  declareModels(list);
  assert.ok(creatableModels().includes('greet'));
  assert.ok(trainableModels().includes('learn') && !creatableModels().includes('learn'));
  assert.equal(models.list().find((e) => e.name === 'greet')?.description, 'says good day');
  assert.throws(() => createModel('greet'), (e: Error) => e.name === 'ConfigError' && e.message === "model 'greet' is the greeting testbed's and its code is not loaded: `await loadModels()` first (`import 'dialogym'` does it)");
  assert.throws(() => createModel('learn'), /^ConfigError: model 'learn' has to be trained first/);
  await assert.rejects(loadModels(['nobody']), /^ConfigError: unknown model 'nobody'/);
  await loadModels(['greet']);
  const greet = createModel('greet');
  assert.equal('respond' in greet && greet.respond([]), 'good day');
  // Plain data a worker thread is handed: declaring a copy again adds nothing.
  const copy = structuredClone(modelLists().find((l) => l.export === 'GREETERS'));
  assert.deepEqual(copy, list);
  declareModels(copy as ModelList);
  assert.equal(models.names().filter((n) => n === 'greet').length, 1);
  assert.throws(() => registerModel('greet', 'mine', {}), /^ConfigError: model 'greet' registered twice$/);
});

test("a list's code that differs from its declaration is an InternalError naming the module and the model", async () => {
  const declare = (export_: string, source: string, can: ModelList['models'][number]['can'] = ['create']): ModelList => {
    const list: ModelList = { owner: 'a test', module: codeModule(source), export: export_, models: [{ name: `m-${export_}`, description: 'x', can }] };
    declareModels(list);
    return list;
  };
  const missing = declare('A', 'export const A = {};\n');
  await assert.rejects(loadModels(['m-A']), (e: Error) => e.name === 'InternalError' && e.message === `${missing.module} (A): declared model 'm-A' has no entry`);
  declare('B', 'export const B = { "m-B": { train: () => ({}) } };\n');
  await assert.rejects(loadModels(['m-B']), /^InternalError: .* \(B\): model 'm-B' does train, declared create$/);
  declare('C', 'export const C = { "m-C": { create: () => ({}) }, other: { create: () => ({}) } };\n');
  await assert.rejects(loadModels(['m-C']), /^InternalError: .* \(C\): model 'other' is not declared in its list$/);
  declare('D', 'export const E = {};\n');
  await assert.rejects(loadModels(['m-D']), /^InternalError: .* \(D\): no model entries exported$/);
  // Still not loaded: the message says so.
  assert.throws(() => createModel('m-A'), /its code is not loaded/);
});
