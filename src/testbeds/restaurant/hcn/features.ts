/**
 * HCN turn features (Williams et al. 2017, §2): the input of the recurrent state at each bot turn
 *
 *   [bias | bag of words of the delexicalised user turn | entity types in the turn |
 *    entity types known so far | previous action (one-hot, + "none") | action mask | context flags |
 *    templates among the candidates | every action taken so far]
 *
 * The last block is set only for the step being predicted in DSTC6 mode, where an entry's 7–10
 * candidates are part of the input (the test sets using the restrictions slot offer its question);
 * it is empty for a task-wide candidate list (bAbI). The actions taken so far let the policy stay
 * consistent with the wording the bot has used in this dialog (task 6 mixes several systems).
 *
 * Entities are replaced by their type before the bag of words, so unseen entities look like seen
 * ones. Context flags describe the KB side: results present, results left to propose, KB turns
 * just arrived, an empty result, a restaurant in focus, an api_call made, a value the user asks
 * for that no restaurant of the KB has (task 6: `I'm sorry but there is no restaurant serving
 * canapes food` instead of an api_call), …
 */
import { delexicaliseTokens, nextProposal, userTokens, type HcnLexicon, type TrackerState } from './entities.js';

export const CONTEXT_FLAGS = [
  'has-results',
  'results-left',
  'kb-this-turn',
  'empty-result',
  'focus-known',
  'api-call-made',
  'user-named-restaurant',
  'first-turn',
  'any-proposed',
  'user-silent',
  'value-not-in-kb',
  'said-value-not-in-kb',
] as const;

/** The context flags of model files written before the KB-coverage flags (their spec lists none). */
const LEGACY_FLAGS = 10;

/** The user turn's tokens with entities replaced by their type placeholder. */
export function delexicaliseUser(text: string, lex: HcnLexicon, st: TrackerState): string[] {
  return delexicaliseTokens(userTokens(text), lex, st);
}

export interface FeatureSpec {
  /** Bag-of-words vocabulary (delexicalised user tokens seen in training). */
  readonly words: readonly string[];
  /** Entity types tracked as slots. */
  readonly slotTypes: readonly string[];
  /** Number of action templates. */
  readonly templates: number;
  /** Context flags in use (absent in older model files: the first ten of `CONTEXT_FLAGS`). */
  readonly flags?: number;
  /** Whether the input holds every action taken so far in the dialog (absent in older model files). */
  readonly actionsSoFar?: boolean;
  /** Whether the input flags the templates the model's advisor says (`hcn+rules`, advice.ts; absent: no advisor). */
  readonly advice?: boolean;
}

export class Featurizer {
  readonly size: number;
  private readonly wordIndex = new Map<string, number>();
  private readonly oWords = 1;
  private readonly oTurn: number;
  private readonly oKnown: number;
  private readonly oPrev: number;
  private readonly oMask: number;
  private readonly oFlags: number;
  private readonly oCand: number;
  private readonly flagCount: number;
  private readonly oDone: number;
  /** Offset of the advice block (the templates the advisor says), when `spec.advice`. */
  readonly oAdvice: number;

  constructor(readonly spec: FeatureSpec) {
    this.flagCount = Math.min(spec.flags ?? LEGACY_FLAGS, CONTEXT_FLAGS.length);
    spec.words.forEach((w, i) => this.wordIndex.set(w, i));
    const S = spec.slotTypes.length;
    const T = spec.templates;
    this.oTurn = this.oWords + spec.words.length;
    this.oKnown = this.oTurn + S;
    this.oPrev = this.oKnown + S;
    this.oMask = this.oPrev + T + 1;
    this.oFlags = this.oMask + T;
    this.oCand = this.oFlags + this.flagCount;
    this.oDone = this.oCand + T;
    this.oAdvice = this.oDone + (spec.actionsSoFar ? T : 0);
    this.size = this.oAdvice + (spec.advice ? T : 0);
  }

  /**
   * Features of the step before a bot turn. `prevAction` is the template id of the previous bot
   * turn (−1 for none or unknown), `mask` the action mask of this step, `advised` the templates
   * whose fill is the advisor's response.
   */
  featurize(st: TrackerState, lex: HcnLexicon, prevAction: number, mask: Uint8Array, candidates?: Uint8Array, done?: ReadonlySet<number>, advised?: readonly number[]): Float32Array {
    const x = new Float32Array(this.size);
    x[0] = 1;
    const toks = delexicaliseUser(st.userText, lex, st);
    for (const w of toks) {
      const i = this.wordIndex.get(w);
      if (i !== undefined) x[this.oWords + i] = 1;
    }
    this.spec.slotTypes.forEach((t, i) => {
      if (st.turnTypes.has(t)) x[this.oTurn + i] = 1;
      if (st.slots.has(t)) x[this.oKnown + i] = 1;
    });
    x[this.oPrev + (prevAction >= 0 && prevAction < this.spec.templates ? prevAction + 1 : 0)] = 1;
    for (let i = 0; i < mask.length; i++) if (mask[i]) x[this.oMask + i] = 1;
    if (candidates) for (let i = 0; i < candidates.length; i++) if (candidates[i]) x[this.oCand + i] = 1;
    if (this.spec.actionsSoFar && done) for (const t of done) if (t >= 0 && t < this.spec.templates) x[this.oDone + t] = 1;
    if (this.spec.advice && advised) for (const t of advised) if (t >= 0 && t < this.spec.templates) x[this.oAdvice + t] = 1;
    const flags: boolean[] = [
      st.results.length > 0,
      nextProposal(st) !== undefined,
      st.kbThisTurn > 0,
      st.emptyResult,
      st.current !== undefined,
      st.apiCalls > 0,
      st.userNamed,
      st.botTurns === 0,
      st.proposed.length > 0,
      toks.length === 0 || (toks.length === 1 && toks[0] === '<silence>'),
      [...st.slots.values()].some((v) => lex.unserved(v)),
      [...st.turnTypes].some((t) => { const v = st.slots.get(t); return v !== undefined && lex.unserved(v); }),
    ];
    for (let i = 0; i < this.flagCount; i++) if (flags[i]) x[this.oFlags + i] = 1;
    return x;
  }

  /** Names of the non-zero features of x (for explanations and debugging). */
  describe(x: Float32Array): string[] {
    const out: string[] = [];
    this.spec.words.forEach((w, i) => {
      if (x[this.oWords + i]) out.push(`word:${w}`);
    });
    this.spec.slotTypes.forEach((t, i) => {
      if (x[this.oTurn + i]) out.push(`said:${t}`);
      if (x[this.oKnown + i]) out.push(`known:${t}`);
    });
    CONTEXT_FLAGS.slice(0, this.flagCount).forEach((f, i) => {
      if (x[this.oFlags + i]) out.push(f);
    });
    for (let i = 0; i < this.spec.templates; i++) if (x[this.oCand + i]) out.push(`candidate-template:${i}`);
    if (this.spec.actionsSoFar) for (let i = 0; i < this.spec.templates; i++) if (x[this.oDone + i]) out.push(`done:${i}`);
    if (this.spec.advice) for (let i = 0; i < this.spec.templates; i++) if (x[this.oAdvice + i]) out.push(`advised:${i}`);
    return out;
  }
}
