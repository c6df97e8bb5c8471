/**
 * `kill -9` of the real `dialogym study serve` process mid-study, then a restart: no finished
 * session is lost or counted twice, the session interrupted mid-dialog is marked abandoned (its
 * participant told so, neutrally) and its slot played again, and the study completes balanced.
 * Once between requests (deterministic: a session open with its first turns), once at whatever
 * moment five sessions are finished while four participants play concurrently (requests in
 * flight).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { studyConfig } from '../src/study/config.js';
import { createStudy, StudyStore, type AdminSession, type CreatedStudy } from '../src/study/store.js';
import { call, playAll, playSession } from './study-serve-client.js';
import { cliPath, skipUnlessSqlite } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-study-serve-crash-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const noSqlite = skipUnlessSqlite();
const AGENTS = ['rl-hard', 'rule-soft', 'rl-soft', 'e2e-soft'];
const PARTICIPANTS = 4;
const SESSIONS = 6;

const makeStudy = (name: string): CreatedStudy => createStudy(join(tmp, name), studyConfig({ env: 'infobot-medium-v1', agents: AGENTS, participants: PARTICIPANTS, sessionsPerParticipant: SESSIONS, seed: 5 }));

/** The finished sessions of a study, read through a second connection (WAL: readers never block the server). */
function finishedRows(dir: string): AdminSession[] {
  const store = StudyStore.open(dir);
  try {
    return store.sessions('finished');
  } finally {
    store.close();
  }
}

/** `dialogym study serve <dir> --port 0` as a child process: its base URL, its stderr so far, its exit. */
async function startServer(dir: string): Promise<{ child: ChildProcess; base: string; stderr: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const child = spawn(process.execPath, [cliPath, 'study', 'serve', dir, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error('the server did not end within 120 s')), 120_000);
    guard.unref();
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal });
    });
  });
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
      const m = /study serve on (http:\/\/[\d.]+:\d+)/.exec(err);
      if (m) resolve(m[1] as string);
    });
    void exited.then(() => reject(new Error(`the server ended before it listened: ${err}`)));
  });
  return { child, base, stderr: () => err, exited };
}

/** After the restart: the study completes through HTTP; every earlier finished session kept as it was, none doubled, the agents balanced. */
async function completeAndCheck(made: CreatedStudy, base: string, before: readonly AdminSession[]): Promise<void> {
  await Promise.all(made.participants.map((p) => playAll(base, p.code)));
  const after = finishedRows(made.dir);
  assert.equal(after.length, PARTICIPANTS * SESSIONS);
  const byId = new Map(after.map((s) => [s.id, s]));
  for (const s of before) assert.deepEqual(byId.get(s.id), s, `session ${s.id} changed`);
  const keys = after.map((s) => `${s.participant}#${s.number}`);
  assert.equal(new Set(keys).size, keys.length, 'a session number counted twice');
  const slots = after.map((s) => s.slot).sort((a, b) => a - b);
  assert.deepEqual(slots, Array.from({ length: PARTICIPANTS * SESSIONS }, (_, i) => i), 'every slot finished once');
  const store = StudyStore.open(made.dir);
  try {
    for (const p of store.participantLabels()) assert.equal(store.participantByLabel(p)?.finished, SESSIONS);
    assert.deepEqual(Object.values(store.counts().perAgent), AGENTS.map(() => (PARTICIPANTS * SESSIONS) / AGENTS.length));
    assert.equal(store.counts().open, 0);
  } finally {
    store.close();
  }
}

test('kill -9 of `dialogym study serve` with a session mid-dialog, then restart: the finished sessions all there once, the interrupted one abandoned, its participant told, its slot played again', { skip: noSqlite }, async () => {
  const made = makeStudy('held');
  const first = await startServer(made.dir);
  const codes = made.participants.map((p) => p.code);
  // Nine sessions finished, round-robin; then p2 starts one and says one thing.
  for (let i = 0; i < 9; i++) await playSession(first.base, codes[i % PARTICIPANTS] as string);
  const held = await playSession(first.base, codes[1] as string, { stopAfterMessages: 1 });
  const heldId = held[0]?.body['id'] as number;
  assert.equal(held.at(-1)?.body['status'], 'open');
  const before = finishedRows(made.dir);
  assert.equal(before.length, 9);
  // A second server (and scripted participants) on the same folder are refused in one line while the first holds the study; the conversation in progress stays open.
  const port = new URL(first.base).port;
  for (const args of [['serve', made.dir, '--port', '0'], ['simulate', made.dir]]) {
    const r = spawnSync(process.execPath, [cliPath, 'study', ...args], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.stderr, `error: ${made.dir}: the study is being served by process ${first.child.pid} (port ${port}); stop it first\n`, `study ${args[0]}`);
    assert.notEqual(r.status, 0);
  }
  assert.equal((await call(first.base, 'GET', `/api/sessions/${heldId}`, { code: codes[1] as string })).body['status'], 'open', 'the live conversation was abandoned');
  first.child.kill('SIGKILL');
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
  // After the kill: the nine as they were, the tenth open with its first turns.
  const store = StudyStore.open(made.dir);
  try {
    assert.deepEqual(store.sessions('finished'), before);
    assert.deepEqual(store.sessions('open').map((s) => s.id), [heldId]);
    assert.ok(store.turns(heldId).length >= 2);
  } finally {
    store.close();
  }
  const second = await startServer(made.dir);
  try {
    assert.match(second.stderr(), /^1 session left open by an earlier run marked abandoned \(not counted; their slots go to the next sessions\)$/m);
    const code = codes[1] as string;
    // Its participant sees it set aside; writing to it is refused in one neutral line.
    assert.equal((await call(second.base, 'GET', `/api/sessions/${heldId}`, { code })).body['status'], 'abandoned');
    const late = await call(second.base, 'POST', `/api/sessions/${heldId}/messages`, { code, body: { text: 'hello' } });
    assert.deepEqual([late.status, late.body['error']], [409, 'this conversation was interrupted and set aside (it does not count): start the next one']);
    assert.equal(((await call(second.base, 'GET', '/api/me', { code })).body['sessions'] as unknown[]).length, 2, 'the abandoned session is not listed');
    // A session finished before the kill shows its outcome in words and its goal card again.
    const old = before.find((r) => r.participant === 'p2') as AdminSession;
    const shown = await call(second.base, 'GET', `/api/sessions/${old.id}`, { code });
    assert.equal(shown.body['status'], 'finished');
    assert.match((shown.body['outcome'] as { lines: string[] }).lines[0] as string, old.outcome?.success ? /^Success: the agent found your movie\.$/ : /^Failure: /);
    assert.equal((shown.body['goalCard'] as { title: string }).title, 'Find a movie');
    await completeAndCheck(made, second.base, before);
    // The admin's token and the codes never reach the server's output, wrong tokens included.
    assert.equal((await call(second.base, 'GET', '/api/admin', { token: made.adminToken })).status, 200);
    assert.equal((await call(second.base, 'GET', '/api/admin', { token: `${made.adminToken}x` })).status, 403);
    assert.equal((await call(second.base, 'GET', '/api/me', { code: `${code}x` })).status, 403);
  } finally {
    second.child.kill('SIGTERM');
    assert.deepEqual(await second.exited, { code: 0, signal: null });
  }
  for (const out of [first.stderr(), second.stderr()]) for (const secret of [made.adminToken, ...codes]) assert.ok(!out.includes(secret), 'a secret in the server output');
  assert.match(second.stderr(), /^SIGTERM: shutting down/m);
});

test('kill -9 of `dialogym study serve` at any moment, four participants playing concurrently, then restart: nothing a participant saw finished is lost, nothing doubled', { skip: noSqlite }, async () => {
  const made = makeStudy('anytime');
  const first = await startServer(made.dir);
  // What the participants were told finished, before the kill.
  const seenFinished = new Set<number>();
  let killed = false;
  const players = made.participants.map(async (p) => {
    try {
      while (!killed) {
        const seen = await playSession(first.base, p.code);
        const last = seen.at(-1);
        if (last?.body['status'] === 'finished') seenFinished.add(last.body['id'] as number);
      }
    } catch {
      /* the server is gone */
    }
  });
  let before: AdminSession[] = [];
  while (before.length < 5) {
    await new Promise((r) => setTimeout(r, 10));
    before = finishedRows(made.dir);
  }
  first.child.kill('SIGKILL');
  killed = true;
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
  await Promise.all(players);
  before = finishedRows(made.dir);
  const ids = new Set(before.map((s) => s.id));
  for (const id of seenFinished) assert.ok(ids.has(id), `session ${id} was finished for its participant and is lost`);
  assert.ok(before.length >= 5 && before.length < PARTICIPANTS * SESSIONS, `${before.length} finished when killed`);
  const second = await startServer(made.dir);
  try {
    await completeAndCheck(made, second.base, before);
  } finally {
    second.child.kill('SIGTERM');
    assert.deepEqual(await second.exited, { code: 0, signal: null });
  }
  process.stdout.write(`# study serve kill -9: ${before.length} finished at the kill (${seenFinished.size} seen by the participants), ${PARTICIPANTS * SESSIONS} after the restart\n`);
});
