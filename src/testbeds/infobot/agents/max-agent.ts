/**
 * The "Max" upper bound of Table 2: an agent with perfect language understanding. It sees the user's
 * goal and true dialog acts (no corruption, no NLG noise) and, at the end, informs the movies of the
 * full KB that match every value it heard, in random order. Goals are identifiable (≤ R matches), so
 * it always succeeds; its reward is below 2 because of the turns it needs and of ties among matching
 * movies. The official code has no Max agent; how it asks is the `requests` option:
 * - `all-known` (default): it requests every slot the user knows, once each, in slot order — also
 *   those the first turn gave (the paper's Max needs about one turn per known slot: T ≈ 3–4 where the
 *   user knows 2–3 slots);
 * - `useful`: it requests only known slots not given yet, the one that narrows the candidates most
 *   first, and stops as soon as no further answer could narrow them (a tighter bound, T < 2).
 */
import type { Rng } from '../../../core/rng.js';
import type { InfoBotAction } from '../acts.js';
import { infobotAgents, type AgentContext, type InfoBotAgent, type Oracle } from './agent.js';
import { SLOTS, slotIndex } from '../slots.js';
import { ConfigError, StateError } from '../../../core/errors.js';

/**
 * Options of the `max` agent.
 *
 * @example
 * ```ts
 * import type { MaxAgentOptions } from 'dialogym/infobot';
 * const tight: MaxAgentOptions = { requests: 'useful' };
 * ```
 */
export interface MaxAgentOptions {
  /** Which slots it requests (module description above; default `all-known`). */
  requests?: 'all-known' | 'useful';
}

/**
 * The `max` upper bound (module description above): a privileged agent that reads the oracle.
 * `act` without an oracle throws a ConfigError, before `begin` a StateError.
 *
 * @example
 * ```ts
 * import { evaluateAgent } from 'dialogym/infobot';
 * evaluateAgent({ agent: 'max', split: 'small', episodes: 100 }).success; // 1
 * ```
 */
export class MaxAgent implements InfoBotAgent {
  readonly name = 'max';
  private rng: Rng | null = null;
  private readonly heard = new Set<number>();
  private readonly asked = new Set<number>();
  readonly requests: 'all-known' | 'useful';

  constructor(
    private readonly ctx: AgentContext,
    options: MaxAgentOptions = {},
  ) {
    this.requests = options.requests ?? 'all-known';
  }

  begin(rng: Rng): void {
    this.rng = rng;
    this.heard.clear();
    this.asked.clear();
  }

  private candidates(slots: Iterable<number>, oracle: Oracle): number[] {
    return this.ctx.full.rowsMatching([...slots].map((j) => [j, oracle.goal.known.get(j) as number] as const));
  }

  act(_utterance: string, oracle?: Oracle): InfoBotAction {
    if (!oracle) throw new ConfigError('the max agent needs the oracle (it is an upper bound, not a dialog agent)');
    if (!this.rng) throw new StateError('begin() was not called');
    const a = oracle.act;
    if (a.act === 'open') for (const sv of a.informs) this.heard.add(slotIndex(sv.slot));
    else if (a.act === 'inform' || a.act === 'dont-know') this.heard.add(slotIndex(a.slot));
    const now = this.candidates(this.heard, oracle);
    if (this.requests === 'all-known') {
      const next = [...oracle.goal.known.keys()].sort((x, y) => x - y).find((j) => !this.asked.has(j));
      if (next !== undefined) {
        this.asked.add(next);
        return { act: 'request', slot: SLOTS[next] as (typeof SLOTS)[number] };
      }
      return { act: 'inform', results: this.rng.shuffle(now).slice(0, this.ctx.successMaxRank) };
    }
    const remaining = [...oracle.goal.known.keys()].filter((j) => !this.heard.has(j));
    let best: number | null = null;
    let bestCount = now.length;
    for (const j of remaining) {
      const c = this.candidates([...this.heard, j], oracle).length;
      if (c < bestCount) {
        bestCount = c;
        best = j;
      }
    }
    if (best !== null) return { act: 'request', slot: SLOTS[best] as (typeof SLOTS)[number] };
    return { act: 'inform', results: this.rng.shuffle(now).slice(0, this.ctx.successMaxRank) };
  }
}

infobotAgents.register('max', 'upper bound: perfect understanding of the user (sees its goal and true acts), asks only useful known slots', {
  privileged: true,
  create: (ctx) => new MaxAgent(ctx),
});
