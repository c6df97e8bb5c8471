import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../../../core/rng.js';
import { readModelFile, writeModelFile } from '../../../formats/model-file.js';
import { InfoBotEnv } from '../env.js';
import { agentContext, evaluateAgent, runInfoBotEpisode } from '../evaluate.js';
import { hardLookup } from '../hard-kb.js';
import { M } from '../slots.js';
import { argmax } from './rule-agents.js';
import { FEATURES_VERSION, HARD_BINS_FEATURES_VERSION, loadPolicy, savePolicy } from './policy-file.js';
import { PolicyNet } from './policy-net.js';
import { trainRlPolicy } from './reinforce.js';
import { FEATURE_SIZE, HARD_BINS_FEATURE_SIZE, HARD_COUNT_BINS, POLICY_ACTIONS, RlAgent, rlFeatureSize } from './rl-agent.js';

test('RL-Hard input: the match count one-hot in 6 bins (0, 1, 2, 3, 4, ≥ 5) as in the official agent, or log-scaled', () => {
  assert.equal(HARD_BINS_FEATURE_SIZE, 3 * M + 7);
  assert.equal(rlFeatureSize('hard'), 25);
  assert.equal(rlFeatureSize('hard', 'log'), FEATURE_SIZE);
  assert.equal(rlFeatureSize('none'), FEATURE_SIZE);
  const env = new InfoBotEnv({ split: 'medium' });
  const ctx = agentContext(env);
  const bins = new RlAgent(ctx, 'hard', new PolicyNet(HARD_BINS_FEATURE_SIZE, 8, POLICY_ACTIONS).init(createRng(1)));
  const log = new RlAgent(ctx, 'hard', new PolicyNet(FEATURE_SIZE, 8, POLICY_ACTIONS).init(createRng(1)));
  assert.equal(bins.hardCount, 'bins');
  assert.equal(log.hardCount, 'log');
  const seen = new Set<number>();
  for (let seed = 0; seed < 60; seed++) {
    const { obs } = env.reset({ seed });
    for (const agent of [bins, log]) {
      agent.begin(createRng(seed));
      agent.tracker.update(obs.utterance, null);
    }
    const x = bins.features();
    const y = log.features();
    // The count the features must encode, from the tracker's query.
    const t = bins.tracker;
    const query = Array.from({ length: M }, (_, j) => (t.heard.has(j) && !t.unknown.has(j) ? argmax(t.beliefs.p[j] as Float64Array) : null));
    const n = hardLookup(ctx.kb, query).length;
    const oneHot = [...x.subarray(3 * M, 3 * M + HARD_COUNT_BINS)];
    assert.deepEqual(oneHot, Array.from({ length: 6 }, (_, b) => (b === Math.min(n, 5) ? 1 : 0)), `seed ${seed}: ${n} matches`);
    assert.ok(Math.abs((y[3 * M] as number) - Math.log2(1 + n) / Math.log2(1 + ctx.kb.n)) < 1e-6);
    // The rest of the summary is the same in both layouts (the turn entry last).
    assert.deepEqual([...x.subarray(0, 3 * M)], [...y.subarray(0, 3 * M)]);
    assert.equal(x[HARD_BINS_FEATURE_SIZE - 1], y[FEATURE_SIZE - 1]);
    seen.add(Math.min(n, 5));
  }
  assert.ok(seen.size >= 3, `bins seen: ${[...seen].join(',')}`);
  assert.throws(() => new RlAgent(ctx, 'soft', new PolicyNet(HARD_BINS_FEATURE_SIZE, 8, POLICY_ACTIONS)), /policy network must map 20 inputs to 7 actions \(it maps 25 to 7\)/);
  assert.throws(() => new RlAgent(ctx, 'hard', new PolicyNet(FEATURE_SIZE, 8, POLICY_ACTIONS), { hardCount: 'bins' }), /must map 25 inputs/);
});

test('rl-hard policy files: bins (new version) and log-scaled (earlier version) both load and play as trained; mismatched headers are refused in one line', () => {
  const env = new InfoBotEnv({ split: 'small' });
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-hard-count-'));
  const common = { agent: 'rl-hard' as const, split: 'small' as const, imitation: 128, episodes: 128, batch: 64, validateEvery: 0, env };
  for (const hardCount of ['bins', 'log'] as const) {
    const r = trainRlPolicy({ ...common, hardCount });
    assert.equal(r.net.inputSize, hardCount === 'bins' ? 25 : 20);
    const file = join(dir, `${hardCount}.dgm`);
    savePolicy(file, r);
    const p = loadPolicy(file);
    assert.equal(p.meta.features, hardCount === 'bins' ? HARD_BINS_FEATURES_VERSION : FEATURES_VERSION);
    assert.equal(p.hardCount, hardCount);
    assert.ok(Number.isNaN(p.meta.bestValidReward), 'never validated: NaN (null in the file) reads back');
    const a = new RlAgent(agentContext(env), 'hard', r.net, { hardCount });
    const b = new RlAgent(agentContext(env), 'hard', p.net, { hardCount: p.hardCount });
    for (let i = 0; i < 10; i++) assert.deepEqual(runInfoBotEpisode(env, a, false, 700 + i), runInfoBotEpisode(env, b, false, 700 + i));
    // Played by file name (the loader picks the layout).
    assert.equal(evaluateAgent({ agent: file, episodes: 30, env }).agent, 'rl-hard');
  }
  assert.throws(() => trainRlPolicy({ ...common, hardCount: 'sqrt' as 'log' }), /hardCount must be 'bins' or 'log', got 'sqrt'/);
  // A bins header on a 20-input network, or on an rl-soft policy: refused, naming both versions.
  const c = readModelFile(join(dir, 'log.dgm'));
  writeModelFile(join(dir, 'lie.dgm'), { model: c.model, meta: { ...(c.meta as object), features: HARD_BINS_FEATURES_VERSION }, tensors: c.tensors });
  assert.throws(() => loadPolicy(join(dir, 'lie.dgm')), /lie\.dgm: rl-hard policy built for features 'summary-v1-hard-bins' \(20 inputs, 7 actions\); this version reads 'summary-v1' \(20, 7\) or 'summary-v1-hard-bins' \(25, 7, rl-hard only\)/);
  const b = readModelFile(join(dir, 'bins.dgm'));
  writeModelFile(join(dir, 'soft.dgm'), { model: b.model, meta: { ...(b.meta as object), agent: 'rl-soft' }, tensors: b.tensors });
  assert.throws(() => loadPolicy(join(dir, 'soft.dgm')), /soft\.dgm: rl-soft policy built for features 'summary-v1-hard-bins'/);
  writeModelFile(join(dir, 'v9.dgm'), { model: b.model, meta: { ...(b.meta as object), features: 'summary-v9-hard-bins' }, tensors: b.tensors });
  assert.throws(() => loadPolicy(join(dir, 'v9.dgm')), /features 'summary-v9-hard-bins'/);
});

test('the shipped rl-hard policies use the official bins', () => {
  for (const split of ['small', 'medium', 'large', 'xlarge']) {
    const p = loadPolicy(`policies/infobot/rl-hard-${split}.dgm`);
    assert.equal(p.hardCount, 'bins', split);
    assert.equal(p.net.inputSize, HARD_BINS_FEATURE_SIZE, split);
  }
});

test('the shipped policies are the one recipe of docs/reproducing.md, training seed 1 on KB seed 1, for every split', async () => {
  const { rlTrainOptions } = await import('./reinforce.js');
  const { loadE2e } = await import('./e2e-file.js');
  for (const split of ['small', 'medium', 'large', 'xlarge'] as const) {
    for (const agent of ['rl-nokb', 'rl-hard', 'rl-soft'] as const) {
      const { meta } = loadPolicy(`policies/infobot/${agent}-${split}.dgm`);
      const recipe = rlTrainOptions({ agent, split });
      assert.deepEqual([meta.seed, meta.kbSeed, meta.imitation, meta.episodes, meta.hidden], [1, 1, recipe.imitation, recipe.episodes, recipe.hidden], `${agent} ${split}`);
      assert.equal(meta.curve.at(-1)?.episodes, recipe.imitation + recipe.episodes, `${agent} ${split}`);
      // The tracker C it was trained with (the official RL agents', RL_UPDATE) and every other option of the recipe.
      const { RL_UPDATE } = await import('./rl-agent.js');
      assert.equal(meta.update, RL_UPDATE[split][meta.access], `${agent} ${split}`);
      const { imitationLr, imitationBatch, batch, lr, rmspropEps, clip, entropyBonus, discount, expertAccess, validateEvery, validationEpisodes } = recipe;
      assert.deepEqual({ ...meta.recipe, expertInformAfterHeard: undefined }, { imitationLr, imitationBatch, batch, lr, rmspropEps, clip, entropyBonus, discount, expertAccess, validateEvery, validationEpisodes, expertInformAfterHeard: undefined }, `${agent} ${split}`);
      assert.equal(meta.recipe?.expertInformAfterHeard, recipe.expertInformAfterHeard === 'usual' ? (split === 'small' ? 2 : 3) : recipe.expertInformAfterHeard, `${agent} ${split}`);
    }
    const { meta } = loadE2e(`policies/infobot/e2e-soft-${split}.dgm`);
    const o = meta.options;
    assert.deepEqual(
      [meta.seed, meta.kbSeed, o.imitation, o.episodes, o.residual, o.reaskLost, o.temperatures, o.validationTemperature, o.validationEpisodes],
      [1, 1, 10_000, 10_000, true, true, [1, 3], 3, 1000],
      `e2e-soft ${split}`,
    );
  }
});
