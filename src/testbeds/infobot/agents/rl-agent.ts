/**
 * RL agents of Table 2 (rl-nokb, rl-hard, rl-soft): the hand-crafted belief tracker, a summary of the
 * dialog state per turn, and the neural policy (`PolicyNet`) choosing request(slot) or inform.
 *
 * The summary vector (paper eq. 8 and the official "entropy" input), `rlFeatureSize(access)` entries:
 * - slot entropies, each divided by log2 of the slot's vocabulary size: Soft-KB H(p̃_j) (projected
 *   KB posterior), No-KB and Hard-KB H(p_j) (the beliefs alone);
 * - per slot, 1 if the user said it does not know the slot (q_j = 0);
 * - one-hot of the slot requested last turn;
 * - the KB feature: Soft-KB H(p_T) / log2 N (one entry); No-KB 0 (one entry); Hard-KB the number of
 *   rows matching the symbolic query, one-hot in 6 bins 0, 1, 2, 3, 4, ≥ 5 (`hardCount: 'bins'`, the
 *   official input: MiuLab/KB-InfoBot `deep_dialog/agents/agent_simpleRL_allact_hardDB.py`, `__init__`
 *   line 42 sizes the input 3M + 6, `next` lines 122–123 count the matches, lines 139–140 set the bin), or one entry
 *   log2(1 + matches) / log2(1 + N) (`hardCount: 'log'`, dialogym's earlier input);
 * - the turn number / max turns (not in the official input, which has no turn entry).
 * No-KB, Soft-KB and log-count Hard-KB inputs have FEATURE_SIZE = 3M + 2 entries, bin-count Hard-KB
 * inputs HARD_BINS_FEATURE_SIZE = 3M + 7.
 * Inform returns the top R rows: Soft-KB by p_T; No-KB and Hard-KB by the soft posterior of the final
 * beliefs over every row (the official Hard-KB agent too: MiuLab/KB-InfoBot
 * `deep_dialog/agents/agent_simpleRL_allact_hardDB.py` informs with `hardDB.py` `_inform`, which
 * ignores the query's matches; `hardRanking: 'posterior'` puts the matches first instead).
 */
import type { Rng } from '../../../core/rng.js';
import type { InfoBotAction } from '../acts.js';
import type { AgentContext, InfoBotAgent } from './agent.js';
import { hardLookup } from '../hard-kb.js';
import type { PolicyNet, PolicyStep } from './policy-net.js';
import { argmax, type KbAccess } from './rule-agents.js';
import { entropy, softPosterior, SoftLookup, topKRandomTies } from '../soft-kb.js';
import { M, REWARDS, SLOTS, type SplitName } from '../slots.js';
import { HandCraftedTracker } from '../tracker.js';
import { ModelFileError, StateError } from '../../../core/errors.js';

/** Size of the policy input.
 *
 * @example
 * ```ts
 * import { FEATURE_SIZE, M } from 'dialogym/infobot';
 * FEATURE_SIZE === 3 * M + 2; // true: 20
 * ```
 */
export const FEATURE_SIZE = 3 * M + 2;
/** Bins of the Hard-KB match count in the official RL-Hard input: 0, 1, 2, 3, 4 and ≥ 5 matches.
 *
 * @example
 * ```ts
 * import { HARD_COUNT_BINS } from 'dialogym/infobot';
 * HARD_COUNT_BINS; // 6
 * ```
 */
export const HARD_COUNT_BINS = 6;
/** Size of the RL-Hard policy input with the match count in bins (`hardCount: 'bins'`).
 *
 * @example
 * ```ts
 * import { HARD_BINS_FEATURE_SIZE, M } from 'dialogym/infobot';
 * HARD_BINS_FEATURE_SIZE === 3 * M + 7; // true: 25
 * ```
 */
export const HARD_BINS_FEATURE_SIZE = 3 * M + HARD_COUNT_BINS + 1;

/**
 * How an RL-Hard agent sees the number of rows matching its query: `bins` (official) one-hot of
 * 0, 1, 2, 3, 4, ≥ 5 matches; `log` one entry log2(1 + matches) / log2(1 + N).
 *
 * @example
 * ```ts
 * import type { HardCountInput } from 'dialogym/infobot';
 * const official: HardCountInput = 'bins';
 * ```
 */
export type HardCountInput = 'bins' | 'log';

/** The policy input size of an RL agent with this KB access (and, for Hard-KB, count input).
 *
 * @example
 * ```ts
 * import { rlFeatureSize } from 'dialogym/infobot';
 * rlFeatureSize('hard');        // 25
 * rlFeatureSize('hard', 'log'); // 20
 * rlFeatureSize('soft');        // 20
 * ```
 */
export function rlFeatureSize(access: KbAccess, hardCount: HardCountInput = 'bins'): number {
  return access === 'hard' && hardCount === 'bins' ? HARD_BINS_FEATURE_SIZE : FEATURE_SIZE;
}
/** Actions: request slot 0..M−1, inform = M.
 *
 * @example
 * ```ts
 * import { POLICY_ACTIONS, ACTION_COUNT } from 'dialogym/infobot';
 * POLICY_ACTIONS === ACTION_COUNT; // true: 7
 * ```
 */
export const POLICY_ACTIONS = M + 1;

/**
 * How an RL agent picks its action: sample from the policy (training) or take the most likely
 * one (evaluation).
 *
 * @example
 * ```ts
 * import type { ActMode } from 'dialogym/infobot';
 * const mode: ActMode = 'greedy';
 * ```
 */
export type ActMode = 'sample' | 'greedy';

/**
 * The trainable RL agents: rl-nokb, rl-hard, rl-soft.
 *
 * @example
 * ```ts
 * import { RL_AGENTS, rlAccess } from 'dialogym/infobot';
 * RL_AGENTS.map(rlAccess); // ['none', 'hard', 'soft']
 * ```
 */
export const RL_AGENTS = ['rl-nokb', 'rl-hard', 'rl-soft'] as const;
/**
 * One of `RL_AGENTS`.
 *
 * @example
 * ```ts
 * import type { RlAgentName } from 'dialogym/infobot';
 * const name: RlAgentName = 'rl-soft';
 * ```
 */
export type RlAgentName = (typeof RL_AGENTS)[number];

/** The KB access of an RL agent name (null if not one).
 *
 * @example
 * ```ts
 * import { rlAccess } from 'dialogym/infobot';
 * rlAccess('rl-hard');   // 'hard'
 * rlAccess('rule-hard'); // null
 * ```
 */
export function rlAccess(name: string): KbAccess | null {
  return name === 'rl-nokb' ? 'none' : name === 'rl-hard' ? 'hard' : name === 'rl-soft' ? 'soft' : null;
}

/**
 * The tracker count update C of the RL agents per split and KB access: the official `upd` of the
 * `simple-rl-*` agents (MiuLab/KB-InfoBot `settings/config_imdb-{S,M,L,XL}.py`, e.g.
 * `config_imdb-M.py` `agent_params['simple-rl-soft']['upd'] = 5`, `['simple-rl-hard']['upd'] = 5`),
 * which `sim.py` and `train.py` pass to the RL agents. They differ from the rule agents' C only on
 * Medium, where `nl-rule-hard` and `nl-rule-soft` use 10.
 *
 * @example
 * ```ts
 * import { RL_UPDATE } from 'dialogym/infobot';
 * RL_UPDATE.medium.soft; // 5 (rule-soft: 10)
 * ```
 */
export const RL_UPDATE: Readonly<Record<SplitName, Readonly<Record<KbAccess, number>>>> = {
  small: { none: 5, hard: 5, soft: 10 },
  medium: { none: 5, hard: 5, soft: 5 },
  large: { none: 5, hard: 5, soft: 10 },
  xlarge: { none: 5, hard: 5, soft: 5 },
};

/**
 * Options of an `RlAgent`.
 *
 * @example
 * ```ts
 * import type { RlAgentOptions } from 'dialogym/infobot';
 * const opts: RlAgentOptions = { mode: 'sample', update: 10 };
 * ```
 */
export interface RlAgentOptions {
  /** Sample actions (training; the decisions are kept in `trajectory`) or take the most likely one (evaluation; default). */
  mode?: ActMode;
  /** Tracker count update C (default: the official RL agents' for the split and access, `RL_UPDATE`). */
  update?: number;
  /** Hard-KB results (default `soft`, official): as `RulePolicyOptions.hardRanking`, but no `random`. */
  hardRanking?: 'soft' | 'posterior';
  /** Hard-KB count input (default: the one the network's input size fits, `bins` for a new network of
   * `HARD_BINS_FEATURE_SIZE` inputs, `log` for FEATURE_SIZE). */
  hardCount?: HardCountInput;
}

/** One decision, kept for the policy-gradient update.
 *
 * @example
 * ```ts
 * import type { Decision } from 'dialogym/infobot';
 * declare const trajectory: Decision[];
 * const actions = trajectory.map((d) => d.action);
 * ```
 */
export interface Decision {
  readonly step: PolicyStep;
  readonly action: number;
}

/**
 * An RL agent of Table 2 (module description above): hand-crafted tracker, summary features and
 * a `PolicyNet`. Usually built from a policy file (`createInfoBotAgent('rl-soft')`, `policyAgent`); `act`
 * before `begin` throws a StateError.
 *
 * @example
 * ```ts
 * import { InfoBotEnv, RlAgent, agentContext, loadPolicy } from 'dialogym/infobot';
 * const { meta, net } = loadPolicy('policies/infobot/rl-soft-medium.dgm');
 * const agent = new RlAgent(agentContext(new InfoBotEnv({ split: 'medium' })), meta.access, net);
 * ```
 */
export class RlAgent implements InfoBotAgent {
  readonly name: string;
  mode: ActMode;
  readonly tracker: HandCraftedTracker;
  private readonly lookup: SoftLookup;
  private readonly post: Float64Array;
  private readonly vocabScale: Float64Array;
  private h: Float32Array;
  private lastRequest: number | null = null;
  private turn = 0;
  private rng: Rng | null = null;
  private matches: number[] = [];
  private readonly matchesFirst: boolean;
  /** The Hard-KB count input (`bins` or `log`; irrelevant without Hard-KB). */
  readonly hardCount: HardCountInput;
  private readonly size: number;
  private readonly probs = new Float32Array(POLICY_ACTIONS);
  /** The decisions of the current episode. */
  trajectory: Decision[] = [];

  constructor(
    private readonly ctx: AgentContext,
    readonly access: KbAccess,
    readonly net: PolicyNet,
    opts: RlAgentOptions = {},
  ) {
    this.name = `rl-${access === 'none' ? 'nokb' : access}`;
    this.mode = opts.mode ?? 'greedy';
    this.matchesFirst = opts.hardRanking === 'posterior';
    this.tracker = new HandCraftedTracker(ctx.kb, ctx.index, { update: opts.update ?? RL_UPDATE[ctx.split][access] });
    this.lookup = new SoftLookup(ctx.kb);
    this.post = new Float64Array(ctx.kb.n);
    this.vocabScale = Float64Array.from(ctx.kb.vocab, (v) => 1 / Math.max(1, Math.log2(Math.max(2, v.length))));
    this.h = net.initialState();
    this.hardCount = opts.hardCount ?? (net.inputSize === FEATURE_SIZE ? 'log' : 'bins');
    this.size = rlFeatureSize(access, this.hardCount);
    if (net.inputSize !== this.size || net.actions !== POLICY_ACTIONS) throw new ModelFileError(`policy network must map ${this.size} inputs to ${POLICY_ACTIONS} actions (it maps ${net.inputSize} to ${net.actions})`);
  }

  begin(rng: Rng): void {
    this.rng = rng;
    this.tracker.reset();
    this.h = this.net.initialState();
    this.lastRequest = null;
    this.turn = 0;
    this.trajectory = [];
  }

  /** The summary vector of the current state (after the tracker has read the utterance). */
  features(): Float32Array {
    const x = new Float32Array(this.size);
    const b = this.tracker.beliefs;
    const kb = this.ctx.kb;
    if (this.access === 'soft') {
      const look = this.lookup.update(b);
      for (let j = 0; j < M; j++) x[j] = (look.slotEntropies[j] as number) * (this.vocabScale[j] as number);
      x[3 * M] = look.posteriorEntropy / Math.log2(Math.max(2, kb.n));
    } else {
      for (let j = 0; j < M; j++) x[j] = entropy(b.p[j] as Float64Array) * (this.vocabScale[j] as number);
      if (this.access === 'hard') {
        const query = SLOTS.map((_, j) => (this.tracker.heard.has(j) && !this.tracker.unknown.has(j) ? argmax(b.p[j] as Float64Array) : null));
        this.matches = hardLookup(kb, query);
        const n = this.matches.length;
        if (this.hardCount === 'bins') x[3 * M + Math.min(n, HARD_COUNT_BINS - 1)] = 1;
        else x[3 * M] = Math.log2(1 + n) / Math.log2(1 + kb.n);
      }
    }
    for (const j of this.tracker.unknown) x[M + j] = 1;
    if (this.lastRequest !== null) x[2 * M + this.lastRequest] = 1;
    x[this.size - 1] = this.turn / REWARDS.maxTurns;
    return x;
  }

  /** The ranked results of an inform action in the current state. */
  results(): number[] {
    const rng = this.rng as Rng;
    const R = this.ctx.successMaxRank;
    if (this.access === 'soft') return topKRandomTies(this.lookup.posterior, R, rng);
    softPosterior(this.ctx.kb, this.tracker.beliefs, this.post);
    if (this.access === 'hard' && this.matchesFirst) for (const i of this.matches) this.post[i] = (this.post[i] as number) + 2;
    return topKRandomTies(this.post, R, rng);
  }

  /** Runs the policy on the utterance; returns the chosen action index (request j < M, inform M). */
  decide(utterance: string): number {
    if (!this.rng) throw new StateError('begin() was not called');
    this.tracker.update(utterance, this.lastRequest);
    const x = this.features();
    if (this.mode === 'greedy') {
      // Evaluation: no trajectory, allocation-free policy step (same numbers as `step`).
      this.net.act(x, this.h, this.probs);
      return argmax(this.probs);
    }
    const step = this.net.step(x, this.h);
    this.h = step.cache.h;
    const a = this.mode === 'sample' ? sampleIndex(step.probs, this.rng) : argmax(step.probs);
    this.trajectory.push({ step, action: a });
    return a;
  }

  /** The InfoBotAction of action index `a` (updates the dialog bookkeeping). */
  perform(a: number): InfoBotAction {
    this.turn++;
    if (a === M) {
      this.lastRequest = null;
      return { act: 'inform', results: this.results() };
    }
    this.lastRequest = a;
    return { act: 'request', slot: SLOTS[a] as (typeof SLOTS)[number] };
  }

  act(utterance: string): InfoBotAction {
    return this.perform(this.decide(utterance));
  }
}

/** Draws an index from a probability vector.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { sampleIndex } from 'dialogym/infobot';
 * sampleIndex([0.1, 0.9], createRng(1)); // 1 most of the time
 * ```
 */
export function sampleIndex(p: ArrayLike<number>, rng: Rng): number {
  let u = rng.next();
  for (let i = 0; i < p.length; i++) {
    u -= p[i] as number;
    if (u < 0) return i;
  }
  return p.length - 1;
}
