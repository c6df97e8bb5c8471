/**
 * `dialogym study serve` through its HTTP API: scripted participants play a study of
 * infobot-medium-v1 with the paper's four agents (each reads the goal card and the hint on the
 * page and writes its own sentences: balance, success within the simulated user's interval), and the safety of
 * the server with strangers (item 5 of issue 38): another participant's session or transcript,
 * the admin without or with a wrong token, 1 MB and HTML text, and nothing on the page, in the
 * API or its headers that names the agent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../src/index.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { loadAgent } from '../src/agents/registry.js';
import { studyConfig } from '../src/study/config.js';
import { createStudy, StudyStore, type CreatedStudy } from '../src/study/store.js';
import { studyReport } from '../src/study/report.js';
import { createStudyServer, NEUTRAL_FAILURE, type StudyServer } from '../src/serve/study-server.js';
import { restaurantAgentParticipant } from '../src/testbeds/restaurant/testing/person-agent.js';
import { restaurantUserParticipant } from '../src/testbeds/restaurant/testing/person-user.js';
import { llmSystemMessage } from '../src/llm/prompts.js';
import { createRng } from '../src/core/rng.js';
import type { AgentTransport } from '../src/agents/agent.js';
import { withLlmServer } from './llm-server.js';
import { call, playAgentSession, playAll, playSession, type Answer, type PageState } from './study-serve-client.js';
import { repoRoot, skipUnlessSqlite } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-study-serve-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const noSqlite = skipUnlessSqlite();
const PAPER_AGENTS = ['rl-hard', 'rule-soft', 'rl-soft', 'e2e-soft'];
/** Participants × sessions of the HTTP study: 200, the acceptance line of issue 38. */
const PARTICIPANTS = 8;
const SESSIONS = 25;

/** A server over the study of `dir` on a free port; its error log collected. */
async function serve(dir: string, o: Parameters<typeof createStudyServer>[1] = {}): Promise<{ server: StudyServer; store: StudyStore; base: string; log: string[]; stop: () => Promise<void> }> {
  const store = StudyStore.open(dir);
  const log: string[] = [];
  const server = createStudyServer(store, { logError: (t) => log.push(t), ...o });
  const base = await server.listen(0, '127.0.0.1');
  return {
    server,
    store,
    base,
    log,
    stop: async () => {
      await server.close();
      store.close();
    },
  };
}

test(`infobot-medium-v1 through the HTTP API, ${PARTICIPANTS} scripted participants × ${SESSIONS} sessions, the paper's four agents: balanced within ±2, success within the simulated user's interval`, { skip: noSqlite }, async () => {
  const config = studyConfig({ env: 'infobot-medium-v1', agents: PAPER_AGENTS, participants: PARTICIPANTS, sessionsPerParticipant: SESSIONS, seed: 1, questions: [{ id: 'satisfied', text: 'How satisfied are you?', min: 1, max: 5 }] });
  const made = createStudy(join(tmp, 'http'), config);
  const s = await serve(made.dir);
  const t0 = Date.now();
  try {
    // The participants come and go concurrently, as people would.
    const played = await Promise.all(made.participants.map((p) => playAll(s.base, p.code, { answer: (ok) => (ok ? 5 : 2) })));
    assert.deepEqual(played, made.participants.map(() => SESSIONS));
  } finally {
    await s.stop();
  }
  const seconds = (Date.now() - t0) / 1000;
  const store = StudyStore.open(made.dir);
  try {
    const n = PARTICIPANTS * SESSIONS;
    const counts = store.counts();
    assert.deepEqual([counts.finished, counts.open, counts.abandoned], [n, 0, 0]);
    for (const a of PAPER_AGENTS) assert.ok(Math.abs((counts.perAgent[a] ?? 0) - n / PAPER_AGENTS.length) <= 2, `${a}: ${counts.perAgent[a]}`);
    const report = studyReport(store);
    for (const a of report.agents) {
      const { summary } = await evaluate('infobot-medium-v1', loadAgent(a.agent), { episodes: 1000, seed: 100_000 });
      assert.ok(a.interval[0] <= summary.success && summary.success <= a.interval[1], `${a.agent}: simulated user ${summary.success}, study ${a.success} [${a.interval}]`);
      assert.equal(a.questions['satisfied']?.n, a.dialogues);
    }
    process.stdout.write(`# study serve figures: ${n} sessions through HTTP in ${seconds.toFixed(1)} s; ${report.agents.map((a) => `${a.agent} ${a.dialogues} dialogues, success ${a.success.toFixed(2)} [${a.interval.map((x) => x.toFixed(3)).join(', ')}]`).join('; ')}\n`);
  } finally {
    store.close();
  }
});

test('people play the agent: restaurant-task5-v2, a scripted person reads the KB tables and fills the api_call form on each turn, 2 participants × 3 sessions all succeed, grouped as "people"', { skip: noSqlite }, async () => {
  const made = createStudy(join(tmp, 'as-agent'), studyConfig({ env: 'restaurant-task5-v2', role: 'agent', participants: 2, sessionsPerParticipant: 3, seed: 4 }));
  const s = await serve(made.dir);
  try {
    for (const p of made.participants) {
      for (let i = 0; i < 3; i++) {
        const end = await playAgentSession(s.base, p.code, restaurantAgentParticipant());
        assert.equal(end.body['status'], 'finished');
        assert.equal((end.body['outcome'] as { success: boolean }).success, true, JSON.stringify(end.body['outcome']));
      }
    }
    const r = studyReport(s.store);
    assert.deepEqual(r.agents.map((a) => [a.agent, a.dialogues, a.success]), [['people', 6, 1]]);
    assert.deepEqual(s.log, []);
  } finally {
    await s.stop();
  }
});

/** A small study for the tests below: two participants, one question; the agent an in-process one of dialogym's. */
function smallStudy(name: string, agents: unknown[] = ['rl-soft'], extra: Record<string, unknown> = {}): CreatedStudy {
  return createStudy(join(tmp, name), studyConfig({ env: 'infobot-medium-v1', agents, participants: 2, sessionsPerParticipant: 2, seed: 3, questions: [{ id: 'satisfied', text: 'How satisfied are you?', min: 1, max: 5 }], ...extra }));
}

test('agents of other kinds through the HTTP API: dialogym\'s rule bot and an LLM (the local OpenAI-compatible test server) on restaurant-task5-v2, a scripted person reading the card and the hint: every session succeeds, the model\'s name reaches no participant', { skip: noSqlite }, async () => {
  await withLlmServer({}, async (llm) => {
    const made = createStudy(join(tmp, 'kinds'), studyConfig({ env: 'restaurant-task5-v2', agents: ['rules', { label: 'llm', llm: 'Secret-Model-9', llmUrl: llm.url }], participants: 2, sessionsPerParticipant: 2, seed: 6 }));
    const s = await serve(made.dir, { llmSystem: (req) => llmSystemMessage(req) });
    try {
      const seen: Answer[] = [];
      for (const p of made.participants) for (let i = 0; i < 2; i++) seen.push(...(await playSession(s.base, p.code, { person: (n) => restaurantUserParticipant(createRng(n).fork(p.code)) })));
      const r = studyReport(s.store);
      assert.deepEqual(r.agents.map((a) => [a.agent, a.dialogues, a.success]), [['rules', 2, 1], ['llm', 2, 1]]);
      // The turns where the simulated user says nothing reach the participant (marked \`wordless\`; the scripted person lets them pass).
      assert.ok(seen.some((x) => (x.body['state'] as { wordless?: unknown } | undefined)?.wordless === true), 'a wordless turn reaches the page');
      assert.ok(llm.stats.answered > 0);
      const everything = seen.map((a) => a.text + JSON.stringify([...a.headers])).join('\n').toLowerCase();
      for (const secret of ['secret-model-9', 'llm', llm.url.toLowerCase()]) assert.ok(!everything.includes(secret), `"${secret}" reaches the participant`);
      assert.deepEqual(s.log, []);
    } finally {
      await s.stop();
    }
  });
});

test('"hints": false in the study config: no state a participant receives carries the hint; by default the page gets it', { skip: noSqlite }, async () => {
  for (const hints of [true, false]) {
    const made = smallStudy(`hints-${hints}`, ['rl-soft'], { participants: 1, sessionsPerParticipant: 1, ...(hints ? {} : { hints }) });
    const s = await serve(made.dir);
    try {
      const seen = await playSession(s.base, made.participants[0]?.code as string);
      const withHint = seen.filter((a) => typeof (a.body['state'] as { hint?: unknown } | undefined)?.hint === 'string').length;
      if (hints) assert.ok(withHint > 0, 'the hint reaches the page by default');
      else assert.equal(withHint, 0);
      assert.equal(s.store.sessions('finished').length, 1);
    } finally {
      await s.stop();
    }
  }
});

test('an agent that does not answer within --timeout fails the session (counted, as in evaluate), and the participant reads the neutral line', { skip: noSqlite }, async () => {
  const silent = `${JSON.stringify(process.execPath)} -e "setInterval(() => {}, 1000)"`;
  const made = smallStudy('silent', [{ label: 'quiet', cmd: silent }], { participants: 1, sessionsPerParticipant: 1 });
  const s = await serve(made.dir, { timeoutMs: 300, startupMs: 0 });
  try {
    const seen = await playSession(s.base, made.participants[0]?.code as string);
    const end = seen.at(-1) as Answer;
    assert.equal(end.body['status'], 'finished');
    assert.deepEqual(end.body['outcome'], { success: false, lines: ['The task was not completed.', NEUTRAL_FAILURE] });
    assert.deepEqual(s.store.sessions('finished').map((r) => [r.agent, r.outcome?.failure]), [['quiet', 'timeout']]);
    assert.ok(!seen.some((a) => a.text.includes('300 ms')), 'the timeout reaches the participant');
  } finally {
    await s.stop();
  }
});

test('an open conversation is resumed (a reload, a second start) until it has been idle --idle-minutes, then set aside: never counted, its slot played next', { skip: noSqlite }, async () => {
  const made = smallStudy('idle', ['rl-soft', 'rule-soft']);
  let clock = 1_000_000;
  const s = await serve(made.dir, { idleMs: 60_000, sweepMs: 10, now: () => clock });
  try {
    const code = made.participants[0]?.code as string;
    // Open, the person asked to start (a first message may already end a KB-InfoBot dialog: rl-soft can inform at once).
    const first = await playSession(s.base, code, { stopAfterMessages: 0 });
    const id = first[0]?.body['id'] as number;
    const slot = s.store.sessions('open')[0]?.slot;
    // A reload: the same conversation, where it was.
    const again = await call(s.base, 'POST', '/api/sessions', { code, body: {} });
    assert.deepEqual([again.status, again.body['id'], again.body['number']], [201, id, 1]);
    assert.deepEqual((again.body['state'] as PageState).turns, (first.at(-1)?.body['state'] as PageState).turns);
    assert.equal((await call(s.base, 'GET', '/api/me', { code })).body['open'], id);
    // Idle past the limit: set aside at the next sweep.
    clock += 60_001;
    for (let i = 0; s.store.sessions('abandoned').length === 0; i++) {
      assert.ok(i < 1000, 'not swept within 10 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(s.server.live, 0);
    const late = await call(s.base, 'POST', `/api/sessions/${id}/messages`, { code, body: { text: 'hello' } });
    assert.deepEqual([late.status, late.body['error']], [409, 'this conversation was interrupted and set aside (it does not count): start the next one']);
    // The next conversation takes its number and its slot (the same agent and goal).
    const next = await playSession(s.base, code);
    assert.equal(next[0]?.body['number'], 1);
    assert.notEqual(next[0]?.body['id'], id);
    assert.deepEqual(s.store.sessions('finished').map((r) => [r.number, r.slot]), [[1, slot]]);
    assert.deepEqual(s.store.sessions('abandoned').map((r) => r.id), [id]);
  } finally {
    await s.stop();
  }
});

test('security: a participant reaches only their own sessions — guessing another session id, reading another participant\'s transcript: 404, as an id of no one', { skip: noSqlite }, async () => {
  const made = smallStudy('guess');
  const s = await serve(made.dir);
  try {
    const [a, b] = made.participants.map((p) => p.code) as [string, string];
    const mine = await playSession(s.base, a, { stopAfterMessages: 1 }); // A's session, open
    const open = mine[0]?.body['id'] as number;
    const none = { status: 404, error: 'no such session' };
    const seen = async (r: Promise<Answer>): Promise<unknown> => ((x) => ({ status: x.status, error: x.body['error'] }))(await r);
    // B guesses A's id, the next ids, ids of no one, ids that are no number: the same 404.
    for (const id of [String(open), String(open + 1), '999999', '0', 'abc', '1e3']) {
      assert.deepEqual(await seen(call(s.base, 'GET', `/api/sessions/${id}`, { code: b })), none, id);
      assert.deepEqual(await seen(call(s.base, 'POST', `/api/sessions/${id}/messages`, { code: b, body: { text: 'hi' } })), none, id);
      assert.deepEqual(await seen(call(s.base, 'POST', `/api/sessions/${id}/answers`, { code: b, body: { answers: { satisfied: 5 } } })), none, id);
    }
    // A finishes; B still cannot read A's transcript, A can.
    const done = await playSession(s.base, a);
    const last = done[done.length - 1] as Answer;
    assert.equal(last.body['status'], 'finished');
    assert.deepEqual(await seen(call(s.base, 'GET', `/api/sessions/${open}`, { code: b })), none);
    const own = await call(s.base, 'GET', `/api/sessions/${open}`, { code: a });
    assert.equal(own.status, 200);
    assert.ok((own.body['turns'] as unknown[]).length >= 2);
    // B's list holds none of A's sessions.
    assert.deepEqual((await call(s.base, 'GET', '/api/me', { code: b })).body['sessions'], []);
    // No code, a wrong code, a code too long: refused.
    assert.deepEqual(await seen(call(s.base, 'GET', '/api/me')), { status: 401, error: 'no participant code (send it in the x-study-code header)' });
    assert.deepEqual(await seen(call(s.base, 'GET', '/api/me', { code: `${a.slice(0, -1)}${a.endsWith('A') ? 'B' : 'A'}` })), { status: 403, error: 'unknown participant code' });
    assert.deepEqual(await seen(call(s.base, 'GET', `/api/sessions/${open}`, { code: made.adminToken })), { status: 403, error: 'unknown participant code' });
    assert.deepEqual(await seen(call(s.base, 'GET', '/api/me', { code: 'x'.repeat(5000) })), { status: 403, error: 'unknown participant code' });
    assert.deepEqual(s.log, []);
  } finally {
    await s.stop();
  }
});

test('security: the admin needs the token — none 401, a wrong one or a participant code 403, the token 200; closing the study stops new sessions', { skip: noSqlite }, async () => {
  const made = smallStudy('admin');
  const s = await serve(made.dir);
  try {
    const code = made.participants[0]?.code as string;
    const seen = async (r: Promise<Answer>): Promise<unknown> => ((x) => ({ status: x.status, error: x.body['error'] }))(await r);
    for (const [method, path] of [['GET', '/api/admin'], ['POST', '/api/admin/close']] as const) {
      assert.deepEqual(await seen(call(s.base, method, path)), { status: 401, error: 'the admin token is needed (authorization: Bearer <token>)' });
      assert.deepEqual(await seen(call(s.base, method, path, { token: `${made.adminToken}x` })), { status: 403, error: 'wrong admin token' });
      assert.deepEqual(await seen(call(s.base, method, path, { token: code })), { status: 403, error: 'wrong admin token' });
      assert.deepEqual(await seen(call(s.base, method, path, { token: 'y'.repeat(10_000) })), { status: 403, error: 'wrong admin token' });
    }
    assert.equal(s.store.closed, false, 'refused requests closed the study');
    await playSession(s.base, code);
    const admin = await call(s.base, 'GET', '/api/admin', { token: made.adminToken });
    assert.equal(admin.status, 200);
    assert.deepEqual(admin.body['agents'], [{ agent: 'rl-soft', sessions: 1, open: 0, finished: 1, abandoned: 0, successes: s.store.sessions('finished')[0]?.outcome?.success ? 1 : 0 }]);
    assert.deepEqual(admin.body['participants'], [{ label: 'p1', finished: 1, open: false }, { label: 'p2', finished: 0, open: false }]);
    assert.deepEqual((await call(s.base, 'POST', '/api/admin/close', { token: made.adminToken })).body, { closed: true });
    assert.deepEqual(await seen(call(s.base, 'POST', '/api/sessions', { code, body: {} })), { status: 409, error: 'the study is closed: thank you for taking part' });
    assert.equal((await call(s.base, 'GET', '/api/me', { code })).body['closed'], true);
    // The admin's page asks for the token in a form: the token is in no URL, the page holds no secret.
    const page = await call(s.base, 'GET', '/admin');
    assert.equal(page.status, 200);
    assert.match(page.text, /type="password"/);
    assert.deepEqual(s.log, []);
  } finally {
    await s.stop();
  }
});

test('security: 1 MB text is refused (413), longer than --max-text is cut, HTML text comes back as text; the pages set text with textContent only, under a CSP', { skip: noSqlite }, async () => {
  const made = smallStudy('text');
  const s = await serve(made.dir, { maxText: 300 });
  try {
    const code = made.participants[0]?.code as string;
    const start = await call(s.base, 'POST', '/api/sessions', { code, body: {} });
    const id = start.body['id'] as number;
    const big = await call(s.base, 'POST', `/api/sessions/${id}/messages`, { code, body: { text: 'a'.repeat(1024 * 1024) } });
    assert.deepEqual([big.status, big.body['error']], [413, 'request body too large (limit 16384 bytes)']);
    const html = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const text = html + ' ' + 'b'.repeat(1000);
    const r = await call(s.base, 'POST', `/api/sessions/${id}/messages`, { code, body: { text } });
    assert.equal(r.status, 200, r.text);
    const turns = (r.body['state'] as PageState).turns;
    assert.equal(turns[0]?.speaker, 'user');
    assert.equal(turns[0]?.text, text.slice(0, 300), 'the HTML comes back as the text typed, cut at maxText');
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual((s.store.turns(id)[0]?.content as { text: string }).text, text.slice(0, 300), 'stored as typed, cut');
    // Pasted lines after a run of blank ones longer than maxText: normalised first, then cut — one line, never "empty".
    const code2 = made.participants[1]?.code as string;
    const id2 = (await call(s.base, 'POST', '/api/sessions', { code: code2, body: {} })).body['id'] as number;
    const pasted = await call(s.base, 'POST', `/api/sessions/${id2}/messages`, { code: code2, body: { text: ' \n'.repeat(400) + 'an action movie\r\n\tfrom 1999 👍\u200B' } });
    assert.deepEqual([pasted.status, (pasted.body['state'] as PageState | undefined)?.turns[0]?.text], [200, 'an action movie from 1999 👍'], pasted.text);
    // Bodies that are not a message: one line each.
    for (const body of [{}, { text: 5 }, { text: 'a', extra: 1 }, [], { tool: 'inform' }]) {
      const bad = await call(s.base, 'POST', `/api/sessions/${id}/messages`, { code, body });
      assert.deepEqual([bad.status, bad.body['error']], [400, 'the body is {"text": "..."} or {"tool": "...", "arguments": {...}}'], JSON.stringify(body));
    }
    assert.deepEqual(((x) => [x.status, x.body['error']])(await call(s.base, 'POST', `/api/sessions/${id}/messages`, { code, raw: '{"text": ' })), [400, 'invalid JSON body']);
    // The pages: a CSP without inline script, no referrer (the code is in the page's URL), and text set with textContent only.
    for (const path of ['/', `/p/${code}`, '/admin']) {
      const page = await call(s.base, 'GET', path);
      assert.equal(page.status, 200, path);
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      assert.doesNotMatch(page.text, /<script>|\son[a-z]+=/, 'inline script');
    }
    assert.match((await call(s.base, 'GET', `/p/${code}`)).text, /id="text"[^>]*maxlength="300"/);
    for (const f of ['study.js', 'study-admin.js']) assert.doesNotMatch(readFileSync(join(repoRoot, 'src', 'serve', 'web', f), 'utf8'), /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/, f);
  } finally {
    await s.stop();
  }
});

test('an agent that cannot play at all (its endpoint never answered): the session is set aside, the participant reads one neutral line, the log has the reason once, without a stack trace', { skip: noSqlite }, async () => {
  const made = smallStudy('unplayable', ['rl-soft'], { participants: 1, sessionsPerParticipant: 1 });
  const down = async (): Promise<AgentTransport> => ({ name: 'down', connect: () => ({ send: async () => Promise.reject(new Error('http://127.0.0.1:9/v1 (model m): the endpoint has not answered once')), close: async () => {} }) });
  const s = await serve(made.dir, { open: down });
  try {
    const code = made.participants[0]?.code as string;
    const id = (await call(s.base, 'POST', '/api/sessions', { code, body: {} })).body['id'] as number;
    const r = await call(s.base, 'POST', `/api/sessions/${id}/messages`, { code, body: { text: 'an action movie' } });
    assert.equal(r.status, 502, r.text);
    assert.doesNotMatch(r.text, /endpoint|127\.0\.0\.1|rl-soft/);
    assert.equal(s.log.length, 1, s.log.join('\n---\n'));
    assert.match(s.log[0] ?? '', /^study serve: session 1 \(agent rl-soft\) ended unplayed: /);
    assert.doesNotMatch(s.log.join('\n'), /\n\s+at /, 'no stack trace for an agent that failed');
  } finally {
    await s.stop();
  }
});

test('an agent that cannot be opened (an LLM key variable not set) stops the server at its start, in one line: it would have blocked every participant, each new session taking its slot', { skip: noSqlite }, async () => {
  const made = smallStudy('keyless', ['rl-soft', { label: 'keyless', llm: 'm', llmUrl: 'http://127.0.0.1:9/v1', llmKeyEnv: 'DIALOGYM_TEST_NO_SUCH_KEY' }]);
  const store = StudyStore.open(made.dir);
  const server = createStudyServer(store, { logError: () => {}, llmSystem: (req) => llmSystemMessage(req) });
  try {
    await assert.rejects(server.listen(0, '127.0.0.1'), /^ConfigError: agent keyless: llmKeyEnv: the environment variable DIALOGYM_TEST_NO_SUCH_KEY is not set$/);
  } finally {
    await server.close();
    store.close();
  }
});

test('an LLM agent whose requests fail, session after session, fails each of those sessions (counted) all afternoon: no failure budget stops it for good and blocks the participants', { skip: noSqlite }, async () => {
  // The endpoint answers the first request, then refuses every other with a 400 (a failure for good, not retried).
  await withLlmServer({ faults: (n) => (n > 1 ? { status: 400 } : undefined) }, async (llm) => {
    const made = createStudy(join(tmp, 'flaky'), studyConfig({ env: 'restaurant-task5-v2', agents: [{ label: 'llm', llm: 'm', llmUrl: llm.url }], participants: 1, sessionsPerParticipant: 14, seed: 2 }));
    const s = await serve(made.dir, { llmSystem: (req) => llmSystemMessage(req) });
    try {
      const code = made.participants[0]?.code as string;
      for (let i = 0; i < 14; i++) {
        const id = (await call(s.base, 'POST', '/api/sessions', { code, body: {} })).body['id'] as number;
        let r: Answer;
        let said = 0;
        do r = await call(s.base, 'POST', `/api/sessions/${id}/messages`, { code, body: { text: said++ === 0 ? 'hello' : 'i want italian food' } });
        while (r.status === 200 && r.body['status'] === 'open' && said < 5);
        assert.deepEqual([r.status, r.body['status']], [200, 'finished'], `session ${i + 1}: ${r.text}`);
      }
      const rows = s.store.sessions('finished');
      assert.equal(rows.length, 14);
      assert.deepEqual([...new Set(rows.map((x) => x.outcome?.failure))], ['llm error'], 'every session a counted failure of the agent');
      assert.deepEqual(s.log, []);
    } finally {
      await s.stop();
    }
  });
});

test('security: a participant cannot learn the agent — no label, transport name or transport error on the page, in the API or its headers; an agent that fails is one neutral line', { skip: noSqlite }, async () => {
  // Two agents with telling labels: one of dialogym's, one process that dies at once.
  const dying = `${JSON.stringify(process.execPath)} -e "process.exit(7)"`;
  const made = smallStudy('blind', [{ label: 'Zeta-Agent-One', agent: 'rl-soft' }, { label: 'Omega-Agent-Two', cmd: dying }], { participants: 1, sessionsPerParticipant: 4 });
  const s = await serve(made.dir, { timeoutMs: 10_000 });
  try {
    const code = made.participants[0]?.code as string;
    const seen: Answer[] = [];
    for (let i = 0; i < 4; i++) seen.push(...(await playSession(s.base, code)));
    seen.push(await call(s.base, 'GET', '/api/me', { code }), await call(s.base, 'GET', `/p/${code}`), await call(s.base, 'GET', '/study.js'));
    for (const id of (seen.at(-3)?.body['sessions'] as Array<{ id: number }>).map((x) => x.id)) seen.push(await call(s.base, 'GET', `/api/sessions/${id}`, { code }));
    const everything = seen.map((a) => `${a.text}\n${[...a.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}`).join('\n').toLowerCase();
    for (const secret of ['zeta', 'omega', 'agent-one', 'agent-two', 'rl-soft', 'exited', 'exit code', 'process', 'stdio', 'no reply within', 'agent exited', String(process.execPath).toLowerCase()]) assert.ok(!everything.includes(secret), `"${secret}" reaches the participant`);
    // Both agents played (the store knows); the dying one's sessions ended as failures, told neutrally.
    const rows = s.store.sessions('finished');
    assert.deepEqual(rows.map((r) => r.agent).sort(), ['Omega-Agent-Two', 'Omega-Agent-Two', 'Zeta-Agent-One', 'Zeta-Agent-One']);
    for (const r of rows.filter((x) => x.agent === 'Omega-Agent-Two')) {
      assert.equal(r.outcome?.success, false);
      assert.equal(r.outcome?.failure, 'agent exited');
      const page = await call(s.base, 'GET', `/api/sessions/${r.id}`, { code });
      assert.deepEqual((page.body['outcome'] as { lines: string[] }).lines, ['The task was not completed.', NEUTRAL_FAILURE]);
    }
  } finally {
    await s.stop();
  }
});
