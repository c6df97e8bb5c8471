/**
 * A learned mention filter for the HCN entity tracker: does an entity the user mentions set its
 * slot? DSTC6 users say `i don't like bombay, but the restaurants aren't bad`, `moderate perhaps.
 * let me think` or `let's do expensive price range, and keep moderate price range for another
 * day`: only some mentions count. A logistic regression over the mention's context (words of the
 * delexicalised turn, its neighbours, its type and rank among mentions of that type) learns it
 * from the training dialogs, labelled by the api_calls: a mention is kept when the next api_call
 * uses its value.
 */
import type { Dialog } from '../../../core/dialog.js';
import type { Rng } from '../../../core/rng.js';
import { delexicaliseTokens, emptyTracker, mentionsOf, trackTurn, userTokens, NAME_TYPE, type HcnLexicon, type Mention } from './entities.js';
import { delexicaliseBot } from './templates.js';
import { ModelFileError } from '../../../core/errors.js';

export interface CommitExample {
  readonly delex: readonly string[];
  readonly mention: Mention;
  readonly label: boolean;
}

function featureNames(delex: readonly string[], m: Mention): string[] {
  const out = ['bias', `type:${m.type}`, `ord:${Math.min(m.ordinal, 2)}`, `L1:${delex[m.index - 1] ?? '^'}`, `L2:${delex[m.index - 2] ?? '^'}`, `R1:${delex[m.index + 1] ?? '$'}`];
  const o = Math.min(m.ordinal, 1);
  for (const w of new Set(delex)) out.push(`w:${w}`, `ow:${o}:${w}`);
  return out;
}

/** The values of an api_call by type, read with the lexicon (`api_call thai paris` → cuisine thai, location paris). */
export function callValues(call: string, lex: HcnLexicon): Map<string, string> {
  const words = call.split(' ');
  const tpl = delexicaliseBot(call, lex).split(' ');
  const out = new Map<string, string>();
  tpl.forEach((t, i) => {
    if (t.startsWith('<') && t.endsWith('>') && t !== `<${NAME_TYPE}>`) out.set(t.slice(1, -1), words[i] as string);
  });
  return out;
}

/** Labelled mentions: every user mention before an api_call whose type the call has. */
export function commitExamples(dialogs: readonly Dialog[], lex: HcnLexicon): CommitExample[] {
  const out: CommitExample[] = [];
  for (const d of dialogs) {
    const st = emptyTracker();
    let pending: { delex: string[]; mention: Mention }[] = [];
    for (const t of d.turns) {
      if (t.speaker === 'user') {
        const toks = userTokens(t.text);
        const delex = delexicaliseTokens(toks, lex, st);
        for (const m of mentionsOf(toks, delex)) if (m.type !== NAME_TYPE) pending.push({ delex, mention: m });
      } else if (t.speaker === 'bot' && t.text.startsWith('api_call ')) {
        const values = callValues(t.text, lex);
        for (const p of pending) {
          const v = values.get(p.mention.type);
          if (v !== undefined) out.push({ ...p, label: v === lex.canonical(p.mention.token) });
        }
        pending = [];
      }
      trackTurn(st, lex, t);
    }
  }
  return out;
}

export class CommitModel {
  private readonly index = new Map<string, number>();

  constructor(
    readonly features: readonly string[],
    readonly weights: Float32Array = new Float32Array(features.length),
  ) {
    if (weights.length !== features.length) throw new ModelFileError(`commit model: ${weights.length} weights for ${features.length} features`);
    features.forEach((f, i) => this.index.set(f, i));
  }

  private ids(delex: readonly string[], m: Mention): number[] {
    const out: number[] = [];
    for (const f of featureNames(delex, m)) {
      const i = this.index.get(f);
      if (i !== undefined) out.push(i);
    }
    return out;
  }

  /** P(the mention sets its slot). */
  prob(delex: readonly string[], m: Mention): number {
    let s = 0;
    for (const i of this.ids(delex, m)) s += this.weights[i] as number;
    return 1 / (1 + Math.exp(-s));
  }

  /**
   * Whether the mention sets its slot. Mentions of a type the training examples never had (a slot
   * first seen in the KB given at run time, e.g. DSTC6's restrictions) are kept: the filter has no
   * evidence about them, and its word weights were learned on other types' phrasing.
   */
  keep = (delex: readonly string[], m: Mention): boolean => !this.index.has(`type:${m.type}`) || this.prob(delex, m) >= 0.5;

  /** Logistic regression by SGD (L2-regularised), examples in a seeded order. */
  static train(examples: readonly CommitExample[], rng: Rng, epochs = 15, lr = 0.2, l2 = 1e-5): CommitModel {
    const names = new Map<string, number>();
    const rows = examples.map((e) =>
      featureNames(e.delex, e.mention).map((f) => {
        let i = names.get(f);
        if (i === undefined) names.set(f, (i = names.size));
        return i;
      }),
    );
    const model = new CommitModel([...names.keys()]);
    const w = model.weights;
    const order = examples.map((_, i) => i);
    for (let ep = 0; ep < epochs; ep++) {
      for (const k of rng.fork(`commit${ep}`).shuffle(order)) {
        const ids = rows[k] as number[];
        let s = 0;
        for (const i of ids) s += w[i] as number;
        const p = 1 / (1 + Math.exp(-s));
        const g = p - ((examples[k] as CommitExample).label ? 1 : 0);
        for (const i of ids) w[i] = (w[i] as number) - lr * (g + l2 * (w[i] as number));
      }
    }
    return model;
  }

  /** Share of examples classified correctly. */
  accuracy(examples: readonly CommitExample[]): number {
    if (examples.length === 0) return 1;
    let ok = 0;
    for (const e of examples) if (this.keep(e.delex, e.mention) === e.label) ok++;
    return ok / examples.length;
  }
}
