/**
 * `dialogym view` of a run whose records name their agent (a study's `transcripts.jsonl`): the run
 * lists its agents and the episodes filter by agent, each match of that agent.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../src/index.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { createAgent } from '../src/agents/registry.js';
import { createViewServer } from '../src/serve/view.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-view-agent-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('a run of several agents: its agents listed, episodes filtered by agent', async () => {
  const { records } = await evaluate('restaurant-task1-v1', createAgent('rules'), { episodes: 9, seed: 3 });
  const agents = ['rl-soft', 'rule-soft', 'e2e-soft'];
  const named = records.map((r, i) => ({ ...r, agent: agents[i % 3] }));
  mkdirSync(join(tmp, 'study'));
  writeFileSync(join(tmp, 'study', 'transcripts.jsonl'), named.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const server = createViewServer(tmp, { logError: () => {} });
  try {
    const get = async (url: string) => (await server.app.inject({ method: 'GET', url })).json();
    const id = (await get('/api/view')).runs[0].id;
    assert.deepEqual((await get(`/api/view/runs/${id}`)).agents, agents);
    const page = await get(`/api/view/runs/${id}/episodes?agent=rule-soft&limit=100`);
    assert.deepEqual(page.items.map((it: { i: number }) => it.i), [1, 4, 7]);
    assert.equal((await get(`/api/view/runs/${id}/episodes?agent=nobody`)).matched, 0);
  } finally {
    await server.close();
  }
});
