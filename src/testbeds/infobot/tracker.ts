/**
 * Hand-crafted belief tracker (paper eqs. 4–5, the official token-matching tracker).
 *
 * For slot j it keeps counts c_j(v), initialised to the KB prior p_j^0, and p_j = c_j / Σ c_j. Each
 * user utterance is tokenised; a value v of slot j matches with strength m = (its tokens found) /
 * (its tokens), the slot itself with strength s_j = (fraction of a slot phrase's words found). Every
 * matching value gets c_j(v) += C · (m + [j was just requested] + s_j), C = `update` (default 10). If
 * the agent requested slot j and no value of j matched, the user does not know it: q_j = 0 (else 1).
 */
import type { MovieKb } from './movie-kb.js';
import type { SlotBeliefs } from './soft-kb.js';
import { M, type Slot, SLOTS } from './slots.js';
import { contentTokens } from './text.js';

/** Words that name a slot (each entry is a phrase; its match is the fraction of its words present).
 *
 * @example
 * ```ts
 * import { SLOT_PHRASES } from 'dialogym/infobot';
 * SLOT_PHRASES.director; // phrases such as ['director'], ['directed']
 * ```
 */
export const SLOT_PHRASES: Readonly<Record<Slot, readonly (readonly string[])[]>> = {
  actor: [['actor'], ['starring'], ['acts'], ['stars']],
  critic_rating: [['critic', 'rating'], ['critics']],
  genre: [['genre'], ['kind']],
  mpaa_rating: [['mpaa', 'rating'], ['rated'], ['certificate']],
  director: [['director'], ['directed']],
  release_year: [['released'], ['release', 'year'], ['year'], ['came']],
};

/** Token → value indices, per slot, and each value's token count: built once per KB vocabulary.
 *
 * @example
 * ```ts
 * import { splitKbs, ValueIndex } from 'dialogym/infobot';
 * const index = new ValueIndex(splitKbs('small', 1).incomplete.vocab);
 * index.matches(['comedy']); // per slot, value index → match strength
 * ```
 */
export class ValueIndex {
  readonly byToken: readonly Map<string, number[]>[];
  readonly tokenCounts: readonly Uint16Array[];

  constructor(vocab: readonly (readonly string[])[]) {
    const byToken: Map<string, number[]>[] = [];
    const tokenCounts: Uint16Array[] = [];
    for (let j = 0; j < M; j++) {
      const v = vocab[j] as readonly string[];
      const map = new Map<string, number[]>();
      const counts = new Uint16Array(v.length);
      v.forEach((value, k) => {
        const toks = [...new Set(contentTokens(value))];
        counts[k] = toks.length;
        for (const t of toks) {
          const list = map.get(t);
          if (list) list.push(k);
          else map.set(t, [k]);
        }
      });
      byToken.push(map);
      tokenCounts.push(counts);
    }
    this.byToken = byToken;
    this.tokenCounts = tokenCounts;
  }

  /** Per slot: value index → match strength in (0, 1], for the values with a token in `tokens`. */
  matches(tokens: readonly string[]): Map<number, number>[] {
    const uniq = [...new Set(tokens)];
    const out: Map<number, number>[] = [];
    for (let j = 0; j < M; j++) {
      const m = new Map<number, number>();
      const idx = this.byToken[j] as Map<string, number[]>;
      for (const t of uniq) for (const k of idx.get(t) ?? []) m.set(k, (m.get(k) ?? 0) + 1);
      const counts = this.tokenCounts[j] as Uint16Array;
      for (const [k, c] of m) m.set(k, c / (counts[k] as number));
      out.push(m);
    }
    return out;
  }
}

/** Match strength of each slot's name in a token set.
 *
 * @example
 * ```ts
 * import { slotNameMatches, contentTokens } from 'dialogym/infobot';
 * slotNameMatches(contentTokens('who is the director')); // 1 at index 4 (director), 0 elsewhere
 * ```
 */
export function slotNameMatches(tokens: readonly string[]): Float64Array {
  const set = new Set(tokens);
  const out = new Float64Array(M);
  SLOTS.forEach((s, j) => {
    let best = 0;
    for (const phrase of SLOT_PHRASES[s]) best = Math.max(best, phrase.filter((w) => set.has(w)).length / phrase.length);
    out[j] = best;
  });
  return out;
}

/** A belief tracker over the slots: `HandCraftedTracker` here; the E2E agent's learned one is `NeuralTracker`.
 *
 * @example
 * ```ts
 * import { splitKbs, HandCraftedTracker, ValueIndex, type BeliefTracker } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const t: BeliefTracker = new HandCraftedTracker(kb, new ValueIndex(kb.vocab));
 * t.update("i don't know", 0);
 * t.unknown.has(0); // true: the user does not know the actor
 * ```
 */
export interface BeliefTracker {
  reset(): void;
  /** Reads a user utterance; `lastRequest` is the slot the agent asked for in its last action (or null). */
  update(utterance: string, lastRequest: number | null): void;
  readonly beliefs: SlotBeliefs;
  /** Slots for which some value has been heard. */
  readonly heard: ReadonlySet<number>;
  /** Slots the user said it does not know. */
  readonly unknown: ReadonlySet<number>;
}

/**
 * Options of `HandCraftedTracker`.
 *
 * @example
 * ```ts
 * import type { HandTrackerOptions } from 'dialogym/infobot';
 * const opts: HandTrackerOptions = { update: 5 };
 * ```
 */
export interface HandTrackerOptions {
  /** Count update C (official `upd`, default 10). */
  update?: number;
}

/**
 * The hand-crafted belief tracker of the rule and RL agents (module description above): per slot,
 * counts over values (starting at the KB prior) raised by C for each value heard in an utterance,
 * and q_j = 0 once the user says it does not know the slot.
 *
 * @example
 * ```ts
 * import { splitKbs, HandCraftedTracker, ValueIndex } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * const t = new HandCraftedTracker(kb, new ValueIndex(kb.vocab), { update: 10 });
 * t.update(`i am looking for a movie in the ${kb.vocab[2]?.[0]} genre`, null);
 * t.heard.has(2); // true
 * ```
 */
export class HandCraftedTracker implements BeliefTracker {
  private readonly counts: Float64Array[];
  private readonly p: Float64Array[];
  private readonly q = new Float64Array(M);
  private readonly heardSet = new Set<number>();
  private readonly unknownSet = new Set<number>();
  private readonly c: number;
  private dirty = true;

  constructor(
    private readonly kb: MovieKb,
    private readonly index: ValueIndex,
    opts: HandTrackerOptions = {},
  ) {
    this.c = opts.update ?? 10;
    this.counts = kb.priors.map((p) => new Float64Array(p));
    this.p = kb.priors.map((p) => new Float64Array(p));
    this.reset();
  }

  reset(): void {
    for (let j = 0; j < M; j++) (this.counts[j] as Float64Array).set(this.kb.priors[j] as Float64Array);
    this.q.fill(1);
    this.heardSet.clear();
    this.unknownSet.clear();
    this.dirty = true;
  }

  update(utterance: string, lastRequest: number | null): void {
    const tokens = contentTokens(utterance);
    const slotMatch = slotNameMatches(tokens);
    const values = this.index.matches(tokens);
    for (let j = 0; j < M; j++) {
      const requested = lastRequest === j ? 1 : 0;
      const m = values[j] as Map<number, number>;
      if (m.size === 0) {
        if (requested) {
          this.q[j] = 0;
          this.unknownSet.add(j);
        }
        continue;
      }
      const c = this.counts[j] as Float64Array;
      for (const [k, strength] of m) c[k] = (c[k] as number) + this.c * (strength + requested + (slotMatch[j] as number));
      this.heardSet.add(j);
    }
    this.dirty = true;
  }

  get beliefs(): SlotBeliefs {
    if (this.dirty) {
      for (let j = 0; j < M; j++) {
        const c = this.counts[j] as Float64Array;
        const p = this.p[j] as Float64Array;
        let s = 0;
        for (const x of c) s += x;
        for (let k = 0; k < c.length; k++) p[k] = s > 0 ? (c[k] as number) / s : 1 / c.length;
      }
      this.dirty = false;
    }
    return { p: this.p, q: this.q };
  }

  get heard(): ReadonlySet<number> {
    return this.heardSet;
  }

  get unknown(): ReadonlySet<number> {
    return this.unknownSet;
  }
}
