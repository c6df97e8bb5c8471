import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../testbeds/restaurant/online/babi.js';
import '../testbeds/airdialogue/env.js';
import { make } from '../testbeds/env.js';
import { episodeContext, flightContext, movieContext, promptFamily, shippedPrompt } from './llm.js';

test('each family has its shipped prompt; another environment needs --system-prompt', () => {
  assert.equal(promptFamily('dstc6-task1-tst2-v1'), 'dstc6');
  assert.equal(promptFamily('restaurant-task5-oov-v2'), 'restaurant');
  assert.match(shippedPrompt('restaurant-task1-v1'), /api_call/);
  assert.match(shippedPrompt('airdialogue-v1'), /no_reservation/);
  assert.match(shippedPrompt('infobot-small-v1'), /inform\(results\)/);
  assert.match(shippedPrompt('dstc6-task1-tst1-v1'), /atmosphere/);
  assert.throws(() => shippedPrompt('my-env-v0'), /my-env-v0: no shipped LLM prompt .*--system-prompt/);
});

test('contexts: task 3 KB lines before the dialog, none for task 1; the AirDialogue table; the movie table', () => {
  const t3 = make('restaurant-task3-v1').reset({ seed: 2 }).obs;
  assert.ok(t3.kb.length > 0);
  assert.equal(episodeContext('restaurant-task3-v1', t3), t3.kb.join('\n'));
  assert.equal(episodeContext('restaurant-task1-v1', make('restaurant-task1-v1').reset({ seed: 2 }).obs), undefined);
  const air = make('airdialogue-v1').reset({ seed: 4 }).obs;
  const table = episodeContext('airdialogue-v1', air) as string;
  assert.equal(table.split('\n').length, 4 + air.context.kb.length);
  const f = air.context.kb[0]!;
  assert.ok(table.includes(`| ${f.flight_number} | ${f.airline} | ${f.departure_airport} | ${f.return_airport} | ${f.departure_month} ${f.departure_day}, `));
  assert.equal(flightContext({ reservation: 1003, kb: [] }).split('\n')[0], "The customer's reservation: flight 1003.");
  const movies = movieContext('infobot-small-v1').split('\n');
  assert.equal(movies[0], '| row | title | actor | critic_rating | genre | mpaa_rating | director | release_year |');
  assert.equal(movies.length, 2 + 277);
  assert.match(movies[2] as string, /^\| 0 \| the hidden promise \| ryan ortiz \| 6\.5 \| {2}\| pg \| laura turner \| {2}\|$/);
});
