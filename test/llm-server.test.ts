/** The local OpenAI-compatible test server refuses what the real API refuses (the LLM tests rely on it). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestProblem, startLlmTestServer } from './llm-server.js';

const tool = (parameters: unknown, name = 'api_call') => ({ type: 'function', function: { name, description: 'd', parameters } });
const OBJ = { type: 'object', properties: { cuisine: { type: 'string', enum: ['thai'] } }, required: ['cuisine'], additionalProperties: false };
const call = (id: string) => ({ id, type: 'function', function: { name: 'api_call', arguments: '{"cuisine":"thai"}' } });
const ok = { model: 'm', messages: [{ role: 'system', content: 'p' }, { role: 'user', content: 'hi' }], tools: [tool(OBJ)], temperature: 0 };

test('valid requests pass: text, tool calls answered by tool messages, content parts', () => {
  assert.equal(requestProblem(ok), undefined);
  const messages = [...ok.messages, { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] }, { role: 'tool', tool_call_id: 'b', content: 'x' }, { role: 'tool', tool_call_id: 'a', content: 'ok' }, { role: 'user', content: [{ type: 'text', text: 'hi' }] }];
  assert.equal(requestProblem({ ...ok, messages }), undefined);
});

test('what the real API refuses is refused, with its message', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ ...ok, model: undefined }, /you must provide a model parameter/],
    [{ ...ok, temprature: 0 }, /Unrecognized request argument supplied: temprature/],
    [{ ...ok, temperature: 3 }, /temperature/],
    [{ ...ok, messages: [] }, /messages.*empty array/],
    [{ ...ok, messages: [{ role: 'bot', content: 'x' }] }, /Invalid value: 'bot'\. Supported values are/],
    [{ ...ok, messages: [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'a', content: 'x' }] }, /role 'tool' must be a response to a preceeding message with 'tool_calls'/],
    [{ ...ok, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call('a')] }, { role: 'tool', tool_call_id: 'b', content: 'x' }] }, /must be a response to a preceeding message/],
    [{ ...ok, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call('a')] }, { role: 'user', content: 'x' }] }, /did not have response messages: a/],
    [{ ...ok, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call('a')] }] }, /did not have response messages: a/],
    [{ ...ok, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null }] }, /expected a string, got null/],
    [{ ...ok, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'api_call', arguments: {} } }] }] }, /tool_calls\[0\]/],
    [{ ...ok, messages: [{ role: 'user', content: 7 }] }, /Invalid type for 'messages\[0\]\.content'/],
    [{ ...ok, tools: [tool({ type: 'object', properties: { a: { type: 'strin' } } })] }, /Invalid schema for function 'api_call'/],
    [{ ...ok, tools: [tool({ type: 'string' })] }, /schema must be a JSON Schema of 'type: "object"'/],
    [{ ...ok, tools: [tool(OBJ, 'api call')] }, /function\.name/],
    [{ ...ok, tools: [] }, /tools.*empty array/],
    ['not an object', /could not parse the JSON body/],
  ];
  for (const [body, want] of cases) assert.match(requestProblem(body) ?? 'accepted', want, JSON.stringify(body).slice(0, 200));
});

test('over HTTP: a 400 with the API error body; faults: 429 with its headers, 500, a cut body', async () => {
  const server = await startLlmTestServer({ faults: (n) => (n === 2 ? { status: 429, retryAfterMs: 5, retryAfter: '1' } : n === 3 ? { status: 500 } : n === 4 ? { truncate: true } : undefined) });
  try {
    const post = (body: unknown) => fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const r1 = await post({ ...ok, model: '' });
    assert.equal(r1.status, 400);
    assert.deepEqual(((await r1.json()) as { error: { message: string; type: string } }).error.type, 'invalid_request_error');
    const r2 = await post(ok);
    assert.equal(r2.status, 429);
    assert.equal(r2.headers.get('retry-after-ms'), '5');
    assert.equal(r2.headers.get('retry-after'), '1');
    assert.equal((await post(ok)).status, 500);
    const r4 = await post(ok);
    await assert.rejects(r4.text());
    const r5 = await post(ok);
    const c = (await r5.json()) as { choices: Array<{ message: { content: string } }>; usage: { prompt_tokens: number } };
    assert.equal(c.choices[0]?.message.content, 'hello what can i help you with today');
    assert.ok(c.usage.prompt_tokens > 0);
    assert.equal(server.stats.requests, 5);
    assert.equal(server.stats.rejected.length, 1);
  } finally {
    await server.close();
  }
});
