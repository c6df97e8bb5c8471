/**
 * `dialogym view`: the scan of a folder, the JSON API (runs, summaries recomputed from the records,
 * episode filters, one episode turn by turn, two runs compared, reports and charts) through
 * `app.inject`, bad requests as one-line JSON errors, and the CLI's refusals.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createViewServer, episodeTurns, readTranscripts, scanViewFolder, type ViewServer } from '../src/serve/view.js';
import { summarizeEpisodes } from '../src/evaluation/evaluate.js';
import { cliPath } from './shared-data.js';
import { writeViewFolder } from './view-fixture.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-view-'));
let server: ViewServer;
let files: { good: string; bad: string };

before(async () => {
  files = await writeViewFolder(tmp);
  server = createViewServer(tmp, { logError: () => {} });
});

after(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const get = async (url: string): Promise<{ status: number; body: any }> => {
  const r = await server.app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.headers['content-type']?.toString().startsWith('application/json') ? r.json() : r.body };
};

test('the scan finds the two runs (not a JSON Lines file of something else), the report with its chart, and the chart alone', () => {
  const f = scanViewFolder(tmp);
  assert.deepEqual(f.runs.map((r) => r.path), ['runs/flaky.jsonl', 'runs/rules.jsonl']);
  assert.deepEqual(f.reports.map((r) => [r.path, r.title, r.svg === undefined ? null : f.images[r.svg]]), [['bench/benchmark.md', 'Table 2: per-response accuracy (per-dialog in parentheses)', 'bench/benchmark.svg']]);
  assert.deepEqual(f.images, ['bench/benchmark.svg', 'bench/curve.svg']);
});

test('a run: its summary is the one evaluate printed, recomputed from the records', async () => {
  const list = await get('/api/view');
  assert.equal(list.status, 200);
  const flaky = list.body.runs.find((r: { path: string }) => r.path === 'runs/flaky.jsonl');
  assert.equal(flaky.episodes, 1000);
  const run = await get(`/api/view/runs/${flaky.id}`);
  const records = readTranscripts(files.bad);
  assert.deepEqual(run.body.summaries, [summarizeEpisodes({ env: 'restaurant-task5-v1', episodes: 1000, trials: 1, seed: 1 }, records)]);
  assert.ok(run.body.summaries[0].success > 0.5 && run.body.summaries[0].success < 0.95, String(run.body.summaries[0].success));
  assert.ok(Object.keys(run.body.failures).length >= 2, JSON.stringify(run.body.failures));
});

test('episode filters: outcome, failure reason, text; pages of 50; every match satisfies the filter', async () => {
  const id = (await get('/api/view')).body.runs.find((r: { path: string }) => r.path === 'runs/flaky.jsonl').id;
  const records = readTranscripts(files.bad);
  const all = await get(`/api/view/runs/${id}/episodes`);
  assert.deepEqual([all.body.total, all.body.matched, all.body.items.length], [1000, 1000, 50]);
  const fails = await get(`/api/view/runs/${id}/episodes?outcome=failure&limit=1000`);
  assert.equal(fails.body.matched, records.filter((r) => !r.success).length);
  assert.ok(fails.body.items.every((it: { success: boolean }) => !it.success));
  const reason = Object.keys((await get(`/api/view/runs/${id}`)).body.failures)[0] as string;
  const byReason = await get(`/api/view/runs/${id}/episodes?failure=${encodeURIComponent(reason)}&limit=1000`);
  assert.equal(byReason.body.matched, records.filter((r) => r.failure === reason).length);
  const turtles = await get(`/api/view/runs/${id}/episodes?q=TURTLES&limit=1000`);
  assert.equal(turtles.body.matched, records.filter((r) => r.actions.includes('i like turtles')).length);
  assert.ok(turtles.body.matched > 0);
  const page2 = await get(`/api/view/runs/${id}/episodes?offset=50&limit=50`);
  assert.equal(page2.body.items[0].i, 50);
  for (const bad of ['outcome=maybe', 'limit=-1', 'offset=1.5']) {
    const r = await get(`/api/view/runs/${id}/episodes?${bad}`);
    assert.equal(r.status, 400, bad);
    assert.match(r.body.error, /^(outcome|limit|offset) must be/);
  }
});

test('one episode turn by turn: the dialog with its KB lines, the agent turns numbered, the failure', async () => {
  const id = (await get('/api/view')).body.runs.find((r: { path: string }) => r.path === 'runs/flaky.jsonl').id;
  const records = readTranscripts(files.bad);
  const i = records.findIndex((r) => r.failure === 'api_call');
  assert.ok(i >= 0);
  const ep = await get(`/api/view/runs/${id}/episodes/${i}`);
  assert.equal(ep.status, 200);
  const speakers = new Set(ep.body.turns.map((t: { speaker: string }) => t.speaker));
  assert.deepEqual([...speakers].sort(), ['agent', 'kb', 'user']);
  const agent = ep.body.turns.filter((t: { speaker: string }) => t.speaker === 'agent');
  assert.deepEqual(agent.map((t: { agentTurn: number }) => t.agentTurn), agent.map((_: unknown, k: number) => k));
  assert.equal(ep.body.record.failure, 'api_call');
  assert.deepEqual(episodeTurns(records[i]!), ep.body.turns);
  for (const url of [`/api/view/runs/${id}/episodes/1000`, `/api/view/runs/${id}/episodes/x`, '/api/view/runs/99', '/api/view/reports/7', '/view/files/9']) {
    const r = await get(url);
    assert.equal(r.status, 404, url);
    assert.match(r.body.error, /^no /, url);
  }
});

test('reads recorded per agent turn are shown on the agent lines; an episode without history shows its actions', () => {
  const rec = { env: 'x-v2', episode: 0, trial: 0, seed: 1, success: false, reward: 0, turns: 2, failure: 'api_call', actions: ['where should it be', { tool: 'api_call', arguments: { cuisine: 'thai' } }], reads: ['ask(location)', 'api_call'], observation: { utterance: '', kb: [], history: [{ speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'where should it be' }, { speaker: 'user', text: 'rome' }, { speaker: 'bot', text: 'api_call thai' }] } };
  assert.deepEqual(episodeTurns(rec as never), [
    { speaker: 'user', text: 'hi' },
    { speaker: 'agent', text: 'where should it be', agentTurn: 0, read: 'ask(location)' },
    { speaker: 'user', text: 'rome' },
    { speaker: 'agent', text: 'api_call thai', agentTurn: 1, read: 'api_call' },
  ]);
  const infobot = { ...rec, reads: undefined, actions: [{ tool: 'request', arguments: { slot: 'actor' } }, { tool: 'inform', arguments: {} }], observation: { utterance: 'thanks', turn: 2 } };
  assert.deepEqual(episodeTurns(infobot as never).map((t) => [t.speaker, t.text]), [['agent', 'request(slot=actor)'], ['agent', 'inform()'], ['user', 'thanks']]);
});

test('two runs compared: counts per outcome pair and the differing episodes', async () => {
  const runs = (await get('/api/view')).body.runs as { id: number; path: string }[];
  const a = runs.find((r) => r.path === 'runs/rules.jsonl')!.id;
  const b = runs.find((r) => r.path === 'runs/flaky.jsonl')!.id;
  const c = await get(`/api/view/compare?a=${a}&b=${b}`);
  const bad = readTranscripts(files.bad);
  assert.deepEqual(c.body.counts, { both: bad.filter((r) => r.success).length, onlyA: bad.filter((r) => !r.success).length, onlyB: 0, neither: 0, unmatched: 0 });
  assert.equal(c.body.differingTotal, bad.filter((r) => !r.success).length);
  assert.ok(c.body.differing.every((d: { a: { success: boolean }; b: { success: boolean } }) => d.a.success && !d.b.success));
});

test('a report is its Markdown; a chart is served as an SVG that cannot run script', async () => {
  const f = (await get('/api/view')).body;
  const rep = await get(`/api/view/reports/${f.reports[0].id}`);
  assert.match(rep.body.markdown, /\| T5-OOV \| 16\.5/);
  const svg = await server.app.inject({ method: 'GET', url: `/view/files/${f.reports[0].svg}` });
  assert.equal(svg.statusCode, 200);
  assert.equal(svg.headers['content-type'], 'image/svg+xml');
  assert.match(String(svg.headers['content-security-policy']), /default-src 'none'/);
  const page = await server.app.inject({ method: 'GET', url: '/' });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<script type="module" src="\/view\.js">/);
  assert.deepEqual([page.headers['x-content-type-options'], page.headers['cache-control']], ['nosniff', 'no-store']);
});

test('a transcript file that goes bad after the scan is a one-line error naming file and line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-view-bad-'));
  try {
    const line = JSON.stringify({ env: 'e', episode: 0, trial: 0, seed: 1, success: true, reward: 1, turns: 1, failure: null, actions: [], observation: null });
    writeFileSync(join(dir, 'r.jsonl'), `${line}\n{"env": 1`);
    const s = createViewServer(dir, { logError: () => {} });
    const r = await s.app.inject({ method: 'GET', url: '/api/view/runs/0' });
    assert.equal(r.statusCode, 422);
    assert.equal(r.json().error, 'r.jsonl:2: not a JSON line');
    await s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dialogym view refuses a missing folder and a file, in one line', () => {
  const missing = spawnSync(process.execPath, [cliPath, 'view', join(tmp, 'none')], { encoding: 'utf8' });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^error: .*none: no such folder/);
  const file = spawnSync(process.execPath, [cliPath, 'view', files.good], { encoding: 'utf8' });
  assert.equal(file.status, 2);
  assert.match(file.stderr, /^error: .*rules\.jsonl: not a folder/);
  assert.equal(file.stderr.trim().split('\n').length, 1);
});

test('view is read only (POST is a 405 naming GET) and stops on SIGTERM like the other servers', async () => {
  const post = await server.app.inject({ method: 'POST', url: '/api/view' });
  assert.equal(post.statusCode, 405);
  assert.equal(post.headers['allow'], 'GET, HEAD');
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [cliPath, 'view', tmp, '--port', '0', '--grace', '1000'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /view: (http:\/\/[\d.]+:\d+)\//.exec(err);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', () => reject(new Error(err)));
  });
  assert.match(err, /\(2 runs, 1 report, 2 charts in /);
  const list = (await (await fetch(`${url}/api/view`)).json()) as { runs: unknown[] };
  assert.equal(list.runs.length, 2);
  const code = await new Promise<number | null>((resolve) => {
    child.on('exit', (c) => resolve(c));
    child.kill('SIGTERM');
  });
  assert.equal(code, 0);
  assert.match(err, /SIGTERM: shutting down[\s\S]*stopped/);
});
