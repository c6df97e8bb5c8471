/**
 * `dstc2-plus`: the task-6 rule baseline (`rules-dstc2`, dstc2.ts) with the wording chosen by the
 * dialog's own earlier wording.
 *
 * DSTC2 was collected with several versions of the Cambridge system, each with its own phrasing
 * (`X is a nice place in the …` / `X is a nice restaurant in the …`, `I'm sorry but there is no
 * restaurant serving X food` / `I am sorry but there is no X restaurant that matches your
 * request`). `rules-dstc2` always says a decision's most frequent training pattern. Here the
 * decision is the same, and among the patterns learned for its key the one is said that the
 * dialog's earlier bot turns make most probable: a naive-Bayes choice whose prior is the
 * pattern's training frequency under the key and whose evidence is each earlier bot turn's
 * (key, pattern) — within one DSTC2 dialog a single system version speaks, so the patterns it
 * used before predict the one it uses next. Deterministic (no randomness, no training loop).
 *
 * The patterns' learning and filling are dstc2-patterns.ts's; the rules are dstc2.ts's
 * (`decideDstc2`), unchanged.
 */
import type { Dialog, Turn } from '../../src/core/dialog.js';
import { ConfigError } from '../../src/core/errors.js';
import type { Responder } from '../../src/rankers/ranker.js';
import { delexicalise, fill, type Decision } from '../../src/testbeds/restaurant/rules/dstc2-patterns.js';
import { DONTCARE, DSTC2_SLOTS } from '../../src/testbeds/restaurant/rules/dstc2-lexicon.js';
import { readBotTurn, trackDstc2, type Dstc2State } from '../../src/testbeds/restaurant/rules/dstc2-state.js';
import { apiCall, Dstc2RulesBot, type Dstc2RulesOptions } from '../../src/testbeds/restaurant/rules/dstc2.js';

/**
 * Options of `createDstc2PlusBot` (the `dstc2-plus` model): those of `rules-dstc2` and the
 * smoothing of the wording choice.
 *
 * @example
 * ```ts
 * import type { Dstc2PlusOptions } from 'dialogym/restaurant';
 * const opts: Dstc2PlusOptions = { smoothing: 1 };
 * ```
 */
export interface Dstc2PlusOptions extends Dstc2RulesOptions {
  /**
   * Pseudo-count of the evidence terms (default 1): how much an earlier turn's wording must have
   * co-occurred with a pattern in training before it outweighs the pattern's frequency.
   */
  readonly smoothing?: number;
  /**
   * Least share of its key's training turns a pattern needs to be said (default 0.15): rarer
   * patterns are mostly turns the rules mis-decided, and would win on a few co-occurrences.
   */
  readonly minShare?: number;
  /**
   * Whether the acts before the first api_call (ask cuisine / area / price, or call) are taken
   * from the training dialogs' majority per context instead of the rules (default false: they
   * help within one mix of DSTC2 system versions and hurt across mixes; see
   * docs/notes/hcn-dstc6-task6.md).
   */
  readonly learnedActs?: boolean;
  /** Least training turns a context needs before its majority act overrides the rules' (default 5). */
  readonly minContext?: number;
}

/** The acts before the first api_call that the act table may choose between. */
type Act = 'call' | 'ask:cuisine' | 'ask:location' | 'ask:price';

/** The act a decision stands for, if it is one of the before-call acts. */
function actOf(d: Decision): Act | undefined {
  if ('literal' in d) return d.literal.startsWith('api_call') ? 'call' : undefined;
  return d.key === 'ask:cuisine' || d.key === 'ask:location' || d.key === 'ask:price' ? d.key : undefined;
}

/**
 * The contexts of a before-call decision, most specific first: the rules' act, what the goal
 * holds per slot (U unknown, D don't care, V a value), the slots asked so far, what the bot last
 * did and which slots the user's last turn named.
 */
function contexts(act: Act, st: Dstc2State): string[] {
  const code = (v: string | undefined): string => (v === undefined ? 'U' : v === DONTCARE ? 'D' : 'V');
  const goal = DSTC2_SLOTS.map((s) => code(st.goal[s])).join('');
  const said = DSTC2_SLOTS.map((s) => code(st.lastUser?.slots[s])).join('');
  const last = st.lastBot ? `${st.lastBot.kind}:${st.lastBot.slot ?? ''}` : '-';
  const c2 = `${act}|${goal}|${last}`;
  return [`${c2}|${st.asked.join(',')}|${said}|${st.lastUser?.bareDontcare ? 1 : 0}`, c2, `${act}|${goal}`];
}

/** What an earlier bot turn said, as a feature: its decision key and delexicalised pattern. */
type Style = string;

/** The style of each bot turn of a dialog (undefined for api_calls), from its decisions. */
function styles(turns: readonly Turn[], decide: (h: readonly Turn[]) => Decision): (Style | undefined)[] {
  const out: (Style | undefined)[] = [];
  turns.forEach((t, i) => {
    if (t.speaker !== 'bot') return;
    const d = decide(turns.slice(0, i));
    out.push('literal' in d ? undefined : `${d.key}|${delexicalise(t.text, d.values).pattern}`);
  });
  return out;
}

/**
 * The `dstc2-plus` bot: `rules-dstc2`'s decisions, worded with the pattern the dialog's earlier
 * wording makes most probable. Build it with `createDstc2PlusBot`.
 *
 * @example
 * ```ts
 * import { readBabiDialogs } from 'dialogym';
 * import { createDstc2PlusBot, type Dstc2PlusBot } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const bot: Dstc2PlusBot = createDstc2PlusBot(readBabiDialogs(dir + 'dialog-babi-task6-dstc2-trn.txt').dialogs);
 * bot.respond([{ speaker: 'user', text: '<SILENCE>' }]); // the greeting
 * ```
 */
export class Dstc2PlusBot implements Responder {
  readonly name = 'dstc2-plus';
  private readonly rules: Dstc2RulesBot;
  private readonly smoothing: number;
  private readonly minShare: number;
  private readonly minContext: number;
  /** Before-call context → the act the training bot took there → count. */
  private readonly acts = new Map<string, Map<string, number>>();
  /** key → pattern → count. */
  private readonly prior = new Map<string, Map<string, number>>();
  /** `key\tpattern` → earlier style → count of training turns with both. */
  private readonly joint = new Map<string, Map<Style, number>>();
  /** Style → share of training turns it precedes (the smoothing's base rate). */
  private readonly styleRate = new Map<Style, number>();

  constructor(train: readonly Dialog[], opts: Dstc2PlusOptions = {}) {
    this.rules = new Dstc2RulesBot(train, opts);
    this.smoothing = opts.smoothing ?? 1;
    this.minShare = opts.minShare ?? 0.15;
    this.minContext = opts.minContext ?? 5;
    if (opts.learnedActs === true) this.learnActs(train);
    const decide = (h: readonly Turn[]): Decision => this.decide(h);
    let turns = 0;
    for (const d of train) {
      const st = styles(d.turns, decide);
      st.forEach((s, i) => {
        if (s === undefined) return;
        turns++;
        const bar = s.indexOf('|');
        const key = s.slice(0, bar);
        const pattern = s.slice(bar + 1);
        bump(this.prior, key, pattern);
        // Each distinct earlier style counts once per turn (a repeated question is one clue).
        for (const q of new Set(st.slice(0, i))) {
          if (q === undefined) continue;
          bump(this.joint, `${key}\t${pattern}`, q);
          this.styleRate.set(q, (this.styleRate.get(q) ?? 0) + 1);
        }
      });
    }
    for (const [q, c] of this.styleRate) this.styleRate.set(q, c / Math.max(1, turns));
  }

  respond(history: readonly Turn[]): string {
    const d = this.decide(history);
    if ('literal' in d) return d.literal;
    const said = [...new Set(styles(history, (h) => this.decide(h)))].filter((s): s is Style => s !== undefined);
    const family = d.key.split(':')[0] as string;
    for (const k of [d.key, family]) {
      const best = this.choose(k, d.values, said);
      if (best !== undefined) return best;
    }
    return this.rules.realise(d);
  }

  /** `rules-dstc2`'s decision, or with `learnedActs` the training dialogs' act before the first api_call. */
  private decide(history: readonly Turn[]): Decision {
    const d = this.rules.decide(history);
    const act = actOf(d);
    if (act === undefined || this.acts.size === 0) return d;
    const st = trackDstc2(history, this.rules.lexicon);
    const chosen = this.actFor(act, st);
    if (chosen === act) return d;
    return chosen === 'call' ? { literal: apiCall(st.goal) } : { key: chosen, values: {} };
  }

  /** Counts, per before-call context, the act the training bot took (read off its turn). */
  private learnActs(train: readonly Dialog[]): void {
    for (const dialog of train) {
      dialog.turns.forEach((t, i) => {
        if (t.speaker !== 'bot') return;
        const h = dialog.turns.slice(0, i);
        const act = actOf(this.rules.decide(h));
        if (act === undefined) return;
        const move = readBotTurn(t.text, this.rules.lexicon);
        const label = move.kind === 'call' ? 'call' : move.kind === 'ask' ? `ask:${move.slot}` : 'other';
        for (const c of contexts(act, trackDstc2(h, this.rules.lexicon))) bump(this.acts, c, label);
      });
    }
  }

  /** The act of the most specific context seen often enough, when it is an act; else the rules'. */
  private actFor(act: Act, st: Dstc2State): Act {
    for (const c of contexts(act, st)) {
      const m = this.acts.get(c);
      if (!m) continue;
      const total = [...m.values()].reduce((a, b) => a + b, 0);
      if (total < this.minContext) continue;
      const [best] = [...m].sort((a, b) => b[1] - a[1] || (a[0] === act ? -1 : b[0] === act ? 1 : 0));
      return best && best[0] !== 'other' ? (best[0] as Act) : act;
    }
    return act;
  }

  /** The fillable pattern of `key` with the highest posterior given the earlier styles, filled. */
  private choose(key: string, values: Readonly<Record<string, string>>, said: readonly Style[]): string | undefined {
    const m = this.prior.get(key);
    if (!m) return undefined;
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    let best: string | undefined;
    let bestScore = -Infinity;
    // Most frequent first (ties: first seen), so equal scores keep the most frequent pattern.
    for (const [pattern, n] of [...m].sort((a, b) => b[1] - a[1])) {
      if (n < this.minShare * total) continue;
      const text = this.fillable(pattern, values);
      if (text === undefined) continue;
      const j = this.joint.get(`${key}\t${pattern}`);
      let score = Math.log(n / total);
      for (const q of said) score += Math.log(((j?.get(q) ?? 0) + this.smoothing * this.rate(q)) / (n + this.smoothing));
      if (score > bestScore) {
        bestScore = score;
        best = text;
      }
    }
    return best;
  }

  private fillable(pattern: string, values: Readonly<Record<string, string>>): string | undefined {
    if (values['name'] !== undefined && this.rules.foreignName(pattern)) return undefined;
    return fill(pattern, values, this.rules.patterns.nameForms);
  }

  /** How often a style occurs before a turn in training, overall (the smoothing's base rate). */
  private rate(q: Style): number {
    return this.styleRate.get(q) ?? 1e-4;
  }
}

function bump<K, V>(m: Map<K, Map<V, number>>, k: K, v: V): void {
  let inner = m.get(k);
  if (!inner) m.set(k, (inner = new Map()));
  inner.set(v, (inner.get(v) ?? 0) + 1);
}

/**
 * Factory for the `dstc2-plus` model: learns from the task-6 training dialogs; throws a
 * ConfigError when none are given.
 *
 * @example
 * ```ts
 * import { readBabiDialogs, evaluateDialogs, accuracy } from 'dialogym';
 * import { createDstc2PlusBot } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const bot = createDstc2PlusBot(readBabiDialogs(dir + 'dialog-babi-task6-dstc2-trn.txt').dialogs);
 * accuracy.perResponse(evaluateDialogs(bot, readBabiDialogs(dir + 'dialog-babi-task6-dstc2-dev.txt').dialogs));
 * ```
 */
export function createDstc2PlusBot(train: readonly Dialog[] | undefined, opts: Dstc2PlusOptions = {}): Dstc2PlusBot {
  if (!train || train.length === 0) {
    throw new ConfigError("model 'dstc2-plus' learns its response patterns from the task-6 training file: give --train dialog-babi-task6-dstc2-trn.txt");
  }
  return new Dstc2PlusBot(train, opts);
}
