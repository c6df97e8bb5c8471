/**
 * The "Max" row of Table 2: an agent with perfect language understanding. It sees the user's goal
 * and dialog acts (no NLG noise) and, at the end, informs the movies of the full KB that match every
 * value the user knows, in random order. Goals are identifiable (≤ R matches), so it always succeeds;
 * its reward is below 2 because of the turns it needs and of ties among matching movies. The official
 * code has no Max agent; how it asks is the `requests` option:
 * - `misheard` (default): it requests every slot the user knows whose true value it has not heard
 *   yet — not given in the first turn, or given corrupted by the user's error model — at most
 *   `maxAsks` (default 3) times per slot, in slot order. The user corrupts about half of the values it
 *   says (`errProb` 0.5), so this needs about the paper's Max turns (T ≈ 3–3.5);
 * - `all-known`: every slot the user knows, once each, also those the first turn gave (T = 1 + the
 *   number of slots the user knows);
 * - `useful`: only known slots not given yet, the one that narrows the candidates most first, until
 *   no further answer could narrow them (the tightest bound, T < 2).
 */
import type { Rng } from '../../../core/rng.js';
import type { InfoBotAction } from '../acts.js';
import { infobotAgents, type AgentContext, type InfoBotAgent, type Oracle } from './agent.js';
import { REWARDS, SLOTS, slotIndex } from '../slots.js';
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
  /** Which slots it requests (module description above; default `misheard`). */
  requests?: 'misheard' | 'all-known' | 'useful';
  /** `misheard`: most requests per slot (default 3; a positive integer, else a ConfigError). */
  maxAsks?: number;
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
  private readonly asked = new Map<number, number>();
  private readonly right = new Set<number>();
  private actions = 0;
  readonly requests: 'misheard' | 'all-known' | 'useful';
  readonly maxAsks: number;

  constructor(
    private readonly ctx: AgentContext,
    options: MaxAgentOptions = {},
  ) {
    this.requests = options.requests ?? 'misheard';
    this.maxAsks = this.requests === 'misheard' ? (options.maxAsks ?? 3) : 1;
    if (!Number.isInteger(this.maxAsks) || this.maxAsks < 1) throw new ConfigError(`maxAsks must be a positive integer, got ${options.maxAsks}`);
  }

  begin(rng: Rng): void {
    this.rng = rng;
    this.heard.clear();
    this.asked.clear();
    this.right.clear();
    this.actions = 0;
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
    if (this.requests !== 'useful') {
      const vocab = this.ctx.full.vocab;
      const right = (j: number, value: string): void => {
        if (vocab[j]?.[oracle.goal.known.get(j) ?? -1] === value) this.right.add(j);
      };
      if (a.act === 'open') for (const sv of a.informs) right(slotIndex(sv.slot), sv.value);
      else if (a.act === 'inform') right(slotIndex(a.slot), a.value);
      const skip = (j: number): boolean => (this.asked.get(j) ?? 0) >= this.maxAsks || (this.requests === 'misheard' && this.right.has(j));
      const next = [...oracle.goal.known.keys()].sort((x, y) => x - y).find((j) => !skip(j));
      // The last action the turn limit allows is an inform.
      if (next !== undefined && ++this.actions < REWARDS.maxTurns) {
        this.asked.set(next, (this.asked.get(next) ?? 0) + 1);
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

infobotAgents.register('max', 'the paper\'s Max: perfect understanding of the user (sees its goal and acts), asks each known slot until it hears its true value (at most 3 times)', {
  privileged: true,
  create: (ctx) => new MaxAgent(ctx),
});
