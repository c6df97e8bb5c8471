/**
 * Hand-crafted agents of Table 2: the hand-crafted belief tracker with the rule policy, in three KB
 * access modes.
 *
 * Rule policy (§4.2): inform when the KB posterior entropy H(p_T) < α_R (Soft-KB only); otherwise
 * request a slot j, in order of the slot entropies H_j (the `order` option), skipping a slot when
 * H_j < α_T, or H_j < β · H_j^0 (its entropy at the start), or already
 * requested Q times, or which the user said it does not know; if every slot is skipped, inform.
 * - Soft-KB: H_j = H(p̃_j), the projected posterior; results ranked by p_T.
 * - No-KB: H_j = H(p_j), the beliefs alone; the final results are ranked by the soft posterior of the
 *   final beliefs (as the official agent).
 * - Hard-KB: H_j = H(p_j); a symbolic query (the most likely value of each heard slot) retrieves the
 *   matching rows (a missing cell matches any value). No match → re-ask a random slot; one match →
 *   inform; the query decides *when* to inform, not *what*: as in the official agent
 *   (MiuLab/KB-InfoBot `deep_dialog/agents/hardDB.py`, `_inform`, lines 28–30) the results are ranked
 *   by the soft posterior of the beliefs over every row (`hardRanking: 'soft'`; the other rankings
 *   are options).
 * Thresholds default to the official settings of the KB split (`settings/config_imdb-{S,M,L,XL}.py`),
 * the decision rules follow `deep_dialog/agents/agent_nl_rule_{no,hard,soft}.py` (`next`).
 */
import type { Rng } from '../../../core/rng.js';
import type { InfoBotAction } from '../acts.js';
import type { AgentContext, InfoBotAgent } from './agent.js';
import { infobotAgents } from './agent.js';
import { hardLookup } from '../hard-kb.js';
import { entropy, projectedEntropies, softPosterior, SoftLookup, topKRandomTies } from '../soft-kb.js';
import { M, SLOTS, type SplitName } from '../slots.js';
import { HandCraftedTracker } from '../tracker.js';
import { StateError } from '../../../core/errors.js';

/**
 * How an agent uses the KB during the dialog: not at all, by symbolic query (Hard-KB) or by the
 * posterior over rows (Soft-KB).
 *
 * @example
 * ```ts
 * import { RULE_DEFAULTS, type KbAccess } from 'dialogym/infobot';
 * const access: KbAccess = 'soft';
 * RULE_DEFAULTS.medium[access].informEntropy; // 1
 * ```
 */
export type KbAccess = 'none' | 'hard' | 'soft';

/**
 * The thresholds of the hand-crafted policy (`RULE_DEFAULTS` per split and access).
 *
 * @example
 * ```ts
 * import { RULE_DEFAULTS, type RulePolicyOptions } from 'dialogym/infobot';
 * const eager: RulePolicyOptions = { ...RULE_DEFAULTS.medium.soft, informEntropy: 2 };
 * ```
 */
export interface RulePolicyOptions {
  /** α_R: inform when H(p_T) falls below it (Soft-KB). */
  informEntropy: number;
  /** α_T: do not request a slot whose entropy is below it. */
  slotEntropy: number;
  /** β: do not request a slot whose entropy fell below β × its initial entropy. */
  fraction: number;
  /** Q: requests per slot. */
  maxRequests: number;
  /** Tracker count update C. */
  update: number;
  /** Which slot to ask first: the one of highest entropy (official code) or lowest (paper text). */
  order: 'max-entropy' | 'min-entropy';
  /**
   * Hard-KB results: `soft` (official, `hardDB.py` `_inform`): every row ranked by the soft posterior
   * of the beliefs, the query's matches not preferred; `posterior`: the retrieved rows first, ordered
   * by that posterior, then the others; `random`: the retrieved rows in random order.
   */
  hardRanking: 'soft' | 'posterior' | 'random';
  /**
   * Inform once the tracker has heard values for this many slots (the slots the user said it does
   * not know not counted). Not in the official rule agents (default Infinity: off); the RL trainer's
   * warm-start expert uses ⌊knowProb · M⌋ = 3, the most slots a simulated user knows
   * (`usersim_rule.py` `_sample_goal`), because the rule agents keep asking after the user has told
   * all it knows (docs/reproducing.md, "The cells off").
   */
  informAfterHeard: number;
}

const rule = (informEntropy: number, slotEntropy: number, maxRequests: number, fraction: number, update: number): RulePolicyOptions => ({
  informEntropy,
  slotEntropy,
  maxRequests,
  fraction,
  update,
  order: 'max-entropy',
  hardRanking: 'soft',
  informAfterHeard: Infinity,
});

/** The official thresholds per KB split (`settings/config_imdb-{S,M,L,XL}.py`): α_R, α_T, Q, β, C.
 *
 * @example
 * ```ts
 * import { RULE_DEFAULTS } from 'dialogym/infobot';
 * RULE_DEFAULTS.small.hard.maxRequests; // 2
 * ```
 */
export const RULE_DEFAULTS: Readonly<Record<SplitName, Readonly<Record<KbAccess, RulePolicyOptions>>>> = {
  small: { none: rule(0, 0.5, 2, 0.5, 5), hard: rule(0, 0.5, 2, 0.5, 5), soft: rule(5.0, 0.5, 1, 0.5, 10) },
  medium: { none: rule(0, 0.5, 4, 0.5, 5), hard: rule(0, 5.0, 1, 0.1, 10), soft: rule(1.0, 1.0, 1, 0.5, 10) },
  large: { none: rule(0, 1.0, 4, 0.5, 5), hard: rule(0, 5.0, 2, 0.1, 5), soft: rule(1.0, 1.0, 1, 0.5, 10) },
  xlarge: { none: rule(0, 0.5, 4, 0.5, 5), hard: rule(0, 0.5, 1, 0.5, 5), soft: rule(1.0, 0.5, 1, 0.5, 5) },
};

function beliefEntropies(p: readonly Float64Array[]): Float64Array {
  const h = new Float64Array(M);
  for (let j = 0; j < M; j++) h[j] = entropy(p[j] as Float64Array);
  return h;
}

/**
 * The hand-crafted agents `rule-nokb`, `rule-hard`, `rule-soft`: a hand-crafted belief tracker
 * and an entropy-threshold policy (`RulePolicyOptions`, defaults per split) with the given KB
 * access. `act` before `begin` throws a StateError.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { InfoBotEnv, RuleAgent, agentContext } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * const agent = new RuleAgent(agentContext(env), 'hard');
 * agent.begin(createRng(1));
 * agent.act(env.reset({ seed: 1 }).obs.utterance); // e.g. { act: 'request', slot: 'actor' }
 * ```
 */
export class RuleAgent implements InfoBotAgent {
  readonly name: string;
  readonly opts: RulePolicyOptions;
  private readonly tracker: HandCraftedTracker;
  private readonly initial: Float64Array;
  private readonly requests = new Int32Array(M);
  private readonly post: Float64Array;
  private readonly lookup: SoftLookup;
  private lastRequest: number | null = null;
  private rng: Rng | null = null;
  /** Diagnostics of the last decision (for chat and tests). */
  last: { posteriorEntropy: number; slotEntropies: Float64Array; matches: number } = { posteriorEntropy: 0, slotEntropies: new Float64Array(M), matches: 0 };

  constructor(
    private readonly ctx: AgentContext,
    readonly access: KbAccess,
    options: Partial<RulePolicyOptions> = {},
  ) {
    this.opts = { ...RULE_DEFAULTS[ctx.split][access], ...options };
    this.name = `rule-${access === 'none' ? 'nokb' : access}`;
    this.tracker = new HandCraftedTracker(ctx.kb, ctx.index, { update: this.opts.update });
    this.post = new Float64Array(ctx.kb.n);
    this.lookup = new SoftLookup(ctx.kb);
    if (access === 'soft') {
      this.initial = projectedEntropies(ctx.kb, new Float64Array(ctx.kb.n).fill(1 / ctx.kb.n));
    } else {
      this.initial = beliefEntropies(this.tracker.beliefs.p);
    }
  }

  begin(rng: Rng): void {
    this.rng = rng;
    this.tracker.reset();
    this.requests.fill(0);
    this.lastRequest = null;
  }

  /** The top R rows of `scores` (default: the posterior buffer), ties in random order. */
  private ranked(scores: Float64Array = this.post): number[] {
    return topKRandomTies(scores, this.ctx.successMaxRank, this.rng as Rng);
  }

  private request(j: number): InfoBotAction {
    this.requests[j] = (this.requests[j] as number) + 1;
    this.lastRequest = j;
    return { act: 'request', slot: SLOTS[j] as (typeof SLOTS)[number] };
  }

  /** The slot the last action requested (null: an inform, or no action yet). */
  get requested(): number | null {
    return this.lastRequest;
  }

  /**
   * Replaces the last action of `act` (a request or an inform) by a request of slot `j`, as if the
   * agent had asked for `j` (used by E2E imitation, whose expert may re-ask a slot): the request
   * counts and the slot the next utterance answers follow.
   */
  redirect(j: number): void {
    if (j === this.lastRequest) return;
    if (this.lastRequest !== null) this.requests[this.lastRequest] = (this.requests[this.lastRequest] as number) - 1;
    this.requests[j] = (this.requests[j] as number) + 1;
    this.lastRequest = j;
  }

  private inform(results: readonly number[]): InfoBotAction {
    this.lastRequest = null;
    return { act: 'inform', results };
  }

  act(utterance: string): InfoBotAction {
    if (!this.rng) throw new StateError('begin() was not called');
    this.tracker.update(utterance, this.lastRequest);
    const b = this.tracker.beliefs;
    const kb = this.ctx.kb;
    let h: Float64Array;
    let informNow: (() => InfoBotAction) | null = null;
    const softInform = (): InfoBotAction => {
      softPosterior(kb, b, this.post);
      return this.inform(this.ranked());
    };
    if (this.access === 'soft') {
      const look = this.lookup.update(b);
      h = new Float64Array(look.slotEntropies);
      for (const j of this.tracker.unknown) h[j] = 0;
      const hp = look.posteriorEntropy;
      this.last = { posteriorEntropy: hp, slotEntropies: h, matches: 0 };
      if (hp < this.opts.informEntropy) return this.inform(this.ranked(look.posterior));
      informNow = () => this.inform(this.ranked(look.posterior));
    } else {
      h = beliefEntropies(b.p);
      this.last = { posteriorEntropy: NaN, slotEntropies: h, matches: 0 };
      informNow = softInform;
      if (this.access === 'hard') {
        const query = SLOTS.map((_, j) => (this.tracker.heard.has(j) && !this.tracker.unknown.has(j) ? argmax(b.p[j] as Float64Array) : null));
        const matches = hardLookup(kb, query);
        this.last.matches = matches.length;
        const r = this.rng;
        if (matches.length === 0) return this.request(r.int(M));
        const results = (): InfoBotAction => {
          if (this.opts.hardRanking === 'random') return this.inform(r.shuffle(matches).slice(0, this.ctx.successMaxRank));
          softPosterior(kb, b, this.post);
          // 'posterior': the retrieved rows first, ordered by the posterior of the beliefs, then the others.
          if (this.opts.hardRanking === 'posterior') for (const i of matches) this.post[i] = (this.post[i] as number) + 2;
          return this.inform(this.ranked());
        };
        if (matches.length === 1) return results();
        informNow = results;
      }
    }
    if (Number.isFinite(this.opts.informAfterHeard)) {
      let heard = 0;
      for (const j of this.tracker.heard) if (!this.tracker.unknown.has(j)) heard++;
      if (heard >= this.opts.informAfterHeard) return informNow();
    }
    const order = SLOTS.map((_, j) => j).sort((a, c) => {
      const d = (h[a] as number) - (h[c] as number);
      return (this.opts.order === 'max-entropy' ? -d : d) || a - c;
    });
    for (const j of order) {
      const hj = h[j] as number;
      if (this.tracker.unknown.has(j) || hj < this.opts.slotEntropy || hj < this.opts.fraction * (this.initial[j] as number) || (this.requests[j] as number) >= this.opts.maxRequests) continue;
      return this.request(j);
    }
    return informNow();
  }
}

/**
 * Index of the largest value (the first on ties; 0 for an empty array). Works on any array-like;
 * not the same function as `argmax` of `dialogym` (which takes a Float32Array).
 *
 * @example
 * ```ts
 * import { argmax } from 'dialogym/infobot';
 * argmax([0.1, 0.6, 0.3]); // 1
 * ```
 */
export function argmax(p: ArrayLike<number>): number {
  let best = 0;
  for (let k = 1; k < p.length; k++) if ((p[k] as number) > (p[best] as number)) best = k;
  return best;
}

const ACCESS: readonly [string, KbAccess, string][] = [
  ['rule-nokb', 'none', 'hand-crafted tracker and policy, no KB during the dialog (results from the final beliefs)'],
  ['rule-hard', 'hard', 'hand-crafted tracker and policy, Hard-KB lookup (symbolic query)'],
  ['rule-soft', 'soft', 'hand-crafted tracker and policy, Soft-KB lookup (posterior over rows)'],
];
for (const [name, access, desc] of ACCESS) infobotAgents.register(name, desc, { privileged: false, create: (ctx: AgentContext) => new RuleAgent(ctx, access) });
