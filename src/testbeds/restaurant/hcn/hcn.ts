/**
 * Hybrid Code Network (Williams, Asadi & Zweig 2017) for the restaurant tasks: an entity tracker
 * reading KB entities in the dialog (`hcn-entities`), turn features (`hcn-features`), action
 * templates with masks (`hcn-templates`), a GRU dialog state with a softmax over the templates
 * (`hcn-net`). The next action is learned; filling its placeholders is domain code.
 *
 * As a Ranker it scores each candidate by the probability of the template whose filled text the
 * candidate equals (bAbI: 4,212 / 2,407 candidates; DSTC6: an entry's 7–10); a candidate that only
 * delexicalises to a template gets half its probability; others score −1.
 */
import type { Turn } from '../../../core/dialog.js';
import { ModelFileError } from '../../../core/errors.js';
import type { Ranker } from '../../../rankers/ranker.js';
import type { KbTypes } from '../../../rankers/match-type.js';
import { checkModelMeta } from '../../../rankers/model-meta.js';
import { tensorOf, type ModelFileContent } from '../../../formats/model-file.js';
import { HcnLexicon, nextProposal, type TrackerState } from './entities.js';
import { CONTEXT_FLAGS, Featurizer, type FeatureSpec } from './features.js';
import { TemplateSet, baseTemplate, delexicaliseBot } from './templates.js';
import { HcnNet } from './net.js';
import { CommitModel } from './commit.js';
import { StepEncoder, type HcnEncoder, type HcnStep } from './encode.js';
import { explainStep, type HcnExplanation } from './explain.js';
import { extendScores, unseenSlots } from './unseen-slots.js';
import { RulesAdvisor, type HcnAdvisor } from './advice.js';

/**
 * Architecture of a {@link Hcn}: the GRU state size (defaults in `HCN_DEFAULTS`).
 *
 * @example
 * ```ts
 * import { HCN_DEFAULTS, type HcnConfig } from 'dialogym/restaurant';
 * const config: HcnConfig = { ...HCN_DEFAULTS, hidden: 128 };
 * ```
 */
export interface HcnConfig {
  /** GRU state size. */
  readonly hidden: number;
}

/**
 * Default {@link HcnConfig}: `{ hidden: 64 }`.
 *
 * @example
 * ```ts
 * import { HCN_DEFAULTS } from 'dialogym/restaurant';
 * HCN_DEFAULTS.hidden; // 64
 * ```
 */
export const HCN_DEFAULTS: HcnConfig = { hidden: 64 };

export interface HcnPrediction {
  /** The response: the chosen template filled from the tracker ('' when every template is masked). */
  readonly text: string;
  readonly template: number;
  readonly probs: Float32Array;
  readonly step: HcnStep;
  /** The restaurant the tracker would propose next. */
  readonly proposal: string | undefined;
  /** True when the text is the advisor's response, said because the policy's own choice was under the gate. */
  readonly advised?: boolean;
}

interface StateCache {
  history: readonly Turn[];
  enc: StepEncoder;
  /** GRU state after each step of `enc`. */
  hs: Float32Array[];
}

/**
 * A Hybrid Code Network (module description above): `predict(history)` gives the next response
 * (a template filled from the entity tracker), `rank(history, candidates)` scores candidates.
 * Train one with `trainHcn` or `trainModel('hcn', …)`; save with `saveModel`, read back with
 * `loadModel` or `Hcn.fromModelFile` (a ModelFileError for a bad file).
 *
 * @example
 * ```ts
 * import { readBabiDialogs, readBabiKb } from 'dialogym';
 * import { trainHcn } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const train = readBabiDialogs(dir + 'dialog-babi-task1-API-calls-trn.txt').dialogs.slice(0, 50);
 * const { model } = trainHcn({ train, dev: train.slice(0, 10), facts: readBabiKb(dir + 'dialog-babi-kb-all.txt').facts }, { epochs: 2 });
 * model.predict([{ speaker: 'user', text: 'hello' }]).text; // 'hello what can i help you with today'
 * ```
 */
export class Hcn implements Ranker, HcnEncoder {
  readonly name = 'hcn';
  readonly featurizer: Featurizer;
  readonly net: HcnNet;
  private cache: StateCache | undefined;
  private candCache = new WeakMap<readonly string[], (readonly number[])[]>();
  private readonly posCache = new WeakMap<readonly string[], Map<string, number[]>>();
  /** Template ids by base template (name sources dropped). */
  private readonly byBase = new Map<string, number[]>();
  private readonly complete: ReadonlySet<number>;
  /** Request slots of the current KB never tracked in training (computed per lexicon). */
  private unseen: { lexicon: HcnLexicon; slots: string[] } | undefined;

  constructor(
    readonly config: HcnConfig,
    public lexicon: HcnLexicon,
    readonly templates: TemplateSet,
    readonly spec: FeatureSpec,
    readonly commit?: CommitModel,
    /** Tokens never taken for entities, even when a KB lists them (see `buildHcn`). */
    readonly notEntities: readonly string[] = [],
    /** Templates the training dialogs took only with a complete request (see `unseen-slots`). */
    readonly completeOnly: readonly number[] = [],
    /** Domain rules whose response is an input of every step (`--rules-advice`, advice.ts; needs `spec.advice`). */
    readonly advisor?: HcnAdvisor,
    /** With an advisor: the policy's own choice is said only when its probability reaches this, else the advice (0: always its own). */
    readonly adviceGate = 0,
  ) {
    this.complete = new Set(completeOnly);
    this.featurizer = new Featurizer(spec);
    this.net = new HcnNet(this.featurizer.size, config.hidden, templates.size);
    templates.templates.forEach((t, i) => {
      const b = baseTemplate(t);
      const l = this.byBase.get(b);
      if (l) l.push(i);
      else this.byBase.set(b, [i]);
    });
  }

  get params(): HcnNet['params'] {
    return this.net.params;
  }

  /** Call after changing parameters in place (drops cached states). */
  touch(): void {
    this.cache = undefined;
  }

  /** Uses another KB for entity recognition (e.g. the test set's); the stored lexicon fills gaps. */
  useKb(lex: HcnLexicon): void {
    this.lexicon = lex.merged(this.lexicon).without(this.notEntities);
    this.cache = undefined;
    this.candCache = new WeakMap();
  }

  /**
   * The pending step of a history and the GRU state before it. A history that extends the previous
   * call's (same turn objects, same candidate context) continues its encoder and states.
   */
  private run(history: readonly Turn[], candidates?: readonly string[]): { step: HcnStep; h: Float32Array; state: TrackerState } {
    let c = this.cache;
    if (c && (c.history.length > history.length || c.history.some((t, i) => t !== history[i]))) c = undefined;
    if (!c) c = { history, enc: new StepEncoder(this), hs: [] };
    for (let i = c.enc.length; i < history.length; i++) c.enc.push(history[i] as Turn);
    let h: Float32Array = c.hs[c.hs.length - 1] ?? new Float32Array(this.config.hidden);
    for (let k = c.hs.length; k < c.enc.steps.length; k++) {
      const s = c.enc.steps[k] as HcnStep;
      h = this.net.step(s.x, h, s.mask).h;
      c.hs.push(h);
    }
    c.history = history;
    this.cache = c;
    return { step: c.enc.pending(this.candidateFlags(candidates)), h, state: c.enc.state };
  }

  /** The predicted next bot turn. */
  predict(history: readonly Turn[], candidates?: readonly string[]): HcnPrediction {
    const { step, h, state } = this.run(history, candidates);
    const { probs } = this.net.step(step.x, h, step.mask);
    let best = -1;
    for (let t = 0; t < probs.length; t++) if (step.mask[t] && (best < 0 || (probs[t] as number) > (probs[best] as number))) best = t;
    const advice = this.gatedAdvice(step, best >= 0 ? (probs[best] as number) : 0);
    if (advice !== undefined) return { text: advice, template: step.fills.indexOf(advice), probs, step, proposal: nextProposal(state), advised: true };
    return { text: best >= 0 ? step.fills[best] ?? '' : '', template: best, probs, step, proposal: nextProposal(state) };
  }

  /** The advisor's response when the policy's own choice (probability `p`) is under the gate. */
  private gatedAdvice(step: HcnStep, p: number): string | undefined {
    if (!this.advisor || this.adviceGate <= 0 || p >= this.adviceGate || step.advice === undefined || step.advice === '') return undefined;
    return step.advice;
  }

  /**
   * DSTC6 mode (at most `maxCandidates` candidates): which templates the candidates delexicalise
   * to, an input of the decision. Undefined for a task-wide candidate list (bAbI) or none.
   */
  candidateFlags(candidates: readonly string[] | undefined, maxCandidates = 50): Uint8Array | undefined {
    if (!candidates || candidates.length > maxCandidates) return undefined;
    const flags = new Uint8Array(this.templates.size);
    for (const ts of this.candidateTemplates(candidates)) for (const t of ts) flags[t] = 1;
    return flags;
  }

  /** Candidate text → its positions (cached per candidate list). */
  private candidatePositions(candidates: readonly string[]): Map<string, number[]> {
    let m = this.posCache.get(candidates);
    if (!m) {
      m = new Map();
      candidates.forEach((c, i) => {
        const l = (m as Map<string, number[]>).get(c);
        if (l) l.push(i);
        else (m as Map<string, number[]>).set(c, [i]);
      });
      this.posCache.set(candidates, m);
    }
    return m;
  }

  /** Template ids each candidate delexicalises to with the KB lexicon alone (empty: not a template). */
  private candidateTemplates(candidates: readonly string[]): (readonly number[])[] {
    let ids = this.candCache.get(candidates);
    if (!ids) {
      ids = candidates.map((c) => this.byBase.get(delexicaliseBot(c, this.lexicon)) ?? []);
      this.candCache.set(candidates, ids);
    }
    return ids;
  }

  rank(history: readonly Turn[], candidates: readonly string[]): Float32Array {
    const p = this.predict(history, candidates);
    const tpl = this.candidateTemplates(candidates);
    const scores = new Float32Array(candidates.length);
    for (let i = 0; i < candidates.length; i++) {
      let best = -1;
      for (const t of tpl[i] as readonly number[]) best = Math.max(best, 0.5 * (p.probs[t] as number));
      scores[i] = best;
    }
    // Candidates equal to a filled template (looked up by text: the fills are few, candidates many).
    const where = this.candidatePositions(candidates);
    p.step.fills.forEach((f, t) => {
      if (f === undefined || !p.step.mask[t]) return;
      for (const i of where.get(f) ?? []) scores[i] = Math.max(scores[i] as number, 1 + (p.probs[t] as number));
    });
    // Under the gate, the advice outranks every other candidate.
    if (p.advised) for (const i of where.get(p.text) ?? []) scores[i] = 3;
    const state = this.cache?.enc.state;
    if (state && this.candidateFlags(candidates)) {
      if (this.unseen?.lexicon !== this.lexicon) this.unseen = { lexicon: this.lexicon, slots: unseenSlots(this.lexicon, this.spec.slotTypes) };
      // The policy's own choice without the candidates as input (as in the steps of a context).
      const free = () => this.predict(history).template;
      extendScores(scores, candidates, { lexicon: this.lexicon, slots: this.unseen.slots, byBase: this.byBase, completeOnly: this.complete, history, state, probs: p.probs, mask: p.step.mask, fills: p.step.fills, candidateTemplates: tpl, policyChoice: free });
    }
    return scores;
  }

  /** Why the model answers what it answers to this history (template, entities, mask, alternatives). */
  explain(history: readonly Turn[]): HcnExplanation {
    const p = this.predict(history);
    return explainStep(this, p, p.proposal);
  }

  /** The chat UI's template explanation (`TemplateSource` in ../chat/explanation.ts). */
  explainTemplate(history: readonly Turn[]): { template: string; entities: Record<string, string>; mask: number[] } {
    const e = this.explain(history);
    return { template: e.template, entities: { ...e.entities }, mask: [...e.mask] };
  }

  toModelFile(): ModelFileContent {
    return {
      model: 'hcn',
      meta: { config: this.config, templates: this.templates.templates, spec: this.spec, lexicon: this.lexicon.toJSON(), commitFeatures: this.commit?.features ?? null, notEntities: this.notEntities, completeOnly: this.completeOnly, ...(this.advisor ? { advisor: this.advisor.toJSON(), adviceGate: this.adviceGate } : {}) },
      tensors: [
        ...this.net.params.map((p) => ({ name: p.name, shape: p.shape, data: p.data })),
        ...(this.commit ? [{ name: 'commit.w', shape: [this.commit.features.length], data: this.commit.weights }] : []),
      ],
    };
  }

  static fromModelFile(c: ModelFileContent, file: string, kb?: KbTypes): Hcn {
    checkModelMeta('hcn', c.meta, file);
    const meta = c.meta as { config?: HcnConfig; templates?: unknown; spec?: FeatureSpec; lexicon?: unknown; commitFeatures?: unknown; notEntities?: unknown; completeOnly?: unknown };
    if (!meta || !meta.config || !Array.isArray(meta.templates) || !meta.spec || !Array.isArray(meta.spec.words) || !Array.isArray(meta.spec.slotTypes)) {
      throw new ModelFileError(`${file}: corrupt model file (incomplete hcn metadata)`);
    }
    const hidden = meta.config.hidden;
    if (!Number.isInteger(hidden) || hidden < 1) throw new ModelFileError(`${file}: corrupt model file (hcn hidden size ${String(hidden)})`);
    const flags = meta.spec.flags;
    if (flags !== undefined && (!Number.isInteger(flags) || flags < 0 || flags > CONTEXT_FLAGS.length)) throw new ModelFileError(`${file}: corrupt model file (hcn context flags ${String(flags)})`);
    const templates = new TemplateSet(meta.templates.map(String));
    if (meta.spec.templates !== templates.size) throw new ModelFileError(`${file}: corrupt model file (${templates.size} templates, features expect ${meta.spec.templates})`);
    const cf = meta.commitFeatures;
    if (cf !== undefined && cf !== null && !Array.isArray(cf)) throw new ModelFileError(`${file}: corrupt model file (hcn commit features)`);
    const commit = Array.isArray(cf) ? new CommitModel(cf.map(String), tensorOf(c, 'commit.w', [cf.length], file)) : undefined;
    const notEntities = Array.isArray(meta.notEntities) ? meta.notEntities.map(String) : [];
    const completeOnly = Array.isArray(meta.completeOnly) ? meta.completeOnly.map(Number) : [];
    if (completeOnly.some((t) => !Number.isInteger(t) || t < 0 || t >= templates.size)) throw new ModelFileError(`${file}: corrupt model file (hcn complete-request templates)`);
    const advice = (meta.spec as FeatureSpec).advice === true;
    const stored = (c.meta as { advisor?: unknown }).advisor;
    if (advice !== (stored !== undefined)) throw new ModelFileError(`${file}: corrupt model file (hcn ${advice ? 'advice features without an advisor' : 'advisor without advice features'})`);
    const advisor = stored !== undefined ? RulesAdvisor.fromJSON(stored, file) : undefined;
    const gate = (c.meta as { adviceGate?: unknown }).adviceGate ?? 0;
    if (typeof gate !== 'number' || !(gate >= 0 && gate <= 1)) throw new ModelFileError(`${file}: corrupt model file (hcn advice gate ${String(gate)})`);
    const m = new Hcn({ hidden }, HcnLexicon.fromJSON(meta.lexicon), templates, meta.spec, commit, notEntities, completeOnly, advisor, gate);
    for (const p of m.net.params) p.data.set(tensorOf(c, p.name, p.shape, file));
    if (kb?.facts) m.useKb(HcnLexicon.fromFacts(kb.facts));
    return m;
  }
}
