import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../../../core/rng.js';
import { gradCheck } from '../../../nn/gradcheck.js';
import { zeroGrads } from '../../../nn/params.js';
import { policyLogitGrad } from '../../../train/policy-gradient.js';
import { InfoBotEnv } from '../env.js';
import { agentContext, evaluateAgent, runInfoBotEpisode, createInfoBotAgent } from '../evaluate.js';
import { learningCurveSvg } from './learning-curve.js';
import { loadPolicy, savePolicy, findDefaultPolicy } from './policy-file.js';
import { PolicyNet } from './policy-net.js';
import { discountedReturn, rlTrainOptions, trainRlPolicy, usualKnownSlots, validationSeed } from './reinforce.js';
import { RuleAgent } from './rule-agents.js';
import type { InfoBotAgent } from './agent.js';
import { FEATURE_SIZE, POLICY_ACTIONS, RlAgent } from './rl-agent.js';

test('policy network: BPTT gradients of the action logits match finite differences', () => {
  const rng = createRng(5);
  const net = new PolicyNet(6, 5, 4).init(rng.fork('init'));
  for (let i = 0; i < net.bo.data.length; i++) net.bo.data[i] = rng.normal(0, 0.3);
  for (let i = 0; i < net.Wo.data.length; i++) net.Wo.data[i] = rng.normal(0, 0.5);
  const xs = Array.from({ length: 4 }, () => Float32Array.from({ length: 6 }, () => (rng.chance(0.3) ? 0 : rng.normal(0, 1))));
  const targets = [0, 3, 1, 2];
  // L = −Σ_t log π_t(target_t): ∂L/∂logits_t = π_t − 1_target.
  const loss = (): number => {
    let h = net.initialState();
    let l = 0;
    xs.forEach((x, t) => {
      const s = net.step(x, h);
      h = s.cache.h;
      l -= Math.log(s.probs[targets[t] as number] as number);
    });
    return l;
  };
  zeroGrads(net.params);
  let h = net.initialState();
  const steps = xs.map((x) => {
    const s = net.step(x, h);
    h = s.cache.h;
    return s;
  });
  net.backward(
    steps,
    steps.map((s, t) => Float32Array.from(s.probs, (p, k) => p - (k === targets[t] ? 1 : 0))),
  );
  for (const p of net.params) {
    const r = gradCheck(loss, p.data, p.grad, 1e-2);
    assert.ok(r.maxRelError < 3e-3, `${p.name}: ${r.maxRelError} at ${r.worst}`);
  }
});

test('training on a small KB: imitation then REINFORCE, curve, validation, deterministic, model file round trip', () => {
  const env = new InfoBotEnv({ split: 'small' });
  const opts = { agent: 'rl-soft' as const, split: 'small' as const, imitation: 256, episodes: 256, batch: 64, imitationBatch: 64, validateEvery: 2, validationEpisodes: 40, env };
  const r = trainRlPolicy(opts);
  assert.equal(r.curve.length, 8);
  assert.deepEqual(
    r.curve.map((p) => p.phase),
    ['imitation', 'imitation', 'imitation', 'imitation', 'reinforce', 'reinforce', 'reinforce', 'reinforce'],
  );
  assert.equal(r.curve[7]?.episodes, 512);
  const valid = r.curve.filter((p) => p.validReward !== undefined).map((p) => p.validReward as number);
  assert.equal(valid.length, 4);
  assert.equal(r.bestValidReward, Math.max(...valid));
  // The same seed gives the same parameters.
  const again = trainRlPolicy(opts);
  assert.deepEqual([...again.net.Wo.data], [...r.net.Wo.data]);
  // Save, load: the same decisions on the same dialogs.
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-policy-'));
  const file = join(dir, 'p.dgm');
  savePolicy(file, r);
  savePolicy(join(dir, 'again.dgm'), again);
  assert.ok(readFileSync(file).equals(readFileSync(join(dir, 'again.dgm'))), 'same seed: byte-identical policy files');
  const loaded = loadPolicy(file);
  assert.equal(loaded.meta.agent, 'rl-soft');
  assert.equal(loaded.meta.access, 'soft');
  assert.equal(loaded.meta.imitation, 256);
  assert.equal(loaded.meta.curve.length, 8);
  const a = new RlAgent(agentContext(env), 'soft', r.net);
  const b = new RlAgent(agentContext(env), 'soft', loaded.net);
  for (let i = 0; i < 20; i++) assert.deepEqual(runInfoBotEpisode(env, a, false, 1000 + i), runInfoBotEpisode(env, b, false, 1000 + i));
  // Evaluation by file name and by default policy folder give the same figures.
  const byFile = evaluateAgent({ agent: file, episodes: 60, env });
  assert.equal(byFile.agent, 'rl-soft');
  savePolicy(join(dir, 'rl-soft-small.dgm'), r);
  assert.deepEqual(evaluateAgent({ agent: 'rl-soft', episodes: 60, env, policyDir: dir }), byFile);
  assert.throws(() => createInfoBotAgent('rl-hard', env, dir), /agent 'rl-hard' needs a trained policy: run infobot train \(agent: rl-hard, split: small\)/);
  assert.equal(findDefaultPolicy(dir, 'rl-soft', 'small'), join(dir, 'rl-soft-small.dgm'));
  // Broken files: one clear error.
  writeFileSync(join(dir, 'bad.dgm'), readFileSync(file).subarray(0, 100));
  assert.throws(() => loadPolicy(join(dir, 'bad.dgm')), /bad\.dgm: /);
  assert.throws(() => loadPolicy(join(dir, 'none.dgm')), /none\.dgm: no such file/);
  const svg = learningCurveSvg(r.curve, 'test <curve>');
  assert.match(svg, /^<svg /);
  assert.match(svg, /test &lt;curve&gt;/);
  assert.equal((svg.match(/<circle /g) ?? []).length, 4);
  assert.equal((svg.match(/<polyline /g) ?? []).length, 2);
});

test('imitation learns the rule agent: the greedy policy agrees with rule-soft far more than before training', () => {
  const env = new InfoBotEnv({ split: 'small' });
  const rule = createInfoBotAgent('rule-soft', env).agent;
  const slots = ['actor', 'critic_rating', 'genre', 'mpaa_rating', 'director', 'release_year'];
  const agreement = (net: PolicyNet): number => {
    const rl = new RlAgent(agentContext(env), 'soft', net);
    let agree = 0;
    let total = 0;
    for (let i = 0; i < 100; i++) {
      // Follow the rule agent's dialog; compare the policy's greedy choice at every turn.
      const seed = 5000 + i;
      let { obs } = env.reset({ seed });
      rule.begin(createRng(seed).fork('agent'));
      rl.begin(createRng(seed).fork('agent'));
      for (;;) {
        const act = rule.act(obs.utterance);
        const k = act.act === 'inform' ? POLICY_ACTIONS - 1 : slots.indexOf(act.slot);
        const mine = rl.decide(obs.utterance);
        rl.perform(k);
        total++;
        if (mine === k) agree++;
        const s = env.step(act);
        obs = s.obs;
        if (s.terminated || s.truncated) break;
      }
    }
    return agree / total;
  };
  const before = agreement(new PolicyNet(FEATURE_SIZE, 50, POLICY_ACTIONS).init(createRng(1)));
  const r = trainRlPolicy({ agent: 'rl-soft', split: 'small', imitation: 3000, imitationLr: 0.02, episodes: 0, batch: 32, validateEvery: 0, env });
  const after = agreement(r.net);
  assert.ok(after > 0.7 && after > before + 0.15, `agreement ${before.toFixed(3)} → ${after.toFixed(3)}`);
  assert.equal(FEATURE_SIZE, 20);
});

test('the official discounted return (agent_rl.py aggregate_rewards, γ = 0.99) and the recipe defaults', () => {
  // Three actions: two requests (−0.1 each), an inform at rank 0 (+2): −0.1 − 0.1·0.99 + 2·0.99².
  assert.ok(Math.abs(discountedReturn({ reward: 1.8, turns: 3, success: true, rank: 0 }, 0.99) - 1.7612) < 1e-9);
  assert.equal(discountedReturn({ reward: 1.8, turns: 3, success: true, rank: 0 }, 1), 1.8);
  // Out of turns: nine requests and the failed tenth action (−1).
  const truncated = discountedReturn({ reward: -1.9, turns: 10, success: false, rank: -1 }, 0.99);
  assert.ok(Math.abs(truncated - (-0.1 * (1 - 0.99 ** 9) / 0.01 - 0.99 ** 9)) < 1e-9, String(truncated));
  const o = rlTrainOptions({ agent: 'rl-hard', split: 'large' });
  assert.deepEqual([o.discount, o.expertInformAfterHeard, o.expertAccess], [0.99, 'usual', 'none']);
  const soft = rlTrainOptions({ agent: 'rl-soft', split: 'large' });
  assert.deepEqual([soft.discount, soft.expertInformAfterHeard, soft.expertAccess], [0.99, Infinity, 'soft']);
  assert.throws(() => rlTrainOptions({ agent: 'rl-soft', split: 'small', discount: 0 }), /discount must be in \(0, 1\], got 0/);
  assert.deepEqual([o.imitation, o.imitationBatch, o.episodes, o.batch, o.lr, o.rmspropEps, o.validationEpisodes], [10_000, 16, 100_000, 128, 0.001, 1e-4, 2000]);
  assert.throws(() => rlTrainOptions({ agent: 'rl-soft', split: 'small', rmspropEps: -1 }), /rmspropEps must be a number ≥ 0, got -1/);
  assert.throws(() => rlTrainOptions({ agent: 'rl-soft', split: 'small', imitationBatch: 0 }), /imitationBatch must be a positive integer/);
  assert.throws(() => rlTrainOptions({ agent: 'rl-soft', split: 'small', expertInformAfterHeard: 2.5 }), /expertInformAfterHeard must be 'usual', an integer ≥ 1 or Infinity, got 2.5/);
  // The user knows ⌊0.5 · 6⌋ = 3 slots of a Medium movie (no missing cell in the full KB); Small's full KB misses cells.
  assert.equal(usualKnownSlots(new InfoBotEnv({ split: 'medium' })), 3);
  assert.equal(usualKnownSlots(new InfoBotEnv({ split: 'small' })), 2);
});

test('REINFORCE: the expected gradient of the trainer (policyLogitGrad, BPTT, discounted return) is the exact gradient of the expected return', () => {
  // A tiny dialog: up to 3 decisions over 3 actions; actions 0 and 1 ask (−0.1 each), action 2 informs
  // and ends (reward 2 from the 2nd decision on, 0.2 at once); the 3rd decision fails (−1) unless it informs.
  // Enumerating every trajectory gives J(θ) = Σ P(τ)·G(τ) exactly; the trainer's update is
  // Σ_τ P(τ)·Σ_t ∂(−G·log π(a_t))/∂θ in expectation, which must equal −∂J/∂θ (finite differences).
  const rng = createRng(11);
  const net = new PolicyNet(2, 4, 3).init(rng.fork('init'));
  for (let i = 0; i < net.Wo.data.length; i++) net.Wo.data[i] = rng.normal(0, 0.7);
  const xs = [0, 1, 2].map((t) => Float32Array.from([1, t / 2]));
  const finalReward = (t: number, a: number): number => (a === 2 ? (t === 0 ? 0.2 : 2) : -1);
  type Traj = { actions: number[]; p: number; G: number };
  const enumerate = (): Traj[] => {
    const out: Traj[] = [];
    const walk = (t: number, h: Float32Array, actions: number[], p: number): void => {
      const s = net.step(xs[t] as Float32Array, h);
      for (let a = 0; a < 3; a++) {
        const acts = [...actions, a];
        const q = p * (s.probs[a] as number);
        if (a === 2 || t === 2) {
          const turns = t + 1;
          const total = -0.1 * (turns - 1) + finalReward(t, a);
          out.push({ actions: acts, p: q, G: discountedReturn({ reward: total, turns, success: a === 2, rank: a === 2 ? 0 : -1 }, 0.99) });
        } else walk(t + 1, s.cache.h, acts, q);
      }
    };
    walk(0, net.initialState(), [], 1);
    return out;
  };
  const J = (): number => enumerate().reduce((s, e) => s + e.p * e.G, 0);
  zeroGrads(net.params);
  for (const e of enumerate()) {
    let h = net.initialState();
    const steps = e.actions.map((_, t) => {
      const s = net.step(xs[t] as Float32Array, h);
      h = s.cache.h;
      return s;
    });
    net.backward(
      steps,
      steps.map((s, t) => policyLogitGrad(s.probs, e.actions[t] as number, e.p * e.G, 0)),
    );
  }
  // Central differences of −J over every weight, compared as whole vectors: ‖analytic − numeric‖ ≤ 2% of ‖numeric‖
  // (a per-entry check relative to max(1, |g|) would pass these small gradients whatever their sign).
  let diff = 0;
  let norm = 0;
  for (const p of net.params) {
    for (let i = 0; i < p.data.length; i++) {
      const orig = p.data[i] as number;
      p.data[i] = orig + 1e-2;
      const up = -J();
      p.data[i] = orig - 1e-2;
      const down = -J();
      p.data[i] = orig;
      const numeric = (up - down) / 2e-2;
      diff += ((p.grad[i] as number) - numeric) ** 2;
      norm += numeric ** 2;
    }
  }
  assert.ok(norm > 1e-4, `the expected return depends on the weights (‖∇J‖² ${norm})`);
  assert.ok(Math.sqrt(diff) <= 0.02 * Math.sqrt(norm), `‖analytic − numeric‖ ${Math.sqrt(diff).toExponential(2)}, ‖numeric‖ ${Math.sqrt(norm).toExponential(2)}`);
});

test('the recipe\'s imitation phase reproduces its expert: the greedy imitated policy has the expert\'s T and R (Small, rl-nokb)', () => {
  // With 10,000 imitation dialogs in batches of 128 (79 updates) the greedy policy informed at once
  // (T 1.04, R 0.07 against the expert's T 2.00, R 0.32 on these dialogs) and REINFORCE started from
  // there; the recipe imitates in batches of 16 (625 updates).
  const env = new InfoBotEnv({ split: 'small' });
  const r = trainRlPolicy({ agent: 'rl-nokb', split: 'small', episodes: 0, validateEvery: 0, env });
  const ctx = agentContext(env);
  const expert = new RuleAgent(ctx, 'none', { informAfterHeard: usualKnownSlots(env) });
  const learner = new RlAgent(ctx, 'none', r.net, { update: r.update });
  const figures = (agent: InfoBotAgent): { T: number; R: number } => {
    let T = 0;
    let R = 0;
    for (let i = 0; i < 400; i++) {
      const e = runInfoBotEpisode(env, agent, false, validationSeed(i));
      T += e.turns / 400;
      R += e.reward / 400;
    }
    return { T, R };
  };
  const want = figures(expert);
  const got = figures(learner);
  assert.ok(Math.abs(got.T - want.T) < 0.15 && Math.abs(got.R - want.R) < 0.05, `imitated T ${got.T.toFixed(2)} R ${got.R.toFixed(3)}, expert T ${want.T.toFixed(2)} R ${want.R.toFixed(3)}`);
});
