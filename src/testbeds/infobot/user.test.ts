import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../core/rng.js';
import { splitKbs } from './generate.js';
import { REWARDS, SLOTS } from './slots.js';
import { UserSimulator } from './user.js';
import { TemplateNlg } from './nlg.js';

const { full } = splitKbs('medium', 1);

test('goals are identifiable: their known values match at most R movies, half the slots known', () => {
  const sim = new UserSimulator(full);
  const rng = createRng(1);
  let known = 0;
  for (let k = 0; k < 300; k++) {
    const g = sim.sampleGoal(rng.fork(`g${k}`));
    assert.ok(sim.goalMatches(g.known) <= REWARDS.successMaxRank);
    assert.ok(sim.goalMatches(g.known) >= 1);
    for (const [j, v] of g.known) assert.equal(full.cell(g.target, j), v);
    known += g.known.size;
  }
  assert.equal(known / 300, 3); // floor(0.5 × 6) slots: the full KB has no missing values
});

test('rewards: rank-graded success, failure, per-turn cost, turn limit', () => {
  const sim = new UserSimulator(full, { errProb: 0, subProb: 0 });
  const s = sim.session(createRng(2));
  const target = s.goal.target;
  assert.equal(s.opening.act.act, 'open');
  const r1 = s.respond({ act: 'request', slot: 'genre' });
  assert.equal(r1.reward, REWARDS.perTurn);
  assert.equal(r1.done, false);
  const r2 = s.respond({ act: 'inform', results: [target + 1, target + 2, target] });
  assert.equal(r2.done, true);
  assert.equal(r2.success, true);
  assert.equal(r2.rank, 2);
  assert.ok(Math.abs(r2.reward - 2 * (1 - 2 / 5)) < 1e-12);
  assert.throws(() => s.respond({ act: 'request', slot: 'genre' }), /over/);
  const s2 = sim.session(createRng(3));
  const bad = s2.respond({ act: 'inform', results: [0, 1, 2, 3, 4, s2.goal.target].filter((x, i, a) => a.indexOf(x) === i && (x !== s2.goal.target || i === 5)) });
  assert.equal(bad.success, false);
  assert.equal(bad.reward, REWARDS.failure);
  const s3 = sim.session(createRng(4));
  let last = s3.respond({ act: 'request', slot: 'actor' });
  let turns = 1;
  while (!last.done) {
    last = s3.respond({ act: 'request', slot: 'actor' });
    turns++;
  }
  assert.equal(turns, REWARDS.maxTurns);
  assert.equal(last.truncated, true);
  assert.equal(last.reward, REWARDS.failure);
});

test('answers: known slots with their value (no noise), unknown slots with "don\'t know"', () => {
  const sim = new UserSimulator(full, { errProb: 0, subProb: 0, nlg: { temperature: 0 } });
  const s = sim.session(createRng(5));
  for (const [j, slot] of SLOTS.entries()) {
    const r = s.respond({ act: 'request', slot });
    if (s.goal.known.has(j)) {
      assert.equal(r.act.act, 'inform');
      assert.ok(r.utterance.includes(full.value(s.goal.target, j) as string), r.utterance);
    } else assert.equal(r.act.act, 'dont-know');
  }
});

test('NLG: temperature 0 is noiseless and deterministic, higher temperatures add noise', () => {
  const act = { act: 'open', informs: [{ slot: 'actor', value: 'tom hanks' }, { slot: 'release_year', value: '1994' }] } as const;
  const cold = new TemplateNlg(['zz'], { temperature: 0 });
  assert.equal(cold.generate(act, createRng(1)), 'i am looking for a movie starring tom hanks and released in 1994');
  const hot = new TemplateNlg(['zz'], { temperature: 3 });
  let changed = 0;
  for (let i = 0; i < 100; i++) if (hot.generate(act, createRng(i)) !== cold.generate(act, createRng(i))) changed++;
  assert.ok(changed > 50, `${changed}`);
});

test('turn limit: the maxTurns-th action fails even when it informs the target (official order), unless informOnLastTurn', () => {
  const play = (informOnLastTurn: boolean): { reward: number; success: boolean; truncated: boolean } => {
    const s = new UserSimulator(full, { errProb: 0, subProb: 0, informOnLastTurn }).session(createRng(5));
    for (let t = 1; t < REWARDS.maxTurns; t++) assert.equal(s.respond({ act: 'request', slot: 'genre' }).done, false);
    return s.respond({ act: 'inform', results: [s.goal.target] });
  };
  const official = play(false);
  assert.deepEqual([official.reward, official.success, official.truncated], [REWARDS.failure, false, true]);
  const lenient = play(true);
  assert.deepEqual([lenient.reward, lenient.success, lenient.truncated], [REWARDS.success, true, false]);
  assert.throws(() => new UserSimulator(full).session(createRng(1)).respond({ act: 'request', slot: 'plot' as 'genre' }), /unknown slot 'plot'/);
});
