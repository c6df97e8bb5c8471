/**
 * Training of the RL agents (rl-nokb, rl-hard, rl-soft) against the user simulator with REINFORCE
 * (Williams 1992) as in the paper §4.3: batches of B episodes played with actions sampled from the
 * policy; every decision of an episode is reinforced by the episode's return minus the batch-mean
 * baseline; RMSProp updates with a clipped gradient norm. Every `validateEvery` batches the greedy
 * policy plays a fixed set of validation dialogs (seeds disjoint from training and evaluation) and the
 * best parameters so far are kept.
 */
import { createRng, hashString } from '../../../core/rng.js';
import { clipGradNorm, restore, snapshot, zeroGrads } from '../../../nn/params.js';
import { InfoBotEnv } from '../env.js';
import { agentContext, runInfoBotEpisode, summarize } from '../episodes.js';
import { rmsprop } from '../../../nn/rmsprop.js';
import { PolicyNet } from './policy-net.js';
import type { InfoBotAction } from '../acts.js';
import type { InfoBotAgent } from './agent.js';
import { FEATURE_SIZE, POLICY_ACTIONS, RL_AGENTS, RlAgent, rlAccess, type RlAgentName } from './rl-agent.js';
import { RuleAgent, type KbAccess } from './rule-agents.js';
import { M, slotIndex } from '../slots.js';
import type { Rng } from '../../../core/rng.js';
import type { SplitName } from '../slots.js';


/**
 * Options of `trainRlPolicy` (defaults and checks in `trainOptions`). Not the `TrainOptions` of
 * `dialogym`, which configure the response models.
 *
 * @example
 * ```ts
 * import { trainRlPolicy, type TrainOptions } from 'dialogym/infobot';
 * const opts: TrainOptions = { agent: 'rl-soft', split: 'small', episodes: 5000, imitation: 2000, batch: 64 };
 * const r = trainRlPolicy(opts);
 * ```
 */
export interface TrainOptions {
  /** The RL agent to train (its KB access). */
  agent: RlAgentName;
  /** KB split of the training environment. */
  split: SplitName;
  /** Seed of the generated KB (default 1). */
  kbSeed?: number;
  /** Seed of initialisation, training dialogs and sampling (default 1). */
  seed?: number;
  /** REINFORCE training dialogs (default 30,000). */
  episodes?: number;
  /**
   * Imitation dialogs first (default 10,000): the rule agent of the same KB access plays, the policy learns
   * its actions by cross-entropy (a warm start for REINFORCE).
   */
  imitation?: number;
  /** Learning rate of the imitation phase (default 0.005). */
  imitationLr?: number;
  /** Dialogs per update B (default 128). */
  batch?: number;
  /** RMSProp learning rate of REINFORCE (default 0.001). */
  lr?: number;
  /** GRU state size (default 50). */
  hidden?: number;
  /** Gradient-norm clip (default 5). */
  clip?: number;
  /** Entropy bonus weight (default 0.01): keeps exploring early. */
  entropyBonus?: number;
  /** Validate the greedy policy every this many batches (default 25; 0: never, keep the last). */
  validateEvery?: number;
  /** Validation dialogs (default 500). */
  validationEpisodes?: number;
  /** Reuse an environment (KB and simulator). */
  env?: InfoBotEnv;
  /** After each batch (training figures of the sampled policy). */
  onBatch?: (p: CurvePoint) => void;
}

/**
 * One point of a learning curve: the training figures of one batch, and the greedy validation
 * reward when validated after it.
 *
 * @example
 * ```ts
 * import type { CurvePoint } from 'dialogym/infobot';
 * const p: CurvePoint = { episodes: 12800, reward: 0.42, success: 0.61, turns: 3.9, phase: 'reinforce', validReward: 0.5 };
 * ```
 */
export interface CurvePoint {
  /** Training dialogs so far. */
  episodes: number;
  /** Average return, success and turns of the batch (sampled actions). */
  reward: number;
  success: number;
  turns: number;
  /** Imitation of the rule agent (its figures) or REINFORCE (the sampled policy's). */
  phase: 'imitation' | 'reinforce';
  /** Greedy validation reward, when validated after this batch. */
  validReward?: number;
}

/**
 * What `trainRlPolicy` returns: the kept network, the learning curve, the best validation reward
 * and when it was reached, and the resolved options. Save it with `savePolicy`. Not the
 * `TrainResult` of `dialogym`.
 *
 * @example
 * ```ts
 * import { trainRlPolicy, savePolicy, type TrainResult } from 'dialogym/infobot';
 * const r: TrainResult = trainRlPolicy({ agent: 'rl-hard', split: 'small', episodes: 1000, imitation: 500 });
 * console.log(r.bestValidReward, r.curve.length);
 * savePolicy('out/policies/rl-hard-small.dgm', r);
 * ```
 */
export interface TrainResult {
  /** The policy network with the kept parameters. */
  net: PolicyNet;
  /** One point per batch. */
  curve: CurvePoint[];
  /** Validation reward of the kept parameters (NaN if never validated). */
  bestValidReward: number;
  /** Training dialogs played when the kept parameters were reached. */
  bestEpisodes: number;
  /** The options used, defaults filled in. */
  options: Required<Omit<TrainOptions, 'env' | 'onBatch'>>;
}

/**
 * The training options with defaults filled in (30,000 REINFORCE and 10,000 imitation dialogs,
 * batch 128, lr 0.001, hidden 50, …). Invalid values throw a RangeError (not a dialogym error
 * class): an agent that is not rl-*, non-positive sizes, negative episode counts, lr ≤ 0.
 *
 * @example
 * ```ts
 * import { trainOptions } from 'dialogym/infobot';
 * trainOptions({ agent: 'rl-soft', split: 'medium' }).episodes; // 30000
 * ```
 */
export function trainOptions(o: TrainOptions): Required<Omit<TrainOptions, 'env' | 'onBatch'>> {
  const r = {
    agent: o.agent,
    split: o.split,
    kbSeed: o.kbSeed ?? 1,
    seed: o.seed ?? 1,
    episodes: o.episodes ?? 30_000,
    imitation: o.imitation ?? 10_000,
    imitationLr: o.imitationLr ?? 0.005,
    batch: o.batch ?? 128,
    lr: o.lr ?? 0.001,
    hidden: o.hidden ?? 50,
    clip: o.clip ?? 5,
    entropyBonus: o.entropyBonus ?? 0.01,
    validateEvery: o.validateEvery ?? 25,
    validationEpisodes: o.validationEpisodes ?? 500,
  };
  if (rlAccess(r.agent) === null) throw new RangeError(`cannot train agent '${r.agent}' (trainable: ${RL_AGENTS.join(', ')})`);
  for (const k of ['batch', 'hidden', 'validationEpisodes'] as const) if (!Number.isInteger(r[k]) || r[k] < 1) throw new RangeError(`${k} must be a positive integer`);
  if (!Number.isInteger(r.imitation) || r.imitation < 0 || !Number.isInteger(r.episodes) || r.episodes < 0) throw new RangeError('episodes and imitation must be integers ≥ 0');
  if (!(r.lr > 0) || !(r.imitationLr > 0) || !(r.clip > 0) || !(r.entropyBonus >= 0)) throw new RangeError('lr and clip must be > 0, entropyBonus ≥ 0');
  return r;
}

/** Seeds of the training / validation dialogs (disjoint from `episodeSeed` used by evaluation).
 *
 * @example
 * ```ts
 * import { trainSeed, validationSeed } from 'dialogym/infobot';
 * const first = trainSeed(1, 0);
 * const valid0 = validationSeed(0);
 * ```
 */
export function trainSeed(seed: number, i: number): number {
  return hashString(`infobot-train:${seed}:${i}`);
}
/**
 * The seed of validation dialog `i` (the same for every training run).
 *
 * @example
 * ```ts
 * import { InfoBotEnv, validationSeed } from 'dialogym/infobot';
 * new InfoBotEnv({ split: 'small' }).reset({ seed: validationSeed(3) });
 * ```
 */
export function validationSeed(i: number): number {
  return hashString(`infobot-valid:${i}`);
}

/** Average greedy reward of `agent` over the validation dialogs.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, RlAgent, PolicyNet, agentContext, validate, FEATURE_SIZE, POLICY_ACTIONS } from 'dialogym/infobot';
 * import { createRng } from 'dialogym';
 * const env = new InfoBotEnv({ split: 'small' });
 * const agent = new RlAgent(agentContext(env), 'soft', new PolicyNet(FEATURE_SIZE, 50, POLICY_ACTIONS).init(createRng(1)));
 * validate(env, agent, 100); // an untrained policy's reward
 * ```
 */
export function validate(env: InfoBotEnv, agent: RlAgent, episodes: number): number {
  const mode = agent.mode;
  agent.mode = 'greedy';
  let r = 0;
  for (let i = 0; i < episodes; i++) r += runInfoBotEpisode(env, agent, false, validationSeed(i)).reward;
  agent.mode = mode;
  return r / episodes;
}

/** Plays the rule agent's actions while the policy observes them (imitation episodes). */
class Imitator implements InfoBotAgent {
  readonly name = 'imitator';
  constructor(
    private readonly rule: RuleAgent,
    private readonly learner: RlAgent,
  ) {}
  /** Expert action indices of the episode, aligned with the learner's trajectory. */
  expert: number[] = [];

  begin(rng: Rng): void {
    this.rule.begin(rng.fork('rule'));
    this.learner.begin(rng.fork('learner'));
    this.expert = [];
  }

  act(utterance: string): InfoBotAction {
    const a = this.rule.act(utterance);
    const k = a.act === 'inform' ? M : slotIndex(a.slot);
    this.learner.decide(utterance);
    this.learner.perform(k);
    this.expert.push(k);
    return a;
  }
}

/**
 * Trains an RL agent's policy (module description above): imitation of the rule agent with the
 * same KB access, then REINFORCE with RMSProp, keeping the best validated parameters.
 * Deterministic for given options. Invalid options throw a RangeError (see `trainOptions`).
 *
 * @example
 * ```ts
 * import { trainRlPolicy, savePolicy, defaultPolicyFile } from 'dialogym/infobot';
 * const r = trainRlPolicy({ agent: 'rl-soft', split: 'small', episodes: 3000, imitation: 1000, onBatch: (p) => console.log(p.episodes, p.reward) });
 * savePolicy(defaultPolicyFile('out/policies', 'rl-soft', 'small'), r);
 * ```
 */
export function trainRlPolicy(opts: TrainOptions): TrainResult {
  const o = trainOptions(opts);
  const access = rlAccess(o.agent) as KbAccess;
  const env = opts.env ?? new InfoBotEnv({ split: o.split, kbSeed: o.kbSeed });
  const rng = createRng(o.seed).fork(`train:${o.agent}`);
  const net = new PolicyNet(FEATURE_SIZE, o.hidden, POLICY_ACTIONS).init(rng.fork('init'));
  const ctx = agentContext(env);
  const agent = new RlAgent(ctx, access, net, { mode: 'sample' });
  const imitator = new Imitator(new RuleAgent(ctx, access), agent);
  const opt = rmsprop({ lr: o.imitation > 0 ? o.imitationLr : o.lr });
  const curve: CurvePoint[] = [];
  let best = { reward: -Infinity, params: snapshot(net.params), episodes: 0 };
  const total = o.imitation + o.episodes;
  const batches = Math.ceil(o.imitation / o.batch) + Math.ceil(o.episodes / o.batch);
  let played = 0;
  for (let bi = 0; bi < batches; bi++) {
    const imitating = played < o.imitation;
    if (!imitating && played === o.imitation && o.imitation > 0) opt.setLearningRate(o.lr);
    const size = Math.min(o.batch, (imitating ? o.imitation : total) - played);
    const eps: { reward: number; traj: RlAgent['trajectory']; expert: number[] | null }[] = [];
    const results = [];
    for (let e = 0; e < size; e++) {
      const r = runInfoBotEpisode(env, imitating ? imitator : agent, false, trainSeed(o.seed, played + e));
      results.push(r);
      eps.push({ reward: r.reward, traj: agent.trajectory, expert: imitating ? imitator.expert : null });
    }
    played += size;
    const baseline = eps.reduce((a, e) => a + e.reward, 0) / size;
    zeroGrads(net.params);
    for (const e of eps) {
      const adv = (e.reward - baseline) / size;
      const dl = e.traj.map((d, t) => {
        const p = d.step.probs;
        const g = new Float32Array(p.length);
        if (e.expert) {
          // Cross-entropy with the expert's action: (π − 1_expert) / B.
          const x = e.expert[t] as number;
          for (let k = 0; k < p.length; k++) g[k] = ((p[k] as number) - (k === x ? 1 : 0)) / size;
          return g;
        }
        // ∂/∂logits of −adv·log π(a) − β·H(π): adv·(π − 1_a) + β·π⊙(log π + H).
        let h = 0;
        for (let k = 0; k < p.length; k++) if ((p[k] as number) > 0) h -= (p[k] as number) * Math.log(p[k] as number);
        for (let k = 0; k < p.length; k++) {
          const pk = p[k] as number;
          g[k] = adv * (pk - (k === d.action ? 1 : 0)) + (o.entropyBonus / size) * pk * (Math.log(Math.max(pk, 1e-30)) + h);
        }
        return g;
      });
      net.backward(
        e.traj.map((d) => d.step),
        dl,
      );
    }
    clipGradNorm(net.params, o.clip);
    opt.step(net.params);
    const s = summarize(o.agent, o.split, results);
    const point: CurvePoint = { episodes: played, reward: s.reward, success: s.success, turns: s.turns, phase: imitating ? 'imitation' : 'reinforce' };
    const last = bi === batches - 1;
    const endOfImitation = imitating && played === o.imitation;
    if (o.validateEvery > 0 && ((bi + 1) % o.validateEvery === 0 || last || endOfImitation)) {
      const v = validate(env, agent, o.validationEpisodes);
      point.validReward = v;
      if (v > best.reward) best = { reward: v, params: snapshot(net.params), episodes: played };
    }
    curve.push(point);
    opts.onBatch?.(point);
  }
  if (o.validateEvery > 0) restore(net.params, best.params);
  return { net, curve, bestValidReward: o.validateEvery > 0 ? best.reward : NaN, bestEpisodes: o.validateEvery > 0 ? best.episodes : played, options: o };
}
