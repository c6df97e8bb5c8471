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

test('self-play BLEU: the simulator against itself scores 100; learned turns are scored against the simulator on the same contexts', () => {
  const rules = learnedSelfPlay({ agent: agentPolicies.get('rules'), customer: customerPolicies.get('rules'), n: 5, seed: 4, bleu: true });
  assert.deepEqual(rules.bleu, { customer: 100, agent: 100, both: 100 });
  assert.equal(learnedSelfPlay({ agent: agentPolicies.get('rules'), customer: customerPolicies.get('rules'), n: 2, seed: 4 }).bleu, undefined);
  // the rule agent against another phrasing of the rule customer (other stream, same intent): below 100
  const other = learnedSelfPlay({ agent: agentPolicies.get('rules'), customer: (intent, rng) => customerPolicies.get('rules')(intent, rng.fork('other')), n: 20, seed: 4, bleu: true });
  assert.ok(other.bleu!.customer < 100 && other.bleu!.customer > 10, `customer BLEU ${other.bleu!.customer}`);
  const eps: Episode[] = [];
  const learned = learnedSelfPlay({ agent: learnedAgent(models, { maxAgentTurns: 3 }), customer: learnedCustomer(models), n: 3, seed: 4, bleu: true, onResult: (e) => eps.push(e) });
  for (const k of ['customer', 'agent', 'both'] as const) assert.ok(learned.bleu![k] >= 0 && learned.bleu![k] < 100, `${k} ${learned.bleu![k]}`);
  assert.equal(eps.length, 3);
});
