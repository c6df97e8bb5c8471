/**
 * The `dstc6-task*-tst*-v1` envs never change (published v1 numbers stay reproducible): the hash
 * of 200 whole episodes (observations, rewards, flags, info) of the rule bot and of a random agent
 * (`sampleAction`), spread over the 20 envs, is the one computed on the code before the -v2 envs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make } from '../../env/env.js';
import '../../index.js'; // every testbed, loaded
import { rulesAgent, transcriptHash } from '../restaurant/testing/online.js';

const IDS = [1, 2, 3, 4].flatMap((s) => [1, 2, 3, 4, 5].map((t) => `dstc6-task${t}-tst${s}-v1`));

test('dstc6-task*-tst*-v1: 200 episodes of the rule bot hash as before the -v2 envs', () => {
  assert.equal(transcriptHash(IDS, 200, rulesAgent(), (id) => make(id)), '9e2d210e3b78c92dd5fbf3befc0e4d3b711b9c8d2a54ee2bb4b96e9e07a6fa95');
});

test('dstc6-task*-tst*-v1: 200 episodes of a random agent hash as before the -v2 envs', () => {
  assert.equal(transcriptHash(IDS, 200, (env, _tools, rng) => env.sampleAction(rng), (id) => make(id)), 'e6149fe03cd493aec7771b4094356b67a47c02672a760d9d7aced5adbc5297ef');
});
