/**
 * `kill -9` mid-study, then a restart: no finished session is lost or counted twice. A child
 * process drives the study's store (scripted participants) and is killed with SIGKILL — once held
 * in the middle of a session (deterministic: its agent stops answering at a chosen session), once
 * at whatever moment it has finished five sessions (`dialogym study simulate`); the store is then
 * reopened and the study completed.
 *
 * Run with `--child <dir> <n>`, this file is the child: it plays the study and, after n finished
 * sessions, hangs in the next one after its first agent turn, saying `hung` on stdout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../src/index.js';
import { studyConfig } from '../src/study/config.js';
import { createStudy, StudyStore, type AdminSession } from '../src/study/store.js';
import { simulateStudy } from '../src/study/simulate.js';
import { openStudyAgent } from '../src/study/agents.js';
import type { AgentTransport } from '../src/agents/agent.js';
import { cliPath, skipUnlessSqlite } from './shared-data.js';

const AGENTS = ['rl-hard', 'rule-soft', 'rl-soft', 'e2e-soft'];
const PARTICIPANTS = 4;
const SESSIONS = 10;

if (process.argv[2] === '--child') {
  const dir = process.argv[3] as string;
  const hangAfter = Number(process.argv[4]);
  const store = StudyStore.open(dir);
  let done = 0;
  const hang = async (): Promise<never> => {
    process.stdout.write('hung\n');
    setInterval(() => {}, 1000); // keeps the process alive until it is killed
    return new Promise<never>(() => {});
  };
  await simulateStudy(store, {
    timeoutMs: 600_000,
    onSession: () => void done++,
    open: async (spec): Promise<AgentTransport> => {
      const t = await openStudyAgent(spec);
      return {
        name: t.name,
        connect(lane) {
          const c = t.connect(lane);
          return { send: async (req, ms) => (done >= hangAfter && req.turn === 1 ? hang() : c.send(req, ms)), close: () => c.close() };
        },
      };
    },
  });
  process.exit(3); // never reached: the child is killed while hung
} else {
  const tmp = mkdtempSync(join(tmpdir(), 'dialogym-study-crash-'));
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
  const noSqlite = skipUnlessSqlite();

  const makeStudy = (name: string): string => {
    const dir = join(tmp, name);
    createStudy(dir, studyConfig({ env: 'infobot-medium-v1', agents: AGENTS, participants: PARTICIPANTS, sessionsPerParticipant: SESSIONS, seed: 5 }));
    return dir;
  };
  const finishedRows = (dir: string): AdminSession[] => {
    const store = StudyStore.open(dir);
    try {
      return store.sessions('finished');
    } finally {
      store.close();
    }
  };
  /** The child's exit, or a failure when it does not end within a generous guard. */
  const exited = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
    new Promise((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error('the child did not end within 120 s')), 120_000);
      child.on('exit', (code, signal) => {
        clearTimeout(guard);
        resolve({ code, signal });
      });
    });
  /** After the restart: the study completes with every earlier finished session kept as it was, none doubled, the assignment still balanced. */
  const completeAndCheck = async (dir: string, before: readonly AdminSession[]): Promise<{ abandoned: number }> => {
    const store = StudyStore.open(dir);
    try {
      const run = await simulateStudy(store);
      const after = store.sessions('finished');
      assert.equal(after.length, PARTICIPANTS * SESSIONS);
      assert.equal(run.finished + before.length, PARTICIPANTS * SESSIONS);
      const byId = new Map(after.map((s) => [s.id, s]));
      for (const s of before) assert.deepEqual(byId.get(s.id), s, `session ${s.id} changed`);
      const keys = after.map((s) => `${s.participant}#${s.number}`);
      assert.equal(new Set(keys).size, keys.length, 'a session number counted twice');
      for (const p of store.participantLabels()) assert.equal(store.participantByLabel(p)?.finished, SESSIONS);
      assert.deepEqual(Object.values(store.counts().perAgent), AGENTS.map(() => (PARTICIPANTS * SESSIONS) / AGENTS.length));
      assert.equal(store.counts().open, 0);
      return { abandoned: run.abandoned };
    } finally {
      store.close();
    }
  };

  test('kill -9 in the middle of a session, then restart: the finished sessions are all there once, the interrupted one abandoned and replayed', { skip: noSqlite }, async () => {
    const dir = makeStudy('held');
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', dir, '13'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const ended = exited(child);
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('hung\n')) resolve();
      });
      void ended.then(() => reject(new Error(`the child ended before it hung: ${out}`)));
    });
    const before = finishedRows(dir);
    assert.equal(before.length, 13);
    child.kill('SIGKILL');
    assert.deepEqual(await ended, { code: null, signal: 'SIGKILL' });
    // Reopened after the kill: the 13 finished sessions as they were, the 14th open with its first turns.
    const store = StudyStore.open(dir);
    try {
      assert.deepEqual(store.sessions('finished'), before);
      const open = store.sessions('open');
      assert.equal(open.length, 1);
      const who = store.participantByLabel(open[0]?.participant as string);
      assert.deepEqual(store.sessionView(who?.id as number, open[0]?.id as number)?.turns.map((t) => t.speaker), ['user', 'agent', 'user']);
    } finally {
      store.close();
    }
    assert.deepEqual(await completeAndCheck(dir, before), { abandoned: 1 });
  });

  test('kill -9 of `dialogym study simulate` at any moment, then restart: nothing lost or doubled', { skip: noSqlite }, async () => {
    const dir = makeStudy('anytime');
    const child = spawn(process.execPath, [cliPath, 'study', 'simulate', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    const ended = exited(child);
    let before: AdminSession[] = [];
    let gone = false;
    void ended.then(() => (gone = true));
    // Poll the store (a second connection: WAL readers do not block the writer) until five sessions are finished.
    while (before.length < 5 && !gone) {
      await new Promise((r) => setTimeout(r, 10));
      before = finishedRows(dir);
    }
    child.kill('SIGKILL');
    assert.deepEqual(await ended, { code: null, signal: 'SIGKILL' });
    // The child may finish a few more between the poll and the kill: those at the kill are the ones kept.
    const atKill = finishedRows(dir);
    for (const s of before) assert.deepEqual(atKill.find((x) => x.id === s.id), s, `session ${s.id} changed`);
    assert.ok(atKill.length >= 5 && atKill.length < PARTICIPANTS * SESSIONS, `${atKill.length} finished when killed`);
    const { abandoned } = await completeAndCheck(dir, atKill);
    assert.ok(abandoned <= 1, `${abandoned} sessions were open`);
  });
}
