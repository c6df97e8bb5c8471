import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make } from '../../env/env.js';
import '../../index.js'; // every testbed, loaded
import { assertSameAsV1 } from '../restaurant/testing/online.js';
import { assertOwnWords } from '../restaurant/testing/own-words.js';

const IDS = [1, 2, 3, 4].flatMap((s) => [1, 2, 3, 4, 5].map((t) => `dstc6-task${t}-tst${s}-v2`));

test('20 DSTC6 -v2 envs; an agent saying every act in its own words succeeds (100 episodes each), every turn read as meant', () => {
  assertOwnWords(IDS, 100);
});

test("DSTC6 -v2 with the datasets' wording is -v1: the rule bot and a random agent play the same episodes (15 per env)", () => {
  assertSameAsV1(IDS, 15);
});

test("DSTC6 -v2: a hesitation is answered after the agent's own way of waiting; userStyle 'varied' keeps the hesitations", () => {
  const env = make('dstc6-task1-tst1-v2', { userStyle: 'varied' });
  let waits = 0;
  for (let seed = 0; seed < 30 && waits === 0; seed++) {
    env.reset({ seed });
    env.step('Good evening!');
    const r = env.step('What kind of food do you fancy?');
    if (/^(i got|i love|i find|i like|i always|wait|hold on|one m|sorry one)/.test(r.obs.utterance) && !/let's do that/.test(r.obs.utterance)) {
      const w = env.step('Take your time.');
      assert.equal(w.info['read'], 'wait');
      assert.match(w.obs.utterance, /\w/);
      assert.notEqual(w.obs.utterance, r.obs.utterance);
      waits++;
    }
  }
  assert.equal(waits, 1);
});
