/**
 * `dialogym serve --env`: a person in an environment's episodes through the JSON API (the routes
 * over EnvSession, through fastify's inject, and the CLI end to end). Scripted people read only
 * what the API gives the page — the goal card, the hint, the dialog, the agent's view, the tools —
 * and type or fill the forms: as the user against the built-in rules agent, an agent process
 * (--agent-cmd) and an LLM (the local OpenAI-compatible test server); as the agent on
 * restaurant-task5-v2 (the api_call form) and airdialogue-v2 (the flight table, the book/change/…
 * forms). Then the bounds (1 MB and HTML text), turn-taking errors, and abandoning a dialog, which
 * ends its agent process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../src/index.js';
import { createRng, type Rng } from '../src/core/rng.js';
import type { AgentTransport } from '../src/agents/agent.js';
import type { GoalCard } from '../src/env/person.js';
import { openAgent } from '../src/evaluation/open.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import type { ToolCall } from '../src/env/env.js';
import { renderAction, splitKbs } from '../src/testbeds/infobot/index.js';
import { infoBotActionOfTool } from '../src/testbeds/infobot/tools.js';
import { llmSystemMessage, llmUserPrompt, llmUserSystemMessage } from '../src/llm/prompts.js';
import { llmUserVoice } from '../src/llm/user.js';
import { LlmClient } from '../src/llm/client/client.js';
import { bareServer, defaultWebDir, type ChatServer } from '../src/serve/server.js';
import { registerEnvRoutes, type EnvRoutesOptions } from '../src/serve/env-routes.js';
import { EnvSession, NEUTRAL_FAILURE, type SessionState, type SessionTurn } from '../src/serve/env-session.js';
import { restaurantUserParticipant } from '../src/testbeds/restaurant/testing/person-user.js';
import { infoBotUserParticipant } from '../src/testbeds/infobot/testing/person-user.js';
import { airAgentPerson, playEnvDialog, restaurantAgentPerson, type Person } from './serve-env-people.js';
import { startLlmTestServer } from './llm-server.js';
import { oneLineError, type CliRun } from './cli.js';
import { cliPath } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-serve-env-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** A server with the `--env` routes only (no port: fastify's inject). */
function envServer(o: Omit<EnvRoutesOptions, 'webDir' | 'firstSeed'> & { firstSeed?: number; bodyLimit?: number }): ChatServer {
  const server = bareServer({ bodyLimit: o.bodyLimit ?? 16_384 });
  registerEnvRoutes(server.app, { firstSeed: 1, webDir: defaultWebDir(), ...o });
  return server;
}

async function call(server: ChatServer, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await server.app.inject({ method, url, ...(body !== undefined ? { payload: body as object } : {}) });
  return { status: r.statusCode, json: r.body === '' ? {} : (JSON.parse(r.body) as Record<string, unknown>) };
}

/** One dialog through the API: new session, then the person's turns until it ends; the final state and the session id. */
function playDialog(server: ChatServer, person: Person): Promise<{ id: string; state: SessionState; turns: number }> {
  return playEnvDialog((method, url, body) => call(server, method, url, body), person);
}

/** The restaurant user participant (test helper of the testbed) reading the page's card, hint and the agent's last words. */
function restaurantUser(rng: Rng, change?: (text: string, hint: string) => string): Person {
  const say = restaurantUserParticipant(rng);
  return (s) => {
    assert.ok(s.goalCard, 'a goal card');
    const agentSaid = [...s.turns].reverse().find((t) => t.speaker === 'agent')?.text ?? '';
    const text = say(s.goalCard, s.hint, agentSaid);
    return change ? change(text, s.hint ?? '') : text;
  };
}

test('as the user against the built-in rules agent on restaurant-task5-v2: the goal card and hints typed in a person\'s words, judged as a simulated episode', async () => {
  const agent = await openAgent({ kind: 'builtin', name: 'rules' });
  const server = envServer({ envId: 'restaurant-task5-v2', role: 'user', agent, idleMs: 60_000 });
  try {
    const seen = new Set<string>();
    let success = 0;
    const n = 10;
    for (let i = 0; i < n; i++) {
      const { state } = await playDialog(server, restaurantUser(createRng(100 + i)));
      assert.equal(state.outcome?.failure, state.outcome?.success ? null : state.outcome?.failure);
      if (state.outcome?.success) success++;
      else assert.fail(`dialog ${i}: ${state.outcome?.lines.join(' ')}`);
      assert.match(state.outcome?.lines[0] ?? '', /^Success: /);
      assert.ok(state.turns.some((t) => t.speaker === 'kb'), 'the KB lines of the api_call are shown');
      for (const t of state.turns) if (t.speaker === 'user') seen.add(t.text);
      assert.equal(JSON.stringify(state).includes('rules'), false, 'the state never names the agent');
    }
    assert.equal(success, n);
    assert.ok(seen.size > 20, `people's own words (${seen.size} different user turns)`);
    process.stdout.write(`# person as user, rules agent, restaurant-task5-v2: success ${success}/${n}\n`);
  } finally {
    await server.close();
  }
});

test('as the user on infobot-medium-v1 against rl-soft: the target movie with candidate values, the agent\'s requests, the movie found', async () => {
  const agent = await openAgent({ kind: 'builtin', name: 'rl-soft' });
  const server = envServer({ envId: 'infobot-medium-v1', role: 'user', agent, idleMs: 60_000 });
  try {
    let success = 0;
    let requests = 0;
    const n = 5;
    for (let i = 0; i < n; i++) {
      const say = infoBotUserParticipant(createRng(300 + i));
      const typed = new Set<string>();
      const { state } = await playDialog(server, (s) => {
        assert.ok(s.goalCard?.lines.some((l) => l.startsWith('The movie you look for: ')), JSON.stringify(s.goalCard));
        const text = say(s.goalCard as GoalCard, s.hint, [...s.turns].reverse().find((t) => t.speaker === 'agent')?.text ?? '');
        typed.add(text);
        return text;
      });
      // The person's side of the page holds only what they typed.
      for (const t of state.turns) if (t.speaker === 'user') assert.ok(typed.has(t.text), `a "you" turn never typed: ${JSON.stringify(t.text)}`);
      requests += state.turns.filter((t) => t.tool?.tool === 'request').length;
      const last = state.turns.filter((t) => t.speaker === 'agent').at(-1);
      assert.equal(last?.tool?.tool, 'inform', JSON.stringify(state.turns));
      // The agent's turns read as words (its question, the movie titles); the tool call stays in `tool`.
      const kb = splitKbs('medium', 1).incomplete;
      for (const t of state.turns.filter((x) => x.speaker === 'agent')) assert.equal(t.text, renderAction(infoBotActionOfTool(t.tool as ToolCall), kb));
      assert.match(last?.text ?? '', /^Here is what I found: 1\. [^0-9]/);
      if (state.outcome?.success) assert.equal(state.outcome.lines[0], 'Success: the agent found your movie.');
      if (state.outcome?.success) success++;
    }
    assert.equal(success, n);
    assert.ok(requests > 0, 'the agent\'s requests shown with their tool calls');
    process.stdout.write(`# person as user, rl-soft, infobot-medium-v1: success ${success}/${n}\n`);
  } finally {
    await server.close();
  }
});

test('as the user on infobot-medium-v1: the page, the stored turns and the record carry only what the person typed (the simulated user\'s closing line after the inform is not theirs)', async () => {
  const agent = await openAgent({ kind: 'builtin', name: 'rl-soft' });
  try {
    let ended = 0;
    for (let i = 0; i < 6; i++) {
      const typed = new Set<string>();
      const told: SessionTurn[] = [];
      const say = infoBotUserParticipant(createRng(500 + i));
      const s = await EnvSession.start({ envId: 'infobot-medium-v1', seed: 40 + i, role: 'user', agent, idleMs: 60_000, agentTimeoutMs: 60_000, maxText: 500, onTurn: (t) => told.push(t) });
      for (let state = s.state(); state.waiting === 'person'; ) {
        const text = say(state.goalCard as GoalCard, state.hint, [...state.turns].reverse().find((t) => t.speaker === 'agent')?.text ?? '');
        typed.add(text);
        state = await s.send(text);
      }
      const state = s.state();
      assert.equal(state.waiting, 'ended');
      for (const t of [...state.turns, ...told]) if (t.speaker === 'user') assert.ok(typed.has(t.text), `a user turn the person never typed: ${JSON.stringify(t.text)}`);
      assert.equal(state.turns.at(-1)?.tool?.tool, 'inform', 'the dialog ends on the agent\'s inform');
      const r = s.record();
      assert.ok(r?.userWords, 'the record keeps the person\'s words');
      for (const w of r.userWords) assert.ok(w === '' || typed.has(w), `userWords holds ${JSON.stringify(w)}`);
      assert.equal(r.userWords.length, r.actions.length + 1, 'one entry per user turn (the exporter replays them)');
      assert.equal(r.userWords.at(-1), '');
      assert.equal((r.observation as { utterance: string }).utterance, '');
      ended++;
      await s.close();
    }
    assert.equal(ended, 6);
  } finally {
    await agent.close?.();
  }
});

test('as the user on a DSTC6 -v2 env; free chat: no goal, no hint, nothing judged, the person ends it', async () => {
  await import('../src/testbeds/dstc6/index.js');
  const agent = await openAgent({ kind: 'builtin', name: 'rules' });
  const server = envServer({ envId: 'dstc6-task5-tst1-v2', role: 'user', agent, idleMs: 60_000 });
  try {
    let success = 0;
    for (let i = 0; i < 3; i++) if ((await playDialog(server, restaurantUser(createRng(400 + i)))).state.outcome?.success) success++;
    assert.equal(success, 3);
    process.stdout.write(`# person as user, rules, dstc6-task5-tst1-v2: success ${success}/3\n`);
  } finally {
    await server.close();
  }
  const free = envServer({ envId: 'restaurant-task5-v2', role: 'user', agent, idleMs: 60_000, free: true });
  try {
    const created = await call(free, 'POST', '/api/env/sessions', {});
    const id = created.json['id'] as string;
    assert.deepEqual(created.json['state'], { env: 'restaurant-task5-v2', role: 'user', turns: [], waiting: 'person' });
    const said = (await call(free, 'POST', `/api/env/sessions/${id}/send`, { text: 'hi, what can you do?' })).json['state'] as SessionState;
    assert.deepEqual([said.waiting, said.goalCard, said.hint, said.turns.map((t) => t.speaker)], ['person', undefined, undefined, ['user', 'agent']]);
    const ended = (await call(free, 'POST', `/api/env/sessions/${id}/end`)).json['state'] as SessionState;
    assert.deepEqual([ended.waiting, ended.outcome], ['ended', undefined]);
  } finally {
    await free.close();
  }
});

test('as the user, a wrong answer: the search is wrong and the end screen says why', async () => {
  const agent = await openAgent({ kind: 'builtin', name: 'rules' });
  const server = envServer({ envId: 'restaurant-task5-v2', role: 'user', agent, idleMs: 60_000 });
  try {
    // The person says another cuisine than the card's (the first one the hint does not name).
    const wrong = (text: string, hint: string): string => {
      const cuisine = /cuisine (\w+)/.exec(hint)?.[1];
      if (cuisine === undefined) return text;
      const other = ['indian', 'italian', 'french', 'spanish', 'british'].find((c) => c !== cuisine) as string;
      return text.split(cuisine).join(other);
    };
    const { state } = await playDialog(server, restaurantUser(createRng(7), wrong));
    assert.equal(state.outcome?.success, false);
    assert.ok(state.outcome?.failure, 'a failure reason');
    assert.match(state.outcome?.lines[0] ?? '', /^Failure: /);
    assert.ok(state.outcome?.lines.some((l) => /^Why: .*cuisine: got "\w+", expected "\w+"/.test(l)), state.outcome?.lines.join(' | '));
  } finally {
    await server.close();
  }
});

test('as the agent on restaurant-task5-v2: the api_call form filled from the dialog; the KB results shown as a table', async () => {
  const server = envServer({ envId: 'restaurant-task5-v2', role: 'agent', idleMs: 60_000 });
  try {
    let success = 0;
    const n = 10;
    for (let i = 0; i < n; i++) {
      let tables = 0;
      const person = restaurantAgentPerson();
      const { state } = await playDialog(server, (s) => {
        assert.equal(s.goalCard, undefined, 'the agent sees no goal');
        tables = Math.max(tables, (s.agentView ?? []).filter((v) => v.kind === 'table').length);
        return person(s);
      });
      assert.ok(state.turns.some((t) => t.tool?.tool === 'api_call'), 'a tool call through the form');
      assert.ok(tables > 0, 'the search results as a table');
      if (state.outcome?.success) success++;
      else assert.fail(`dialog ${i}: ${state.outcome?.lines.join(' ')}`);
    }
    assert.equal(success, n);
    process.stdout.write(`# person as agent, restaurant-task5-v2: success ${success}/${n}\n`);
  } finally {
    await server.close();
  }
});

test('as the agent on airdialogue-v2: the flight table and reservation read, the final act through its form', async () => {
  const server = envServer({ envId: 'airdialogue-v2', role: 'agent', idleMs: 60_000 });
  try {
    let success = 0;
    const acts = new Set<string>();
    const n = 10;
    for (let i = 0; i < n; i++) {
      const { state } = await playDialog(server, airAgentPerson(createRng(i)));
      const last = state.turns.filter((t) => t.speaker === 'agent').at(-1);
      assert.ok(last?.tool, 'ends with a tool call');
      acts.add(last.tool.tool);
      // The final act in words beside the utterance; the outcome speaks to the agent.
      assert.match(last.text, /\((Booked|Changed the reservation|Cancelled the reservation|No flight fits|No reservation found)[^)]*\.\)$|^(Booked|Changed|Cancelled|No flight|No reservation)/, last.text);
      if (state.outcome?.success) assert.equal(state.outcome.lines[0], 'Success: you took the right action.');
      if (state.outcome?.success) success++;
      else assert.fail(`dialog ${i}: ${state.outcome?.lines.join(' ')}`);
    }
    assert.equal(success, n);
    process.stdout.write(`# person as agent, airdialogue-v2: success ${success}/${n} (acts ${[...acts].join(', ')})\n`);
  } finally {
    await server.close();
  }
});

test('as the agent against an LLM user (--user-llm, the local test server) on airdialogue-v2: the customer in the model\'s words, the environment judges', async () => {
  const llm = await startLlmTestServer();
  const client = new LlmClient({ model: 'test-model', baseUrl: llm.url });
  const userVoice = llmUserVoice({ client, system: (t) => llmUserSystemMessage(t), prompt: (t) => llmUserPrompt(t) });
  const server = envServer({ envId: 'airdialogue-v2', role: 'agent', userVoice, idleMs: 60_000 });
  try {
    let success = 0;
    for (let i = 0; i < 3; i++) if ((await playDialog(server, airAgentPerson(createRng(50 + i)))).state.outcome?.success) success++;
    assert.equal(success, 3);
    assert.ok(llm.stats.answered > 0, 'the customer spoke through the model');
    assert.deepEqual(llm.stats.rejected, []);
    process.stdout.write(`# person as agent, LLM user, airdialogue-v2: success ${success}/3\n`);
  } finally {
    await server.close();
    await llm.close();
  }
});

test('as the user against an agent process (--agent-cmd) and an LLM (--agent-llm, the local test server)', async () => {
  const llm = await startLlmTestServer();
  const transports: Array<[string, AgentTransport]> = [
    ['agent process', await openAgent({ kind: 'cmd', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} agent --agent rules --stdio` })],
    ['llm', await openAgent({ kind: 'llm', model: 'test-model', llmUrl: llm.url }, { llmSystem: (req) => llmSystemMessage(req) })],
  ];
  try {
    for (const [name, agent] of transports) {
      const server = envServer({ envId: 'restaurant-task5-v2', role: 'user', agent, idleMs: 60_000 });
      try {
        let success = 0;
        for (let i = 0; i < 3; i++) if ((await playDialog(server, restaurantUser(createRng(200 + i)))).state.outcome?.success) success++;
        assert.equal(success, 3, name);
        process.stdout.write(`# person as user, ${name}, restaurant-task5-v2: success ${success}/3\n`);
      } finally {
        await server.close();
      }
    }
    assert.ok(llm.stats.answered > 0);
    assert.deepEqual(llm.stats.rejected, []);
  } finally {
    await llm.close();
  }
});

test('serve --env infobot-medium-v1 --agent-llm (the CLI, the local test server playing Rule-Soft): a person finds the movie; judged as the simulated episode', async () => {
  const llm = await startLlmTestServer();
  const child = spawn(process.execPath, [cliPath, 'serve', '--env', 'infobot-medium-v1', '--agent-llm', 'test-model', '--llm-url', llm.url, '--port', '0', '--seed', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no serving line: ${err}`)), 120_000);
      child.stderr.on('data', () => {
        const m = /^serving infobot-medium-v1 on (http:\/\/\S+)\/env: a person as the user, against /m.exec(err);
        if (m) {
          clearTimeout(t);
          resolve(m[1] as string);
        }
      });
    });
    const say = infoBotUserParticipant(createRng(1000));
    const http: Parameters<typeof playEnvDialog>[0] = async (method, path, body) => {
      const r = await fetch(`${url}${path}`, { method, ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    };
    const { state } = await playEnvDialog(http, (s) => say(s.goalCard as GoalCard, s.hint, [...s.turns].reverse().find((t) => t.speaker === 'agent')?.text ?? ''));
    const calls = state.turns.filter((t) => t.speaker === 'agent').map((t) => t.tool?.tool);
    // Rule-Soft asks for the slots it is unsure of, then informs: every agent turn a tool call of the model.
    assert.ok(calls.length >= 2 && calls.slice(0, -1).every((c) => c === 'request') && calls.at(-1) === 'inform', JSON.stringify(calls));
    assert.equal(state.outcome?.success, true, JSON.stringify(state.outcome));
    assert.equal(state.outcome?.lines[0], 'Success: the agent found your movie.');
    assert.match(state.outcome?.lines.at(-1) ?? '', /^Your movie is result [1-5] of the agent’s list \(it must be among the first 5\)\.$/);
    // One request per agent turn, none refused, and the server's replay of the conversation agrees with every earlier reply.
    assert.deepEqual([llm.stats.answered, llm.stats.rejected, llm.stats.mismatches], [calls.length, [], []]);
    // The simulated user with the same agent on the same seed: the same judgement.
    const agent = await openAgent({ kind: 'llm', model: 'test-model', llmUrl: llm.url }, { llmSystem: (req) => llmSystemMessage(req) });
    const sim = await evaluate('infobot-medium-v1', agent, { episodes: 1, seed: 1 });
    await agent.close?.();
    assert.deepEqual([sim.records[0]?.seed, sim.records[0]?.success, llm.stats.mismatches], [1, state.outcome?.success, []]);
    process.stdout.write(`# person as user, --agent-llm (Rule-Soft), infobot-medium-v1 seed 1: ${state.outcome?.lines.join(' ')}\n`);
  } finally {
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    await llm.close();
    assert.equal(code, 0, err);
  }
});

test('bounds: 1 MB of text is cut to maxText, HTML is kept as text; turn-taking and body errors are one line', async () => {
  const agent = await openAgent({ kind: 'builtin', name: 'rules' });
  const server = envServer({ envId: 'restaurant-task5-v2', role: 'user', agent, idleMs: 60_000, maxText: 300, bodyLimit: 2 << 20 });
  try {
    const id = (await call(server, 'POST', '/api/env/sessions', {})).json['id'] as string;
    const big = await call(server, 'POST', `/api/env/sessions/${id}/send`, { text: `hello ${'a'.repeat(1 << 20)}` });
    assert.equal(big.status, 200);
    const first = (big.json['state'] as SessionState).turns[0];
    assert.deepEqual([first?.speaker, first?.text.length], ['user', 300]);
    const html = '<img src=x onerror=alert(1)> <b>french</b>\u0000\u202e food';
    const r = await call(server, 'POST', `/api/env/sessions/${id}/send`, { text: html });
    const said = (r.json['state'] as SessionState).turns.filter((t) => t.speaker === 'user').at(-1)?.text;
    assert.equal(said, '<img src=x onerror=alert(1)> <b>french</b> food', 'the words as written (control characters out); the page renders them as text');
    assert.deepEqual(await call(server, 'POST', `/api/env/sessions/${id}/send`, { tool: 'api_call', arguments: {} }), { status: 400, json: { error: "a person playing the user writes text (tool calls are the agent's)" } });
    assert.deepEqual(await call(server, 'POST', `/api/env/sessions/${id}/send`, { text: '   ' }), { status: 400, json: { error: 'text is empty' } });
    assert.deepEqual(await call(server, 'POST', `/api/env/sessions/${id}/send`, { text: 'hi', extra: 1 }), { status: 400, json: { error: 'unknown field "extra": the body is {"text": "..."} or {"tool": "...", "arguments": {...}}' } });
    assert.deepEqual(await call(server, 'POST', '/api/env/sessions/nobody/send', { text: 'hi' }), { status: 404, json: { error: 'unknown or expired session: nobody' } });
    const ended = await call(server, 'POST', `/api/env/sessions/${id}/end`);
    assert.deepEqual((ended.json['state'] as SessionState).outcome, { success: false, failure: 'abandoned', lines: ['Abandoned: the dialog was ended before it was over.'] });
    assert.deepEqual(await call(server, 'POST', `/api/env/sessions/${id}/send`, { text: 'hi' }), { status: 409, json: { error: 'the dialog has ended: start a new one' } });
    assert.equal((await call(server, 'DELETE', `/api/env/sessions/${id}`)).status, 204);
    assert.equal((await call(server, 'GET', `/api/env/sessions/${id}`)).status, 404);
  } finally {
    await server.close();
  }
  // As the agent: a tool call the form could not have made is refused with the tool's words, and nothing is sent.
  const agentSide = envServer({ envId: 'restaurant-task5-v2', role: 'agent', idleMs: 60_000 });
  try {
    const id = (await call(agentSide, 'POST', '/api/env/sessions', {})).json['id'] as string;
    const bad = await call(agentSide, 'POST', `/api/env/sessions/${id}/send`, { tool: 'api_call', arguments: { cuisine: 'martian' } });
    assert.equal(bad.status, 400);
    assert.match(bad.json['error'] as string, /^api_call: /);
    const unknown = await call(agentSide, 'POST', `/api/env/sessions/${id}/send`, { tool: 'launch', arguments: {} });
    assert.deepEqual(unknown, { status: 400, json: { error: "unknown tool 'launch' (tools: api_call)" } });
    const state = (await call(agentSide, 'GET', `/api/env/sessions/${id}`)).json['state'] as SessionState;
    assert.equal(state.waiting, 'person');
    assert.equal(state.turns.filter((t) => t.speaker === 'agent').length, 0);
  } finally {
    await agentSide.close();
  }
});

test('abandoning a dialog ends its agent process; closing the server ends the others', async () => {
  const pids = join(tmp, 'pids');
  // Each dialog's agent process writes its pid, then becomes the agent (exec keeps the pid).
  const command = `echo $$ >> ${JSON.stringify(pids)}; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} agent --agent rules --stdio`;
  const agent = await openAgent({ kind: 'cmd', command });
  const server = envServer({ envId: 'restaurant-task5-v2', role: 'user', agent, idleMs: 60_000 });
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const gone = async (pid: number): Promise<boolean> => {
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    return !alive(pid);
  };
  const readPids = (): number[] => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').filter((l) => l !== '').map(Number) : []);
  try {
    const a = (await call(server, 'POST', '/api/env/sessions', {})).json['id'] as string;
    await call(server, 'POST', `/api/env/sessions/${a}/send`, { text: 'hello' });
    const b = (await call(server, 'POST', '/api/env/sessions', {})).json['id'] as string;
    await call(server, 'POST', `/api/env/sessions/${b}/send`, { text: 'hi there' });
    const [pa, pb] = readPids();
    assert.ok(pa !== undefined && pb !== undefined && alive(pa) && alive(pb), `two agent processes: ${readPids().join(', ')}`);
    await call(server, 'POST', `/api/env/sessions/${a}/end`);
    assert.ok(await gone(pa), 'the abandoned dialog\'s agent process has ended');
    assert.ok(alive(pb), 'the other dialog\'s process lives on');
    await server.close();
    assert.ok(await gone(pb), 'closing the server ends the rest');
  } finally {
    await server.close().catch(() => {});
  }
});

/** `dialogym <args>`, killed after a minute (a server that should have refused to start would listen forever). */
function cli(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', input: '', timeout: 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

test('serve --env: a bad flag combination is one line whose advice works', () => {
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2'), /^error: serve --env: give exactly one agent the person talks to: --agent, --agent-cmd, --agent-url or --agent-llm \(or --as agent: the person plays the agent\)$/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--agent-cmd', 'x'), /^error: serve --env: give exactly one agent .* \(got --agent-cmd and --agent\)/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--as', 'agent', '--agent', 'rules'), /^error: --agent: with --as agent the person is the agent; drop --agent$/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--as', 'bot'), /^error: --as: expected user or agent, got 'bot'$/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--model', 'rules'), /^error: --env serves its own page: give --env alone, or --model without --env/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--user-llm', 'm'), /^error: --user-llm says the simulated user's turns; with --as user the person says them: drop --user-llm, or give --as agent$/, 2);
  oneLineError(cli('serve', '--model', 'rules', '--agent-cmd', 'x'), /^error: --agent-cmd applies to --env \(a person in an environment's episodes\): give --env <id> too$/, 2);
  oneLineError(cli('serve', '--env', 'no-such-env-v1', '--agent', 'rules'), /^error: .*no-such-env-v1/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--agent', 'rl-soft'), /^error: --agent: rl-soft: not an agent of restaurant-task5-v2 \(its agents: rules, .*\)$/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--agent', 'nobody'), /^error: --agent: nobody: unknown agent/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--env-option', 'maxTurns=0'), /^error: restaurant-task5-v2: options\.maxTurns: /, 2);
  // An LLM user where the environment has none: refused at start (as evaluate does), not a page whose every dialog ends at once. No request is sent (the URL is never reached).
  oneLineError(cli('serve', '--env', 'infobot-medium-v1', '--as', 'agent', '--user-llm', 'm', '--llm-url', 'http://127.0.0.1:9/v1'), /^error: infobot-medium-v1: no LLM user for this environment \(the LLM user plays the restaurant, DSTC6 and AirDialogue envs\)$/, 2);
  oneLineError(cli('serve', '--env', 'restaurant-task5-v1', '--as', 'agent', '--user-llm', 'm', '--llm-url', 'http://127.0.0.1:9/v1'), /^error: restaurant-task5-v1: the environment tells no user goal \(info\.goal\): the LLM user plays the -v2 restaurant, DSTC6 and AirDialogue envs$/, 2);
});

test('serve --env end to end: the CLI serves the page and the API, and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, [cliPath, 'serve', '--env', 'airdialogue-v2', '--as', 'agent', '--port', '0', '--seed', '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no serving line: ${err}`)), 60_000);
    child.stderr.on('data', () => {
      const m = /serving airdialogue-v2 on (http:\/\/\S+)\/env: a person as the agent, against the simulated user\n/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1] as string);
      }
    });
  });
  try {
    const page = await fetch(`${url}/env`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module" src="\/env.js"><\/script>/);
    assert.equal((await fetch(`${url}/`, { redirect: 'manual' })).headers.get('location'), '/env');
    const created = (await (await fetch(`${url}/api/env/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { state: SessionState };
    assert.deepEqual(created.state.tools?.map((t) => t.function.name), ['book', 'change', 'cancel', 'no_flight', 'no_reservation']);
    assert.ok(created.state.agentView?.some((v) => v.kind === 'table' && v.title === 'Flights'));
  } finally {
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, err);
  }
});

test('a person who does not answer in time abandons the episode: the end screen says so, there is no record, a late send is refused', async () => {
  const told: SessionTurn[] = [];
  const s = await EnvSession.start({ envId: 'airdialogue-v2', seed: 2, role: 'agent', idleMs: 300, maxText: 100, onTurn: (t) => told.push(t) });
  assert.deepEqual(told, s.state().turns, 'each turn told as it happens');
  assert.equal(told[0]?.speaker, 'user');
  // A generous guard: the session ends by itself, the figure is not asserted.
  for (let i = 0; i < 600 && !s.ended; i++) await new Promise((r) => setTimeout(r, 25));
  assert.deepEqual(s.state().outcome, { success: false, failure: 'timeout', lines: ['Abandoned: nobody answered within 1 second.'] });
  assert.equal(s.record(), undefined);
  await assert.rejects(s.send('hello'), /^StateError: the dialog has ended: start a new one$/);
  await s.close(); // idempotent
});

test('the agent has agentTimeoutMs for a reply, the person idleMs: a silent agent fails the episode (timeout, as evaluate); blind, the outcome never shows the transport\'s words', async () => {
  const silent = await openAgent({ kind: 'cmd', command: `${JSON.stringify(process.execPath)} -e "setInterval(() => {}, 1000)"` }, { startupMs: 0 });
  const outcomes: string[][] = [];
  for (const blind of [false, true]) {
    const s = await EnvSession.start({ envId: 'restaurant-task5-v2', seed: 3, role: 'user', agent: silent, idleMs: 600_000, agentTimeoutMs: 300, maxText: 100, ...(blind ? { blind } : {}) });
    let state = s.state();
    if (state.waiting === 'person') state = await s.send('hello');
    assert.equal(state.waiting, 'ended');
    assert.deepEqual([state.outcome?.success, state.outcome?.failure, s.record()?.failure], [false, 'timeout', 'timeout']);
    outcomes.push([...(state.outcome?.lines ?? [])]);
  }
  assert.ok(outcomes[0]?.some((l) => l.includes('300 ms')), JSON.stringify(outcomes[0]));
  assert.deepEqual(outcomes[1], ['The task was not completed.', NEUTRAL_FAILURE]);
});

test('a finished episode gives its evaluate record: the person\'s words in the observation, judged as evaluate judges', async () => {
  const agent = await openAgent({ kind: 'builtin', name: 'rules' });
  const told: SessionTurn[] = [];
  const s = await EnvSession.start({ envId: 'restaurant-task5-v2', seed: 9, role: 'user', agent, idleMs: 60_000, agentTimeoutMs: 60_000, maxText: 500, onTurn: (t) => told.push(t) });
  const say = restaurantUser(createRng(9));
  let state = s.state();
  await assert.rejects(Promise.resolve().then(() => s.send({ tool: 'api_call', arguments: {} })), /^InputError: a person playing the user writes text/);
  // A turn where the simulated user says nothing new (\`wordless\`): the person lets it pass.
  while (state.waiting === 'person') state = await s.send(state.wordless ? '' : (say(state) as string));
  const r = s.record();
  assert.ok(r);
  assert.deepEqual([r.env, r.seed, r.episode, r.trial, r.success, r.failure], ['restaurant-task5-v2', 9, 0, 0, true, null]);
  const users = (r.observation as { history: Array<{ speaker: string; text: string }> }).history.filter((t) => t.speaker === 'user' && t.text !== '<SILENCE>').map((t) => t.text);
  assert.deepEqual(users, state.turns.filter((t) => t.speaker === 'user').map((t) => t.text), 'the record holds what the person wrote');
  assert.deepEqual(told, state.turns, 'onTurn told every turn once, in order');
});
