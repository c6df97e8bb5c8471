import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ModelFileError } from '../core/errors.js';
import { decodeModelFile, encodeModelFile, type ModelFileContent } from '../formats/model-file.js';
import { modelFromContent, trainModel } from './registry.js';
import { Tfidf } from './tfidf.js';
import { syntheticCandidates, syntheticDialogs } from './testing/synthetic.js';

/** The content with `edit` applied to a copy of its metadata, through the bytes of a file. */
function forged(c: ModelFileContent, edit: (meta: Record<string, any>) => void): ModelFileContent {
  const back = decodeModelFile(encodeModelFile(c), 'x.dgm');
  const meta = structuredClone(back.meta) as Record<string, any>;
  edit(meta);
  return { ...back, meta };
}

const oneLine = (re: RegExp) => (e: unknown): boolean => e instanceof ModelFileError && re.test(e.message) && !e.message.includes('\n');

test('forged ranker metadata is a one-line ModelFileError naming the file and the field', () => {
  const tfidf = Tfidf.fit(syntheticCandidates(), { input: 'history', matchType: false }).toModelFile();
  assert.throws(() => modelFromContent(forged(tfidf, (m) => (m.config.input = 0)), 'forged.dgm'), oneLine(/^forged\.dgm: corrupt model file \(tfidf meta: config: "input" must be one of last\/history, got 0\)$/));
  assert.throws(() => modelFromContent(forged(tfidf, (m) => (m.idf[0][1] = -1)), 'forged.dgm'), oneLine(/^forged\.dgm: .*tfidf meta: "idf\[0\]\[1\]" must be >= 0, got -1/));
  const mem = trainModel('memn2n', { train: syntheticDialogs(6, 1), dev: syntheticDialogs(2, 2), candidates: syntheticCandidates() }, { epochs: 1, dim: 8, seed: 1 }).model.toModelFile();
  assert.throws(() => modelFromContent(forged(mem, (m) => (m.config.dim = 'abc')), 'm.dgm'), oneLine(/^m\.dgm: corrupt model file \(memn2n meta: config: "dim" must be an integer, got "abc"\)$/));
  assert.throws(() => modelFromContent(forged(mem, (m) => (m.config.hops = 2 ** 31)), 'm.dgm'), oneLine(/memn2n meta: config: "hops" must be <= 64/));
  assert.throws(() => modelFromContent(forged(mem, (m) => (m.vocab[1] = 1.5)), 'm.dgm'), oneLine(/memn2n meta: "vocab\[1\]" must be a string, got 1\.5/));
  // The unforged files still load.
  assert.equal(modelFromContent(forged(tfidf, () => {}), 'ok.dgm').name, 'tfidf');
  assert.equal(modelFromContent(forged(mem, () => {}), 'ok.dgm').name, 'memn2n');
});
