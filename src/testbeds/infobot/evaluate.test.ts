import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateAgent } from './evaluate.js';
import { episodeRanges, evaluateAgentOnWorkers, playJobsOnWorkers, type EvalJob } from './evaluate-workers.js';
import { summarize } from './episodes.js';
import { InfoBotEnv } from './env.js';
import './index.js';

const env = new InfoBotEnv({ split: 'medium', kbSeed: 1 });
const run = (agent: string, episodes: number, e = env) => evaluateAgent({ agent, episodes, seed: 1, env: e });

test('Rule-Soft on Medium succeeds about as often as in the paper (0.76 ± 0.10); Max always succeeds', () => {
  const soft = run('rule-soft', 1000);
  assert.ok(Math.abs(soft.success - 0.76) <= 0.1, `rule-soft S = ${soft.success}`);
  assert.ok(soft.turns > 1 && soft.turns < 10);
  const max = run('max', 500);
  assert.equal(max.success, 1);
  assert.ok(max.reward > 1.5 && max.reward <= 2, `max R = ${max.reward}`);
});

test("the paper's ordering on Medium: Soft-KB reward > Hard-KB and No-KB for the rule agents", () => {
  const soft = run('rule-soft', 1000);
  const hard = run('rule-hard', 1000);
  const none = run('rule-nokb', 1000);
  assert.ok(soft.reward > hard.reward + 2 * hard.rewardStdErr, `${soft.reward} vs hard ${hard.reward}`);
  assert.ok(soft.reward > none.reward, `${soft.reward} vs nokb ${none.reward}`);
});

test('evaluation is deterministic for a seed; rewards degrade with the NLG temperature', () => {
  assert.deepEqual(run('rule-nokb', 200), run('rule-nokb', 200));
  const cold = run('rule-soft', 800, new InfoBotEnv({ split: 'medium', temperature: 0 }));
  const hot = run('rule-soft', 800, new InfoBotEnv({ split: 'medium', temperature: 3 }));
  assert.ok(cold.reward > hot.reward + 0.1, `T=0 ${cold.reward} vs T=3 ${hot.reward}`);
});

test('agents that need a trained policy fail with a one-line message when the policy folder has none; by default the shipped ones load', () => {
  const empty = mkdtempSync(join(tmpdir(), 'dialogym-no-policies-'));
  for (const a of ['rl-nokb', 'rl-hard', 'rl-soft', 'e2e-soft']) assert.throws(() => evaluateAgent({ agent: a, episodes: 1, seed: 1, env, policyDir: empty }), /needs a trained policy: run infobot train \(agent: /);
  rmSync(empty, { recursive: true, force: true });
  assert.equal(run('rl-soft', 5).episodes, 5);
  assert.throws(() => run('nope', 1), /unknown infobot agent 'nope'/);
});

test('evaluation on worker threads: the same report as on the main thread, for any number of workers', async () => {
  assert.deepEqual(episodeRanges(10, 3), [[0, 3], [3, 6], [6, 10]]);
  assert.deepEqual(episodeRanges(2, 4), [[0, 1], [1, 2]]);
  const one = evaluateAgent({ agent: 'rule-soft', episodes: 90, seed: 3, env: new InfoBotEnv({ split: 'small', kbSeed: 2, temperature: 2 }) });
  let last = 0;
  const par = { agent: 'rule-soft', split: 'small', kb: { kind: 'generate', kbSeed: 2, missing: 0.2 }, episodes: 90, seed: 3, temperature: 2 } as const;
  assert.deepEqual(await evaluateAgentOnWorkers({ ...par, workers: 3, onEpisode: (d) => (last = d) }), one);
  assert.equal(last, 90);
  assert.deepEqual(await evaluateAgentOnWorkers({ ...par, workers: 1 }), one);
  await assert.rejects(evaluateAgentOnWorkers({ ...par, agent: 'rl-soft', policyDir: '/nonexistent', workers: 2 }), /rl-soft/);
});

test('whole evaluations as the jobs of one pool (the table\'s): each job\'s report is its one-thread evaluation, in the order of the jobs; progress over all jobs; no jobs, no pool', async () => {
  const kb = { kind: 'generate', kbSeed: 2, missing: 0.2 } as const;
  const jobs: EvalJob[] = [
    { agent: 'rule-soft', split: 'small', kb, seed: 1, start: 0, end: 40 },
    { agent: 'max', split: 'small', kb, seed: 7, start: 0, end: 30 },
    { agent: 'rule-hard', split: 'small', kb, seed: 7, start: 0, end: 20, temperature: 2 },
  ];
  const seen: number[] = [];
  const parts = await playJobsOnWorkers(jobs, { workers: 2, label: 'test', onEpisode: (d) => seen.push(d) });
  const want = jobs.map((j) => evaluateAgent({ agent: j.agent, episodes: j.end, seed: j.seed, env: new InfoBotEnv({ split: 'small', kbSeed: 2, ...(j.temperature !== undefined ? { temperature: j.temperature } : {}) }) }));
  assert.deepEqual(parts.map((p) => summarize(p.name, 'small', p.results)), want);
  assert.equal(Math.max(...seen), 90);
  assert.deepEqual(await playJobsOnWorkers([], { workers: 2, label: 'test' }), []);
  await assert.rejects(playJobsOnWorkers(jobs, { workers: 0, label: 'test' }), /^ConfigError: workers must be a positive integer, got 0$/);
});
