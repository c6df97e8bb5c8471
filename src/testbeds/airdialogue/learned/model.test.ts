import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../../core/rng.js';
import { gradCheck, zeroGrads } from '../../../nn/index.js';
import { synthesize, toLearned } from './data.js';
import { DialogueModel, prepare } from './model.js';
import { Vocab } from './tokens.js';

const examples = synthesize(6, 11).map(toLearned);
const vocab = Vocab.build(examples.flatMap((e) => [e.dialogue.tokens, e.intent.map((t) => t.word), e.flights.flat().map((t) => t.word), [e.reservation.word]]));

for (const [role, match, constraints] of [['customer', false, false], ['agent', false, false], ['agent', true, false], ['agent', true, true]] as const) {
  test(`${role} model${match ? ' with customer-match flags' : ''}${constraints ? ' and constraint features' : ''}: every parameter's gradient matches finite differences`, () => {
    const m = new DialogueModel(role, vocab, { dim: 4, hidden: 5, match, point: match, order: match, constraints });
    if (match) assert.ok(m.matchLayer !== null && m.params.some((q) => q.name === 'agent.match.W'));
    assert.equal(m.params.some((q) => q.name === 'agent.global.W'), constraints);
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
    if (constraints) assert.ok(m.globalLayer!.W.grad.some((g) => g !== 0), 'the global layer gets a gradient');
    for (const prm of m.params) {
      const r = gradCheck(loss, prm.data, prm.grad, 1e-2, 40);
      assert.ok(r.maxRelError < 5e-3, `${prm.name}: max rel error ${r.maxRelError} at ${r.worst}`);
    }
  });
}

test('match flags: a flight value the customer said sets its flag; with order, the airports said the other way round do not match', () => {
  const ex = examples.find((e) => e.flights.length > 0)!;
  const p = prepare(ex, vocab);
  const flags = (order: boolean, said: Map<number, number>) => {
    // hidden = 13 and an identity match layer: the memory moves by exactly the flags
    const m = new DialogueModel('agent', vocab, { dim: 4, hidden: 13, match: true, order });
    m.init(createRng(5));
    m.matchLayer!.W.data.fill(0);
    for (let k = 0; k < 13; k++) m.matchLayer!.W.data[k * 13 + k] = 1;
    const e = m.encode(p);
    const moved = m.withSaid(e, p, said).mem;
    return Array.from({ length: 13 }, (_, k) => Math.round(moved[k]! - e.mem[k]!));
  };
  const [a1, a2] = [p.flightIds[0]!, p.flightIds[1]!];
  const inOrder = new Map([[a1, 3], [a2, 7]]);
  const reversed = new Map([[a2, 3], [a1, 7]]);
  assert.deepEqual(flags(true, inOrder).slice(0, 2), [1, 1]);
  assert.deepEqual(flags(false, reversed).slice(0, 2), [1, 1]);
  assert.deepEqual(flags(true, reversed).slice(0, 2), [0, 0]);
  assert.deepEqual(flags(true, new Map([[a1, 2]])).slice(0, 2), [1, 0]); // the departure alone
  assert.deepEqual(flags(true, new Map()), new Array(13).fill(0));
});

test('copy slots: the agent copies flight numbers and the customer its intent values, also from an example that has both contexts', () => {
  const ex = examples.find((e) => e.intent.length > 0 && e.flights.length > 0)!;
  const p = prepare(ex, vocab);
  assert.deepEqual(p.slotWords, ex.intent.map((t) => t.word));
  assert.deepEqual(p.flightSlotWords, ex.flightNumbers.map(String));
  for (const role of ['agent', 'customer'] as const) {
    const m = new DialogueModel(role, vocab, { dim: 4, hidden: 5 });
    m.init(createRng(2));
    // copy only (gate ≈ 0) with a uniform attention: the word is one of the role's own slots
    m.copyGate.b!.data[0] = -50;
    m.query.W.data.fill(0);
    const e = m.encode(p);
    const w = m.nextWord(e.h0, e, p).word;
    assert.ok((role === 'agent' ? p.flightSlotWords : p.slotWords).includes(w), `${role} said ${w}`);
  }
});

test('lossBatch: the losses of loss() one by one, bit for bit, and the summed gradients within float32 rounding', () => {
  for (const role of ['customer', 'agent'] as const) {
    const m = new DialogueModel(role, vocab, { dim: 4, hidden: 5, match: true, constraints: true });
    m.init(createRng(4));
    const ps = examples.map((e) => prepare(e, vocab));
    assert.ok(new Set(ps.map((p) => p.ids.length)).size > 1, 'dialogues of different lengths');
    const scales = ps.map((_, i) => 0.1 * (i + 1));
    zeroGrads(m.params);
    const one = ps.map((p, i) => m.loss(p, true, scales[i], 0.3));
    const grads = m.params.map((q) => new Float32Array(q.grad));
    zeroGrads(m.params);
    const all = m.lossBatch(ps, true, scales, 0.3);
    assert.deepEqual(all, one);
    m.params.forEach((q, k) => {
      for (let i = 0; i < q.grad.length; i++) assert.ok(Math.abs(q.grad[i]! - grads[k]![i]!) <= 1e-5 * (1 + Math.abs(grads[k]![i]!)), `${q.name}[${i}]: ${q.grad[i]} vs ${grads[k]![i]}`);
    });
  }
});
