import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envs, make } from '../../../env/env.js';
import { InvalidActionError, StateError } from '../../../core/errors.js';
import { createRulesBot } from '../rules/rules.js';
import '../../../index.js'; // every testbed, loaded
import type { ToolSpec } from '../../../env/env.js';
import { play, rulesFor } from '../testing/online.js';


const IDS = [1, 2, 3, 4, 5].flatMap((t) => [`restaurant-task${t}-v1`, `restaurant-task${t}-oov-v1`]);

test('10 bAbI online envs are registered; the rule bot succeeds on every one (40 episodes each)', () => {
  for (const id of IDS) assert.ok(envs.has(id), id);
  for (const id of IDS) {
    const env = make(id);
    const { info } = env.reset({ seed: 0 });
    const bot = rulesFor(info['tools'] as ToolSpec[]);
    for (let seed = 0; seed < 40; seed++) {
      const r = play(env, seed, (obs) => bot.respond(obs.history));
      assert.equal(r.reward, 1, `${id} seed ${seed}: ${JSON.stringify(r.info)}`);
      assert.equal(r.terminated, true);
      assert.equal(r.info['failure'], null);
    }
  }
});

test('task 5: the dialog follows the bAbI shape, api_call results come back as KB lines', () => {
  const env = make('restaurant-task5-v1');
  const bot = createRulesBot();
  const r = play(env, 3, (obs) => bot.respond(obs.history));
  const h = r.obs.history;
  assert.equal(h[0]?.speaker, 'user');
  assert.equal(h[1]?.text, 'hello what can i help you with today');
  const calls = h.filter((t) => t.text.startsWith('api_call '));
  assert.equal(calls.length, 2, 'first call, updates, final call');
  const kb = h.filter((t) => t.speaker === 'kb');
  assert.ok(kb.length > 0 && kb.length % 7 === 0, `${kb.length} KB lines`);
  assert.match(kb[0]?.text ?? '', /^resto_\S+ R_phone resto_\S+_phone$/);
  // No KB line follows the first call: the user interrupts with an update, as in the dataset.
  const first = h.findIndex((t) => t.text.startsWith('api_call '));
  assert.equal(h[first + 1]?.speaker, 'user');
  assert.match(h[first + 1]?.text ?? '', /^(instead could it be|actually i would prefer) /);
  assert.equal(h.at(-1)?.text, "you're welcome");
});

test('task 3 and 4 show the KB lines before the dialog; the api_call tool lists the values of the vocabulary half', () => {
  const t3 = make('restaurant-task3-v1').reset({ seed: 1 });
  assert.ok(t3.obs.kb.length >= 21, `${t3.obs.kb.length}`);
  assert.equal(t3.obs.history.filter((t) => t.speaker === 'kb').length, t3.obs.kb.length);
  const t4 = make('restaurant-task4-v1').reset({ seed: 1 });
  assert.equal(t4.obs.kb.length, 7);
  assert.match(t4.obs.kb[0] ?? '', / R_phone /);
  const babi = (make('restaurant-task1-oov-v1').reset({ seed: 0 }).info['tools'] as ToolSpec[])[0] as ToolSpec;
  const props = babi.function.parameters['properties'] as Record<string, { enum: string[] }>;
  assert.ok(props['cuisine']?.enum.includes('thai'), 'OOV cuisines');
  assert.ok(!props['cuisine']?.enum.includes('italian'));
});

test('failures: a wrong api_call, an option out of rating order, wrong information, too many turns', () => {
  // Task 1: the call with one slot changed fails, and says what was expected.
  {
    const env = make('restaurant-task1-v1');
    const bot = createRulesBot();
    const r = play(env, 2, (obs) => {
      const a = bot.respond(obs.history);
      return a.startsWith('api_call ') ? a.replace(/ (two|four|six|eight) /, (m) => (m === ' two ' ? ' four ' : ' two ')) : a;
    });
    assert.equal(r.reward, 0);
    assert.equal(r.info['failure'], 'api_call');
    assert.deepEqual((r.info['detail'] as { expected: unknown }).expected, r.info['goal']);
  }
  // Task 3: proposing the worst option first.
  {
    const env = make('restaurant-task3-v1');
    const bot = createRulesBot();
    let n = 0;
    for (let seed = 0; seed < 20; seed++) {
      const r = play(env, seed, (obs) => {
        const a = bot.respond(obs.history);
        if (!a.startsWith('what do you think of this option: ')) return a;
        const names = obs.history.filter((t) => t.text.includes(' R_rating ')).map((t) => t.text.split(' '));
        const worst = names.sort((x, y) => Number(x[2]) - Number(y[2]))[0]?.[0];
        return `what do you think of this option: ${worst}`;
      });
      if (r.info['failure'] === 'option order') n++;
      else assert.equal(r.reward, 1, JSON.stringify(r.info)); // the worst one was also the best (ties)
    }
    assert.ok(n >= 15, `${n}`);
  }
  // Task 3: options from another call than the user's goal.
  {
    const env = make('restaurant-task3-v1');
    const { info } = env.reset({ seed: 6 });
    assert.ok(Array.isArray(info['tools']));
    const bot = createRulesBot();
    let called = false;
    const r = play(env, 6, (obs) => {
      const a = bot.respond(obs.history);
      if (!a.startsWith('what do you think of this option: ') || called) return a;
      called = true;
      // Ask the KB for the same cuisine/location/price with another party size: other restaurants.
      const goal = obs.history.find((t) => t.text.includes(' R_number '))?.text.split(' ')[2];
      const call = obs.history.filter((t) => t.speaker === 'kb')[0]?.text.split(' ')[0]?.split('_') ?? [];
      return `api_call ${call[3]} ${call[1]} ${goal === 'two' ? 'four' : 'two'} ${call[2]}`;
    });
    assert.equal(r.info['failure'], 'option not matching the goal', JSON.stringify(r.info));
  }
  // Task 4: the address instead of the phone number.
  {
    const env = make('restaurant-task4-v1');
    const bot = createRulesBot();
    const r = play(env, 5, (obs) => bot.respond(obs.history).replace(/_(phone|address)$/, (m) => (m === '_phone' ? '_address' : '_phone')));
    assert.equal(r.info['failure'], 'information');
    assert.equal(r.reward, 0);
  }
  // A bot that only greets is truncated after maxTurns agent turns.
  {
    const env = make('restaurant-task2-v1', { maxTurns: 7 });
    const r = play(env, 1, () => 'hello what can i help you with today');
    assert.equal(r.truncated, true);
    assert.equal(r.terminated, false);
    assert.equal(r.info['failure'], 'max turns');
    assert.equal(r.info['turn'], 7);
    // Truncated after a wrong api_call: the call is the reason.
    const bot = createRulesBot();
    const w = play(make('restaurant-task5-v1', { maxTurns: 12 }), 1, (obs) => {
      const a = bot.respond(obs.history);
      return a.startsWith('what do you think') ? 'i do not know' : a.startsWith('api_call ') ? a.replace(/ (cheap|moderate|expensive)$/, (m) => (m === ' cheap' ? ' expensive' : ' cheap')) : a;
    });
    assert.equal(w.truncated, true);
    assert.equal(w.info['failure'], 'api_call', JSON.stringify(w.info));
  }
});

test('the user repeats itself when it does not understand, and answers the slot it is asked', () => {
  const env = make('restaurant-task1-v1');
  const { obs } = env.reset({ seed: 4 });
  const r1 = env.step('hello what can i help you with today');
  const r2 = env.step('blah');
  assert.equal(r2.obs.utterance, r1.obs.utterance, 'repeats its request');
  const r3 = env.step('where should it be');
  assert.match(r3.obs.utterance, /^(in \w+|\w+ please)$/);
  assert.notEqual(obs.utterance, '');
});

test('tool calls act like the api_call text; bad tool calls throw InvalidActionError; step after the end throws StateError', () => {
  const bot = createRulesBot();
  const text = play(make('restaurant-task1-v1'), 9, (obs) => bot.respond(obs.history));
  const viaTool = play(make('restaurant-task1-v1'), 9, (obs) => {
    const a = bot.respond(obs.history);
    if (!a.startsWith('api_call ')) return a;
    const [cuisine, location, number, price] = a.split(' ').slice(1) as [string, string, string, string];
    return { tool: 'api_call', arguments: { cuisine, location, number, price } };
  });
  assert.deepEqual(viaTool.obs, text.obs);
  assert.equal(viaTool.reward, 1);
  const env = make('restaurant-task1-v1');
  env.reset({ seed: 1 });
  assert.throws(() => env.step({ tool: 'book', arguments: {} }), (e: unknown) => e instanceof InvalidActionError && /unknown tool 'book'/.test(e.message));
  assert.throws(() => env.step({ tool: 'api_call', arguments: { cuisine: 'italian' } }), /argument 'location' must be a string/);
  assert.throws(() => env.step({ tool: 'api_call', arguments: { cuisine: 'sushi', location: 'rome', number: 'two', price: 'cheap' } }), /cuisine 'sushi' is not one of/);
  assert.throws(() => env.step(42 as unknown as string), InvalidActionError);
  assert.throws(() => text && make('restaurant-task1-v1').step('hi'), StateError);
});

test('variant: the same task (goal) with other draws of the user', () => {
  const env = make('restaurant-task3-v1');
  const bot = createRulesBot();
  let differ = 0;
  for (let seed = 0; seed < 10; seed++) {
    const a = play(env, seed, (obs) => bot.respond(obs.history), 0);
    const b = play(env, seed, (obs) => bot.respond(obs.history), 1);
    assert.deepEqual(a.info['goal'], b.info['goal']);
    if (JSON.stringify(a.obs.history) !== JSON.stringify(b.obs.history)) differ++;
  }
  assert.ok(differ >= 5, `${differ}`);
});
