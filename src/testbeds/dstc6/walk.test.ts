import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import { readDstc6Data, readDstc6Results, type Dstc6Entry } from '../../formats/dstc6.js';
import { answerIds, dstc6Stats, formatDstc6Stats, walkEntry } from './walk.js';
import { dstc6TestFiles } from '../../../test/dstc6-files.js';

const e: Dstc6Entry = {
  dialog_id: 'd1',
  utterances: ['Hi there', 'hello what can i help you with today', 'Hi there'],
  candidates: [
    { candidate_id: 'c1', utterance: 'api_call french paris four cheap' },
    { candidate_id: 'c2', utterance: 'where should it be' },
  ],
};

test('walk: dataset_walker.py layout, the true answer marked', () => {
  assert.deepEqual(walkEntry(e), [
    'dialog_id: d1',
    'Utterances:',
    ' * Hi there',
    ' * hello what can i help you with today',
    ' * Hi there',
    'Candidates:',
    ' * c1 - api_call french paris four cheap',
    ' * c2 - where should it be',
    'Answer:',
    'None',
    '',
  ]);
  const lines = walkEntry(e, answerIds([{ dialog_id: 'd1', lst_candidate_id: [{ candidate_id: 'c1', rank: 2 }, { candidate_id: 'c2', rank: 1 }] }]));
  assert.equal(lines[7], ' * c2 - where should it be  <= answer');
  assert.equal(lines[9], ' * c2 - where should it be');
  assert.equal(walkEntry({ ...e, answer: { candidate_id: 'c1', utterance: 'api_call french paris four cheap' } })[6], ' * c1 - api_call french paris four cheap  <= answer');
});

test('walk stats: the official definitions', () => {
  const s = dstc6Stats([e, { ...e, dialog_id: 'd2', utterances: ['<silence>'] }]);
  assert.equal(s.entries, 2);
  assert.equal(s.utterances, 4);
  assert.equal(s.utterancesPerEntry, 2);
  assert.equal(s.distinctUtterances, 3);
  // tokens: hi there hello what can help you with today silence (lower-cased; "i" too short)
  assert.deepEqual(s.vocabularyTerms, ['can', 'hello', 'help', 'hi', 'silence', 'there', 'today', 'what', 'with', 'you']);
  assert.deepEqual(s.vocabularyNonStopTerms, ['hello', 'help', 'hi', 'silence', 'today']);
  assert.equal(formatDstc6Stats(s)[2], 'utterances per entry: 2  [nb_utterance_per_dialog]');
});

test('walk stats on the real test files match PROVENANCE (entries, utterance mean) and look like training', { skip: skipUnless(dstc6Dir) }, () => {
  const [t1] = dstc6TestFiles();
  const entries = readDstc6Data(t1!.data);
  const s = dstc6Stats(entries);
  assert.equal(s.entries, 1000);
  assert.equal(Math.round(s.utterancesPerEntry * 100) / 100, 9.84); // PROVENANCE: 5/9.84/23
  assert.equal(s.candidatesMin, 7);
  assert.equal(s.candidatesMax, 10);
  assert.equal(s.candidates, 873 * 7 + 56 * 8 + 46 * 9 + 25 * 10); // PROVENANCE histogram
  // Task 1 uses the same words in training and test: official training figures 173 / 98.
  assert.equal(s.vocabulary, 173);
  assert.equal(s.vocabularyNonStop, 98);
  const answers = answerIds(readDstc6Results(t1!.answers));
  assert.equal(answers.size, 1000);
  assert.ok(entries.every((x) => walkEntry(x, answers).filter((l) => l.endsWith('  <= answer')).length === 1));
});
