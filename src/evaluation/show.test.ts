import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEpisode, wrongTurn } from './show.js';
import type { EpisodeRecord } from './evaluate.js';

const base: EpisodeRecord = {
  env: 'restaurant-task1-v2',
  episode: 3,
  trial: 1,
  seed: 4,
  success: false,
  reward: 0,
  turns: 3,
  failure: 'api_call',
  actions: ['hello', 'where should it be', 'api_call italian rome two cheap'],
  observation: {
    history: [
      { speaker: 'user', text: 'hi' },
      { speaker: 'bot', text: 'hello' },
      { speaker: 'user', text: 'a table for two' },
      { speaker: 'bot', text: 'where should it be' },
      { speaker: 'user', text: 'rome please' },
      { speaker: 'bot', text: 'api_call italian rome two cheap' },
    ],
  },
  goal: { cuisine: 'indian', location: 'rome', number: 'two', price: 'cheap' },
  detail: { expected: 'api_call indian rome two cheap' },
  reads: ['greet', 'ask(location)', 'api_call'],
};

test('describeEpisode: the dialog with each agent turn\'s read, the goal, reason and detail, and a marker at the turn that went wrong', () => {
  const lines = describeEpisode({ ...base, failureTurn: 1 });
  assert.equal(lines[0], 'restaurant-task1-v2 task 3 trial 1 (seed 4): failed: api_call after 3 agent turns, reward 0');
  assert.equal(lines[1], '  goal: {"cuisine":"indian","location":"rome","number":"two","price":"cheap"}');
  assert.equal(lines[2], '       user   hi');
  assert.equal(lines[3], '    0  agent  hello   [read: greet]');
  assert.equal(lines[5], '>   1  agent  where should it be   [read: ask(location)]   <- went wrong here');
  assert.equal(lines.at(-1), '  failure: api_call  detail: {"expected":"api_call indian rome two cheap"}');
  // No failureTurn: the last agent turn; an agent-side failure: the turn it did not answer.
  assert.equal(wrongTurn(base), 2);
  const late = describeEpisode({ ...base, failure: 'timeout', message: 'no reply from the agent within 5000 ms' });
  assert.equal(late.at(-2), '>   3  agent  (no valid reply)   <- went wrong here');
  assert.equal(late.at(-1), '  failure: timeout  detail: {"expected":"api_call indian rome two cheap"}  message: no reply from the agent within 5000 ms');
  // Without a history (KB-InfoBot): the actions alone.
  const bare = describeEpisode({ ...base, observation: { utterance: 'ok' }, actions: [{ tool: 'inform', arguments: { results: [1] } }], reads: undefined as never, turns: 1 });
  assert.equal(bare[2], '>   0  agent  {"tool":"inform","arguments":{"results":[1]}}   <- went wrong here');
});
