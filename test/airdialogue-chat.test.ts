/**
 * AirChat: a person talking to the learned AirDialogue models. The model turns a person gets are
 * the self-play policies' turns (a scripted person saying what the other learned model said in a
 * self-play episode gets exactly that episode's answers, action and score), normalisation, the end
 * commands, the scorer at the end and the errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Episode } from '../src/testbeds/airdialogue/env.js';
import { episodeSeed } from '../src/testbeds/airdialogue/env.js';
import { scoreAction } from '../src/testbeds/airdialogue/scorer.js';
import { learnedAgent, learnedCustomer, learnedSelfPlay } from '../src/testbeds/airdialogue/learned/policy.js';
import { tokenizeText } from '../src/testbeds/airdialogue/learned/tokens.js';
import { synthesizeSplits } from '../src/testbeds/airdialogue/learned/data.js';
import { AirChat, contextOfExample, describeIntent, describeKb, detokenize, normalizeUtterance, parseEndCommand } from '../src/testbeds/airdialogue/chat/chat.js';
import { InputError } from '../src/core/errors.js';
import { randomAirModels, tinyAirModels } from './airdialogue-chat-fixture.js';
import type { AirModels } from '../src/testbeds/airdialogue/learned/train.js';

const models = tinyAirModels();
const both: ReadonlyArray<[string, AirModels]> = [
  ['trained', models],
  ['untrained', randomAirModels()],
];

function episode(m: AirModels, seed: number): Episode {
  let e: Episode | undefined;
  learnedSelfPlay({ agent: learnedAgent(m), customer: learnedCustomer(m), n: 1, seed, onResult: (x) => (e = x) });
  return e as Episode;
}

const words = (s: string) => tokenizeText(s).join(' ');

test('playing the customer: the learned agent answers as in self-play, acts, and the action is scored', () => {
  let compared = 0;
  for (const [kind, m] of both) {
    for (const seed of [1, 2]) {
      const e = episode(m, seed);
      const chat = new AirChat(m, { role: 'customer', seed: episodeSeed(seed, 0) });
      assert.deepEqual(chat.context, e.context, 'the context of self-play episode seed n');
      assert.equal(chat.turns.length, 0, 'the customer opens');
      const customerTurns = e.dialogue.filter((t) => t.speaker === 'user').map((t) => t.text);
      const agentTurns = e.dialogue.filter((t) => t.speaker === 'bot').map((t) => t.text);
      if (customerTurns.some((t) => t === '') || e.truncated) continue; // a person cannot say nothing
      customerTurns.forEach((text, i) => {
        assert.equal(chat.end, null);
        const step = chat.say(text);
        assert.deepEqual(step.turns.map((t) => t.speaker), ['customer', 'agent']);
        assert.equal(words(step.turns[1]!.text), words(agentTurns[i]!), `${kind}: agent turn ${i} of episode seed ${seed}`);
      });
      assert.ok(chat.end, 'the learned agent ended the dialogue');
      assert.deepEqual(chat.end.action, e.action);
      assert.deepEqual(chat.end.score, e.score);
      assert.deepEqual(chat.end.expected, e.context.expected);
      compared++;
    }
  }
  assert.ok(compared >= 2, `${compared} episodes compared`);
});

test('playing the agent: the learned customer opens and answers as in self-play; /book ends it with the scorer', () => {
  for (const [kind, m] of both) {
    const e = episode(m, 3);
    const chat = new AirChat(m, { role: 'agent', seed: episodeSeed(3, 0), maxTurns: 100 });
    const customerTurns = e.dialogue.filter((t) => t.speaker === 'user').map((t) => t.text);
    const agentTurns = e.dialogue.filter((t) => t.speaker === 'bot').map((t) => t.text);
    assert.equal(chat.turns.length, 1);
    assert.equal(words(chat.turns[0]!.text), words(customerTurns[0]!));
    let compared = 0;
    for (let i = 0; i < Math.min(agentTurns.length, customerTurns.length - 1, 4) && agentTurns[i] !== ''; i++, compared++) {
      const step = chat.say(agentTurns[i]!);
      assert.equal(words(step.turns[1]!.text), words(customerTurns[i + 1]!), `${kind}: customer turn ${i + 1}`);
    }
    assert.ok(compared >= 1, `${kind}: no agent turn to replay`);
    const kb = chat.context.kb;
    const flight = kb.kb[2]!.flight_number;
    const end = chat.say(`/book ${flight}   ${chat.context.intent.name}`);
    assert.equal(end.turns.length, 1);
    assert.equal(end.turns[0]!.text, `(book flight ${flight} for ${chat.context.intent.name})`);
    assert.ok(end.end);
    assert.deepEqual(end.end.action, { status: 'book', name: chat.context.intent.name, flight: [flight] });
    assert.deepEqual(end.end.score, scoreAction(end.end.action!, chat.context.expected, kb));
    assert.throws(() => chat.say('hello again'), (x: unknown) => x instanceof InputError && /the dialogue is over/.test(x.message));
  }
});

test('the expected action scores 1; a wrong status loses the action weight', () => {
  for (let seed = 0; seed < 40; seed++) {
    const chat = new AirChat(models, { role: 'agent', seed });
    const x = chat.context.expected;
    if (x.flight.length > 1) continue;
    const r = chat.act({ ...x });
    assert.equal(r.end?.score.total, 1, `seed ${seed}: ${JSON.stringify(x)}`);
    const other = new AirChat(models, { role: 'agent', seed });
    const wrong = x.status === 'cancel' ? 'no_reservation' : 'cancel';
    assert.ok(Math.abs(other.act({ status: wrong, name: x.name, flight: [] }).end!.score.action) < 1e-12);
  }
});

test('same seed → same conversation; another seed → another context; views show one side', () => {
  const a = new AirChat(models, { role: 'agent', seed: 9 });
  const b = new AirChat(models, { role: 'agent', seed: 9 });
  for (const u of ['may i have your name?', 'where do you fly?']) assert.deepEqual(a.say(u), b.say(u));
  assert.notDeepEqual(new AirChat(models, { role: 'agent', seed: 10 }).context, a.context);
  const v = a.view();
  assert.ok('kb' in v.context && !('intent' in v.context));
  assert.equal(v.end, null);
  const c = new AirChat(models, { role: 'customer', seed: 9 }).view();
  assert.ok('intent' in c.context && !('kb' in c.context));
  assert.deepEqual(c.turns, []);
});

test('people’s text is normalised, not refused; long text cut; empty text an InputError', () => {
  assert.equal(normalizeUtterance('  I leave Sep. 12th\tand return 14 september!  '), 'I leave Sept 12 and return 14 Sept!');
  assert.equal(normalizeUtterance('budget $1,000.50, nonstop'), 'budget 1000 dollars, non-stop');
  assert.equal(normalizeUtterance('may i know your name?'), 'may i know your name?');
  assert.equal(normalizeUtterance('x'.repeat(50), 10), 'x'.repeat(10));
  assert.equal(normalizeUtterance('\u0000\u0007 '), '');
  assert.equal(detokenize("i ' m flying from dfw ( dallas ) to iad . thanks , bye"), "I'm flying from dfw (dallas) to iad. Thanks, bye");
  assert.equal(detokenize('this is jack diaz , from dfw on feb 5 . may i', ['Jack Diaz', 'DFW', 'LAS']), 'This is Jack Diaz, from DFW on Feb 5. May I');
  assert.equal(detokenize('so the price of las is jack price , jackdiaz dfwx', ['DFW', 'Jack Diaz', 'Jack Price']), 'So the price of las is Jack Price, jackdiaz dfwx');
  const chat = new AirChat(models, { role: 'customer', seed: 4, maxTextLength: 41 });
  const s = chat.say('Hello!!! I need a flight on June 12th, my budget is $500 ' + 'and more '.repeat(20));
  assert.equal(s.turns[0]!.text, 'Hello!!! I need a flight on June 12th, my');
  assert.equal(s.turns[0]!.heard, 'Hello!!! I need a flight on June 12, my');
  assert.throws(() => chat.say('   '), (x: unknown) => x instanceof InputError && x.message === 'empty message');
  assert.throws(() => chat.act({ status: 'book', name: 'x', flight: [1000] }), /only the agent ends the dialogue/);
});

test('end commands: parsed, and a bad one explained', () => {
  assert.deepEqual(parseEndCommand('/book 1004 Emily  Edwards'), { status: 'book', name: 'Emily Edwards', flight: [1004] });
  assert.deepEqual(parseEndCommand('/no-flight Jo Lee'), { status: 'no_flight', name: 'Jo Lee', flight: [] });
  assert.deepEqual(parseEndCommand('/cancel'), { status: 'cancel', name: '', flight: [] });
  assert.equal(parseEndCommand('/history'), undefined);
  assert.equal(parseEndCommand('book 1004'), undefined);
  assert.throws(() => parseEndCommand('/change Emily'), /\/change needs a flight number from the table/);
  const chat = new AirChat(models, { role: 'agent', seed: 5 });
  assert.throws(() => chat.say('/book 99 Jo Lee'), (x: unknown) => x instanceof InputError && x.message === 'flight 99 is not in the table');
  assert.throws(() => chat.act({ status: 'fly', name: '', flight: [] }), /unknown action 'fly'/);
  assert.equal(chat.end, null, 'a refused action does not end the dialogue');
});

test('the turn limit ends the dialogue unscored; a data-file context is played as given', () => {
  const chat = new AirChat(models, { role: 'agent', seed: 6, maxTurns: 4 });
  chat.say('hello');
  const s = chat.say('your name?');
  assert.equal(chat.turns.length, 4);
  assert.ok(s.end?.truncated);
  assert.equal(s.end.action, null);
  assert.equal(s.end.score.total, 0);
  const [ex] = synthesizeSplits({ train: 1, dev: 0, test: 0, seed: 8 }).train;
  const given = new AirChat(models, { role: 'customer', context: contextOfExample(ex!) });
  assert.deepEqual(given.context.expected, ex!.data.expected_action);
  assert.match(describeIntent(ex!.data.intent)[0]!, new RegExp(`^You are ${ex!.data.intent.name}\\. Goal: `));
  const kbLines = describeKb(ex!.kb);
  assert.equal(kbLines.length, 2 + ex!.kb.kb.length);
  assert.match(kbLines[2]!, new RegExp(`^  ${ex!.kb.kb[0]!.flight_number}  `));
});
