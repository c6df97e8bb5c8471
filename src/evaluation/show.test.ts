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

test('describeEpisode says the detail in words, shows the tool call behind an utterance, and the last words when there is no history', () => {
  // Restaurant: only the slots of the api_call that differ.
  const call = describeEpisode({ ...base, detail: { expected: { cuisine: 'italian', location: 'rome', price: 'cheap' }, got: { cuisine: 'italian', location: 'rome', price: 'moderate' } } });
  assert.equal(call.at(-1), '  why: price: got "moderate", expected "cheap"');
  const phone = describeEpisode({ ...base, failure: 'information', detail: { expected: 'r_8stars_phone', got: 'r_6stars_phone' } });
  assert.equal(phone.at(-1), '  why: got "r_6stars_phone", expected "r_8stars_phone"');
  // AirDialogue: the book call behind 'All set.' (and behind no words at all), and the customer's why.
  const book = { tool: 'book', arguments: { name: 'Joseph Young', flight: 1008, utterance: 'All set.' } };
  const air = describeEpisode({
    ...base,
    env: 'airdialogue-v2',
    failure: 'wrong flight',
    turns: 2,
    actions: ['What is your name?', book],
    observation: { history: [{ speaker: 'user', text: 'Hello.' }, { speaker: 'bot', text: 'What is your name?' }, { speaker: 'user', text: 'Joseph Young.' }, { speaker: 'bot', text: 'All set.' }] },
    reads: ['ask(name)', 'act(book)'],
    detail: { wrong: ['flight'], why: 'flight 1008 meets the requirements but 1001 is cheaper' },
  });
  assert.equal(air[5], `>   1  agent  All set.   ${JSON.stringify(book)}   [read: act(book)]   <- went wrong here`);
  assert.equal(air.at(-1), '  why: flight 1008 meets the requirements but 1001 is cheaper');
  const silent = describeEpisode({ ...base, turns: 1, actions: [{ tool: 'cancel', arguments: { name: 'Joseph Young' } }], observation: { history: [{ speaker: 'user', text: 'Hello.' }, { speaker: 'bot', text: '' }] }, reads: ['act(cancel)'] });
  assert.equal(silent[3], '>   0  agent  {"tool":"cancel","arguments":{"name":"Joseph Young"}}   [read: act(cancel)]   <- went wrong here');
  // KB-InfoBot: no history, no reason: the user's last words, and a header that says no reason was given.
  const ib = describeEpisode({ ...base, env: 'infobot-medium-v1', failure: 'failed', detail: undefined, goal: undefined, reads: undefined, turns: 1, actions: [{ tool: 'inform', arguments: { results: [4, 8] } }], observation: { utterance: 'no, none of those is my movie', turn: 1 } });
  assert.equal(ib[0], 'infobot-medium-v1 task 3 trial 1 (seed 4): failed (the environment names no reason) after 1 agent turns, reward 0');
  assert.equal(ib.at(-2), '       user   no, none of those is my movie   (its last words)');
});
