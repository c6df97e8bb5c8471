import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../core/rng.js';
import { gradCheck } from '../nn/gradcheck.js';
import { param, sgd, type Param } from '../nn/params.js';
import { rmsprop } from '../nn/rmsprop.js';
import { imitationLogitGrad, policyLogitGrad, trainPolicyGradient, type EpisodeGrad, type LearningCurvePoint, type Phase } from './policy-gradient.js';

function softmax(x: Float32Array): Float32Array {
  const m = Math.max(...x);
  const e = Array.from(x, (v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return Float32Array.from(e, (v) => v / s);
}

interface Pull {
  reward: number;
  probs: Float32Array;
  action: number;
}

/** A 2-armed bandit (arm 0 pays 1 with probability 0.2, arm 1 with 0.8) and a softmax policy over two logits. */
function bandit(seed: number) {
  const logits = param('logits', [2]);
  const rng = createRng(seed);
  const pay = [0.2, 0.8];
  return {
    logits,
    /** Expected reward of the current policy. */
    value: () => {
      const p = softmax(logits.data);
      return (p[0] as number) * 0.2 + (p[1] as number) * 0.8;
    },
    play: (): Pull => {
      const probs = softmax(logits.data);
      const action = rng.chance(probs[1] as number) ? 1 : 0;
      return { reward: rng.chance(pay[action] as number) ? 1 : 0, probs, action };
    },
    accumulate: (e: Pull, g: EpisodeGrad) => {
      const d = policyLogitGrad(e.probs, e.action, g.advantage, 0);
      for (let k = 0; k < 2; k++) logits.grad[k] = (logits.grad[k] as number) + (d[k] as number);
    },
  };
}

test('REINFORCE on a 2-armed bandit: the softmax policy learns the better arm; curve and validation schedule', () => {
  const b = bandit(7);
  const before = b.value();
  const r = trainPolicyGradient<Pull, { reward: number }, string>({
    groups: [{ params: [b.logits], optimizer: rmsprop({ lr: 0.05 }) }],
    clip: 5,
    phases: [{ name: 'reinforce', episodes: 2000, batch: 32 }],
    validation: { every: 10, unit: 'batches' },
    play: b.play,
    accumulate: b.accumulate,
    summarize: (batch) => ({ reward: batch.reduce((a, e) => a + e.reward, 0) / batch.length }),
    validate: b.value,
  });
  assert.equal(before, 0.5);
  assert.ok(b.value() > 0.75, `expected reward after training ${b.value()}`);
  assert.ok((softmax(b.logits.data)[1] as number) > 0.9);
  assert.equal(r.episodes, 2000);
  assert.equal(r.curve.length, Math.ceil(2000 / 32));
  assert.equal(r.curve.at(-1)?.episodes, 2000);
  assert.ok(r.curve.every((p) => p.phase === 'reinforce' && p.reward >= 0 && p.reward <= 1));
  // Every 10th batch and the last one.
  const validated = r.curve.flatMap((p, i) => (p.validReward === undefined ? [] : [i + 1]));
  assert.deepEqual(validated, [10, 20, 30, 40, 50, 60, 63]);
  assert.equal(r.bestValidReward, Math.max(...r.curve.map((p) => p.validReward ?? -Infinity)));
  assert.equal(r.bestValidReward, b.value(), 'the best validated parameters are in place');
  // Deterministic.
  const c = bandit(7);
  trainPolicyGradient<Pull, { reward: number }, string>({ groups: [{ params: [c.logits], optimizer: rmsprop({ lr: 0.05 }) }], clip: 5, phases: [{ name: 'reinforce', episodes: 2000, batch: 32 }], validation: { every: 10, unit: 'batches' }, play: c.play, accumulate: c.accumulate, summarize: () => ({ reward: 0 }), validate: c.value });
  assert.deepEqual(c.logits.data, b.logits.data);
});

/** A task whose parameter moves by +1 per batch (SGD on a constant gradient) and whose validation scores follow a script. */
function scripted(scores: number[], phases: Phase[], every: number, unit: 'batches' | 'episodes', episodesBefore?: number) {
  const w = param('w', [1]);
  const played: number[] = [];
  const begun: string[] = [];
  let v = 0;
  const best: number[] = [];
  const r = trainPolicyGradient(
    {
      groups: [{ params: [w], optimizer: sgd(1) }],
      clip: 100,
      phases: phases.map((p) => ({ ...p, begin: () => begun.push(p.name) })),
      validation: { every, unit },
      ...(episodesBefore !== undefined ? { episodesBefore } : {}),
      play: (i) => {
        played.push(i);
        return { reward: 0 };
      },
      accumulate: () => {
        w.grad[0] = -1;
      },
      summarize: () => ({ reward: 0, w: w.data[0] as number }),
      validate: () => scores[v++] as number,
    },
    { onBest: (p) => best.push(p.w) },
  );
  return { r, w: w.data[0] as number, played, begun, best };
}

test('keep best: the parameters of the best validation are restored at the end; onBest sees each improvement', () => {
  const s = scripted([0.3, 0.9, 0.5, 0.1], [{ name: 'reinforce', episodes: 40, batch: 10 }], 1, 'batches');
  assert.equal(s.w, 2, 'restored to the weights after batch 2');
  assert.equal(s.r.bestValidReward, 0.9);
  assert.equal(s.r.bestEpisodes, 20);
  assert.deepEqual(s.best, [1, 2]);
  assert.deepEqual(
    s.r.curve.map((p) => p.validReward),
    [0.3, 0.9, 0.5, 0.1],
  );
  assert.deepEqual(s.played, Array.from({ length: 40 }, (_, i) => i));
  // Without validation the last parameters are kept.
  const last = scripted([], [{ name: 'reinforce', episodes: 40, batch: 10 }], 0, 'batches');
  assert.equal(last.w, 4);
  assert.ok(Number.isNaN(last.r.bestValidReward));
  assert.equal(last.r.bestEpisodes, 40);
  assert.ok(last.r.curve.every((p) => p.validReward === undefined));
});

test('phases: played in order with their batch sizes, begun once (empty ones skipped), validated at their ends; episode-count schedule; episodesBefore', () => {
  const phases = [
    { name: 'imitation', episodes: 25, batch: 10 },
    { name: 'empty', episodes: 0, batch: 4 },
    { name: 'reinforce', episodes: 30, batch: 12 },
  ];
  const s = scripted([1, 2, 3, 4, 5, 6, 7], phases, 20, 'episodes', 100);
  assert.deepEqual(s.begun, ['imitation', 'reinforce']);
  const pts = s.r.curve.map((p: LearningCurvePoint<{ reward: number }>) => [p.phase, p.episodes, p.validReward]);
  // 20 crossed at 20, 40 at 49; ends of phases at 25 and 55.
  assert.deepEqual(pts, [
    ['imitation', 110, undefined],
    ['imitation', 120, 1],
    ['imitation', 125, 2],
    ['reinforce', 137, undefined],
    ['reinforce', 149, 3],
    ['reinforce', 155, 4],
  ]);
  assert.equal(s.r.bestEpisodes, 155);
  assert.equal(s.r.episodes, 55);
  // Batch schedule counts batches across phases.
  const t = scripted([1, 2, 3, 4, 5], phases, 2, 'batches');
  assert.deepEqual(
    t.r.curve.map((p) => p.validReward !== undefined),
    [false, true, true, true, false, true],
  );
  // Nothing to play: no point, nothing validated, the initial parameters kept.
  const none = scripted([1], [{ name: 'reinforce', episodes: 0, batch: 3 }], 1, 'batches', 7);
  assert.deepEqual(none.r.curve, []);
  assert.equal(none.r.bestValidReward, -Infinity);
  assert.equal(none.r.bestEpisodes, 7);
  assert.equal(none.w, 0);
});

test('advantage is (return − batch baseline) / batch size; gradients are zeroed per batch and clipped per group', () => {
  const a = param('a', [2]);
  const b = param('b', [1]);
  const seen: [number, number, number][] = [];
  const norms: number[] = [];
  const returns = [1, 2, 6, 3, 5];
  trainPolicyGradient({
    groups: [
      { params: [a], optimizer: { step: (ps: readonly Param[]) => norms.push(Math.hypot(...(ps[0] as Param).grad)) } },
      { params: [b], optimizer: { step: (ps: readonly Param[]) => norms.push(Math.abs((ps[0] as Param).grad[0] as number)) } },
    ],
    clip: 1,
    phases: [{ name: 'p', episodes: 5, batch: 3 }],
    validation: { every: 0, unit: 'batches' },
    play: (i) => ({ reward: returns[i] as number }),
    accumulate: (e, g) => {
      seen.push([e.reward, g.advantage, g.size]);
      a.grad[0] = (a.grad[0] as number) + 3;
      a.grad[1] = (a.grad[1] as number) + 4;
      b.grad[0] = (b.grad[0] as number) + 0.1;
    },
    summarize: () => ({ reward: 0 }),
    validate: () => 0,
  });
  assert.deepEqual(seen, [
    [1, (1 - 3) / 3, 3],
    [2, (2 - 3) / 3, 3],
    [6, (6 - 3) / 3, 3],
    [3, (3 - 4) / 2, 2],
    [5, (5 - 4) / 2, 2],
  ]);
  // a: norm 15 then 10, clipped to 1; b: 0.3 then 0.2, under the clip (the grads were zeroed between batches).
  assert.deepEqual(
    norms.map((x) => Math.round(x * 1e6) / 1e6),
    [1, 0.3, 1, 0.2],
  );
  // A custom baseline.
  const adv: number[] = [];
  trainPolicyGradient({ groups: [], clip: 1, phases: [{ name: 'p', episodes: 2, batch: 2 }], validation: { every: 0, unit: 'batches' }, baseline: () => 0, play: (i) => ({ reward: i + 1 }), accumulate: (_e, g) => adv.push(g.advantage), summarize: () => ({ reward: 0 }), validate: () => 0 });
  assert.deepEqual(adv, [0.5, 1]);
});

test('policyLogitGrad is ∂(−adv·log π(a) − β·H(π))/∂logits; imitationLogitGrad the cross-entropy gradient over the batch size', () => {
  const logits = Float32Array.from([0.3, -1.2, 0.8, 0.1]);
  const loss = (adv: number, a: number, beta: number) => () => {
    const p = softmax(logits);
    let h = 0;
    for (const pk of p) h -= pk * Math.log(pk);
    return -adv * Math.log(p[a] as number) - beta * h;
  };
  for (const [adv, a, beta] of [
    [0.7, 2, 0],
    [-0.4, 1, 0.05],
    [0, 3, 0.2],
  ] as const) {
    const g = policyLogitGrad(softmax(logits), a, adv, beta);
    const r = gradCheck(loss(adv, a, beta), logits, g, 1e-3);
    assert.ok(r.maxRelError < 1e-3, `adv ${adv} a ${a} β ${beta}: ${r.maxRelError}`);
  }
  const p = softmax(logits);
  const g = imitationLogitGrad(p, 2, 4);
  const ce = policyLogitGrad(p, 2, 0.25, 0);
  for (let k = 0; k < 4; k++) assert.ok(Math.abs((g[k] as number) - (ce[k] as number)) < 1e-7);
});
