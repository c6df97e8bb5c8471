/**
 * Training of the E2E-Soft agent (paper §4.4–§5) against the user simulator, in two phases:
 * 1. Imitation: the rule agent (rule-soft) plays; the policy learns its actions by cross-entropy on
 *    the summary of the neural tracker's own beliefs, and the tracker is trained supervised from the
 *    simulator's dialog acts: for a slot the user has informed, the target is the goal's true value
 *    (so the tracker learns Pr(true value | noisy utterance)) and q_j = 1; after "I don't know" q_j = 0;
 *    before any mention the target is the KB prior.
 * 2. REINFORCE: the agent plays with sampled actions and sampled result lists (eq. 20). With G the
 *    episode return and b the batch-mean baseline, the policy follows (G − b)·∇ log π(a_t) (plus an
 *    entropy bonus) and the tracker (G − b)·∇ log Pr(μ), backpropagated through the Soft-KB lookup
 *    (eqs. 1–3), the per-slot softmaxes and the tracker GRUs (BPTT over the dialog). Summary
 *    statistics are policy inputs only (no gradient through the entropies).
 * RMSProp, clipped gradient norm (policy and tracker each); about every `validateEvery` dialogs
 * the greedy agent plays fixed validation dialogs and the best parameters are kept. The loop is the
 * generic one of `train/policy-gradient.ts`; this file supplies the episodes and their gradients.
 */
import { createRng } from '../../../core/rng.js';
import type { Rng } from '../../../core/rng.js';
import { imitationLogitGrad, policyLogitGrad, trainPolicyGradient } from '../../../train/policy-gradient.js';
import type { InfoBotAction, UserAct } from '../acts.js';
import type { InfoBotAgent, Oracle } from './agent.js';
import { E2eAgent, type E2eParts } from './e2e-agent.js';
import { InfoBotEnv } from '../env.js';
import { agentContext, runInfoBotEpisode, type EpisodeResult } from '../episodes.js';
import { NeuralTracker } from './neural-tracker.js';
import { NgramVocab, valueNgramIds } from './ngrams.js';
import { rmsprop } from '../../../nn/rmsprop.js';
import { PolicyNet } from './policy-net.js';
import { curveFigures, trainSeed, validationReward, type CurveFigures, type CurvePoint } from './reinforce.js';
import { FEATURE_SIZE, POLICY_ACTIONS } from './rl-agent.js';
import { RuleAgent } from './rule-agents.js';
import { resultsLogProbGradA, softLookupBackward } from './soft-kb-grad.js';
import { M, SLOTS, slotIndex, type SplitName } from '../slots.js';
import { contentTokens } from '../text.js';
import type { ValueIndex } from '../tracker.js';
import { ConfigError, InternalError } from '../../../core/errors.js';

/**
 * Options of `trainE2e` (defaults and checks in `e2eTrainOptions`).
 *
 * @example
 * ```ts
 * import type { E2eTrainOptions } from 'dialogym/infobot';
 * const opts: E2eTrainOptions = { split: 'medium', imitation: 10000, episodes: 20000, residual: true, temperatures: [0.5, 1, 2] };
 * ```
 */
export interface E2eTrainOptions {
  /** KB split of the training environment. */
  split: SplitName;
  /** Seed of the generated KB (default 1). */
  kbSeed?: number;
  /** Seed of initialisation, training dialogs and sampling (default 1). */
  seed?: number;
  /** Imitation dialogs (default 10,000). */
  imitation?: number;
  /** REINFORCE dialogs (default 10,000). */
  episodes?: number;
  /** Dialogs per update of the imitation phase (default 16). */
  imitationBatch?: number;
  /** Dialogs per REINFORCE update (default 64). */
  batch?: number;
  /** RMSProp learning rate of the imitation phase (default 0.02). */
  imitationLr?: number;
  /** RMSProp learning rate of the policy in REINFORCE (default 0.001). */
  lr?: number;
  /** RMSProp learning rate of the tracker in REINFORCE (default 0.0002). */
  trackerLr?: number;
  /** Policy GRU state size (default 50). */
  hidden?: number;
  /** Tracker GRU state size per slot (default 32). */
  trackerHidden?: number;
  /** n-gram embedding size (default 32). */
  embed?: number;
  /** Tie the value logits to the n-gram embeddings (default false: slower to learn in our runs; see `NeuralTracker`). */
  tiedValues?: boolean;
  /**
   * NLG temperatures of the training dialogs, taken in turn (default [1], the simulator's default);
   * validation dialogs are at `validationTemperature`.
   */
  temperatures?: number[];
  /** NLG temperature of the validation dialogs that select the kept parameters (default: the validation environment's, 1 unless `env` says otherwise). */
  validationTemperature?: number;
  /** Residual tracker: it reads the hand-crafted tracker's beliefs and learns corrections (default false; see `NeuralTracker`). */
  residual?: boolean;
  /**
   * Imitation expert re-asks lost answers (default false): when the user answered the slot just
   * requested (the simulator's act) but no value of that slot can be read in the utterance (words
   * dropped by the NLG noise, or a corrupted value), the expert asks the slot again (once per slot)
   * instead of following the rule agent. Teaches the policy to recover from noisy answers.
   */
  reaskLost?: boolean;
  /** Rule-agent dialogs whose utterances build the n-gram vocabulary (default 2,000). */
  vocabEpisodes?: number;
  /** Gradient-norm clip (default 5). */
  clip?: number;
  /** Entropy bonus weight of the policy (default 0.01). */
  entropyBonus?: number;
  /** Validate about every this many training dialogs, and at the end of each phase (default 4,000; 0: never, keep the last). */
  validateEvery?: number;
  /** Validation dialogs (default 500). */
  validationEpisodes?: number;
  /** Reuse an environment. */
  env?: InfoBotEnv;
  /**
   * Continue from a trained agent (its vocabulary, tracker and policy; the sizes options are then
   * ignored) whose learning curve is `curve`: the new points follow it.
   */
  init?: { parts: E2eParts; curve: readonly CurvePoint[] };
  /** After each batch. */
  onBatch?: (p: CurvePoint) => void;
}

/**
 * The E2E training options with every default filled in (as stored in a model file).
 *
 * @example
 * ```ts
 * import { e2eTrainOptions, type E2eTrainSettings } from 'dialogym/infobot';
 * const s: E2eTrainSettings = e2eTrainOptions({ split: 'small' });
 * s.batch; // 64
 * ```
 */
export type E2eTrainSettings = Required<Omit<E2eTrainOptions, 'env' | 'onBatch' | 'init' | 'validationTemperature'>> & Pick<E2eTrainOptions, 'validationTemperature'>;

/**
 * What `trainE2e` returns: the kept parts, the learning curve, the best validation reward and
 * when it was reached, and the settings used. Save it with `saveE2e`.
 *
 * @example
 * ```ts
 * import { trainE2e, saveE2e, type E2eTrainResult } from 'dialogym/infobot';
 * const r: E2eTrainResult = trainE2e({ split: 'small', imitation: 200, episodes: 200 });
 * saveE2e('out/policies/e2e-soft-small.dgm', r);
 * ```
 */
export interface E2eTrainResult {
  /** The vocabulary, tracker and policy with the kept parameters. */
  parts: E2eParts;
  /** One point per batch. */
  curve: CurvePoint[];
  /** Validation reward of the kept parameters (NaN if never validated). */
  bestValidReward: number;
  /** Training dialogs played when the kept parameters were reached. */
  bestEpisodes: number;
  options: E2eTrainSettings;
}

/**
 * The E2E training settings with defaults filled in (10,000 imitation and 10,000 REINFORCE
 * dialogs, …). Invalid values (non-positive sizes, negative counts, non-positive learning rates,
 * bad temperatures) throw a ConfigError.
 *
 * @example
 * ```ts
 * import { e2eTrainOptions } from 'dialogym/infobot';
 * e2eTrainOptions({ split: 'medium', residual: true }).trackerLr; // 0.0002
 * ```
 */
export function e2eTrainOptions(o: E2eTrainOptions): E2eTrainSettings {
  const r: E2eTrainSettings = {
    split: o.split,
    kbSeed: o.kbSeed ?? 1,
    seed: o.seed ?? 1,
    imitation: o.imitation ?? 10_000,
    episodes: o.episodes ?? 10_000,
    imitationBatch: o.imitationBatch ?? 16,
    batch: o.batch ?? 64,
    imitationLr: o.imitationLr ?? 0.02,
    lr: o.lr ?? 0.001,
    trackerLr: o.trackerLr ?? 0.0002,
    hidden: o.hidden ?? 50,
    trackerHidden: o.trackerHidden ?? 32,
    embed: o.embed ?? 32,
    vocabEpisodes: o.vocabEpisodes ?? 2000,
    tiedValues: o.tiedValues ?? false,
    residual: o.residual ?? false,
    reaskLost: o.reaskLost ?? false,
    temperatures: o.temperatures ?? [1],
    clip: o.clip ?? 5,
    entropyBonus: o.entropyBonus ?? 0.01,
    validateEvery: o.validateEvery ?? 4000,
    validationEpisodes: o.validationEpisodes ?? 500,
  };
  for (const k of ['batch', 'imitationBatch', 'hidden', 'trackerHidden', 'embed', 'validationEpisodes'] as const) if (!Number.isInteger(r[k]) || r[k] < 1) throw new ConfigError(`${k} must be a positive integer`);
  if (o.validationTemperature !== undefined) {
    if (!(Number.isFinite(o.validationTemperature) && o.validationTemperature >= 0)) throw new ConfigError('validationTemperature must be a number ≥ 0');
    r.validationTemperature = o.validationTemperature;
  }
  if (r.temperatures.length === 0 || !r.temperatures.every((t) => Number.isFinite(t) && t >= 0)) throw new ConfigError('temperatures must be a non-empty list of numbers ≥ 0');
  for (const k of ['imitation', 'episodes', 'vocabEpisodes', 'validateEvery'] as const) if (!Number.isInteger(r[k]) || r[k] < 0) throw new ConfigError(`${k} must be an integer ≥ 0`);
  if (!(r.lr > 0) || !(r.imitationLr > 0) || !(r.trackerLr > 0) || !(r.clip > 0) || !(r.entropyBonus >= 0)) throw new ConfigError('learning rates and clip must be > 0, entropyBonus ≥ 0');
  return r;
}

/** Per turn, per slot: 0 not mentioned yet, 1 informed by the user, 2 the user does not know it. */
type SlotStatus = Uint8Array;

/** The rule agent plays; the E2E agent reads the same utterances and records the expert's actions and the user's acts. */
class E2eImitator implements InfoBotAgent {
  readonly name = 'e2e-imitator';
  expert: number[] = [];
  status: SlotStatus[] = [];
  goal: Oracle['goal'] | null = null;
  private current = new Uint8Array(M);
  /** The slots the expert re-asked in this episode. */
  private reasked = new Set<number>();

  /** `reask`: the value index of the KB to re-ask lost answers with (see `E2eTrainOptions.reaskLost`), or null. */
  constructor(
    private readonly rule: RuleAgent,
    private readonly learner: E2eAgent,
    private readonly reask: ValueIndex | null = null,
  ) {}

  begin(rng: Rng): void {
    this.rule.begin(rng.fork('rule'));
    this.learner.begin(rng.fork('learner'));
    this.expert = [];
    this.status = [];
    this.goal = null;
    this.current = new Uint8Array(M);
    this.reasked = new Set();
  }

  /** Whether the user answered slot `j` (requested last turn) with a value no token of which can be read. */
  private lost(j: number | null, utterance: string, act: UserAct): j is number {
    if (!this.reask || j === null || this.reasked.has(j) || act.act !== 'inform' || slotIndex(act.slot) !== j) return false;
    return (this.reask.matches(contentTokens(utterance))[j] as Map<number, number>).size === 0;
  }

  private note(act: UserAct): void {
    if (act.act === 'open') for (const sv of act.informs) this.current[slotIndex(sv.slot)] = 1;
    else if (act.act === 'inform') this.current[slotIndex(act.slot)] = 1;
    else if (act.act === 'dont-know') this.current[slotIndex(act.slot)] = 2;
  }

  act(utterance: string, oracle?: Oracle): InfoBotAction {
    if (!oracle) throw new InternalError('the imitation phase needs the simulator acts (privileged episode)');
    this.goal = oracle.goal;
    this.note(oracle.act);
    this.status.push(this.current.slice());
    const j = this.rule.requested;
    let a = this.rule.act(utterance);
    let k = a.act === 'inform' ? M : slotIndex(a.slot);
    if (this.lost(j, utterance, oracle.act)) {
      this.reasked.add(j);
      this.rule.redirect(j);
      k = j;
      a = { act: 'request', slot: SLOTS[j] as (typeof SLOTS)[number] };
    }
    this.learner.decide(utterance);
    this.learner.perform(k);
    this.expert.push(k);
    return a;
  }
}

/** Builds the n-gram vocabulary from the KB values and the utterances of rule-agent dialogs.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, buildE2eVocab } from 'dialogym/infobot';
 * const vocab = buildE2eVocab(new InfoBotEnv({ split: 'small' }), 1, 200);
 * vocab.size;
 * ```
 */
export function buildE2eVocab(env: InfoBotEnv, seed: number, episodes: number): NgramVocab {
  const utterances: string[] = [];
  const rule = new RuleAgent(agentContext(env), 'soft');
  for (let i = 0; i < episodes; i++) runInfoBotEpisode(env, rule, false, trainSeed(seed, -1 - i), (u) => utterances.push(u));
  return NgramVocab.build(env.kb.vocab, utterances);
}

/** Average greedy reward over the validation dialogs.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, E2eAgent, agentContext, loadE2e, validateE2e } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * const agent = new E2eAgent(agentContext(env), loadE2e('policies/infobot/e2e-soft-small.dgm').parts);
 * validateE2e(env, agent, 200);
 * ```
 */
export function validateE2e(env: InfoBotEnv, agent: E2eAgent, episodes: number): number {
  const { mode, record } = agent;
  agent.mode = 'greedy';
  agent.record = false;
  const r = validationReward(env, agent, episodes);
  agent.mode = mode;
  agent.record = record;
  return r;
}

/** Tracker gradients of the supervised loss (cross-entropy to the act targets), weight `w`. */
function supervisedTrackerGrads(steps: E2eAgent['trackerSteps'], status: readonly SlotStatus[], goal: Oracle['goal'], priors: readonly Float64Array[], w: number): { dp: Float32Array[][]; dq: Float32Array[] } {
  const dp: Float32Array[][] = [];
  const dq: Float32Array[] = [];
  steps.forEach((ts, t) => {
    const st = status[t] as SlotStatus;
    const row: Float32Array[] = [];
    const dy = new Float32Array(M);
    for (let j = 0; j < M; j++) {
      const p = ts.p[j] as Float32Array;
      const g = new Float32Array(p.length);
      const s = st[j] as number;
      if (s === 1) {
        const v = goal.known.get(j) as number;
        for (let k = 0; k < p.length; k++) g[k] = w * ((p[k] as number) - (k === v ? 1 : 0));
      } else {
        const pr = priors[j] as Float64Array;
        for (let k = 0; k < p.length; k++) g[k] = w * ((p[k] as number) - (pr[k] as number));
      }
      row.push(g);
      dy[j] = w * ((ts.q[j] as number) - (s === 2 ? 0 : 1));
    }
    dp.push(row);
    dq.push(dy);
  });
  return { dp, dq };
}

/** Tracker gradients of −adv·log Pr(μ) (eq. 20) through the soft lookup, at the inform turn.
 *
 * @example
 * ```ts
 * import { informTrackerGrads, type E2eAgent, type InfoBotEnv } from 'dialogym/infobot';
 * declare const agent: E2eAgent, env: InfoBotEnv; // after a sampled episode that ended with an inform
 * const { dp, dq } = informTrackerGrads(agent, env.kb, 0.5); // per turn, undefined except at the inform
 * ```
 */
export function informTrackerGrads(agent: E2eAgent, kb: InfoBotEnv['kb'], adv: number): { dp: (Float32Array[] | undefined)[]; dq: (Float32Array | undefined)[] } {
  const T = agent.trackerSteps.length;
  const dp: (Float32Array[] | undefined)[] = new Array<Float32Array[] | undefined>(T).fill(undefined);
  const dq: (Float32Array | undefined)[] = new Array<Float32Array | undefined>(T).fill(undefined);
  const inf = agent.inform;
  if (!inf || adv === 0) return { dp, dq };
  const da = new Float64Array(kb.n);
  resultsLogProbGradA(inf.posterior, inf.results, da);
  for (let i = 0; i < da.length; i++) da[i] = -adv * (da[i] as number);
  const g = softLookupBackward(kb, { p: inf.p, q: inf.q }, da);
  const row: Float32Array[] = [];
  const dy = new Float32Array(M);
  for (let j = 0; j < M; j++) {
    const p = inf.p[j] as Float64Array;
    const d = g.dp[j] as Float64Array;
    let s = 0;
    for (let k = 0; k < p.length; k++) s += (p[k] as number) * (d[k] as number);
    row.push(Float32Array.from(p, (pk, k) => pk * ((d[k] as number) - s)));
    const q = inf.q[j] as number;
    dy[j] = (g.dq[j] as number) * q * (1 - q);
  }
  dp[inf.turn] = row;
  dq[inf.turn] = dy;
  return { dp, dq };
}

/** A played training episode: its result, the decisions and tracker steps, and in imitation the expert's actions and the user's acts. */
interface E2eEpisode {
  readonly reward: number;
  readonly result: EpisodeResult;
  readonly traj: E2eAgent['trajectory'];
  readonly steps: E2eAgent['trackerSteps'];
  readonly inform: E2eAgent['inform'];
  readonly imitation: { readonly expert: number[]; readonly status: SlotStatus[]; readonly goal: Oracle['goal'] } | null;
}

/**
 * Trains the E2E-Soft agent (paper §4.4): the n-gram vocabulary from rule-agent dialogs, imitation
 * of the rule agent, then REINFORCE of the policy and, through the soft lookup, of the tracker;
 * the best validated parameters are kept. Deterministic for given options. Invalid options throw a
 * ConfigError (see `e2eTrainOptions`).
 *
 * @example
 * ```ts
 * import { trainE2e, saveE2e } from 'dialogym/infobot';
 * const r = trainE2e({ split: 'small', imitation: 2000, episodes: 2000, onBatch: (p) => console.log(p.phase, p.episodes, p.reward) });
 * saveE2e('out/policies/e2e-soft-small.dgm', r);
 * ```
 */
export function trainE2e(opts: E2eTrainOptions): E2eTrainResult {
  const o = e2eTrainOptions(opts);
  const env = opts.env ?? new InfoBotEnv({ split: o.split, kbSeed: o.kbSeed });
  const rng = createRng(o.seed).fork('train:e2e-soft');
  let parts: E2eParts;
  if (opts.init) {
    parts = opts.init.parts;
    o.embed = parts.tracker.embed;
    o.trackerHidden = parts.tracker.hidden;
    o.hidden = parts.policy.hiddenSize;
    o.tiedValues = parts.tracker.sizes.valueNgrams !== undefined;
    o.residual = parts.tracker.residual;
  } else {
    const vocab = buildE2eVocab(env, o.seed, o.vocabEpisodes);
    const tracker = new NeuralTracker({ vocab: vocab.size, values: env.kb.vocab.map((v) => v.length), embed: o.embed, hidden: o.trackerHidden, ...(o.tiedValues ? { valueNgrams: valueNgramIds(vocab, env.kb.vocab) } : {}), ...(o.residual ? { residual: true } : {}) }).init(rng.fork('tracker'), env.kb.priors);
    const policy = new PolicyNet(FEATURE_SIZE, o.hidden, POLICY_ACTIONS).init(rng.fork('policy'));
    parts = { vocab, tracker, policy };
  }
  const { tracker, policy } = parts;
  const ctx = agentContext(env);
  // Training dialogs at each temperature, on the same KBs (validation: `env`, temperature 1 unless built otherwise).
  const kbs = { full: env.full, incomplete: env.kb };
  const trainEnvs = o.temperatures.length === 1 && o.temperatures[0] === 1 ? [env] : o.temperatures.map((t) => new InfoBotEnv({ split: env.split, kbs, temperature: t }));
  const trainEnv = (i: number): InfoBotEnv => trainEnvs[i % trainEnvs.length] as InfoBotEnv;
  const validEnv = o.validationTemperature === undefined ? env : new InfoBotEnv({ split: env.split, kbs, temperature: o.validationTemperature });
  const agent = new E2eAgent(ctx, parts, { mode: 'greedy', record: true });
  const imitator = new E2eImitator(new RuleAgent(ctx, 'soft'), agent, o.reaskLost ? env.index : null);
  const optPolicy = rmsprop({ lr: o.imitationLr });
  const optTracker = rmsprop({ lr: o.imitationLr });
  const priors = env.kb.priors as readonly Float64Array[];
  const init = opts.init?.curve ?? [];
  // The tracker's and the policy's weights are held in WebAssembly kernels (bit for bit the JS loops) while they do
  // not change: from the first dialog after an update (accumulate precedes every update) and for
  // each validation; released at the end (the kept weights are restored then).
  let stale = true;
  const hold = (): void => {
    tracker.hold();
    policy.hold();
    stale = false;
  };
  const r = trainPolicyGradient<E2eEpisode, CurveFigures, CurvePoint['phase']>(
    {
      groups: [
        { params: policy.params, optimizer: optPolicy },
        { params: tracker.params, optimizer: optTracker },
      ],
      clip: o.clip,
      phases: [
        { name: 'imitation', episodes: o.imitation, batch: o.imitationBatch },
        {
          name: 'reinforce',
          episodes: o.episodes,
          batch: o.batch,
          begin() {
            optPolicy.setLearningRate(o.lr);
            optTracker.setLearningRate(o.trackerLr);
            agent.mode = 'sample';
          },
        },
      ],
      validation: { every: o.validateEvery, unit: 'episodes' },
      episodesBefore: init.length > 0 ? (init[init.length - 1] as CurvePoint).episodes : 0,
      play(i, phase) {
        if (stale) hold();
        const imitating = phase.name === 'imitation';
        const result = runInfoBotEpisode(trainEnv(i), imitating ? imitator : agent, imitating, trainSeed(o.seed, i));
        return { reward: result.reward, result, traj: agent.trajectory, steps: agent.trackerSteps, inform: agent.inform, imitation: imitating ? { expert: imitator.expert, status: imitator.status, goal: imitator.goal as Oracle['goal'] } : null };
      },
      accumulate(e, { advantage, size }) {
        stale = true;
        const im = e.imitation;
        if (im) {
          // The rule agent's actions (cross-entropy) and the tracker supervised from the user's acts.
          policy.backward(
            e.traj.map((d) => d.step),
            e.traj.map((d, t) => imitationLogitGrad(d.step.probs, im.expert[t] as number, size)),
          );
          const g = supervisedTrackerGrads(e.steps, im.status, im.goal, priors, 1 / size);
          tracker.backward(e.steps, g.dp, g.dq);
          return;
        }
        policy.backward(
          e.traj.map((d) => d.step),
          e.traj.map((d) => policyLogitGrad(d.step.probs, d.action, advantage, o.entropyBonus / size)),
        );
        agent.trackerSteps = e.steps;
        agent.inform = e.inform;
        const g = informTrackerGrads(agent, env.kb, advantage);
        if (e.inform) tracker.backward(e.steps, g.dp, g.dq);
      },
      summarize: (batch) => curveFigures('e2e-soft', o.split, batch),
      validate: () => {
        hold();
        return validateE2e(validEnv, agent, o.validationEpisodes);
      },
    },
    { onBatch: opts.onBatch },
  );
  tracker.release();
  policy.release();
  agent.mode = 'greedy';
  agent.record = false;
  return { parts, curve: [...init, ...r.curve], bestValidReward: r.bestValidReward, bestEpisodes: r.bestEpisodes, options: o };
}
