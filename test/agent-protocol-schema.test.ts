/**
 * schemas/agent-protocol.schema.json describes what dialogym really sends and accepts: every request
 * of a run validates as `request`, every reply of dialogym's own agents as `reply`, on the
 * restaurant, AirDialogue and KB-InfoBot environments; malformed replies do not validate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchema } from '../src/formats/schema.js';
import '../src/testbeds/restaurant/online/babi.js';
import '../src/testbeds/dstc6/online.js';
import '../src/testbeds/airdialogue/index.js';
import '../src/builtin-agents/index.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { localTransport, type AgentTransport } from '../src/agents/agent.js';
import { createAgent } from '../src/agents/registry.js';

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
