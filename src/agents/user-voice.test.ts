import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withUserWords } from './user-voice.js';

test('withUserWords replaces the user turns in order, and the utterance when it is the last of them', () => {
  const obs = { utterance: 'b', kb: [], history: [{ speaker: 'kb', text: 'r1 R_rating 5' }, { speaker: 'user', text: 'a' }, { speaker: 'bot', text: 'x' }, { speaker: 'user', text: 'b' }] };
  assert.deepEqual(withUserWords(obs, ['A', 'B']), { utterance: 'B', kb: [], history: [{ speaker: 'kb', text: 'r1 R_rating 5' }, { speaker: 'user', text: 'A' }, { speaker: 'bot', text: 'x' }, { speaker: 'user', text: 'B' }] });
  assert.deepEqual((withUserWords({ ...obs, utterance: '' }, ['A', 'B']) as { utterance: string }).utterance, '');
  assert.equal(withUserWords('text', ['A']), 'text');
});
