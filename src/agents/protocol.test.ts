import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentError, readAgentReply } from './protocol.js';
import type { ToolSpec } from '../env/env.js';

const tools: ToolSpec[] = [
  {
    type: 'function',
    function: { name: 'inform', description: 'rows', parameters: { type: 'object', properties: { results: { type: 'array', items: { type: 'integer' } } }, required: ['results'], additionalProperties: false } },
  },
];

function reason(raw: unknown, turn?: number): string {
  try {
    readAgentReply(raw, tools, turn);
    return 'ok';
  } catch (e) {
    return e instanceof AgentError ? `${e.reason}: ${e.message}` : 'other';
  }
}

test('readAgentReply: an echoed turn must be the request\'s; a reply nested deeper than 64 levels is refused before anything stringifies it', () => {
  assert.equal(reason('{"action":"hi","turn":3}', 3), 'ok');
  assert.equal(reason('{"action":"hi"}', 3), 'ok');
  assert.equal(reason('{"action":"hi","turn":2}', 3), "turn mismatch: the reply is for turn 2, the request was turn 3 (did the agent write an extra reply line?)");
  assert.equal(reason('{"action":"hi","turn":"3"}', 3).split(':')[0], 'turn mismatch');
  assert.equal(reason({ action: { tool: 'inform', arguments: { results: [1, 'x'] } } }), 'bad arguments: inform: arguments.results[1] must be an integer');
  const deep = '{"action":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
  assert.equal(reason(deep, 0), "invalid json: the agent's reply is nested deeper than 64 levels");
  assert.equal(reason(JSON.stringify({ action: { a: [[[[[[1]]]]]] } })), 'ok');
});
