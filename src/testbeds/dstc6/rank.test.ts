import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dstc6Entry } from '../../formats/dstc6.js';
import { isResponder, responderAsRanker, type Ranker, type Responder } from '../../rankers/ranker.js';
import { createModel, registerModel } from '../../rankers/registry.js';
import { precisionAtK } from '../../metrics/ranking.js';
import { distinctCandidates, rankDstc6 } from './rank.js';
import { scoreDstc6 } from './score.js';

const entries: Dstc6Entry[] = [
  {
    dialog_id: 'd1',
    utterances: ['hi', 'hello what can i help you with today', 'book a table', 'api_call italian rome six cheap', 'r1 r_rating 4', 'thanks'],
    candidates: [
      { candidate_id: 'a', utterance: 'you are welcome' },
      { candidate_id: 'b', utterance: 'thanks' },
      { candidate_id: 'c', utterance: 'you are welcome' },
    ],
  },
];

// A tiny test-only model: echoes the last user turn.
const echo: Responder = {
  name: 'echo',
  respond: (history) => [...history].reverse().find((t) => t.speaker === 'user')?.text ?? '',
};
registerModel('test-echo-dstc6', 'test only: repeats the last user turn', { create: () => echo });

test('rank: a registered Responder ranks through responderAsRanker; history from dstc6History', () => {
  const m = createModel('test-echo-dstc6', { candidates: distinctCandidates(entries) });
  assert.ok(isResponder(m));
  const ranker = responderAsRanker(m);
  const r = rankDstc6(entries, (h, c) => ranker.rank(h, c));
  assert.deepEqual(r[0]?.lst_candidate_id, [
    { candidate_id: 'b', rank: 1 },
    { candidate_id: 'a', rank: 2 },
    { candidate_id: 'c', rank: 3 },
  ]);
  const s = scoreDstc6(r, [{ dialog_id: 'd1', lst_candidate_id: [{ candidate_id: 'b', rank: 1 }] }]);
  assert.equal(precisionAtK.value(s.precision, 1), 1);
  assert.deepEqual(distinctCandidates(entries), ['you are welcome', 'thanks']);
});

test('rank: a Ranker sees kb turns and gets one score per candidate (checked)', () => {
  const seen: string[] = [];
  const ranker: Ranker = {
    name: 'len',
    rank(history, candidates) {
      seen.push(history.map((t) => t.speaker[0]).join(''));
      return Float32Array.from(candidates, (c) => c.length);
    },
  };
  const r = rankDstc6(entries, (h, c) => ranker.rank(h, c));
  assert.deepEqual(seen, ['ububku']);
  assert.deepEqual(r[0]?.lst_candidate_id.map((c) => c.candidate_id), ['a', 'c', 'b']);
  assert.throws(() => rankDstc6(entries, () => [1]), /dialog_id d1: the model returned 1 scores for 3 candidates/);
});
