/** The Hard-KB ranking and the Max agent as aligned with the official code and the paper's Table 2. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InfoBotAction } from '../acts.js';
import { InfoBotEnv, episodeSeed } from '../env.js';
import { agentContext, runInfoBotEpisode } from '../episodes.js';
import { evaluateAgent } from '../evaluate.js';
import { softPosterior } from '../soft-kb.js';
import { slotIndex } from '../slots.js';
import { HandCraftedTracker } from '../tracker.js';
import { MaxAgent } from './max-agent.js';
import { RULE_DEFAULTS, RuleAgent } from './rule-agents.js';
import '../index.js';

test("rule-hard informs every row ranked by the beliefs' soft posterior (official hardDB._inform); 'posterior' puts the query's matches first", () => {
  const env = new InfoBotEnv({ split: 'medium' });
  const replay = (agent: RuleAgent, seed: number): { post: Float64Array; results: readonly number[] } | null => {
    const tracker = new HandCraftedTracker(env.kb, env.index, { update: RULE_DEFAULTS.medium.hard.update });
    let last: number | null = null;
    let found: { post: Float64Array; results: readonly number[] } | null = null;
    runInfoBotEpisode(env, agent, false, seed, (utterance: string, action: InfoBotAction) => {
      tracker.update(utterance, last);
      if (action.act === 'inform') found = { post: softPosterior(env.kb, tracker.beliefs), results: action.results };
      last = action.act === 'request' ? slotIndex(action.slot) : null;
    });
    return found;
  };
  let informs = 0;
  let differ = 0;
  for (let i = 0; i < 60; i++) {
    const soft = replay(new RuleAgent(agentContext(env), 'hard'), episodeSeed(1, i));
    if (soft) {
      informs++;
      const best = Math.max(...soft.post);
      assert.ok(Math.abs((soft.post[soft.results[0] as number] as number) - best) < 1e-12, `episode ${i}: the first result is not the posterior's best`);
      for (let k = 1; k < soft.results.length; k++) assert.ok((soft.post[soft.results[k - 1] as number] as number) >= (soft.post[soft.results[k] as number] as number) - 1e-12);
    }
    const first = replay(new RuleAgent(agentContext(env), 'hard', { hardRanking: 'posterior' }), episodeSeed(1, i));
    if (soft && first && first.results.join() !== soft.results.join()) differ++;
  }
  assert.ok(informs > 40, `${informs} informs`);
  assert.ok(differ > 0, 'the matches-first ranking never differed');
  const official = evaluateAgent({ agent: 'rule-hard', episodes: 400, seed: 3, env });
  assert.ok(official.success > 0.6, `rule-hard S = ${official.success}`);
});

test('max: with an error-free user it asks exactly the known slots the first turn did not give (misheard), or all of them (all-known); always succeeds', () => {
  const env = new InfoBotEnv({ split: 'small', user: { errProb: 0, subProb: 0 } });
  for (const requests of ['misheard', 'all-known'] as const) {
    const agent = new MaxAgent(agentContext(env), { requests });
    for (let i = 0; i < 40; i++) {
      const asked: number[] = [];
      const r = runInfoBotEpisode(env, agent, true, episodeSeed(2, i), (_u, a) => {
        if (a.act === 'request') asked.push(slotIndex(a.slot));
      });
      const opening = env.goal.known.size; // the goal of the episode just played
      assert.equal(r.success, true);
      assert.ok(asked.every((j) => env.goal.known.has(j)), 'asked a slot the user does not know');
      assert.equal(new Set(asked).size, asked.length, 'asked a slot twice');
      if (requests === 'all-known') assert.equal(asked.length, opening);
      else assert.ok(asked.length < opening, `${asked.length} requests for ${opening} known slots`);
    }
  }
});

test('max (default misheard): re-asks corrupted values at most maxAsks times, never hits the turn limit; a bad maxAsks is a ConfigError', () => {
  const env = new InfoBotEnv({ split: 'medium' });
  const agent = new MaxAgent(agentContext(env), { maxAsks: 2 });
  let reasked = 0;
  for (let i = 0; i < 200; i++) {
    const counts = new Map<number, number>();
    const r = runInfoBotEpisode(env, agent, true, episodeSeed(4, i), (_u, a) => {
      if (a.act === 'request') counts.set(slotIndex(a.slot), (counts.get(slotIndex(a.slot)) ?? 0) + 1);
    });
    assert.equal(r.success, true);
    for (const c of counts.values()) assert.ok(c <= 2);
    if ([...counts.values()].some((c) => c === 2)) reasked++;
  }
  assert.ok(reasked > 20, `${reasked} episodes re-asked a slot`);
  const misheard = evaluateAgent({ agent: 'max', episodes: 300, seed: 1, env });
  const tight = new MaxAgent(agentContext(env), { requests: 'useful' });
  let tightTurns = 0;
  for (let i = 0; i < 300; i++) tightTurns += runInfoBotEpisode(env, tight, true, episodeSeed(1, i)).turns;
  assert.ok(tightTurns / 300 < misheard.turns - 1, `useful T ${tightTurns / 300} vs misheard T ${misheard.turns}`);
  assert.throws(() => new MaxAgent(agentContext(env), { maxAsks: 0 }), /maxAsks must be a positive integer/);
});

test("matchesPaper: ± 0.10, or higher for a learned agent only; judgeCell: every seed ± 0.15, S ± 0.10, T ± 1.0; PAPER_TABLE2 has the paper's eight rows", async () => {
  const { PAPER_TABLE2, matchesPaper, judgeCell } = await import('../table.js');
  assert.equal(Object.keys(PAPER_TABLE2).length, 8);
  assert.equal(PAPER_TABLE2['rl-hard']?.xlarge.turns, 2.88);
  assert.equal(PAPER_TABLE2['e2e-soft']?.medium.success, 0.83);
  // the paper prints S for every split, not only Medium
  assert.deepEqual((['small', 'medium', 'large', 'xlarge'] as const).map((s) => PAPER_TABLE2['rule-hard']?.[s].success), [0.64, 0.73, 0.75, 0.65]);
  assert.equal(PAPER_TABLE2['rl-nokb']?.small.success, 0.56);
  assert.equal(matchesPaper('rule-hard', 0.66, 0.75), true);
  assert.equal(matchesPaper('rule-hard', 0.64, 0.75), false);
  assert.equal(matchesPaper('rule-hard', 0.61, 0.75, 0.15), true);
  assert.equal(matchesPaper('rule-hard', 0.95, 0.75), false);
  assert.equal(matchesPaper('rl-hard', 1.4, 0.86), true);
  assert.equal(matchesPaper('e2e-soft', 0.9, 1.1), false);
  assert.equal(matchesPaper('max', 1.95, 1.78), false);
  const paper = PAPER_TABLE2['rule-soft']?.medium as { reward: number; turns: number; success: number }; // T 3.94, S 0.76, R 0.83
  assert.deepEqual(judgeCell('rule-soft', { turns: 3.84, success: 0.8, reward: 0.97, seeds: [{ reward: 0.96 }, { reward: 0.96 }, { reward: 0.98 }] }, paper), { reward: false, seeds: true, success: true, turns: true });
  assert.deepEqual(judgeCell('rule-soft', { turns: 5, success: 0.87, reward: 0.9, seeds: [{ reward: 0.9 }, { reward: 0.65 }, { reward: 1.15 }] }, paper), { reward: true, seeds: false, success: false, turns: false });
  // a learned agent: better than the paper counts on every seed too
  assert.deepEqual(judgeCell('rl-hard', { turns: 3.6, success: 0.8, reward: 1.3, seeds: [{ reward: 1.2 }, { reward: 1.4 }] }, PAPER_TABLE2['rl-hard']?.medium as typeof paper), { reward: true, seeds: true, success: true, turns: true });
});

test('informAfterHeard: the rule agent informs once it has heard that many slots; off (Infinity) by default', () => {
  const env = new InfoBotEnv({ split: 'medium' });
  const ctx = agentContext(env);
  assert.equal(new RuleAgent(ctx, 'none').opts.informAfterHeard, Infinity);
  // The opening gives at least one slot: with 1 the agent informs at its first action.
  const one = new RuleAgent(ctx, 'none', { informAfterHeard: 1 });
  const plain = new RuleAgent(ctx, 'none');
  let plainTurns = 0;
  for (let i = 0; i < 40; i++) {
    assert.equal(runInfoBotEpisode(env, one, false, 300 + i).turns, 1);
    plainTurns += runInfoBotEpisode(env, plain, false, 300 + i).turns;
  }
  assert.ok(plainTurns / 40 > 3, `rule-nokb without the stop: T ${plainTurns / 40}`);
  // With 3 (a Medium user knows 3 slots) the dialogs are shorter than the rule's, never longer.
  const three = new RuleAgent(ctx, 'none', { informAfterHeard: 3 });
  for (let i = 0; i < 40; i++) assert.ok(runInfoBotEpisode(env, three, false, 300 + i).turns <= runInfoBotEpisode(env, plain, false, 300 + i).turns);
});
