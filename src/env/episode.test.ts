import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, InvalidActionError } from '../core/errors.js';
import type { Env, StepResult } from './env.js';
import { episodeSteps, playEpisode, runEpisode } from './episode.js';

/** A counting environment: the observation is the step count; action 'stop' terminates, 'bad' is refused, the 5th step is truncated; reward = the action's length. */
function counter(): Env<number, string> & { resets: unknown[] } {
  let t = 0;
  const resets: unknown[] = [];
  return {
    id: 'counter-v0',
    resets,
    reset(opts = {}) {
      resets.push(opts);
      t = 0;
      return { obs: 0, info: { start: true } };
    },
    step(a: string): StepResult<number> {
      if (a === 'bad') throw new InvalidActionError('bad action');
      t++;
      return { obs: t, reward: a.length, terminated: a === 'stop', truncated: t >= 5 && a !== 'stop', info: { t } };
    },
    sampleAction: () => 'go',
  };
}

test('playEpisode: accumulates reward, turns and actions; each turn sees the previous step info; ended/terminated/truncated as the env said', () => {
  const env = counter();
  const seen: Array<[number, number, unknown, number]> = [];
  const e = playEpisode(env, (t) => {
    seen.push([t.turn, t.obs, t.info['t'] ?? t.info['start'], t.reward]);
    return t.turn === 2 ? 'stop' : 'go';
  }, { reset: { seed: 7, variant: 1 } });
  assert.deepEqual(env.resets, [{ seed: 7, variant: 1 }]);
  assert.deepEqual(seen, [[0, 0, true, 0], [1, 1, 1, 2], [2, 2, 2, 4]]);
  const { reward, turns, ended, terminated, truncated, obs, info, resetInfo, actions, metrics } = e;
  assert.deepEqual({ reward, turns, ended, terminated, truncated, obs, info, resetInfo, actions, metrics }, { reward: 8, turns: 3, ended: true, terminated: true, truncated: false, obs: 3, info: { t: 3 }, resetInfo: { start: true }, actions: ['go', 'go', 'stop'], metrics: undefined });
  const cut = playEpisode(counter(), () => 'go');
  assert.deepEqual([cut.turns, cut.ended, cut.terminated, cut.truncated, cut.reward], [5, true, false, true, 10]);
});

test('playEpisode hooks: privileged view per turn, onTurn before the step, onStep with the raw result, metrics once at the end; maxSteps cuts an episode off', () => {
  const env = counter();
  const log: string[] = [];
  let secret = 100;
  const e = playEpisode(env, (t) => {
    log.push(`act ${t.turn} sees ${t.privileged}`);
    return 'go';
  }, {
    privileged: () => secret++,
    onTurn: (t, a) => log.push(`turn ${t.turn} ${a}`),
    onStep: (r, t) => log.push(`step ${t.turn} -> ${r.obs}${r.truncated ? ' truncated' : ''}`),
    metrics: (p) => {
      log.push('metrics');
      return { twice: p.reward * 2, last: p.info['t'] };
    },
    maxSteps: 2,
  });
  assert.deepEqual(log, ['act 0 sees 100', 'turn 0 go', 'step 0 -> 1', 'act 1 sees 101', 'turn 1 go', 'step 1 -> 2', 'metrics']);
  assert.deepEqual([e.turns, e.ended, e.terminated, e.truncated], [2, false, false, false]);
  assert.deepEqual(e.metrics, { twice: 8, last: 2 });
});

test('episodeSteps driven by hand (the asynchronous driver): a refused action throws out of next() with the action counted; the turn shows the running totals', async () => {
  const steps = episodeSteps(counter());
  let it = steps.next();
  assert.equal(it.done, false);
  it = steps.next(await Promise.resolve('abc'));
  assert.ok(!it.done);
  assert.deepEqual([it.value.turn, it.value.reward, it.value.actions], [1, 3, ['abc']]);
  const actions = it.value.actions;
  assert.throws(() => steps.next('bad'), (e: Error) => e instanceof InvalidActionError && e.message === 'bad action');
  assert.deepEqual(actions, ['abc', 'bad']);
});

test('runEpisode (0.1 API) is playEpisode with a policy of observations: steps, reward, the last info; maxSteps cut', () => {
  assert.deepEqual(runEpisode(counter(), (obs) => (obs === 1 ? 'stop' : 'go'), { seed: 1 }), { reward: 6, steps: 2, terminated: true, info: { t: 2 } });
  assert.deepEqual(runEpisode(counter(), () => 'go', {}, 3), { reward: 6, steps: 3, terminated: false, info: { t: 3 } });
});

test('a maxSteps that is not a non-negative integer is a ConfigError naming it, before the environment is reset', () => {
  for (const bad of [-1, 1.5, Number.NaN]) {
    const env = counter();
    assert.throws(() => playEpisode(env, () => 'go', { maxSteps: bad }), (e: Error) => e instanceof ConfigError && e.message === `maxSteps must be a non-negative integer, got ${String(bad)}`);
    assert.deepEqual(env.resets, []);
  }
});
