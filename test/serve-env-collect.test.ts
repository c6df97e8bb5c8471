/**
 * `dialogym serve --env … --transcripts <file>`: what people say becomes data. The CLI serves the
 * API, scripted people play a few dialogs through it (as the user of restaurant-task5-v2 against
 * rules, of dstc6-task5-tst1-v2 against rules and of infobot-medium-v1 against rl-soft, as the agent
 * of airdialogue-v2); each finished
 * dialog is one transcript line (an abandoned one none), `dialogym export` makes the testbed's
 * dataset of them, and the existing readers and trainers take it with the person's words in it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../src/index.js';
import { createRng } from '../src/core/rng.js';
import type { EpisodeRecord } from '../src/evaluation/evaluate.js';
import type { GoalCard } from '../src/env/person.js';
import type { SessionState } from '../src/serve/env-session.js';
import { readBabiDialogs } from '../src/formats/babi.js';
import { readAirDialogue } from '../src/formats/airdialogue.js';
import { dstc6History, readDstc6Data } from '../src/formats/dstc6.js';
import { readInfoBotDialogs } from '../src/testbeds/infobot/export.js';
import { restaurantUserParticipant } from '../src/testbeds/restaurant/testing/person-user.js';
import { infoBotUserParticipant } from '../src/testbeds/infobot/testing/person-user.js';
import { airAgentPerson, playEnvDialog, restaurantAgentPerson, type Person } from './serve-env-people.js';
import { bareServer, defaultWebDir } from '../src/serve/server.js';
import { registerEnvRoutes } from '../src/serve/env-routes.js';
import { cli, oneLineError } from './cli.js';
import { cliPath } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-collect-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** `dialogym serve --env …` on a free port; its URL and a stop that sends SIGTERM and resolves with the exit code and stderr. */
async function serve(...args: string[]): Promise<{ url: string; stop: () => Promise<{ code: number | null; stderr: string }> }> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no serving line: ${err}`)), 60_000);
    const look = (): void => {
      const m = /^serving \S+ on (http:\/\/\S+)\/env: /m.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1] as string);
      }
    };
    child.stderr.on('data', look);
    void exited.then(() => reject(new Error(`the server exited: ${err}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      return { code: await exited, stderr: err };
    },
  };
}

async function call(url: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`${url}${path}`, { method, ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

/** One dialog through the HTTP API, the person's turns until it ends. */
async function playDialog(url: string, person: Person): Promise<SessionState> {
  return (await playEnvDialog((method, path, body) => call(url, method, path, body), person)).state;
}

const lastAgent = (s: SessionState): string => [...s.turns].reverse().find((t) => t.speaker === 'agent')?.text ?? '';
const userWords = (s: SessionState): string[] => s.turns.filter((t) => t.speaker === 'user').map((t) => t.text);

/** The transcript file's records; every line whole (the file ends with a line break). */
function records(file: string): EpisodeRecord[] {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'), 'no half line');
  return text.trimEnd().split('\n').map((l) => JSON.parse(l) as EpisodeRecord);
}

test('restaurant-task5-v2, a person as the user against rules: 3 finished dialogs appended (an abandoned one not), exported as bAbI text with the person\'s words, and memn2n trains on them', async () => {
  const file = join(tmp, 'runs', 'restaurant.jsonl'); // runs/ does not exist yet
  const server = await serve('--env', 'restaurant-task5-v2', '--agent', 'rules', '--seed', '5', '--transcripts', file);
  const played: string[][] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const say = restaurantUserParticipant(createRng(10 + i));
      const state = await playDialog(server.url, (s) => say(s.goalCard as GoalCard, s.hint, lastAgent(s)));
      assert.equal(state.outcome?.success, true, state.outcome?.lines.join(' '));
      played.push(userWords(state));
      assert.equal(records(file).length, i + 1, 'appended as the dialog ends');
    }
    // A dialog left half-way is not written.
    const id = (await call(server.url, 'POST', '/api/env/sessions', {})).json['id'] as string;
    await call(server.url, 'POST', `/api/env/sessions/${id}/send`, { text: 'hello there' });
    assert.equal(((await call(server.url, 'POST', `/api/env/sessions/${id}/end`)).json['state'] as SessionState).outcome?.failure, 'abandoned');
  } finally {
    const { code, stderr } = await server.stop();
    assert.equal(code, 0, stderr);
    assert.match(stderr, new RegExp(`finished dialogs appended to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
  }
  const recs = records(file);
  assert.deepEqual(recs.map((r) => [r.env, r.seed, r.episode, r.success]), [['restaurant-task5-v2', 5, 0, true], ['restaurant-task5-v2', 6, 1, true], ['restaurant-task5-v2', 7, 2, true]]);

  const out = join(tmp, 'babi');
  const r = cli('export', file, '--out', out, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { dialogs: number }).dialogs, 3);
  const dialogFile = join(out, 'dialog-babi-task5-collected.txt');
  const { dialogs } = readBabiDialogs(dialogFile);
  assert.equal(dialogs.length, 3);
  dialogs.forEach((d, i) => assert.deepEqual(d.turns.filter((t) => t.speaker === 'user' && t.text !== '<SILENCE>').map((t) => t.text), played[i], `dialog ${i}: the person's words`));
  // memn2n trains on the first two collected dialogs, the third its dev set (each exported on its own).
  const lines = readFileSync(file, 'utf8').split('\n');
  writeFileSync(join(tmp, 'train.jsonl'), `${lines[0]}\n${lines[1]}\n`);
  writeFileSync(join(tmp, 'dev.jsonl'), `${lines[2]}\n`);
  for (const part of ['train', 'dev']) assert.equal(cli('export', join(tmp, `${part}.jsonl`), '--out', join(tmp, `babi-${part}`)).code, 0);
  const t = cli('train', '--model', 'memn2n', '--train', join(tmp, 'babi-train', 'dialog-babi-task5-collected.txt'), '--dev', join(tmp, 'babi-dev', 'dialog-babi-task5-collected.txt'), '--candidates', join(tmp, 'babi-train', 'dialog-babi-candidates.txt'), '--epochs', '1', '--out', join(tmp, 'm.dgm'), '--json');
  assert.equal(t.code, 0, t.stderr);
  const dev = (JSON.parse(t.stdout) as { dev: number }).dev;
  assert.ok(dev > 0 && dev <= 1, `dev accuracy ${dev}`);
  process.stdout.write(`# collected restaurant-task5-v2: 3 dialogs → bAbI → memn2n 1 epoch, dev ${dev}\n`);
});

test('infobot-medium-v1, a person as the user against rl-soft: a second server appends to the same file; the dialog records hold the person\'s words', async () => {
  const file = join(tmp, 'infobot.jsonl');
  const played: string[][] = [];
  for (const [run, seed] of [[0, 1], [1, 3]] as const) {
    const server = await serve('--env', 'infobot-medium-v1', '--agent', 'rl-soft', '--seed', String(seed), '--transcripts', file);
    try {
      for (let i = 0; i < 2; i++) {
        const say = infoBotUserParticipant(createRng(30 + 2 * run + i));
        const state = await playDialog(server.url, (s) => say(s.goalCard as GoalCard, s.hint, lastAgent(s)));
        assert.equal(state.waiting, 'ended');
        played.push(userWords(state));
      }
    } finally {
      const { code, stderr } = await server.stop();
      assert.equal(code, 0, stderr);
      if (run === 1) assert.match(stderr, /\(2 there already\)\n/);
    }
  }
  const recs = records(file);
  assert.deepEqual(recs.map((r) => [r.seed, r.episode]), [[1, 0], [2, 1], [3, 2], [4, 3]]);
  const out = join(tmp, 'ib');
  const r = cli('export', file, '--out', out, '--json');
  assert.equal(r.code, 0, r.stderr);
  const dialogs = readInfoBotDialogs(join(out, 'infobot-dialogs.jsonl'));
  assert.equal(dialogs.length, 4);
  dialogs.forEach((d, i) => {
    // The person's words, then the closing user turn after the inform: its act is the simulated user's, its words none (the person typed none).
    assert.deepEqual(d.turns.filter((t) => t.speaker === 'user').map((t) => (t as { text: string }).text), [...(played[i] ?? []), ''], `dialog ${i}: the person's words`);
    assert.equal(d.success, recs[i]?.success);
  });
  process.stdout.write(`# collected infobot-medium-v1 vs rl-soft: ${dialogs.filter((d) => d.success).length}/4 successes, read back\n`);
});

test('airdialogue-v2, a person as the agent: exported as AirDialogue JSON lines with the person\'s words; the scorer gives the rewards the environment gave', async () => {
  const file = join(tmp, 'air.jsonl');
  const server = await serve('--env', 'airdialogue-v2', '--as', 'agent', '--seed', '2', '--transcripts', file);
  const said: string[][] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const state = await playDialog(server.url, airAgentPerson(createRng(i)));
      assert.equal(state.outcome?.success, true, state.outcome?.lines.join(' '));
      said.push(state.turns.filter((t) => t.speaker === 'agent').map((t) => t.text));
    }
  } finally {
    const { code, stderr } = await server.stop();
    assert.equal(code, 0, stderr);
  }
  const recs = records(file);
  const out = join(tmp, 'air');
  const r = cli('export', file, '--out', out, '--json');
  assert.equal(r.code, 0, r.stderr);
  const examples = readAirDialogue(join(out, 'collected_data.json'), join(out, 'collected_kb.json'));
  assert.equal(examples.length, 3);
  examples.forEach((ex, i) => {
    const agentLines = (ex.data.dialogue ?? []).filter((l) => l.startsWith('agent: ')).map((l) => l.slice('agent: '.length));
    // The person's utterances (the page shows the final act's words beside them).
    for (const line of agentLines) assert.ok(said[i]?.some((s) => s.startsWith(line)), `dialog ${i}: ${line}`);
    assert.ok(agentLines.length > 0);
  });
  const score = cli('airdialogue', 'score', '--data', join(out, 'collected_data.json'), '--kb', join(out, 'collected_kb.json'), '--json');
  assert.equal(score.code, 0, score.stderr);
  const total = (JSON.parse(score.stdout) as { total: number }).total;
  const mean = recs.reduce((s, x) => s + x.reward, 0) / recs.length;
  assert.ok(Math.abs(total - mean) < 1e-12, `scorer ${total} vs reward ${mean}`);
  process.stdout.write(`# collected airdialogue-v2, person as agent: 3 dialogs, official score ${total}\n`);
});

test('dstc6-task5-tst1-v2, a person as the user against rules: exported as DSTC6 JSON whose contexts hold the person\'s words; dstc6 check takes it', async () => {
  const file = join(tmp, 'dstc6.jsonl');
  const server = await serve('--env', 'dstc6-task5-tst1-v2', '--agent', 'rules', '--transcripts', file);
  const played: string[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const say = restaurantUserParticipant(createRng(40 + i));
      const state = await playDialog(server.url, (s) => say(s.goalCard as GoalCard, s.hint, lastAgent(s)));
      assert.equal(state.outcome?.success, true, state.outcome?.lines.join(' '));
      played.push(...userWords(state));
    }
  } finally {
    const { code, stderr } = await server.stop();
    assert.equal(code, 0, stderr);
  }
  const r = cli('export', file, '--out', join(tmp, 'd6'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const [dataFile, answersFile] = (JSON.parse(r.stdout) as { files: string[] }).files as [string, string];
  const said = new Set(readDstc6Data(dataFile).flatMap((e) => dstc6History(e.utterances).filter((t) => t.speaker === 'user').map((t) => t.text)));
  for (const w of played) assert.ok(said.has(w), `the person's "${w}" in the contexts`);
  const check = cli('dstc6', 'check', answersFile, '--data', dataFile, '--json');
  assert.equal(check.code, 0, check.stderr);
  assert.equal((JSON.parse(check.stdout) as { valid: boolean }).valid, true);
});

test('a file whose last line a kill cut: the cut line is dropped before the next record, the whole ones kept and numbered after', async () => {
  const file = join(tmp, 'cut.jsonl');
  const whole = JSON.stringify({ env: 'restaurant-task5-v2', seed: 1, episode: 0, trial: 0, success: true }) + '\n';
  writeFileSync(file, whole + '{"env": "restaurant-task5-v2", "epis');
  const server = await serve('--env', 'restaurant-task5-v2', '--agent', 'rules', '--seed', '20', '--transcripts', file);
  try {
    const say = restaurantUserParticipant(createRng(20));
    await playDialog(server.url, (s) => say(s.goalCard as GoalCard, s.hint, lastAgent(s)));
  } finally {
    const { code, stderr } = await server.stop();
    assert.equal(code, 0, stderr);
    assert.match(stderr, /\(1 there already\)\n/);
  }
  const lines = readFileSync(file, 'utf8').split('\n');
  assert.equal(lines.length, 3);
  assert.equal(lines[0] + '\n', whole);
  const rec = JSON.parse(lines[1] as string) as EpisodeRecord;
  assert.deepEqual([rec.seed, rec.episode, lines[2]], [20, 1, '']);
});

test('serve --env --transcripts: a bad file is one line at start', () => {
  const dir = join(tmp, 'a-folder');
  mkdirSync(dir, { recursive: true });
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--transcripts', dir), new RegExp(`^error: --transcripts: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is a directory, not a file$`), 2);
  const junk = join(tmp, 'junk.jsonl');
  writeFileSync(junk, 'hello\n');
  oneLineError(cli('serve', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--transcripts', junk), /junk\.jsonl:1: not a transcript line \(invalid JSON\)$/);
  assert.equal(readFileSync(junk, 'utf8'), 'hello\n', 'left as it was');
  oneLineError(cli('serve', '--model', 'rules', '--transcripts', join(tmp, 'x.jsonl')), /^error: --transcripts applies to --env \(a person in an environment's episodes\): give --env <id> too$/, 2);
  assert.equal(existsSync(join(tmp, 'x.jsonl')), false);
});

test('the routes hand each finished dialog to onRecord once; a failing onRecord is one logged line and the dialog ends as played', async () => {
  const kept: EpisodeRecord[] = [];
  const logged: string[] = [];
  let calls = 0;
  const server = bareServer({ bodyLimit: 16_384 });
  registerEnvRoutes(server.app, {
    envId: 'restaurant-task5-v2',
    role: 'agent',
    firstSeed: 1,
    webDir: defaultWebDir(),
    idleMs: 60_000,
    onRecord: (r) => {
      if (calls++ === 0) throw new Error('ENOSPC: no space left on device, write\nsecond line');
      kept.push(r);
    },
    logError: (t) => logged.push(t),
  });
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const r = await server.app.inject({ method, url, ...(body !== undefined ? { payload: body as object } : {}) });
    return { status: r.statusCode, json: JSON.parse(r.body) as Record<string, unknown> };
  };
  try {
    for (let i = 0; i < 3; i++) assert.equal((await playEnvDialog(call, restaurantAgentPerson())).state.outcome?.success, true);
    // One left before its end: not handed over, on /end nor when the server closes.
    const id = (await call('POST', '/api/env/sessions', {})).json['id'] as string;
    await call('POST', `/api/env/sessions/${id}/end`);
    await call('POST', '/api/env/sessions', {});
  } finally {
    await server.close();
  }
  assert.equal(calls, 3);
  assert.deepEqual(kept.map((r) => r.seed), [2, 3]);
  assert.deepEqual(logged, ["serve --env: a finished dialog's record not kept: ENOSPC: no space left on device, write"]);
});
