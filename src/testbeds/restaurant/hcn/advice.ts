/**
 * `hcn+rules` (issue 18, fifth session): the task-6 rule bot's decision as an *input* of the HCN,
 * not a competitor. HCN's own recipe is domain code plus a learned policy (Williams, Asadi & Zweig
 * 2017, §2: "the developer can provide software for […] action masks"; the features of a turn are
 * whatever the domain code knows); here the domain code is `dstc2-heard`, the rules that transfer
 * best across DSTC2 system versions (docs/notes/hcn-dstc6-task6.md). At every bot turn the rules'
 * response is computed from the history, and the templates whose filled text equals it are flagged
 * in the turn's features (`FeatureSpec.advice`): the network learns per template when to follow the
 * rules and when its own choice is better. The output weights from a template's own flag start at
 * `ADVICE_PRIOR` (see `trainHcn`), so a template the training data rarely shows follows the rules.
 *
 * The advisor is rebuilt from what it learned from: the training dialogs and the KB facts, stored
 * in the model file (`toJSON` / `fromJSON`).
 */
import type { Dialog, Turn } from '../../../core/dialog.js';
import { ModelFileError } from '../../../core/errors.js';
import type { KbFact } from '../../../formats/babi.js';
import { Dstc2HeardBot } from '../rules/dstc2-heard.js';

/** Initial output weight of a template from its own "the rules say this" input (logit units). */
export const ADVICE_PRIOR = 2;

/** What an advised HCN asks at each bot turn: the response its domain rules would give. */
export interface HcnAdvisor {
  readonly name: string;
  advise(history: readonly Turn[]): string;
  toJSON(): unknown;
}

interface StoredAdvisor {
  readonly kind: 'dstc2-heard';
  /** Training dialogs as [id, [speaker initial, text]…]. */
  readonly train: readonly (readonly [string, readonly (readonly [string, string])[]])[];
  readonly kb: readonly (readonly [string, string, string])[];
}

const SPEAKERS: Record<string, Turn['speaker']> = { u: 'user', b: 'bot', k: 'kb' };

/** The `dstc2-heard` rules as an HCN advisor, learned from the training dialogs and the KB. */
export class RulesAdvisor implements HcnAdvisor {
  readonly name = 'dstc2-heard';
  private readonly bot: Dstc2HeardBot;

  constructor(
    private readonly train: readonly Dialog[],
    private readonly kb: readonly KbFact[],
  ) {
    this.bot = new Dstc2HeardBot(train, { kb });
  }

  advise(history: readonly Turn[]): string {
    return this.bot.respond(history);
  }

  toJSON(): StoredAdvisor {
    return {
      kind: 'dstc2-heard',
      train: this.train.map((d) => [d.id, d.turns.map((t) => [t.speaker[0] as string, t.text] as const)] as const),
      kb: this.kb.map((f) => [f.entity, f.attr, f.value] as const),
    };
  }

  /** The advisor of a model file's metadata (ModelFileError naming `file` when it is malformed). */
  static fromJSON(json: unknown, file: string): RulesAdvisor {
    const bad = (why: string): ModelFileError => new ModelFileError(`${file}: corrupt model file (hcn advisor: ${why})`);
    const j = json as Partial<StoredAdvisor> | null;
    if (!j || typeof j !== 'object' || j.kind !== 'dstc2-heard') throw bad(`unknown kind ${JSON.stringify(j && typeof j === 'object' ? j.kind : j)}`);
    if (!Array.isArray(j.train) || !Array.isArray(j.kb)) throw bad('no training dialogs or KB');
    const train: Dialog[] = j.train.map((d, i) => {
      if (!Array.isArray(d) || typeof d[0] !== 'string' || !Array.isArray(d[1])) throw bad(`dialog ${i}`);
      return {
        id: d[0],
        turns: d[1].map((t) => {
          const speaker = Array.isArray(t) ? SPEAKERS[String(t[0])] : undefined;
          if (!speaker || typeof t[1] !== 'string') throw bad(`a turn of dialog ${i}`);
          return { speaker, text: t[1] };
        }),
      };
    });
    const kb: KbFact[] = j.kb.map((f, i) => {
      if (!Array.isArray(f) || f.length !== 3 || !f.every((x) => typeof x === 'string')) throw bad(`KB fact ${i}`);
      return { entity: String(f[0]), attr: String(f[1]), value: String(f[2]) };
    });
    if (train.length === 0) throw bad('no training dialogs');
    return new RulesAdvisor(train, kb);
  }
}

/** The templates whose filled text is the advice (their "the rules say this" flags). */
export function advisedTemplates(advice: string, fills: readonly (string | undefined)[]): number[] {
  const out: number[] = [];
  fills.forEach((f, t) => {
    if (f === advice) out.push(t);
  });
  return out;
}
