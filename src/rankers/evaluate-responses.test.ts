import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackgroundEvaluator, evaluateDialogs } from './evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';
import { syntheticCandidates, syntheticDialogs, syntheticKb } from './testing/synthetic.js';
import { trainMemN2N } from './memn2n-train.js';
import { fit, type Fittable } from '../train/loop.js';
import { param } from '../nn/params.js';

const candidates = syntheticCandidates();

test('background evaluation scores what evaluateDialogs scores, one job at a time', () => {
  const dev = syntheticDialogs(30, 42);
  const { model } = trainMemN2N({ train: syntheticDialogs(60, 41), dev, candidates, kb: syntheticKb() }, { dim: 32, hops: 2, epochs: 1, patience: 0, seed: 3, lr: 0.001, matchType: true, evalWorker: false });
  const inline = accuracy.perResponse(evaluateDialogs(model, dev, { candidates }));
  assert.ok(inline > 0 && inline < 1, `a dev score that can differ: ${inline}`);
  const bg = new BackgroundEvaluator(dev, candidates);
  try {
    const join = bg.start(model);
    assert.throws(() => bg.start(model), /one evaluation at a time/);
    assert.equal(join(), inline);
    assert.equal(bg.start(model)(), inline);
  } finally {
    bg.close();
  }
});

test('a worker whose module does not load gives NaN (its thread says so, no start timeout waited: a 10-minute one here), then NaN at once (no crash)', () => {
  const bg = new BackgroundEvaluator([], candidates, 600_000, new URL('./no-such-worker.js', import.meta.url));
  assert.ok(Number.isNaN(bg.start({ toModelFile: () => ({ model: 'x', meta: {}, tensors: [] }) })()));
  assert.equal(bg.available, false);
  // Once dead, start() answers NaN without posting a job or waiting.
  assert.ok(Number.isNaN(bg.start({ toModelFile: () => { throw new Error('must not encode the model of a dead worker'); } })()));
});

test('fit with overlapped evaluation selects what the in-line loop selects, also when scores are unavailable (NaN)', () => {
  // One weight w; epoch e adds a fixed step; dev = a bumpy function of w with its best at epoch 4.
  const steps = [0.5, 0.3, 0.4, 0.2, -0.6, 0.1, -0.2, 0.05];
  const make = (overlap: 'none' | 'worker' | 'nan'): { r: ReturnType<typeof fit>; w: number; bestSeen: number[] } => {
    const p = param('w', [1]);
    const score = (): number => -Math.abs((p.data[0] as number) - 1.4);
    const bestSeen: number[] = [];
    const f: Fittable = {
      params: [p],
      runEpoch: (e) => {
        p.data[0] = (p.data[0] as number) + (steps[e - 1] as number);
        return 1 / e;
      },
      evaluate: score,
      touch: () => undefined,
      ...(overlap === 'none' ? {} : { startEvaluate: () => (overlap === 'nan' ? () => NaN : ((v) => () => v)(score())) }),
    };
    const r = fit(f, { epochs: steps.length, patience: 3 }, { onBest: () => bestSeen.push(p.data[0] as number) });
    return { r, w: p.data[0] as number, bestSeen };
  };
  const ref = make('none');
  assert.equal(ref.r.bestEpoch, 4);
  assert.equal(ref.r.epochsRun, 7);
  for (const mode of ['worker', 'nan'] as const) {
    const o = make(mode);
    assert.deepEqual(o.r.history.map((h) => [h.epoch, h.dev, h.loss, h.bestEpoch]), ref.r.history.map((h) => [h.epoch, h.dev, h.loss, h.bestEpoch]), mode);
    assert.equal(o.r.epochsRun, ref.r.epochsRun);
    assert.equal(o.w, ref.w, `${mode}: the best weights restored`);
    assert.deepEqual(o.bestSeen, ref.bestSeen, `${mode}: onBest sees the improved weights in place`);
  }
});
