import assert from 'node:assert/strict';
import { test } from 'node:test';
import { make } from '../index.js'; // every testbed, loaded (their LLM sections' views too)
import { declareLlmSection, episodeContext, llmSectionOf, llmSystemMessage, llmUserPrompt, llmUserSystemMessage, loadLlmSections, promptFamily, shippedPrompt } from './prompts.js';

test('each family has its shipped prompt; another environment needs systemPrompt', () => {
  assert.equal(promptFamily('dstc6-task1-tst2-v1'), 'dstc6');
  assert.equal(promptFamily('restaurant-task5-oov-v2'), 'restaurant');
  assert.match(shippedPrompt('restaurant-task1-v1'), /api_call/);
  assert.match(shippedPrompt('airdialogue-v1'), /no_reservation/);
  assert.match(shippedPrompt('infobot-small-v1'), /inform\(results\)/);
  assert.match(shippedPrompt('dstc6-task1-tst1-v1'), /atmosphere/);
  assert.throws(() => shippedPrompt('my-env-v0'), /my-env-v0: no shipped LLM prompt for this environment \(give one with systemPrompt <file>\)$/);
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
  assert.equal(episodeContext('airdialogue-v1', { context: { reservation: 1003, kb: [] } })?.split('\n')[0], "The customer's reservation: flight 1003.");
  assert.equal(episodeContext('airdialogue-v1', { context: {} }), undefined);
  const movies = (episodeContext('infobot-small-v1', {}) as string).split('\n');
  assert.equal(movies[0], '| row | title | actor | critic_rating | genre | mpaa_rating | director | release_year |');
  assert.equal(movies.length, 2 + 277);
  assert.match(movies[2] as string, /^\| 0 \| the hidden promise \| ryan ortiz \| 6\.5 \| {2}\| pg \| laura turner \| {2}\|$/);
});

test('the LLM user: its goal, what it is told each turn (the agent since its last turn, the act), only on envs with a goal', () => {
  const goal = { task: 5, request: ['cuisine'], first: { cuisine: 'thai', location: 'rome', number: 'two', price: 'cheap' }, updates: ['location'], final: { cuisine: 'thai', location: 'paris', number: 'two', price: 'cheap' }, shown: [], restaurant: null, info: ['phone'] };
  const sys = llmUserSystemMessage({ env: 'restaurant-task5-v2', goal });
  assert.match(sys, /^You are a customer of a restaurant booking service/);
  assert.match(sys, /## Your goal\n\n- task: 5\n- you want a restaurant with: cuisine thai, location rome, number of people two, price range cheap\n- in your first request you mention: cuisine\n- after the assistant's first search you change: location to paris\n- once booked you ask for: the phone number$/);
  assert.throws(() => llmUserSystemMessage({ env: 'restaurant-task5-v1', goal: undefined }), /tells no user goal \(info\.goal\): the LLM user plays the -v2/);
  assert.throws(() => llmUserSystemMessage({ env: 'infobot-small-v1', goal: {} }), /no LLM user for this environment/);
  const history = [{ speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'ok let me look into some options for you' }, { speaker: 'user', text: '<SILENCE>' }, { speaker: 'bot', text: 'api_call thai rome two cheap' }];
  const env = 'restaurant-task5-v2';
  assert.equal(llmUserPrompt({ env, turn: 2, history, info: { userAct: { act: 'update', slot: 'location', value: 'paris' } } }), '(The assistant searches its database.)\n\n[Now: change your request: you now want location paris instead.]');
  assert.equal(llmUserPrompt({ env, turn: 0, history: [], info: {} }), '(The conversation starts: you speak first.)');
  assert.equal(llmUserPrompt({ env: 'airdialogue-v2', turn: 1, history: [{ speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'Your name?' }], info: {} }), 'Assistant: Your name?');
  const air = llmUserSystemMessage({ env: 'airdialogue-v2', goal: { name: 'Ann Lee', goal: 'book', departure_airport: 'DEN', return_airport: 'IAD', departure_month: 'Jan', departure_day: '3', return_month: 'Jan', return_day: '5', max_price: 5000, max_connections: 0, class: 'economy' } });
  assert.match(air, /- your name: Ann Lee\n- you want to: book a new flight\n- from: DEN \(Denver\)\n- to: IAD \(Washington\)\n- departure date: Jan 3\n- return date: Jan 5\n- budget: any\n- connections: none \(a direct flight\)\n- class: economy\n- departure time: any\n- return time: any\n- airline: any$/);
});

test("the LLM layer knows no testbed: an environment of one's own words its episodes through its section", async () => {
  // Without a section: the default context (the first observation's KB lines), the goal as JSON, no act, `Assistant:` turns.
  assert.equal(episodeContext('mine-v0', { kb: ['a R_x 1', 7, 'b R_x 2'] }), 'a R_x 1\nb R_x 2');
  assert.equal(llmUserSystemMessage({ env: 'mine-v0', goal: { word: 'apple' } }, 'Be a user.'), 'Be a user.\n\n## Your goal\n\n{\n  "word": "apple"\n}');
  assert.equal(llmUserPrompt({ env: 'mine-v0', turn: 1, history: [{ speaker: 'bot', text: 'api_call x' }], info: { userAct: { act: 'thanks' } } }), 'Assistant: api_call x');
  // A section with a lazy view: refused until loaded, then its words; its prompt kept in code.
  let loads = 0;
  declareLlmSection(['mine-v1'], {
    testbed: 'mine',
    view: async () => {
      loads++;
      return { prompt: 'Say the word.', context: (id, obs) => `${id}: ${String((obs as { n: number }).n)} words`, goal: (g) => `- say ${String(g)}`, act: (a) => (a === undefined ? undefined : `say ${String(a)}.`), agentTurn: (t) => `Agent: ${t}` };
    },
  });
  assert.equal(promptFamily('mine-v1'), 'mine');
  assert.throws(() => llmSystemMessage({ env: 'mine-v1', observation: { n: 3 } }), /^ConfigError: mine-v1: the LLM section of testbed mine is not loaded yet \(await loadLlmSections\(\) first; import 'dialogym' does\)$/);
  await Promise.all([loadLlmSections(['mine-v1']), loadLlmSections(['mine-v1', 'unknown-v0'])]);
  assert.equal(loads, 1);
  assert.equal(llmSystemMessage({ env: 'mine-v1', observation: { n: 3 } }), 'Say the word.\n\n## Context\n\nmine-v1: 3 words');
  assert.equal(llmUserSystemMessage({ env: 'mine-v1', goal: 'apple' }, 'Be a user.'), 'Be a user.\n\n## Your goal\n\n- say apple');
  assert.equal(llmUserPrompt({ env: 'mine-v1', turn: 1, history: [{ speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'yes?' }], info: { userAct: 'apple' } }), 'Agent: yes?\n\n[Now: say apple.]');
  // The shipped testbeds' sections are declared from their descriptors (the restaurant's file wins over any view prompt).
  assert.equal(llmSectionOf('dstc6-task1-tst1-v2')?.prompt, 'dstc6.md');
  assert.equal(llmSectionOf('infobot-small-v1')?.userPrompt, undefined);
  // A copy of a loaded section for an id of one's own words its episodes at once (the view is loaded by its entry point).
  declareLlmSection(['my-restaurant-v0'], { ...llmSectionOf('restaurant-task5-v2')! });
  assert.equal(llmUserPrompt({ env: 'my-restaurant-v0', turn: 1, history: [{ speaker: 'bot', text: 'api_call x' }], info: { userAct: { act: 'thanks' } } }), '(The assistant searches its database.)\n\n[Now: thank the assistant.]');
});
