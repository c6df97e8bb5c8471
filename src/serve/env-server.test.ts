import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../index.js'; // every testbed, loaded
import { createEnvServer } from './env-server.js';
import { rulesBotForTools } from '../testbeds/restaurant/agents.js';
import { envs, type ToolSpec } from '../env/env.js';
import { talker } from '../env/testing/talker.js';
import { EnvSession } from './env-session.js';

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
    assert.deepEqual(await err('POST', '/envs/restaurant-task1-v1', '{"options":{"maxturns":40}}'), [400, 'restaurant-task1-v1: unknown option "maxturns" (its options: maxTurns, seed, restaurants, kbSeed, userStyle)']);
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

test('env-server: expired sessions are dropped before the limit is checked (issue 41: a third session got 503 until the sweep)', async () => {
  let now = 0;
  // The sweep timer never fires within the test (an hour): only the check at creation can make room.
  const server = createEnvServer({ maxSessions: 2, idleMs: 60_000, sweepMs: 3_600_000, now: () => now });
  try {
    const create = async (): Promise<[number, string]> => {
      const res = await server.app.inject({ method: 'POST', url: '/envs/restaurant-task1-v1', payload: {} });
      return [res.statusCode, res.body];
    };
    assert.equal((await create())[0], 201);
    now = 30_000;
    assert.equal((await create())[0], 201);
    assert.deepEqual(await create(), [503, JSON.stringify({ error: 'too many sessions (limit 2)' })]);
    now = 60_001; // the first session is idle just over a minute, the second half a minute
    assert.equal((await create())[0], 201);
    assert.equal(server.size, 2);
    now = 200_000; // both expired: two new ones at once
    assert.equal((await create())[0], 201);
    assert.equal((await create())[0], 201);
    assert.equal(server.size, 2);
  } finally {
    await server.close();
  }
});

test('env-server: bad options and actions are 400s naming the field (issue 32), step outside an episode a 409 saying which, another method a 405', async () => {
  const logged: string[] = [];
  const server = createEnvServer({ logError: (t) => logged.push(t) });
  try {
    const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<[number, string]> => {
      const res = await server.app.inject({ method, url, ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
      return [res.statusCode, (res.json() as { error: string }).error];
    };
    const kbs = "options.kbs: cannot be given (the library's MovieKb objects {full, incomplete}; over JSON the KB is generated from kbSeed and missing)";
    for (const [env, options, message] of [
      ['restaurant-task1-v1', { restaurants: 10_000_000 }, 'options.restaurants: must be a list, got 10000000'],
      ['restaurant-task1-v1', { restaurants: [{ name: 'x' }, null, 1] }, 'options.restaurants[0]: missing "cuisine"'],
      ['restaurant-task1-v1', { maxTurns: 1_000_000_000 }, 'options.maxTurns: must be <= 1000, got 1000000000'],
      ['restaurant-task1-v1', { kbSeed: -3 }, 'options.kbSeed: must be >= 0, got -3'],
      ['infobot-small-v1', { kbs: 1 }, kbs],
      ['infobot-small-v1', { kbs: { full: { titles: [] }, incomplete: null } }, kbs],
      ['infobot-small-v1', { missing: 7 }, 'options.missing: must be <= 1, got 7'],
      ['airdialogue-v1', { context: { priors: { goal: 1 } } }, 'options.context.priors: missing "class"'],
    ] as const)
      assert.deepEqual(await call('POST', `/envs/${env}`, { options }), [400, `${env}: ${message}`]);

    let deep = '"x"';
    for (let i = 0; i < 5000; i++) deep = `{"a":${deep}}`;
    const sids: Record<string, string> = {};
    for (const env of ['restaurant-task1-v1', 'infobot-small-v1', 'airdialogue-v1']) {
      const res = await server.app.inject({ method: 'POST', url: `/envs/${env}`, payload: {} });
      sids[env] = (res.json() as { session: string }).session;
      const sid = sids[env] as string;
      const step = env.startsWith('infobot') ? { act: 'request', slot: 'actor' } : 'hello';
      assert.deepEqual(await call('POST', `/sessions/${sid}/step`, { action: step }), [409, 'step() called before reset(): call reset() first']);
      assert.deepEqual(await call('POST', `/sessions/${sid}/reset`, { seed: -1 }), [400, '"seed" must be >= 0, got -1']);
      assert.deepEqual(await call('POST', `/sessions/${sid}/reset`, { seed: 2 ** 53 }), [400, '"seed" must be <= 9007199254740991, got 9007199254740992']);
      assert.deepEqual(await call('POST', `/sessions/${sid}/reset`, { seed: 1, variant: -1 }), [400, '"variant" must be >= 0, got -1']);
      assert.equal((await call('POST', `/sessions/${sid}/reset`, { seed: 1 }))[0], 200);
      assert.deepEqual(await call('POST', `/sessions/${sid}/step`, `{"action":${deep}}`), [400, 'JSON body nested deeper than 32 levels']);
      assert.deepEqual(await call('GET', `/sessions/${sid}/step`), [405, `method GET not allowed on /sessions/${sid}/step (allowed: POST)`]);
    }
    // Actions against the family schema: the field named.
    for (const [env, action, message] of [
      ['restaurant-task1-v1', 5, '"action" must be a string or an object, got 5'],
      ['restaurant-task1-v1', { tool: 'api_call', arguments: { cuisine: 1 } }, 'action.arguments.cuisine: must be a string, got 1'],
      ['infobot-small-v1', { act: 'inform', results: 'x' }, 'action.results: must be a list, got "x"'],
      ['infobot-small-v1', { tool: 'request', arguments: { slot: 'plot' } }, 'action.arguments.slot: must be one of actor/critic_rating/genre/mpaa_rating/director/release_year, got "plot"'],
      ['airdialogue-v1', { utterance: 'ok', action: { status: 'book' } }, 'action.action: missing "name"'],
      ['airdialogue-v1', { tool: 'book', arguments: { name: 'x' } }, 'action.arguments: missing "flight"'],
    ] as const)
      assert.deepEqual(await call('POST', `/sessions/${sids[env]}/step`, { action }), [400, message]);
    // The tools' calls go through.
    for (const [env, action] of [
      ['restaurant-task1-v1', { tool: 'api_call', arguments: { cuisine: 'italian', location: 'rome', number: 'two', price: 'cheap' } }],
      ['infobot-small-v1', { tool: 'request', arguments: { slot: 'actor' } }],
      ['airdialogue-v1', { tool: 'book', arguments: { name: 'x', flight: 1001 } }],
    ] as const)
      assert.equal((await call('POST', `/sessions/${sids[env]}/step`, { action }))[0], 200, env);
    const air = sids['airdialogue-v1'] as string;
    assert.deepEqual(await call('POST', `/sessions/${air}/step`, { action: 'hi' }), [409, 'step() called on a finished episode: call reset() to start another']);
    const put = await server.app.inject({ method: 'PUT', url: '/envs' });
    assert.deepEqual([put.statusCode, put.headers['allow'], (put.json() as { error: string }).error], [405, 'GET, HEAD', 'method PUT not allowed on /envs (allowed: GET, HEAD)']);
    const list = (await server.app.inject({ method: 'GET', url: '/envs' })).json() as { envs: Array<{ id: string; schema?: string }> };
    assert.equal(list.envs.find((e) => e.id === 'infobot-small-v1')?.schema, 'env-infobot.schema.json');
    assert.deepEqual(logged, []);
  } finally {
    await server.close();
  }
});

test('env-server: a real internal error is logged with its stack and answered 500 without it', async () => {
  envs.register('test-broken-v0', 'an environment whose step has a bug', () => ({
    id: 'test-broken-v0',
    reset: () => ({ obs: {}, info: {} }),
    step: () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    },
    sampleAction: () => 0,
  }));
  const logged: string[] = [];
  const server = createEnvServer({ logError: (t) => logged.push(t) });
  try {
    const sid = ((await server.app.inject({ method: 'POST', url: '/envs/test-broken-v0', payload: {} })).json() as { session: string }).session;
    await server.app.inject({ method: 'POST', url: `/sessions/${sid}/reset`, payload: {} });
    const res = await server.app.inject({ method: 'POST', url: `/sessions/${sid}/step`, payload: { action: 'x' } });
    assert.deepEqual([res.statusCode, res.json()], [500, { error: 'internal error' }]);
    assert.equal(logged.length, 1);
    const [first, ...frames] = (logged[0] as string).split('\n');
    assert.equal(first, `env-server: Cannot read properties of undefined (reading 'x') (POST /sessions/${sid}/step)`);
    assert.ok(frames.length > 0 && frames.every((l) => /^\s+at /.test(l)), logged[0]);
  } finally {
    await server.close();
  }
});

test('env-server and serve --env apply maxTurns as evaluate does: the wrapper for an environment without a declared limit, the testbed\'s own option otherwise (the session\'s own wins)', async () => {
  if (!envs.has('test-talker-v0')) envs.register('test-talker-v0', 'ends when the agent says bye', () => talker('test-talker-v0'));
  assert.throws(() => createEnvServer({ maxTurns: 0 }), /^ConfigError: maxTurns must be a positive integer, got 0$/);
  const server = createEnvServer({ maxTurns: 3 });
  try {
    const play = async (id: string, options: object | undefined, actions: readonly unknown[]): Promise<Array<{ truncated: boolean; terminated: boolean; info: Record<string, unknown> }>> => {
      const created = await server.app.inject({ method: 'POST', url: `/envs/${id}`, payload: options ? { options } : {} });
      assert.equal(created.statusCode, 201, created.body);
      const sid = (created.json() as { session: string }).session;
      await server.app.inject({ method: 'POST', url: `/sessions/${sid}/reset`, payload: { seed: 1 } });
      const out = [];
      for (const action of actions) out.push((await server.app.inject({ method: 'POST', url: `/sessions/${sid}/step`, payload: { action } })).json() as { truncated: boolean; terminated: boolean; info: Record<string, unknown> });
      return out;
    };
    // No declared limit: the generic wrapper truncates the 3rd agent turn, and says so.
    const talk = await play('test-talker-v0', undefined, ['a', 'b', 'c']);
    assert.deepEqual(talk.map((r) => r.truncated), [false, false, true]);
    assert.deepEqual(talk[2]?.info, { heard: 'c', truncatedBy: 'turnLimit', maxTurns: 3 });
    // The restaurant declares its own (maxTurns, with its failure detail): the episode ends at turn 3, by the environment.
    const chatty = await play('restaurant-task1-v1', undefined, ['hello', 'hello', 'hello']);
    assert.deepEqual(chatty.map((r) => r.truncated || r.terminated), [false, false, true]);
    assert.equal(chatty[2]?.info['truncatedBy'], undefined);
    assert.equal(chatty[2]?.info['failure'], 'max turns');
    // A session that sets the limit itself keeps its own.
    const own = await play('restaurant-task1-v1', { maxTurns: 5 }, ['hello', 'hello', 'hello']);
    assert.deepEqual(own.map((r) => r.truncated || r.terminated), [false, false, false]);
  } finally {
    await server.close();
  }
  // serve --env: a person as the agent of an environment without a declared limit; the dialog ends after 2 turns as `max turns`.
  const session = await EnvSession.start({ envId: 'test-talker-v0', seed: 1, role: 'agent', idleMs: 60_000, maxText: 100, maxTurns: 2 });
  await session.send('more');
  const ended = await session.send('more');
  assert.equal(ended.waiting, 'ended');
  assert.equal(ended.outcome?.failure, 'max turns');
  assert.deepEqual([session.record()?.turns, session.record()?.failure], [2, 'max turns']);
  // Without maxTurns the same dialog goes on.
  const free = await EnvSession.start({ envId: 'test-talker-v0', seed: 1, role: 'agent', idleMs: 60_000, maxText: 100 });
  await free.send('more');
  assert.equal((await free.send('more')).waiting, 'person');
  await free.close();
});
