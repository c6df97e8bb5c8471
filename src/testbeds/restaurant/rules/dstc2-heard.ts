/**
 * `dstc2-heard`: the task-6 rule baseline (`rules-dstc2`, dstc2.ts) that ignores the words the
 * DSTC2 system did not understand.
 *
 * The task-6 user turns are transcripts; the DSTC2 system acted on its own speech recogniser and
 * parser, which missed some words every time: `center` (the transcribers' spelling of `centre`) is
 * followed by an api_call naming the centre in 0 of 33 trn cases (`api_call R_cuisine R_location
 * cheap`), in dev 0 of 15. Such misses are a property of the recogniser and parser, not of a
 * system version's wording or policy: they hold in every mix of versions (docs/hcn-dstc6-task6.md,
 * the leave-version-out signals). Learned from the training dialogs: for every user turn right
 * before an api_call, each word whose removal changes a slot value the rules read from the turn
 * counts once, as *heard* when the api_call has that value. A word seen at least `minCount` times
 * and heard in less than `maxHeard` of them is *unheard*: the bot reads every user turn without
 * its unheard words. The rules and patterns are `rules-dstc2`'s, learned from the training dialogs
 * read the same way. Deterministic (no randomness, no training loop).
 */
import type { Dialog, Turn } from '../../../core/dialog.js';
import { ConfigError } from '../../../core/errors.js';
import type { Responder } from '../../../rankers/ranker.js';
import { buildLexicon, DONTCARE, DSTC2_SLOTS, parseApiCall, understand, type Dstc2Lexicon } from './dstc2-lexicon.js';
import { Dstc2RulesBot, type Dstc2RulesOptions } from './dstc2.js';

/**
 * Options of `createDstc2HeardBot` (the `dstc2-heard` model): those of `rules-dstc2` and when a
 * word counts as unheard.
 *
 * @example
 * ```ts
 * import type { Dstc2HeardOptions } from 'dialogym/restaurant';
 * const opts: Dstc2HeardOptions = { minCount: 5, maxHeard: 1 / 3 };
 * ```
 */
export interface Dstc2HeardOptions extends Dstc2RulesOptions {
  /** Least training turns before an api_call in which a word set a slot value (default 5). */
  readonly minCount?: number;
  /** A word is unheard when the api_call took its value in less than this share of them (default 1/3). */
  readonly maxHeard?: number;
}

/** How often a word set a slot value right before an api_call, and how often the call took it. */
export interface WordHearing {
  readonly word: string;
  readonly count: number;
  readonly heard: number;
}

/**
 * Counts, for every word of a user turn right before a training api_call that sets a slot value
 * (the rules read another value, or none, without it), how often the api_call has that value.
 */
export function countHearing(train: readonly Dialog[], lex: Dstc2Lexicon): WordHearing[] {
  const counts = new Map<string, { count: number; heard: number }>();
  for (const d of train) {
    d.turns.forEach((t, i) => {
      const before = d.turns[i - 1];
      if (t.speaker !== 'bot' || before?.speaker !== 'user') return;
      const call = parseApiCall(t.text);
      if (!call) return;
      const full = understand(before.text, lex).slots;
      const words = before.text.split(' ');
      words.forEach((w, j) => {
        const without = understand(words.filter((_, k) => k !== j).join(' '), lex).slots;
        for (const s of DSTC2_SLOTS) {
          const v = full[s];
          if (v === undefined || v === DONTCARE || without[s] === v) continue;
          let c = counts.get(w);
          if (!c) counts.set(w, (c = { count: 0, heard: 0 }));
          c.count++;
          if (call[s] === v) c.heard++;
        }
      });
    });
  }
  return [...counts].map(([word, c]) => ({ word, ...c })).sort((a, b) => b.count - a.count || (a.word < b.word ? -1 : 1));
}

/**
 * The `dstc2-heard` bot: `rules-dstc2` reading each user turn without the words the DSTC2 system
 * did not understand in training. Build it with `createDstc2HeardBot`.
 *
 * @example
 * ```ts
 * import { readBabiDialogs } from 'dialogym';
 * import { createDstc2HeardBot, type Dstc2HeardBot } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const bot: Dstc2HeardBot = createDstc2HeardBot(readBabiDialogs(dir + 'dialog-babi-task6-dstc2-trn.txt').dialogs);
 * [...bot.unheard]; // ['center', …]
 * ```
 */
export class Dstc2HeardBot implements Responder {
  readonly name = 'dstc2-heard';
  /** Words the bot does not read. */
  readonly unheard: ReadonlySet<string>;
  private readonly rules: Dstc2RulesBot;

  constructor(train: readonly Dialog[], opts: Dstc2HeardOptions = {}) {
    const minCount = opts.minCount ?? 5;
    const maxHeard = opts.maxHeard ?? 1 / 3;
    const hearing = countHearing(train, buildLexicon(train, opts.kb ?? []));
    this.unheard = new Set(hearing.filter((h) => h.count >= minCount && h.heard < maxHeard * h.count).map((h) => h.word));
    this.rules = new Dstc2RulesBot(
      train.map((d) => ({ ...d, turns: this.heard(d.turns) })),
      opts,
    );
  }

  respond(history: readonly Turn[]): string {
    return this.rules.respond(this.heard(history));
  }

  /** The turns with the unheard words taken out of the user's. */
  private heard(turns: readonly Turn[]): Turn[] {
    if (this.unheard.size === 0) return [...turns];
    return turns.map((t) => (t.speaker === 'user' ? { ...t, text: t.text.split(' ').filter((w) => !this.unheard.has(w)).join(' ') } : t));
  }
}

/**
 * Factory for the `dstc2-heard` model: learns from the task-6 training dialogs; throws a
 * ConfigError when none are given.
 *
 * @example
 * ```ts
 * import { readBabiDialogs, evaluateDialogs, accuracy } from 'dialogym';
 * import { createDstc2HeardBot } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const bot = createDstc2HeardBot(readBabiDialogs(dir + 'dialog-babi-task6-dstc2-trn.txt').dialogs);
 * accuracy.perResponse(evaluateDialogs(bot, readBabiDialogs(dir + 'dialog-babi-task6-dstc2-dev.txt').dialogs));
 * ```
 */
export function createDstc2HeardBot(train: readonly Dialog[] | undefined, opts: Dstc2HeardOptions = {}): Dstc2HeardBot {
  if (!train || train.length === 0) {
    throw new ConfigError("model 'dstc2-heard' learns its response patterns from the task-6 training file: give --train dialog-babi-task6-dstc2-trn.txt");
  }
  return new Dstc2HeardBot(train, opts);
}
