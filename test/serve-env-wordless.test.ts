/**
 * `serve --env` as the user: a person is never locked out by a wordless turn. Against an agent
 * that waits when it does not understand ("whenever you're ready"), the -v2 simulated user stays
 * silent (`<SILENCE>`, the environment's wordless turn); the person voice declares
 * `speaksOnWordless`, so the person is asked on that turn too (the state says `wordless`): words
 * go to the agent in place of the silence, empty text lets the turn pass. On a normal turn empty
 * text stays a 400.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import { createRng } from '../src/core/rng.js';
import type { Turn } from '../src/core/dialog.js';
import { WAIT, waitingAgent } from './waiting-agent.js';
import { openAgent } from '../src/evaluation/open.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { createAgent } from '../src/agents/registry.js';
import type { UserTurn, UserVoice } from '../src/agents/user-voice.js';
import { bareServer, defaultWebDir, type ChatServer } from '../src/serve/server.js';
import { registerEnvRoutes } from '../src/serve/env-routes.js';
import type { SessionState } from '../src/serve/env-session.js';
import type { EpisodeRecord } from '../src/evaluation/evaluate.js';
import { restaurantUserParticipant } from '../src/testbeds/restaurant/testing/person-user.js';

async function call(server: ChatServer, method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await server.app.inject({ method, url, ...(body !== undefined ? { payload: body as object } : {}) });
  return { status: r.statusCode, json: r.body === '' ? {} : (JSON.parse(r.body) as Record<string, unknown>) };
}

async function settle(server: ChatServer, id: string, state: SessionState): Promise<SessionState> {
  let s = state;
  while (s.waiting === 'other') s = (await call(server, 'GET', `/api/env/sessions/${id}?wait=1`)).json['state'] as SessionState;
  return s;
}

/** The person's send: 200 and the state once the other side answered. */
async function send(server: ChatServer, id: string, text: string): Promise<SessionState> {
  const r = await call(server, 'POST', `/api/env/sessions/${id}/send`, { text });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return settle(server, id, r.json['state'] as SessionState);
}

function agentSaid(s: SessionState): string {
  return [...s.turns].reverse().find((t) => t.speaker === 'agent')?.text ?? '';
}

test('as the user against an agent that waits: the person is asked on the silent turn, speaks, and the dialog goes on to success; empty text there passes it, on a normal turn it is a 400', async () => {
  const rules = await openAgent({ kind: 'builtin', name: 'rules' });
  const server = bareServer({ bodyLimit: 16_384 });
  const records: EpisodeRecord[] = [];
  registerEnvRoutes(server.app, { firstSeed: 1, webDir: defaultWebDir(), envId: 'restaurant-task5-v2', role: 'user', agent: waitingAgent(rules), idleMs: 60_000, onRecord: (r) => records.push(r) });
  try {
    const created = await call(server, 'POST', '/api/env/sessions', {});
    assert.equal(created.status, 201);
    const id = created.json['id'] as string;
    let s = await settle(server, id, created.json['state'] as SessionState);
    assert.equal(s.waiting, 'person');
    assert.equal(s.wordless, undefined, 'the opening is a normal turn');
    // On a normal turn empty text is refused, as before.
    assert.deepEqual(await call(server, 'POST', `/api/env/sessions/${id}/send`, { text: '' }), { status: 400, json: { error: 'text is empty' } });
    const say = restaurantUserParticipant(createRng(7));
    const card = s.goalCard;
    assert.ok(card);
    // The person opens the dialog; then, asked by the agent, hesitates: the agent waits, and the simulated user, which has
    // (through the person) answered, has nothing new to say — the person is asked anyway.
    s = await send(server, id, say(card, s.hint, agentSaid(s)));
    assert.equal(s.waiting, 'person');
    const question = agentSaid(s);
    const hint = s.hint;
    s = await send(server, id, 'hmm');
    assert.equal(agentSaid(s), WAIT);
    assert.equal(s.waiting, 'person', 'the person is asked on the silent turn');
    assert.equal(s.wordless, true);
    // Empty text passes the silent turn: the agent waits again, the person is asked again.
    s = await send(server, id, '');
    assert.equal(s.waiting, 'person');
    assert.equal(s.wordless, true);
    assert.equal(s.turns.filter((t) => t.speaker === 'agent' && t.text === WAIT).length, 2);
    assert.equal(s.turns.some((t) => t.speaker === 'user' && t.text === ''), false, 'a passed turn is no empty line');
    // Now the person speaks on the silent turn: the agent reads the words and the dialog goes on.
    const words = say(card, hint, question);
    s = await send(server, id, words);
    assert.notEqual(agentSaid(s), WAIT);
    assert.ok(s.turns.some((t) => t.speaker === 'user' && t.text === words), 'the words are in the dialog');
    let n = 0;
    while (s.waiting === 'person') {
      assert.ok(n++ < 60, 'the dialog ends');
      s = await send(server, id, s.wordless ? '' : say(card, s.hint, agentSaid(s)));
    }
    assert.equal(s.outcome?.success, true, s.outcome?.lines.join(' '));
    // The record: the person's words as typed on the silent turn, the passed turn as the environment's silence.
    const record = records[0];
    assert.ok(record && record.success);
    const users = ((record.observation as { history: Turn[] }).history).filter((t) => t.speaker === 'user').map((t) => t.text);
    assert.deepEqual(users.slice(1, 4), ['hmm', '<SILENCE>', words]);
    assert.deepEqual(record.actions.slice(1, 3), [WAIT, WAIT]);
    process.stdout.write(`# waiting agent, the person speaks on the silent turn: success after ${n + 4} person turns, ${record.turns} agent turns\n`);
  } finally {
    await server.close();
  }
});

test('evaluate: a voice that declares speaksOnWordless is asked on the wordless turns too (marked, the template the wordless text); \'\' passes them (the same records as a voice that is not asked), words replace them for the agent', async () => {
  const asked: UserTurn[] = [];
  const voice = (speaksOnWordless: boolean, onSilence: (t: UserTurn) => string): UserVoice => ({
    name: 'echo',
    speaksOnWordless,
    connect: () => ({
      say: async (t) => {
        asked.push(t);
        return { text: t.wordless ? onSilence(t) : t.template };
      },
    }),
  });
  const run = async (v: UserVoice) => JSON.stringify((await evaluate('restaurant-task5-v2', createAgent('rules'), { episodes: 3, seed: 4, userVoice: v })).records);
  const plain = await run(voice(false, () => assert.fail('not asked')));
  assert.equal(asked.some((t) => t.wordless !== undefined), false);
  const normal = asked.length;
  asked.length = 0;
  assert.equal(await run(voice(true, () => '')), plain, "'' lets every wordless turn pass: the same records");
  const silent = asked.filter((t) => t.wordless === true);
  assert.equal(asked.length - silent.length, normal, 'the other turns asked as before');
  assert.ok(silent.length > 0 && silent.every((t) => t.template === '<SILENCE>'), 'the wordless turns asked, their template the wordless text');
  // Words on a wordless turn replace it in what the agent reads (and in the record's dialog).
  const spoken = JSON.parse(await run(voice(true, (t) => (t.turn === silent[0]?.turn && t.episode === silent[0]?.episode ? 'sorry, go on' : '')))) as Array<{ observation: { history: Turn[] } }>;
  const ep = silent[0]?.episode as number;
  assert.ok(spoken[ep]?.observation.history.some((t) => t.speaker === 'user' && t.text === 'sorry, go on'));
  process.stdout.write(`# evaluate restaurant-task5-v2, rules, 3 episodes: ${silent.length} wordless user turns asked of a speaksOnWordless voice (${normal} others)\n`);
});
