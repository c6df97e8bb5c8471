/**
 * `dstc2-adapt`: `dstc2-heard`'s decisions, said the way *this* dialog's system says them.
 *
 * DSTC2 was collected with several system versions whose wording differs; trn, dev and tst mix
 * them differently, so the wording learned from training can be another version's. At evaluation
 * the history holds the true earlier bot turns of the dialog: once the system has said an act
 * (in any wording, possibly one no training dialog has), the same act is said again in that
 * wording. The bot's own utterance (the rules' decision worded with the learned pattern) and every
 * earlier bot turn are read by act (`readBotAct`, dstc2-acts.ts: act + the slots mentioned); when
 * an earlier turn has the same signature and another template, that template is filled with the
 * entities of the bot's own utterance (re-lexicalised) and said instead. The latest such turn
 * wins. Deterministic (no randomness, no training loop).
 *
 * With the task's candidate list (`candidates`, `--candidates`), the candidates are a pool of
 * wordings for a signature the dialog has not said yet: once an earlier bot turn has a template no
 * training turn has (this dialog's system is not the training one), the bot says the candidates'
 * template of the signature that no training turn has either and that shares the most word
 * bigrams with those novel turns (measured in docs/notes/hcn-dstc6-task6.md, fourth session).
 */
import type { Dialog, Turn } from '../../src/core/dialog.js';
import { ConfigError } from '../../src/core/errors.js';
import type { Responder } from '../../src/rankers/ranker.js';
import { readBotAct, type Dstc2BotAct } from '../../src/testbeds/restaurant/rules/dstc2-acts.js';
import { Dstc2HeardBot, type Dstc2HeardOptions } from '../../src/testbeds/restaurant/rules/dstc2-heard.js';
import { fill } from '../../src/testbeds/restaurant/rules/dstc2-patterns.js';
import type { Dstc2RulesBot } from '../../src/testbeds/restaurant/rules/dstc2.js';

/**
 * Options of `createDstc2AdaptBot` (the `dstc2-adapt` model): those of `dstc2-heard` and which
 * wordings besides the dialog's own same-signature turns may be said.
 *
 * @example
 * ```ts
 * import type { Dstc2AdaptOptions } from 'dialogym/restaurant';
 * const opts: Dstc2AdaptOptions = { candidates: ['You are welcome', 'What part of town do you have in mind?'] };
 * ```
 */
export interface Dstc2AdaptOptions extends Dstc2HeardOptions {
  /** The task's candidate responses: the pool of wordings for a signature the dialog has not said (none: no pool). */
  readonly candidates?: readonly string[];
}

/**
 * The `dstc2-adapt` bot: `dstc2-heard` re-saying each act in the dialog's own earlier wording of
 * it. Build it with `createDstc2AdaptBot`.
 *
 * @example
 * ```ts
 * import { readBabiDialogs } from 'dialogym';
 * import { createDstc2AdaptBot, type Dstc2AdaptBot } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const bot: Dstc2AdaptBot = createDstc2AdaptBot(readBabiDialogs(dir + 'dialog-babi-task6-dstc2-trn.txt').dialogs);
 * bot.respond([{ speaker: 'user', text: '<SILENCE>' }]); // the greeting
 * ```
 */
export class Dstc2AdaptBot implements Responder {
  readonly name = 'dstc2-adapt';
  /** `dstc2-heard`: what the bot reads of the user's turns, and its rules learned from them. */
  private readonly hearing: Dstc2HeardBot;
  private readonly rules: Dstc2RulesBot;
  /** Signature → the candidates' templates of it (the pool). */
  private readonly pool = new Map<string, string[]>();
  /** The templates of the training bot turns (the pool). */
  private readonly trained = new Set<string>();
  /** Bot utterance → its act: a dialog's earlier bot turns are read again at every turn, and wordings repeat across dialogs. */
  private readonly acts = new Map<string, Dstc2BotAct>();

  constructor(train: readonly Dialog[], opts: Dstc2AdaptOptions = {}) {
    this.hearing = new Dstc2HeardBot(train, opts);
    this.rules = this.hearing.rules;
    if (opts.candidates) {
      for (const c of opts.candidates) {
        const a = this.act(c);
        if (a.act === 'call' || a.act === 'other' || !clean(a.template)) continue;
        const list = this.pool.get(a.signature) ?? [];
        if (!list.includes(a.template)) list.push(a.template);
        this.pool.set(a.signature, list);
      }
      for (const d of train) for (const t of d.turns) if (t.speaker === 'bot') this.trained.add(this.act(t.text).template);
    }
  }

  respond(history: readonly Turn[]): string {
    const d = this.rules.decide(this.hearing.heard(history));
    if ('literal' in d) return d.literal;
    const own = this.rules.realise(d);
    const mine = this.act(own);
    const earlier = history.filter((t) => t.speaker === 'bot').map((t) => this.act(t.text));
    for (let i = earlier.length - 1; i >= 0; i--) {
      const e = earlier[i] as Dstc2BotAct;
      if (e.signature === mine.signature) return e.template === mine.template ? own : (this.say(e.template, mine.values) ?? own);
    }
    if (this.pool.size > 0) return this.fromPool(mine, earlier) ?? own;
    return own;
  }

  /**
   * For a signature the dialog has not said: when an earlier bot turn's template is one no
   * training turn has (the dialog's system is not the training one), the candidates' template of
   * the signature that no training turn has either and shares the most word bigrams with those
   * novel turns (at least one); else none.
   */
  private fromPool(mine: Dstc2BotAct, earlier: readonly Dstc2BotAct[]): string | undefined {
    const seen = new Set<string>();
    for (const e of earlier) if (e.act !== 'call' && !this.trained.has(e.template)) for (const b of bigrams(e.template)) seen.add(b);
    if (seen.size === 0) return undefined;
    let best: string | undefined;
    let bestScore = 0;
    for (const t of this.pool.get(mine.signature) ?? []) {
      if (this.trained.has(t)) continue;
      const s = bigrams(t).filter((b) => seen.has(b)).length;
      if (s > bestScore) {
        best = t;
        bestScore = s;
      }
    }
    return best === undefined ? undefined : this.say(best, mine.values);
  }

  private act(text: string): Dstc2BotAct {
    let a = this.acts.get(text);
    if (a === undefined) {
      a = readBotAct(text, this.rules.lexicon);
      this.acts.set(text, a);
    }
    return a;
  }

  /** A template filled with values (restaurant names in the bot's written form). */
  private say(template: string, values: Readonly<Record<string, string>>): string | undefined {
    return fill(template, values, this.rules.patterns.nameForms);
  }
}

/**
 * Whether a candidate's template has only placeholders for its entities: some candidates keep a
 * raw entity the anonymisation missed (`The address of {name} is 7 Milton Road Chesterton .`,
 * `{name} Fen Ditton is a great restaurant`) — a digit, or a capitalised word inside a sentence.
 */
function clean(template: string): boolean {
  if (/\d/.test(template)) return false;
  const w = template.split(' ');
  return w.every((x, i) => i === 0 || !/^[A-Z]/.test(x) || x === 'I' || x.startsWith("I'") || /^[.,;?!]$/.test(w[i - 1] as string));
}

/** The word bigrams of a template, placeholders included. */
function bigrams(template: string): string[] {
  const w = template.toLowerCase().split(' ');
  const out: string[] = [];
  for (let i = 1; i < w.length; i++) out.push(`${w[i - 1]} ${w[i]}`);
  return out;
}

/**
 * Factory for the `dstc2-adapt` model: learns from the task-6 training dialogs; throws a
 * ConfigError when none are given.
 *
 * @example
 * ```ts
 * import { readBabiDialogs, evaluateDialogs, accuracy } from 'dialogym';
 * import { createDstc2AdaptBot } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const bot = createDstc2AdaptBot(readBabiDialogs(dir + 'dialog-babi-task6-dstc2-trn.txt').dialogs);
 * accuracy.perResponse(evaluateDialogs(bot, readBabiDialogs(dir + 'dialog-babi-task6-dstc2-dev.txt').dialogs));
 * ```
 */
export function createDstc2AdaptBot(train: readonly Dialog[] | undefined, opts: Dstc2AdaptOptions = {}): Dstc2AdaptBot {
  if (!train || train.length === 0) {
    throw new ConfigError("model 'dstc2-adapt' learns its response patterns from the task-6 training file: give --train dialog-babi-task6-dstc2-trn.txt");
  }
  return new Dstc2AdaptBot(train, opts);
}
