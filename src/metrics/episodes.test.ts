import { test } from 'node:test';
import assert from 'node:assert/strict';
import { episodeStats, passHatK, summarizeOutcomes } from './episodes.js';

test('pass^k is the τ-bench estimator: mean over tasks of C(c,k)/C(n,k)', () => {
  // Tasks with 4, 2 and 0 successes out of 4 trials.
  const p = passHatK([4, 2, 0], 4);
  assert.equal(p.length, 4);
  assert.ok(Math.abs((p[0] as number) - (1 + 0.5 + 0) / 3) < 1e-12);
  assert.ok(Math.abs((p[1] as number) - (1 + 1 / 6) / 3) < 1e-12);
  assert.ok(Math.abs((p[2] as number) - 1 / 3) < 1e-12);
  assert.ok(Math.abs((p[3] as number) - 1 / 3) < 1e-12);
  assert.deepEqual(passHatK([], 3), [0, 0, 0]);
});

test('episodeStats: success, mean turns and reward, failures by reason in first-seen order; merge equals adding all', () => {
  const outcomes = [
    { success: true, turns: 6, reward: 1, failure: null },
    { success: false, turns: 80, reward: 0, failure: 'max turns' },
    { success: false, turns: 3, reward: 0, failure: 'timeout' },
    { success: false, turns: 80, reward: 0, failure: 'max turns' },
    { success: false, turns: 2, reward: 0.5, failure: null },
  ];
  const all = outcomes.reduce(episodeStats.add, episodeStats.empty());
  assert.equal(episodeStats.success(all), 0.2);
  assert.equal(episodeStats.avgTurns(all), 171 / 5);
  assert.equal(episodeStats.avgReward(all), 0.3);
  assert.deepEqual(Object.entries(all.failures), [['max turns', 2], ['timeout', 1]]);
  const a = outcomes.slice(0, 2).reduce(episodeStats.add, episodeStats.empty());
  const b = outcomes.slice(2).reduce(episodeStats.add, episodeStats.empty());
  assert.deepEqual(episodeStats.merge(a, b), all);
  assert.equal(episodeStats.success(episodeStats.empty()), 0);
});

test('summarizeOutcomes: mean reward ± population sd and the standard error sd/√n, counts as episodeStats; zeros for none', () => {
  const s = summarizeOutcomes([
    { success: true, turns: 3, reward: 2 },
    { success: false, turns: 5, reward: -1.2, failure: 'max turns' },
    { success: false, turns: 4, reward: 0.4 },
  ]);
  assert.equal(s.episodes, 3);
  assert.equal(s.success, 1 / 3);
  assert.equal(s.avgTurns, 4);
  assert.ok(Math.abs(s.avgReward - 0.4) < 1e-12);
  // deviations 1.6, -1.6, 0: variance 5.12 / 3
  assert.ok(Math.abs(s.rewardSd - Math.sqrt(5.12 / 3)) < 1e-12);
  assert.ok(Math.abs(s.rewardStdErr - Math.sqrt(5.12 / 3) / Math.sqrt(3)) < 1e-12);
  assert.deepEqual(s.failures, { 'max turns': 1 });
  assert.deepEqual(summarizeOutcomes([]), { episodes: 0, success: 0, avgTurns: 0, avgReward: 0, rewardSd: 0, rewardStdErr: 0, failures: {} });
});
