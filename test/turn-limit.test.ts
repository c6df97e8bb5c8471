/**
 * The generic turn limit (issue 37, item 4): `TurnLimit` truncates an episode after n agent turns
 * (`truncated: true`, `info.truncatedBy`, `info.maxTurns`), an episode that ends first is left as it
 * is, `reset` starts the count anew; `evaluate`'s `maxTurns` plays through it (failure `max turns`);
 * the testbeds with a limit of their own declare it (`turnLimit`), in their own units.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TurnLimit, withTurnLimit } from '../src/env/turn-limit.js';
import { envs } from '../src/env/env.js';
import { talker } from '../src/env/testing/talker.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { TESTBEDS } from '../src/testbeds/index.js';

test('TurnLimit truncates after n agent turns and says so; an episode that ends first is left alone', () => {
  const env = new TurnLimit(talker(), 3);
  env.reset();
  assert.equal(env.step('a').truncated, false);
  assert.equal(env.step('b').truncated, false);
  assert.deepEqual(env.step('c'), { obs: 'go on', reward: 0, terminated: false, truncated: true, info: { heard: 'c', truncatedBy: 'turnLimit', maxTurns: 3 } });
  env.reset();
  assert.deepEqual(env.step('bye'), { obs: 'go on', reward: 1, terminated: true, truncated: false, info: { heard: 'bye' } });
  env.reset();
  env.step('a');
  env.step('b');
  assert.equal(env.step('bye').terminated, true);
  assert.equal(env.id, 'talker-v0');
  const bare = talker();
  assert.equal(withTurnLimit(bare, undefined), bare);
  assert.throws(() => new TurnLimit(talker(), 0), /^ConfigError: talker-v0: maxTurns must be a positive integer, got 0$/);
});

test('evaluate with maxTurns plays through the wrapper: records of n turns, failure max turns', async () => {
  if (!envs.has('talker-v0')) envs.register('talker-v0', 'ends when the agent says bye', () => talker());
  const { records, summary } = await evaluate('talker-v0', { name: 'chatty', act: () => ({ text: 'more' }) }, { episodes: 3, maxTurns: 4 });
  assert.deepEqual(records.map((r) => [r.turns, r.failure]), [[4, 'max turns'], [4, 'max turns'], [4, 'max turns']]);
  assert.equal(summary.success, 0);
  // The limit is part of the run's options: a resumed run with another limit is refused.
  await assert.rejects(evaluate('talker-v0', { name: 'chatty', act: () => ({ text: 'more' }) }, { episodes: 3, maxTurns: 5, done: records.slice(0, 1) }), /was played with environment options [0-9a-f]{16}, this run has environment options [0-9a-f]{16}/);
  const again = await evaluate('talker-v0', { name: 'chatty', act: () => ({ text: 'more' }) }, { episodes: 3, maxTurns: 4, done: records.slice(0, 1) });
  assert.deepEqual(again.records, records);
});

test('the testbeds with their own limit declare it: restaurant, DSTC6, AirDialogue (utterances) as maxTurns, KB-InfoBot as its user\'s', () => {
  const declared = Object.fromEntries(TESTBEDS.map((t) => [t.name, t.turnLimit?.(7)]));
  assert.deepEqual(declared, { restaurant: { maxTurns: 7 }, dstc6: { maxTurns: 7 }, infobot: { user: { maxTurns: 7 } }, airdialogue: { maxTurns: 7 } });
});
