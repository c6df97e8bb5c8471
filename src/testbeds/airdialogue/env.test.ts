import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../index.js'; // every testbed, loaded
import { createRng } from '../../core/rng.js';
import { envs } from '../../env/env.js';
import { AirDialogueEnv, selfPlayEpisode, selfPlay, simulateDialogs } from './env.js';
import { agentPolicies, type AgentPolicyFactory } from './policies.js';
import { formatAirLines, parseAirData, parseAirKb } from '../../formats/airdialogue.js';
import { checkLogic } from './logic.js';

test('airdialogue-v1 is registered and the agent only observes its own context', () => {
  assert.ok(envs.has('airdialogue-v1'));
  const env = envs.get('airdialogue-v1')() as AirDialogueEnv;
  const { obs } = env.reset({ seed: 3 });
  assert.deepEqual(Object.keys(obs).sort(), ['context', 'history', 'utterance']);
  assert.deepEqual(Object.keys(obs.context).sort(), ['kb', 'reservation']);
  assert.ok(!JSON.stringify(obs).includes('"goal"'));
  assert.equal(obs.history.length, 1);
  assert.equal(obs.history[0]?.speaker, 'user');
});

test('episodes: zero reward until the agent acts; the action ends the episode with the scaled score', () => {
  const env = new AirDialogueEnv();
  env.reset({ seed: 9 });
  const r1 = env.step({ utterance: 'May I know your name, please?' });
  assert.deepEqual([r1.reward, r1.terminated, r1.truncated], [0, false, false]);
  assert.match(r1.obs.utterance, new RegExp(env.episodeContext.intent.name));
  const expected = env.episodeContext.expected;
  const r2 = env.step({ utterance: 'Done.', action: { status: expected.status, name: expected.name, flight: expected.flight.slice(0, 1) } });
  assert.deepEqual([r2.reward, r2.terminated], [1, true]);
  assert.throws(() => env.step({ utterance: 'again' }), /finished episode/);
  // a wrong action is rewarded below 1
  env.reset({ seed: 9 });
  const wrong = env.step({ utterance: 'Bye.', action: { status: 'cancel', name: 'Nobody', flight: [] } });
  assert.ok(wrong.reward < 0.7);
});

test('a silent agent is truncated at the turn limit with zero reward', () => {
  const env = new AirDialogueEnv({ maxTurns: 6 });
  env.reset({ seed: 1 });
  let r = env.step({ utterance: 'Hmm.' });
  let steps = 1;
  while (!r.truncated && !r.terminated) {
    r = env.step({ utterance: 'Hmm.' });
    steps++;
  }
  assert.deepEqual([r.truncated, r.reward, steps, env.history.length], [true, 0, 3, 6]);
});

test('random actions always end the episode (sampleAction)', () => {
  const env = new AirDialogueEnv({ maxTurns: 20 });
  const rng = createRng(4);
  for (let i = 0; i < 50; i++) {
    env.reset({ seed: i });
    let r;
    do r = env.step(env.sampleAction(rng));
    while (!r.terminated && !r.truncated);
    assert.ok(r.reward >= 0 && r.reward <= 1);
  }
});

test('rules vs rules self-play scores at least 0.99, in domain and out of domain', () => {
  const r = selfPlay({ n: 300, seed: 1 });
  assert.equal(r.dialogs, 300);
  assert.ok(r.total >= 0.99, JSON.stringify(r));
  assert.ok(selfPlay({ n: 200, seed: 2, ood: true }).total >= 0.99);
  // a weaker agent (always claims there is no flight) scores clearly lower
  const lazy: AgentPolicyFactory = () => ({ respond: () => ({ utterance: 'Sorry.', action: { status: 'no_flight', name: '', flight: [] } }) });
  const env = new AirDialogueEnv();
  let total = 0;
  for (let i = 0; i < 100; i++) total += selfPlayEpisode(env, lazy, i).score.total;
  assert.ok(total / 100 < 0.5);
  assert.ok(agentPolicies.has('rules'));
});

test('simulated dialogs: deterministic, in the original format, consistent with the task logic', () => {
  const a = simulateDialogs({ n: 40, seed: 8 });
  const b = simulateDialogs({ n: 40, seed: 8 });
  assert.equal(formatAirLines(a.data), formatAirLines(b.data));
  assert.notEqual(formatAirLines(a.data), formatAirLines(simulateDialogs({ n: 40, seed: 9 }).data));
  const data = parseAirData(formatAirLines(a.data));
  const kb = parseAirKb(formatAirLines(a.kb));
  const r = checkLogic(data.map((d, i) => ({ line: i + 1, data: d, kb: kb[i]! })));
  assert.equal(r.agree, 40);
  for (const d of data) {
    assert.ok(d.dialogue!.length >= 2 && d.dialogue![0]!.startsWith('customer: '));
    assert.ok(d.dialogue![d.dialogue!.length - 1]!.startsWith('agent: '));
    assert.equal(d.timestamps!.length, d.dialogue!.length);
    assert.equal(d.correct_sample, true);
  }
});
