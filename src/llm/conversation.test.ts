import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LlmClient } from './client/client.js';
import { CONTEXT_HEADING, LlmConversation, LlmTurnFailure, systemMessage, type ToolLike } from './conversation.js';
import { startStub, type Step } from './client/testing/stub-server.js';

const API_CALL: ToolLike = { type: 'function', function: { name: 'api_call', description: 'd', parameters: { type: 'object', properties: { cuisine: { type: 'string' } }, required: ['cuisine'] } } };
const BOOK: ToolLike = { type: 'function', function: { name: 'book', description: 'd', parameters: { type: 'object', properties: { name: { type: 'string' }, flight: { type: 'integer' }, utterance: { type: 'string' } } } } };
const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

async function play(script: Step[], f: (c: LlmConversation) => Promise<void>): Promise<Array<Record<string, unknown>>> {
  const stub = await startStub(script);
  try {
    await f(new LlmConversation(new LlmClient({ model: 'm', baseUrl: stub.url, maxRetries: 0 })));
    return stub.received.map((r) => r.body);
  } finally {
    await stub.close();
  }
}

test('system message: the prompt, then the context under its heading', () => {
  assert.equal(systemMessage('You book tables.\n', undefined), 'You book tables.');
  assert.equal(systemMessage('You book tables.', 'a R_phone b'), `You book tables.\n\n${CONTEXT_HEADING}\n\na R_phone b`);
});

test('utterances are user messages, a tool call is the action and its KB lines the tool message answering it; usage adds up', async () => {
  const actions: unknown[] = [];
  let usage;
  const bodies = await play(
    [{ reply: { content: 'any preference on a type of cuisine' }, usage: [10, 2] }, { reply: { tool_calls: [call('c1', 'api_call', '{"cuisine":"thai"}')] }, usage: [20, 5] }, { reply: { content: 'what do you think of this option: r1' }, usage: [30, 4] }, { reply: { tool_calls: [call('c2', 'api_call', '{"cuisine":"thai"}')] } }, { reply: { content: 'sure' } }],
    async (c) => {
      c.begin(systemMessage('P', undefined));
      c.observe({ utterance: 'hello', kb: [] });
      actions.push(await c.act([API_CALL], 0));
      c.observe({ utterance: 'thai food', kb: [] });
      actions.push(await c.act([API_CALL], 1));
      c.observe({ utterance: '<SILENCE>', kb: ['r1 R_rating 5', 'r1 R_phone p1'] });
      actions.push(await c.act([API_CALL], 2));
      c.observe({ utterance: 'no', kb: [] });
      actions.push(await c.act([API_CALL], 3));
      c.observe({ utterance: 'instead thai', kb: [] });
      actions.push(await c.act([API_CALL], 4));
      usage = c.usage;
    },
  );
  assert.deepEqual(actions, ['any preference on a type of cuisine', { tool: 'api_call', arguments: { cuisine: 'thai' } }, 'what do you think of this option: r1', { tool: 'api_call', arguments: { cuisine: 'thai' } }, 'sure']);
  assert.deepEqual(usage, { requests: 5, tokensIn: 80, tokensOut: 15 });
  assert.deepEqual(bodies[4]?.['messages'], [
    { role: 'system', content: 'P' },
    { role: 'user', content: 'hello' },
    { role: 'assistant', content: 'any preference on a type of cuisine' },
    { role: 'user', content: 'thai food' },
    { role: 'assistant', content: null, tool_calls: [call('c1', 'api_call', '{"cuisine":"thai"}')] },
    { role: 'tool', tool_call_id: 'c1', content: 'r1 R_rating 5\nr1 R_phone p1' },
    { role: 'user', content: '<SILENCE>' },
    { role: 'assistant', content: 'what do you think of this option: r1' },
    { role: 'user', content: 'no' },
    { role: 'assistant', content: null, tool_calls: [call('c2', 'api_call', '{"cuisine":"thai"}')] },
    { role: 'tool', tool_call_id: 'c2', content: 'ok' },
    { role: 'user', content: 'instead thai' },
  ]);
  assert.deepEqual(bodies[0]?.['tools'], [API_CALL]);
});

test('several tool calls: the first is the action, the others dropped; text beside a call fills its missing utterance', async () => {
  const actions: unknown[] = [];
  let dropped = 0;
  const bodies = await play([{ reply: { content: 'Booked, have a nice trip.', tool_calls: [call('a', 'book', '{"name":"Ann Lee","flight":1004}'), call('b', 'book', '{"name":"Ann Lee","flight":1005}')] } }], async (c) => {
    c.begin('P');
    c.observe({ utterance: 'book me 1004' });
    actions.push(await c.act([BOOK], 0));
    dropped = c.droppedCalls;
    c.observe({ utterance: 'next' });
    await c.act([BOOK], 1);
  });
  assert.deepEqual(actions, [{ tool: 'book', arguments: { name: 'Ann Lee', flight: 1004, utterance: 'Booked, have a nice trip.' } }]);
  assert.equal(dropped, 1);
  assert.deepEqual((bodies[1]?.['messages'] as unknown[]).slice(2, 4), [{ role: 'assistant', content: 'Booked, have a nice trip.', tool_calls: [call('a', 'book', '{"name":"Ann Lee","flight":1004}')] }, { role: 'tool', tool_call_id: 'a', content: 'ok' }]);
});

test('replies that give no action fail the turn with the reason counted in summaries', async () => {
  const failure = async (step: Step): Promise<LlmTurnFailure> => {
    let got: unknown;
    await play([step], async (c) => {
      c.begin('P');
      c.observe({ utterance: 'hi' });
      got = await c.act([API_CALL], 0).catch((e: unknown) => e);
    });
    assert.ok(got instanceof LlmTurnFailure, String(got));
    return got;
  };
  assert.equal((await failure({ reply: { content: '  ' } })).reason, 'no action');
  assert.match((await failure({ reply: { content: null, refusal: 'I cannot help' } })).message, /the model refused: I cannot help/);
  assert.equal((await failure({ reply: { content: 'where should it' }, finish: 'length' })).reason, 'llm truncated');
  const bad = await failure({ reply: { tool_calls: [call('x', 'api_call', '{"cuisine":')] } });
  assert.equal(bad.reason, 'bad arguments');
  assert.match(bad.message, /^api_call: the arguments are not JSON/);
  assert.equal((await failure({ reply: { tool_calls: [call('x', 'api_call', '[1]')] } })).reason, 'bad arguments');
});

test('KB lines answering an api_call written as text come as a user message of their own', async () => {
  const bodies = await play([{ reply: { content: 'api_call thai' } }, { reply: { content: 'ok' } }], async (c) => {
    c.begin('P');
    c.observe({ utterance: 'hi' });
    await c.act([API_CALL], 0);
    c.observe({ utterance: '<SILENCE>', kb: ['r1 R_rating 5'] });
    await c.act([API_CALL], 1);
  });
  assert.deepEqual((bodies[1]?.['messages'] as unknown[]).slice(2), [{ role: 'assistant', content: 'api_call thai' }, { role: 'user', content: 'r1 R_rating 5' }, { role: 'user', content: '<SILENCE>' }]);
});
