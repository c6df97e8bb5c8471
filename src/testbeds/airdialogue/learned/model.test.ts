import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../../core/rng.js';
import { gradCheck, zeroGrads } from '../../../nn/index.js';
import { synthesize, toLearned } from './data.js';
import { DialogueModel, prepare } from './model.js';
import { Vocab } from './tokens.js';

const examples = synthesize(6, 11).map(toLearned);
const vocab = Vocab.build(examples.flatMap((e) => [e.dialogue.tokens, e.intent.map((t) => t.word), e.flights.flat().map((t) => t.word), [e.reservation.word]]));

for (const [role, match] of [['customer', false], ['agent', false], ['agent', true]] as const) {
  test(`${role} model${match ? ' with customer-match flags' : ''}: every parameter's gradient matches finite differences`, () => {
    const m = new DialogueModel(role, vocab, { dim: 4, hidden: 5, match, point: match, order: match });
    if (match) assert.ok(m.matchLayer !== null && m.params.some((q) => q.name === 'agent.match.W'));
    m.init(createRng(3));
    // a booking example, so the flight and name pointers have targets
    const ex = examples.find((e) => e.action.flight.length > 0) ?? examples[0]!;
    const p = prepare(ex, vocab);
    if (role === 'agent') assert.ok(p.first.length > 0 && p.last.length > 0 && p.status >= 0 && p.flight >= 0, 'agent targets present');
    const loss = () => {
      const l = m.loss(p);
      return l.lm * 0.5 + l.state * 0.7;
    };
    zeroGrads(m.params);
    m.loss(p, true, 0.5, 0.7);
    if (match) assert.ok(m.matchLayer!.W.grad.some((g) => g !== 0), 'the match layer gets a gradient');
    for (const prm of m.params) {
      const r = gradCheck(loss, prm.data, prm.grad, 1e-2, 40);
      assert.ok(r.maxRelError < 5e-3, `${prm.name}: max rel error ${r.maxRelError} at ${r.worst}`);
    }
  });
}
