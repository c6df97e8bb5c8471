/**
 * The E2E-Soft agent of Table 2 (paper §4.4): the neural belief tracker (eqs. 6–7) feeds the Soft-KB
 * lookup (eqs. 1–3); the summary of the lookup feeds the neural policy (the same GRU policy as the RL
 * agents, `PolicyNet`), which requests a slot or informs. In training ('sample' mode) the inform
 * action draws its R results from the posterior without replacement (eq. 20), so that REINFORCE can
 * train the tracker through the sample's log-probability; in evaluation ('greedy') it informs the R
 * most probable rows and takes the most probable action.
 *
 * The policy input has the layout of the RL agents' (FEATURE_SIZE): normalised projected slot
 * entropies H(p̃_j), 1 − q_j (the "don't know" probability), the one-hot of the last request, H(p_T) /
 * log2 N and the turn / max turns.
 */
import type { Rng } from '../../../core/rng.js';
import type { InfoBotAction } from '../acts.js';
import type { AgentContext, InfoBotAgent } from './agent.js';
import { handInput, type HandInput, type NeuralTracker, type TrackerStep } from './neural-tracker.js';
import { HandCraftedTracker } from '../tracker.js';
import { RULE_DEFAULTS } from './rule-agents.js';
import type { NgramVocab } from './ngrams.js';
import type { PolicyNet, PolicyStep } from './policy-net.js';
import { FEATURE_SIZE, POLICY_ACTIONS, sampleIndex, type ActMode } from './rl-agent.js';
import { argmax } from './rule-agents.js';
import { sampleResults } from './soft-kb-grad.js';
import { SoftLookup, topKRandomTies } from '../soft-kb.js';
import { M, REWARDS, SLOTS } from '../slots.js';
import { ModelFileError, StateError } from '../../../core/errors.js';

/**
 * The trained parts of an E2E-Soft agent: the n-gram vocabulary, the neural tracker and the policy.
 *
 * @example
 * ```ts
 * import { loadE2e, type E2eParts } from 'dialogym/infobot';
 * const parts: E2eParts = loadE2e('policies/infobot/e2e-soft-medium.dgm').parts;
 * parts.vocab.size;
 * ```
 */
export interface E2eParts {
  readonly vocab: NgramVocab;
  readonly tracker: NeuralTracker;
  readonly policy: PolicyNet;
}

/**
 * One policy decision of an E2E-Soft agent (the same shape as the RL agents' `Decision`).
 *
 * @example
 * ```ts
 * import type { E2eDecision } from 'dialogym/infobot';
 * declare const d: E2eDecision;
 * d.step.probs[d.action]; // the probability of the action taken
 * ```
 */
export interface E2eDecision {
  readonly step: PolicyStep;
  readonly action: number;
}

/** The inform of a sampled episode, kept for the tracker's REINFORCE gradient.
 *
 * @example
 * ```ts
 * import type { InformSample } from 'dialogym/infobot';
 * declare const inf: InformSample;
 * console.log(inf.turn, inf.results, inf.posterior[inf.results[0] ?? 0]);
 * ```
 */
export interface InformSample {
  readonly results: number[];
  /** p_T at the inform. */
  readonly posterior: Float64Array;
  /** The beliefs the posterior was computed from. */
  readonly p: Float64Array[];
  readonly q: Float64Array;
  /** Index of the tracker step (turn) of the inform. */
  readonly turn: number;
}

/**
 * The E2E-Soft agent (`e2e-soft`; module description above). Usually built from a trained file
 * (`createInfoBotAgent('e2e-soft')`, `policyAgent`, `loadE2e`); `act` before `begin` throws a StateError.
 *
 * @example
 * ```ts
 * import { E2eAgent, InfoBotEnv, agentContext, loadE2e } from 'dialogym/infobot';
 * const agent = new E2eAgent(agentContext(new InfoBotEnv({ split: 'medium' })), loadE2e('policies/infobot/e2e-soft-medium.dgm').parts);
 * ```
 */
export class E2eAgent implements InfoBotAgent {
  readonly name = 'e2e-soft';
  mode: ActMode;
  /** Keep the tracker and policy caches of the episode for training (default false: allocation-free inference). */
  record: boolean;
  private readonly lookup: SoftLookup;
  private readonly vocabScale: Float64Array;
  private readonly p: Float64Array[];
  private readonly q = new Float64Array(M);
  private readonly beliefs: { p: Float64Array[]; q: Float64Array };
  private readonly probs = new Float32Array(POLICY_ACTIONS);
  private trackerState: Float32Array[];
  private h: Float32Array;
  private lastRequest: number | null = null;
  private turn = 0;
  private rng: Rng | null = null;
  /** Residual trackers: the hand-crafted tracker read alongside, and its logit terms. */
  private readonly hand: HandCraftedTracker | null;
  private readonly handIn: HandInput | null;
  /** Policy decisions of the current episode. */
  trajectory: E2eDecision[] = [];
  /** Tracker steps of the current episode (one per user utterance read). */
  trackerSteps: TrackerStep[] = [];
  /** The sampled inform of the episode (sample mode), or null. */
  inform: InformSample | null = null;

  constructor(
    private readonly ctx: AgentContext,
    readonly parts: E2eParts,
    opts: { mode?: ActMode; record?: boolean } = {},
  ) {
    this.mode = opts.mode ?? 'greedy';
    this.record = opts.record ?? false;
    const { tracker, policy } = parts;
    if (policy.inputSize !== FEATURE_SIZE || policy.actions !== POLICY_ACTIONS) throw new ModelFileError(`policy network must map ${FEATURE_SIZE} inputs to ${POLICY_ACTIONS} actions`);
    ctx.kb.vocab.forEach((v, j) => {
      if (tracker.sizes.values[j] !== v.length) throw new ModelFileError(`neural tracker built for ${tracker.sizes.values[j]} values of slot ${SLOTS[j]}, the KB has ${v.length}`);
    });
    this.lookup = new SoftLookup(ctx.kb);
    this.vocabScale = Float64Array.from(ctx.kb.vocab, (v) => 1 / Math.max(1, Math.log2(Math.max(2, v.length))));
    this.p = ctx.kb.vocab.map((v) => new Float64Array(v.length));
    this.beliefs = { p: this.p, q: this.q };
    this.trackerState = tracker.initialState();
    this.h = policy.initialState();
    this.hand = tracker.residual ? new HandCraftedTracker(ctx.kb, ctx.index, { update: RULE_DEFAULTS[ctx.split].soft.update }) : null;
    this.handIn = this.hand ? handInput(this.hand.beliefs) : null;
  }

  begin(rng: Rng): void {
    this.rng = rng;
    this.trackerState = this.parts.tracker.initialState();
    this.h = this.parts.policy.initialState();
    this.hand?.reset();
    this.lastRequest = null;
    this.turn = 0;
    this.trajectory = [];
    this.trackerSteps = [];
    this.inform = null;
  }

  /** The last request (the tracker's context input). */
  get lastRequestSlot(): number | null {
    return this.lastRequest;
  }

  /** Reads an utterance with the tracker; returns the policy input. */
  observe(utterance: string): Float32Array {
    const ids = this.parts.vocab.featurize(utterance);
    let hand: HandInput | undefined;
    if (this.hand) {
      this.hand.update(utterance, this.lastRequest);
      hand = handInput(this.hand.beliefs, this.handIn as HandInput);
    }
    if (this.record) {
      const ts = this.parts.tracker.step(ids, this.lastRequest, this.trackerState, hand);
      this.trackerSteps.push(ts);
      this.trackerState = ts.caches.map((c) => c.h);
      for (let j = 0; j < M; j++) {
        (this.p[j] as Float64Array).set(ts.p[j] as Float32Array);
        this.q[j] = ts.q[j] as number;
      }
    } else {
      this.parts.tracker.stepInPlace(ids, this.lastRequest, this.trackerState, this.p, this.q, hand);
    }
    const look = this.lookup.update(this.beliefs);
    const x = new Float32Array(FEATURE_SIZE);
    for (let j = 0; j < M; j++) {
      x[j] = (look.slotEntropies[j] as number) * (this.vocabScale[j] as number);
      x[M + j] = 1 - (this.q[j] as number);
    }
    if (this.lastRequest !== null) x[2 * M + this.lastRequest] = 1;
    x[3 * M] = look.posteriorEntropy / Math.log2(Math.max(2, this.ctx.kb.n));
    x[3 * M + 1] = this.turn / REWARDS.maxTurns;
    return x;
  }

  /** Runs tracker and policy on the utterance; returns the chosen action index (request j < M, inform M). */
  decide(utterance: string): number {
    if (!this.rng) throw new StateError('begin() was not called');
    const x = this.observe(utterance);
    if (!this.record) {
      this.parts.policy.act(x, this.h, this.probs);
      return this.mode === 'sample' ? sampleIndex(this.probs, this.rng) : argmax(this.probs);
    }
    const step = this.parts.policy.step(x, this.h);
    this.h = step.cache.h;
    const a = this.mode === 'sample' ? sampleIndex(step.probs, this.rng) : argmax(step.probs);
    this.trajectory.push({ step, action: a });
    return a;
  }

  /** The InfoBotAction of action index `a`. */
  perform(a: number): InfoBotAction {
    const rng = this.rng as Rng;
    this.turn++;
    if (a === M) {
      this.lastRequest = null;
      const post = this.lookup.posterior;
      const R = this.ctx.successMaxRank;
      if (this.mode === 'sample') {
        const results = sampleResults(post, R, rng);
        this.inform = { results, posterior: post.slice(), p: this.p.map((x) => x.slice()), q: this.q.slice(), turn: this.trackerSteps.length - 1 };
        return { act: 'inform', results };
      }
      return { act: 'inform', results: topKRandomTies(post, R, rng) };
    }
    this.lastRequest = a;
    return { act: 'request', slot: SLOTS[a] as (typeof SLOTS)[number] };
  }

  act(utterance: string): InfoBotAction {
    return this.perform(this.decide(utterance));
  }
}
