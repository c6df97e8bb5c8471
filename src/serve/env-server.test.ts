import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../testbeds/restaurant/online/babi.js';
import '../testbeds/infobot/index.js';
import { createEnvServer } from './env-server.js';
import { rulesBotForTools } from '../builtin-agents/restaurant.js';
import type { ToolSpec } from '../testbeds/env.js';

test('env-server: list envs with tools, create a session, play an episode with the rule bot', async () => {
  const server = createEnvServer();
  try {
    const list = await server.app.inject({ method: 'GET', url: '/envs' });
    assert.equal(list.statusCode, 200);
    const body = list.json() as { protocol: string; envs: Array<{ id: string; tools: ToolSpec[] }> };
    assert.equal(body.protocol, 'dialogym-agent/1');
    const t5 = body.envs.find((e) => e.id === 'restaurant-task5-v1');
    assert.equal(t5?.tools[0]?.function.name, 'api_call');
    assert.deepEqual(body.envs.find((e) => e.id === 'infobot-small-v1')?.tools.map((t) => t.function.name), ['request', 'inform']);

    const created = await server.app.inject({ method: 'POST', url: '/envs/restaurant-task5-v1', payload: { options: { maxTurns: 60 } } });
    assert.equal(created.statusCode, 201);
    const { session, tools } = created.json() as { session: string; tools: ToolSpec[] };
    const bot = rulesBotForTools(tools);
    let r = (await server.app.inject({ method: 'POST', url: `/sessions/${session}/reset`, payload: { seed: 7 } })).json() as { observation: { history: [] } };
    let steps = 0;
    for (;;) {
      const res = await server.app.inject({ method: 'POST', url: `/sessions/${session}/step`, payload: { action: bot.respond(r.observation.history) } });
      assert.equal(res.statusCode, 200, res.body);
      const s = res.json() as { observation: { history: [] }; reward: number; terminated: boolean; truncated: boolean; info: { success: number } };
      steps++;
      if (s.terminated || s.truncated) {
        assert.equal(s.reward, 1);
        assert.equal(s.info.success, 1);
        break;
      }
      r = s;
    }
    assert.ok(steps > 10);
    // Stepping a finished episode: 409; deleting the session: 204, then 404.
    const again = await server.app.inject({ method: 'POST', url: `/sessions/${session}/step`, payload: { action: 'hi' } });
    assert.equal(again.statusCode, 409);
    assert.match((again.json() as { error: string }).error, /call reset/);
    assert.equal((await server.app.inject({ method: 'DELETE', url: `/sessions/${session}` })).statusCode, 204);
    assert.equal((await server.app.inject({ method: 'POST', url: `/sessions/${session}/reset`, payload: {} })).statusCode, 404);
  } finally {
    await server.close();
  }
});

test('env-server errors: JSON bodies with 400/404/413/415/503, and idle sessions expire', async () => {
  const server = createEnvServer({ maxSessions: 1, bodyLimit: 512, idleMs: 200 });
  try {
    const err = async (method: 'GET' | 'POST', url: string, payload?: string, type = 'application/json'): Promise<[number, string]> => {
      const res = await server.app.inject({ method, url, ...(payload !== undefined ? { payload, headers: { 'content-type': type } } : {}) });
      return [res.statusCode, (res.json() as { error: string }).error];
    };
    assert.deepEqual(await err('POST', '/envs/nope-v1', '{}'), [404, "unknown environment 'nope-v1'"]);
    const [s400, m400] = await err('POST', '/envs/restaurant-task1-v1', '{"options":');
    assert.equal(s400, 400);
    assert.match(m400, /invalid JSON|JSON/);
    assert.equal((await err('POST', '/envs/restaurant-task1-v1', 'x'.repeat(600)))[0], 413);
    assert.equal((await err('POST', '/envs/restaurant-task1-v1', 'hello', 'text/plain'))[0], 415);
    // Options belong inside "options", and a misspelt one is named, not ignored.
    assert.deepEqual(await err('POST', '/envs/restaurant-task1-v1', '{"maxTurns":40}'), [400, 'unknown field "maxTurns": the body is {"options": {…}}, environment options go inside "options"']);
    assert.deepEqual(await err('POST', '/envs/restaurant-task1-v1', '{"options":{"maxturns":40}}'), [400, 'restaurant-task1-v1: unknown option "maxturns" (its options: maxTurns, seed, restaurants, kbSeed)']);
    assert.deepEqual(await err('POST', '/envs/infobot-small-v1', '{"options":{"split":"large"}}'), [400, 'infobot-small-v1: unknown option "split" (its options: kbSeed, kbs, missing, user, temperature, seed)']);
    const ok = await server.app.inject({ method: 'POST', url: '/envs/restaurant-task1-v1', payload: {} });
    assert.equal(ok.statusCode, 201);
    const sid = (ok.json() as { session: string }).session;
    assert.deepEqual(await err('POST', '/envs/restaurant-task1-v1', '{}'), [503, 'too many sessions (limit 1)']);
    assert.deepEqual(await err('POST', `/sessions/${sid}/reset`, '{"seed":"x"}'), [400, '"seed" must be an integer, got "x"']);
    assert.deepEqual(await err('POST', `/sessions/${sid}/reset`, '{"seed":1,"sed":2}'), [400, 'unknown field "sed"']);
    assert.deepEqual(await err('POST', `/sessions/${sid}/reset`, '[1]'), [400, 'expected the body of POST /sessions/{sid}/reset (an object), got [1]']);
    assert.equal((await server.app.inject({ method: 'POST', url: `/sessions/${sid}/reset`, payload: { seed: 1 } })).statusCode, 200);
    assert.deepEqual(await err('POST', `/sessions/${sid}/step`, '{}'), [400, 'missing "action"']);
    const [s, m] = await err('POST', `/sessions/${sid}/step`, JSON.stringify({ action: { tool: 'fly', arguments: {} } }));
    assert.equal(s, 400);
    assert.match(m, /unknown tool 'fly'/);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await err('POST', `/sessions/${sid}/step`, '{"action":"hi"}'), [404, `unknown or expired session '${sid}'`]);
    assert.equal(server.size, 0);
  } finally {
    await server.close();
  }
});
