/**
 * `dstc2-heard`: the task-6 rule baseline (`rules-dstc2`, dstc2.ts) that ignores the words the
 * DSTC2 system did not understand.
 *
 * The task-6 user turns are transcripts; the DSTC2 system acted on its own speech recogniser and
 * parser, which missed some words every time: `center` (the transcribers' spelling of `centre`) is
 * in no trn api_call it reached (0 of 78: `api_call R_cuisine R_location cheap`), nor in dev (0 of
 * 30). Such misses are a property of the recogniser and parser, not of a system version's wording
 * or policy (docs/notes/hcn-dstc6-task6.md, the leave-version-out signals). Learned from the training
 * dialogs: for every api_call and slot, the user turn that gave the slot its value — the last one
 * since the previous call that names the slot (`evidence: 'since-call'`), or only the turn right
 * before the call (`'last-turn'`, the third session's count) — and each word whose removal changes
 * that value counts once, as *heard* when the api_call has the value. A word seen at least
 * `minCount` times and heard in less than `maxHeard` of them is *unheard*: the bot reads every
 * user turn without its unheard words. The rules and patterns are `rules-dstc2`'s, learned from
 * the training dialogs read the same way. Deterministic (no randomness, no training loop).
 */
import type { Dialog, Turn } from '../../../core/dialog.js';
import { ConfigError, errorText, optionName } from '../../../core/errors.js';
import type { Responder } from '../../../rankers/ranker.js';
import { buildLexicon, DONTCARE, DSTC2_SLOTS, parseApiCall, understand, type Dstc2Lexicon, type UserFrame } from './dstc2-lexicon.js';
import { Dstc2RulesBot, type Dstc2RulesOptions } from './dstc2.js';

/**
 * Options of `createDstc2HeardBot` (the `dstc2-heard` model): those of `rules-dstc2` and when a
 * word counts as unheard.
 *
 * @example
 * ```ts
 * import type { Dstc2HeardOptions } from 'dialogym/restaurant';
 * const opts: Dstc2HeardOptions = { minCount: 5, maxHeard: 1 / 3, evidence: 'since-call' };
 * ```
 */
export interface Dstc2HeardOptions extends Dstc2RulesOptions {
  /** Least training api_calls whose slot value a word set (default 5). */
  readonly minCount?: number;
  /** A word is unheard when the api_call took its value in less than this share of them (default 1/3). */
  readonly maxHeard?: number;
  /** Which user turns an api_call's slot values are credited to (`HearingEvidence`; default `since-call`). */
  readonly evidence?: HearingEvidence;
}

/**
 * Which user turn an api_call shows the hearing of, per slot: `last-turn` = the user turn right
 * before the call (the third session's count); `since-call` = the last user turn since the
 * previous call that names the slot — a cuisine said two turns before the call, then the area and
 * price asked, counts too.
 */
export type HearingEvidence = 'last-turn' | 'since-call';

/** How often a word set a slot value that reached an api_call, and how often the call took it. */
export interface WordHearing {
  readonly word: string;
  readonly count: number;
  readonly heard: number;
}

/**
 * Counts, for every training api_call and slot, the words of the user turn that gave the slot its
 * value (`evidence`): each word whose removal changes the value the rules read from that turn
 * (another value, or none) counts once, as heard when the api_call has the value.
 */
export function countHearing(train: readonly Dialog[], lex: Dstc2Lexicon, evidence: HearingEvidence = 'since-call'): WordHearing[] {
  const counts = new Map<string, { count: number; heard: number }>();
  for (const d of train) {
    // A user turn is read at most once, and without each of its words at most once, whatever the slots and calls that look at it.
    const readings: (UserFrame['slots'] | undefined)[] = [];
    const reading = (j: number): UserFrame['slots'] => (readings[j] ??= understand((d.turns[j] as Turn).text, lex).slots);
    const withoutOne = new Map<number, { words: string[]; readings: UserFrame['slots'][] }>();
    const without = (j: number): { words: string[]; readings: UserFrame['slots'][] } => {
      let w = withoutOne.get(j);
      if (!w) {
        const words = (d.turns[j] as Turn).text.split(' ');
        w = { words, readings: words.map((_, k) => understand(words.filter((_, m) => m !== k).join(' '), lex).slots) };
        withoutOne.set(j, w);
      }
      return w;
    };
    let since = 0;
    d.turns.forEach((t, i) => {
      const call = t.speaker === 'bot' ? parseApiCall(t.text) : undefined;
      if (!call) return;
      const from = evidence === 'since-call' ? since : i - 1;
      since = i + 1;
      for (const s of DSTC2_SLOTS) {
        // The last user turn since `from` whose reading names a value for the slot.
        let j = i - 1;
        while (j >= Math.max(from, 0) && ((d.turns[j] as Turn).speaker !== 'user' || reading(j)[s] === undefined)) j--;
        if (j < Math.max(from, 0)) continue;
        const v = reading(j)[s];
        if (v === DONTCARE) continue;
        const { words, readings: rest } = without(j);
        words.forEach((w, k) => {
          if (rest[k]?.[s] === v) return;
          let c = counts.get(w);
          if (!c) counts.set(w, (c = { count: 0, heard: 0 }));
          c.count++;
          if (call[s] === v) c.heard++;
        });
      }
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
  /** `rules-dstc2` learned from the training dialogs as heard (`dstc2-adapt` words its decisions). */
  readonly rules: Dstc2RulesBot;

  constructor(train: readonly Dialog[], opts: Dstc2HeardOptions = {}) {
    const minCount = opts.minCount ?? 5;
    const maxHeard = opts.maxHeard ?? 1 / 3;
    const hearing = countHearing(train, buildLexicon(train, opts.kb ?? []), opts.evidence);
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
  heard(turns: readonly Turn[]): Turn[] {
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
    throw new ConfigError(errorText`model 'dstc2-heard' learns its response patterns from the task-6 training file: give ${optionName('train')} dialog-babi-task6-dstc2-trn.txt`);
  }
  return new Dstc2HeardBot(train, opts);
}
