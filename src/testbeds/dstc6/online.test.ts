import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envs, make, type ToolSpec } from '../../env/env.js';
import '../../index.js'; // every testbed, loaded
import { play, rulesFor } from '../restaurant/testing/online.js';

const IDS = [1, 2, 3, 4].flatMap((s) => [1, 2, 3, 4, 5].map((t) => `dstc6-task${t}-tst${s}-v1`));

test('20 DSTC6 online envs are registered; the rule bot (restrictions read off the api_call tool) succeeds on every one', () => {
  for (const id of IDS) {
    assert.ok(envs.has(id), id);
    const env = make(id);
    const bot = rulesFor(env.reset({ seed: 0 }).info['tools'] as ToolSpec[]);
    for (let seed = 0; seed < 25; seed++) {
      const r = play(env, seed, (obs) => bot.respond(obs.history));
      assert.equal(r.reward, 1, `${id} seed ${seed}: ${JSON.stringify(r.info)}`);
    }
  }
});

test("DSTC6: r_ KB lines, the test set's api_call slots, hesitations answered after the bot waits", () => {
  const t4 = make('dstc6-task4-tst2-v1').reset({ seed: 1 });
  assert.equal(t4.obs.kb.length, 9);
  assert.match(t4.obs.kb[0] ?? '', / r_location /);
  const tool = (make('dstc6-task1-tst3-v1').reset({ seed: 0 }).info['tools'] as ToolSpec[])[0] as ToolSpec;
  assert.deepEqual(tool.function.parameters['required'], ['cuisine', 'location', 'number', 'price', 'atmosphere', 'restrictions']);
  const tst1 = (make('dstc6-task1-tst1-v1').reset({ seed: 0 }).info['tools'] as ToolSpec[])[0] as ToolSpec;
  assert.deepEqual(tst1.function.parameters['required'], ['cuisine', 'location', 'number', 'price', 'atmosphere']);
  // Over 30 task-1 dialogs the user hesitates sometimes: the bot's "whenever you're ready" is followed by the answer.
  const env = make('dstc6-task1-tst1-v1');
  const bot = rulesFor([tst1]);
  let waits = 0;
  for (let seed = 0; seed < 30; seed++) {
    const h = play(env, seed, (obs) => bot.respond(obs.history)).obs.history;
    h.forEach((t, i) => {
      if (t.text === "whenever you're ready") {
        waits++;
        assert.equal(h[i + 1]?.speaker, 'user');
      }
    });
    assert.ok(h.every((t) => t.text !== '<SILENCE>'), 'DSTC6 silence is <silence>');
  }
  assert.ok(waits >= 10, `${waits}`);
});
