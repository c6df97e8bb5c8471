import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InfoBotEnv, INFOBOT_FAILURES } from './env.js';
import { SLOTS } from './slots.js';

const env = (): InfoBotEnv => new InfoBotEnv({ split: 'small', seed: 1 });

test("reset's info.goal names the target, its title and the values the user knows (of the full KB)", () => {
  const e = env();
  const { info } = e.reset({ seed: 3 });
  const goal = info['goal'] as { target: number; title: string; known: Record<string, string> };
  assert.equal(goal.target, e.goal.target);
  assert.equal(goal.title, e.full.titles[e.goal.target]);
  assert.deepEqual(Object.keys(goal.known), SLOTS.filter((_, j) => e.goal.known.has(j)));
  for (const [j, v] of e.goal.known) assert.equal(goal.known[SLOTS[j] as string], e.full.vocab[j]?.[v]);
});

test('a failed episode names its reason, why in words, and the agent turn that failed; a success names none', () => {
  const e = env();
  e.reset({ seed: 3 });
  const t = e.goal.target;
  const others = Array.from({ length: e.kb.n }, (_, i) => i).filter((i) => i !== t);
  e.step({ act: 'request', slot: 'actor' });
  const miss = e.step({ act: 'inform', results: others.slice(0, 5) });
  assert.equal(miss.info['failure'], 'target not in results');
  assert.equal(miss.info['failureTurn'], 1);
  assert.deepEqual(miss.info['detail'], { why: `the results do not hold movie ${t} (${e.full.titles[t]})`, target: t, results: others.slice(0, 5) });

  e.reset({ seed: 3 });
  const low = e.step({ act: 'inform', results: [...others.slice(0, 7), t] });
  assert.equal(low.info['failure'], 'target ranked too low');
  assert.match((low.info['detail'] as { why: string }).why, new RegExp(`is at rank 7 \\(0-based\\); it must be below 5$`));

  e.reset({ seed: 3 });
  let last;
  for (let i = 0; i < 10; i++) last = e.step({ act: 'request', slot: 'genre' });
  assert.equal(last?.truncated, true);
  assert.equal(last?.info['failure'], 'max turns');
  assert.equal(last?.info['failureTurn'], 9);

  e.reset({ seed: 3 });
  const hit = e.step({ act: 'inform', results: [t] });
  assert.equal(hit.info['success'], true);
  assert.equal(hit.info['failure'], undefined);
  assert.deepEqual(Object.keys(INFOBOT_FAILURES), ['max turns', 'target not in results', 'target ranked too low']);
});
