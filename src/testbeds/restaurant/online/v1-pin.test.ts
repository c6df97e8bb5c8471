/**
 * The `restaurant-task*-v1` envs never change (published v1 numbers stay reproducible): the hash
 * of 200 whole episodes (observations, rewards, flags, info) of the rule bot and of a random agent
 * (`sampleAction`), spread over the 10 envs, is the one computed on the code before the -v2 envs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make } from '../../../env/env.js';
import '../../../index.js'; // every testbed, loaded
import { rulesAgent, transcriptHash } from '../testing/online.js';

const IDS = [1, 2, 3, 4, 5].flatMap((t) => [`restaurant-task${t}-v1`, `restaurant-task${t}-oov-v1`]);

test('restaurant-task*-v1: 200 episodes of the rule bot hash as before the -v2 envs', () => {
  assert.equal(transcriptHash(IDS, 200, rulesAgent(), (id) => make(id)), 'cd9b3b1c1c7a2eadbba6fc477a0f3618ab55349a2ab2beb4635e05a596fa9a05');
});

test('restaurant-task*-v1: 200 episodes of a random agent hash as before the -v2 envs', () => {
  assert.equal(transcriptHash(IDS, 200, (env, _tools, rng) => env.sampleAction(rng), (id) => make(id)), 'b0419277c1ff56df7b1fd27b05932c325e660067176045371c8e67146f365fa4');
});
