import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customerPolicies, agentPolicies } from '../policies.js';
import type { Episode } from '../env.js';
import { synthesizeSplits } from './data.js';
import { learnedAgent, learnedCustomer, learnedSelfPlay } from './policy.js';
import { trainAirModels } from './train.js';

const s = synthesizeSplits({ train: 20, dev: 4, test: 0, seed: 8 });
const { models } = trainAirModels(s.train, s.dev, { epochs: 1, dim: 6, hidden: 8, seed: 2 });

test('learned agent and customer play episodes: actions or truncation, scores in range, same seed → same dialogues', () => {
  const run = () => {
    const eps: Episode[] = [];
    const r = learnedSelfPlay({ agent: learnedAgent(models, { maxAgentTurns: 4 }), customer: learnedCustomer(models), n: 3, seed: 1, onResult: (e) => eps.push(e) });
    return { r, eps };
  };
  const a = run();
  const b = run();
  assert.equal(a.r.dialogs, 3);
  assert.deepEqual(a.eps.map((e) => e.dialogue), b.eps.map((e) => e.dialogue));
  for (const e of a.eps) {
    assert.ok(e.truncated || e.action !== null);
    // the agent acts after at most 4 of its turns: ≤ 8 utterances
    assert.ok(e.dialogue.length <= 8, `${e.dialogue.length} utterances`);
    assert.equal(e.dialogue[0]!.speaker, 'user');
  }
  assert.ok(a.r.total >= 0 && a.r.total <= 1);
});

test('learned policies play against the rule policies, in-domain and OOD', () => {
  for (const ood of [0, 1, 2] as const) {
    const r1 = learnedSelfPlay({ agent: learnedAgent(models, { maxAgentTurns: 3 }), customer: customerPolicies.get('rules'), n: 2, seed: 3, ood });
    const r2 = learnedSelfPlay({ agent: agentPolicies.get('rules'), customer: learnedCustomer(models), n: 2, seed: 3, ood, maxTurns: 10 });
    assert.equal(r1.dialogs + r2.dialogs, 4);
  }
});
