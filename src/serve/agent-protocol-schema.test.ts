/**
 * schemas/agent-protocol.schema.json describes what dialogym really sends and accepts: every request
 * of a run validates as `request`, every reply of dialogym's own agents as `reply`, on the
 * restaurant, AirDialogue and KB-InfoBot environments; malformed replies do not validate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchema } from '../formats/schema.js';
import '../testbeds/restaurant/online/babi.js';
import '../testbeds/dstc6/online.js';
import '../testbeds/airdialogue/index.js';
import { evaluateAgent, localTransport, type AgentTransport } from './env-server-eval.js';
import { createLocalAgent } from './env-server-agents.js';

test('agent protocol schema: the requests dialogym sends and its own agents\' replies validate', async () => {
  for (const [env, model] of [['restaurant-task5-v1', 'rules'], ['dstc6-task3-tst4-v1', 'rules'], ['airdialogue-v1', 'rules'], ['infobot-medium-v1', 'rule-soft']] as const) {
    const inner = localTransport(createLocalAgent(model));
    let requests = 0;
    const checked: AgentTransport = {
      act: async (req, timeoutMs) => {
        const ri = checkSchema('agent-protocol', JSON.parse(JSON.stringify(req)), '#/$defs/request');
        assert.equal(ri, undefined, `${env} request: ${ri?.reason}`);
        const reply = await inner.act(req, timeoutMs);
        const pi = checkSchema('agent-protocol', JSON.parse(JSON.stringify(reply)), '#/$defs/reply');
        assert.equal(pi, undefined, `${env} reply: ${pi?.reason}`);
        requests++;
        return reply;
      },
      close: () => inner.close(),
    };
    const { summary } = await evaluateAgent(checked, { env, episodes: 3, seed: 0 });
    assert.ok(requests >= 3, `${env}: ${requests} requests`);
    assert.equal(summary.episodes, 3);
  }
  assert.match(checkSchema('agent-protocol', { act: 'hi' }, '#/$defs/reply')?.reason ?? '', /missing "action"/);
  assert.match(checkSchema('agent-protocol', { action: 42 }, '#/$defs/reply')?.reason ?? '', /action/);
  assert.match(checkSchema('agent-protocol', { protocol: 'dialogym-agent/2', env: 'x', episode: 0, trial: 0, seed: 0, turn: 0, observation: {}, tools: [] }, '#/$defs/request')?.reason ?? '', /protocol/);
});
