/**
 * schemas/agent-protocol.schema.json describes what dialogym really sends and accepts: every request
 * of a run validates as `request`, every reply of dialogym's own agents as `reply`, on the
 * restaurant, AirDialogue and KB-InfoBot environments; malformed replies do not validate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchema } from '../src/formats/schema.js';
import '../src/index.js'; // every testbed, loaded
import { evaluate } from '../src/evaluation/evaluate.js';
import { localTransport, type AgentTransport } from '../src/agents/agent.js';
import { createAgent } from '../src/agents/registry.js';
import { AgentError, readAgentReply } from '../src/agents/protocol.js';

test('agent protocol schema: the requests dialogym sends and its own agents\' replies validate', async () => {
  for (const [env, model] of [['restaurant-task5-v1', 'rules'], ['dstc6-task3-tst4-v1', 'rules'], ['airdialogue-v1', 'rules'], ['infobot-medium-v1', 'rule-soft']] as const) {
    const inner = localTransport(createAgent(model)).connect(0);
    let requests = 0;
    const checked: AgentTransport = {
      name: 'schema-checked',
      connect: () => ({
        send: async (req, timeoutMs) => {
          const ri = checkSchema('agent-protocol', JSON.parse(JSON.stringify(req)), '#/$defs/request');
          assert.equal(ri, undefined, `${env} request: ${ri?.reason}`);
          const reply = await inner.send(req, timeoutMs);
          const pi = checkSchema('agent-protocol', JSON.parse(JSON.stringify(reply)), '#/$defs/reply');
          assert.equal(pi, undefined, `${env} reply: ${pi?.reason}`);
          requests++;
          return reply;
        },
        close: () => inner.close(),
      }),
    };
    const { summary } = await evaluate(env, checked, { episodes: 3, seed: 0 });
    assert.ok(requests >= 3, `${env}: ${requests} requests`);
    assert.equal(summary.episodes, 3);
  }
  assert.match(checkSchema('agent-protocol', { act: 'hi' }, '#/$defs/reply')?.reason ?? '', /missing "action"/);
  assert.match(checkSchema('agent-protocol', { action: 42 }, '#/$defs/reply')?.reason ?? '', /action/);
  assert.match(checkSchema('agent-protocol', { protocol: 'dialogym-agent/2', env: 'x', episode: 0, trial: 0, seed: 0, turn: 0, observation: {}, tools: [] }, '#/$defs/request')?.reason ?? '', /protocol/);
});

test('the reply schema and readAgentReply agree on the turn echo: the request\'s turn or nothing', () => {
  const accepts = (reply: unknown): boolean => {
    try {
      readAgentReply(reply, [], 2);
      return true;
    } catch (e) {
      if (e instanceof AgentError) return false;
      throw e;
    }
  };
  for (const reply of [{ action: 'hi' }, { action: 'hi', turn: 2 }, { action: 'hi', turn: 3 }, { action: 'hi', turn: '2' }, { action: 'hi', turn: -1 }, { action: 'hi', turn: 2.5 }]) {
    const schemaOk = checkSchema('agent-protocol', reply, '#/$defs/reply') === undefined;
    // A schema-valid reply with another turn is well formed but late: the checker refuses it as a turn mismatch.
    const late = schemaOk && reply.turn !== undefined && reply.turn !== 2;
    assert.equal(accepts(reply), schemaOk && !late, JSON.stringify(reply));
  }
});
