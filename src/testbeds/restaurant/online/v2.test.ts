import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../core/errors.js';
import { make } from '../../../env/env.js';
import '../../../index.js'; // every testbed, loaded
import { NOT_UNDERSTOOD } from './lexicon.js';
import { VARIED } from './varied.js';
import { GREETINGS } from '../patterns.js';
import { createRulesBot } from '../rules/rules.js';
import { assertSameAsV1, play } from '../testing/online.js';
import { assertOwnWords } from '../testing/own-words.js';

const IDS = [1, 2, 3, 4, 5].flatMap((t) => [`restaurant-task${t}-v2`, `restaurant-task${t}-oov-v2`]);

test('10 restaurant -v2 envs; an agent saying every act in its own words succeeds (100 episodes each), every turn read as meant', () => {
  assertOwnWords(IDS, 100);
});

test("-v2 with the datasets' wording is -v1: the rule bot and a random agent play the same episodes (20 per env)", () => {
  assertSameAsV1(IDS, 20);
});

test("reset's info.goal is the user goal as JSON; each step's info.read says how the turn was read", () => {
  const env = make('restaurant-task5-v2');
  const { info } = env.reset({ seed: 3 });
  const goal = info['goal'] as Record<string, unknown>;
  assert.deepEqual(JSON.parse(JSON.stringify(goal)), goal);
  assert.equal(goal['task'], 5);
  assert.ok((goal['updates'] as unknown[]).length >= 1);
  assert.deepEqual(Object.keys(goal), ['task', 'request', 'first', 'updates', 'final', 'shown', 'restaurant', 'info']);
  const bot = createRulesBot();
  const reads: string[] = [];
  let obs = env.reset({ seed: 3 }).obs;
  for (;;) {
    const r = env.step(bot.respond(obs.history));
    reads.push(r.info['read'] as string);
    if (r.terminated || r.truncated) {
      assert.equal(r.reward, 1);
      assert.deepEqual(r.info['goal'], goal['final'], "the last info's goal is the final api_call, as in -v1");
      assert.equal(r.info['failureTurn'], undefined);
      break;
    }
    obs = r.obs;
  }
  assert.equal(reads[0], 'greet');
  assert.ok(reads.includes('api_call') && reads.includes('ask-updates') && reads.includes('close'), reads.join(' '));
  assert.ok(reads.some((x) => /^propose\(resto_\w+\)$/.test(x)) && reads.some((x) => /^inform\((phone|address)\)$/.test(x)), reads.join(' '));
  // -v1 tells none of this.
  const v1 = make('restaurant-task5-v1');
  assert.equal(v1.reset({ seed: 3 }).info['goal'], undefined);
  assert.equal(v1.step('hello').info['read'], undefined);
});

test('not understood: a "sorry, what do you mean"-style reply (seeded), counted; the user stays where it was', () => {
  const env = make('restaurant-task1-v2');
  env.reset({ seed: 4 });
  const r1 = env.step('Hi there!');
  const r2 = env.step('the weather is nice');
  assert.equal(r2.info['read'], 'not understood');
  assert.ok(NOT_UNDERSTOOD.includes(r2.obs.utterance), r2.obs.utterance);
  assert.equal(r2.info['notUnderstood'], 1);
  const r3 = env.step('zzz');
  assert.equal(r3.info['notUnderstood'], 2);
  // Out of place but understood: the user says its request again (as -v1 does).
  const r4 = env.step('Would you like to change anything?');
  assert.equal(r4.info['read'], 'ask-updates');
  assert.equal(r4.obs.utterance, r1.obs.utterance);
  const r5 = env.step('Which CITY, please?');
  assert.equal(r5.info['read'], 'ask(location)');
  assert.match(r5.obs.utterance, /^(in \w+|\w+ please)$/);
  assert.equal(r5.info['notUnderstood'], 2);
  // Same seed, same replies.
  env.reset({ seed: 4 });
  env.step('Hi there!');
  assert.equal(env.step('the weather is nice').obs.utterance, r2.obs.utterance);
  const sorry = new Set<string>();
  for (let seed = 0; seed < 30; seed++) {
    env.reset({ seed });
    sorry.add(env.step('blah blah').obs.utterance);
  }
  assert.ok(sorry.size >= 3, [...sorry].join(' | '));
});

test('info.failureTurn: the agent turn (0-based) where the episode went wrong (the wrong api_call, the wrong information, the last turn)', () => {
  const bot = createRulesBot();
  // Task 5: a wrong final call (price changed) is the root cause, at the turn of that call.
  const wrongCall = play(make('restaurant-task5-v2'), 1, (obs) => {
    const a = bot.respond(obs.history);
    return a.startsWith('api_call ') ? a.replace(/ (cheap|moderate|expensive)$/, (m) => (m === ' cheap' ? ' expensive' : ' cheap')) : a;
  });
  assert.equal(wrongCall.info['failure'], 'api_call');
  const calls = wrongCall.obs.history.filter((t) => t.speaker === 'bot').map((t, i) => [t.text, i] as const).filter(([t]) => t.startsWith('api_call '));
  assert.equal(wrongCall.info['failureTurn'], calls.at(-1)?.[1]);
  // Task 4: the address instead of the phone number, at that turn.
  const info = play(make('restaurant-task4-v2'), 5, (obs) => bot.respond(obs.history).replace(/_(phone|address)$/, (m) => (m === '_phone' ? '_address' : '_phone')));
  assert.equal(info.info['failure'], 'information');
  const botTurns = info.obs.history.filter((t) => t.speaker === 'bot');
  assert.equal(info.info['failureTurn'], botTurns.findIndex((t) => /_(phone|address)$/.test(t.text)));
  // Max turns: the last turn (0-based, as the transcripts' actions and reads).
  const stuck = play(make('restaurant-task2-v2', { maxTurns: 6 }), 1, () => 'hello');
  assert.equal(stuck.info['failure'], 'max turns');
  assert.equal(stuck.info['failureTurn'], 5);
});

test("userStyle 'varied': the user speaks in paraphrases (seeded); -v1 refuses it; a bad style is refused", () => {
  const dataset = make('restaurant-task5-v2');
  const varied = make('restaurant-task5-v2', { userStyle: 'varied' });
  const bot = createRulesBot();
  const openings = new Set<string>();
  let differ = 0;
  for (let seed = 0; seed < 20; seed++) {
    const a = dataset.reset({ seed });
    const b = varied.reset({ seed });
    assert.deepEqual(a.info['goal'], b.info['goal'], 'same goal');
    assert.ok(GREETINGS.includes(a.obs.utterance));
    assert.ok((VARIED.greetings as readonly string[]).includes(b.obs.utterance), b.obs.utterance);
    openings.add(b.obs.utterance);
    const request = varied.step(bot.respond(b.obs.history)).obs.utterance;
    if (VARIED.requestOpeners.some((o) => request.startsWith(o))) differ++;
  }
  assert.ok(openings.size >= 3);
  assert.equal(differ, 20);
  const again = make('restaurant-task5-v2', { userStyle: 'varied' });
  const x = play(again, 7, (obs) => bot.respond(obs.history));
  const y = play(varied, 7, (obs) => bot.respond(obs.history));
  assert.deepEqual(x.obs, y.obs, 'same seed, same varied dialog');
  assert.throws(() => make('restaurant-task5-v1', { userStyle: 'varied' }), (e: unknown) => e instanceof ConfigError && /needs a -v2 environment/.test(e.message));
  assert.throws(() => make('restaurant-task5-v2', { userStyle: 'loud' as 'varied' }), (e: unknown) => e instanceof ConfigError && /userStyle: must be one of dataset\/varied, got "loud"/.test(e.message));
  assert.doesNotThrow(() => make('restaurant-task5-v1', { userStyle: 'dataset' }));
});
