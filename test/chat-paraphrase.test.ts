/**
 * The chat understands people: paraphrased booking requests written by hand
 * (test/fixtures/paraphrases.tsv: varied wording, slots in any order, digits or words, fillers,
 * emoji and odd punctuation, single and multi-turn, changes of mind) are replayed through a chat
 * `Session` on a generated bAbI KB, and the last api_call of each dialog is compared with the call
 * the person meant (written with the request, not taken from a bot). The rules bot and an HCN
 * trained on generated task-5 dialogs must each get at least 95 % right; failures are printed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRng } from '../src/core/rng.js';
import { chatModelOf, type ChatModel } from '../src/testbeds/restaurant/chat/chat-model.js';
import { Session } from '../src/testbeds/restaurant/chat/session.js';
import { generateRestaurants, MemoryKbStore } from '../src/testbeds/restaurant/kb.js';
import { BABI_KB, restaurantsToKbFacts } from '../src/testbeds/restaurant/kb-dialects.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import { trainTinyHcn } from './tiny-hcn.js';
import { paraphraseReport, readParaphrases, replayParaphrases } from './paraphrases.js';

const store = new MemoryKbStore(generateRestaurants(createRng(1)));
const facts = restaurantsToKbFacts(store.all(), BABI_KB);
const cases = readParaphrases();

function check(name: string, model: ChatModel): number {
  const r = replayParaphrases(model, { store, dialect: BABI_KB }, cases);
  for (const l of paraphraseReport(name, r)) console.log(l);
  return r.correct / r.total;
}

test('the fixture holds at least 200 hand-written requests, single and multi-turn, with KB values only', () => {
  assert.ok(cases.length >= 250, `${cases.length} cases`);
  assert.ok(cases.filter((c) => c.turns.length === 1).length >= 80);
  assert.ok(cases.filter((c) => c.turns.length >= 3).length >= 60);
  const values = new Set(facts.map((f) => f.value));
  for (const c of cases) for (const v of c.call.split(' ').slice(1)) assert.ok(values.has(v), `line ${c.line}: ${v} is not a KB value`);
});

test('rules bot: at least 95 % of the paraphrased requests give the meant api_call', () => {
  const rate = check('rules', chatModelOf(createRulesBot({ kb: facts })));
  assert.ok(rate >= 0.95, `rules: ${(100 * rate).toFixed(1)} %`);
});

test('hcn trained on generated task-5 dialogs: at least 95 % of the paraphrased requests give the meant api_call', () => {
  const { model } = trainTinyHcn(facts);
  const rate = check('hcn', chatModelOf(model));
  assert.ok(rate >= 0.95, `hcn: ${(100 * rate).toFixed(1)} %`);
});

/**
 * The dialog of issue 19 (REPL and web UI, rules): `in an expensive price range please` made `an`
 * a location (`api_call italian an four`), `book for 4 people` was not understood, and `no` to a
 * proposal repeated the same api_call and restaurant. Here with `indian` (the generated KB has five
 * indian restaurants in rome for four in the expensive range, so a next option exists).
 */
function issueDialog(model: ChatModel): void {
  const s = new Session('issue', model, { store, dialect: BABI_KB });
  const say = (t: string): string[] => s.send(t).replies.filter((r) => r.kind !== 'kb').map((r) => r.text);
  say('hi 👋');
  say('can you book a table in rome with indian food…');
  const price = say('in an expensive price range please');
  assert.ok(!price.some((t) => t.startsWith('api_call')), price.join(' / '));
  const search = say('book for 4 people');
  assert.equal(search.find((t) => t.startsWith('api_call')), 'api_call indian rome four expensive');
  const first = search.at(-1) as string;
  assert.match(first, /^what do you think of this option: resto_rome_expensive_indian_\dstars$/);
  const next = say('no');
  assert.ok(!next.some((t) => t.startsWith('api_call')), `no new api_call: ${next.join(' / ')}`);
  const second = next.at(-1) as string;
  assert.match(second, /^what do you think of this option: resto_rome_expensive_indian_\dstars$/);
  assert.notEqual(second, first);
  const third = say('something else?').at(-1) as string;
  assert.ok(third !== first && third !== second, third);
  assert.deepEqual(say('yes please 🙂'), ['great let me do the reservation']);
  assert.deepEqual(say('what is the address?'), [`here it is ${third.split(': ')[1]}_address`]);
  // The transcript keeps what the person wrote; the models read the normalised text.
  const t = s.transcript().turns.filter((x) => x.speaker === 'user' && x.text !== '<SILENCE>');
  assert.deepEqual(t[3], { speaker: 'user', text: 'book for 4 people', read: 'book for four people' });
  assert.deepEqual(t[0], { speaker: 'user', text: 'hi 👋', read: 'hi' });
}

test("issue 19's dialog with the rules bot: no `an` location, `4 people` read, `no` moves to the next option", () => {
  issueDialog(chatModelOf(createRulesBot({ kb: facts })));
});

test("issue 19's dialog with the hcn", () => {
  issueDialog(chatModelOf(trainTinyHcn(facts).model));
});
